/**
 * The HTML of a payment link's hosted checkout page: the form, the page of a link that takes no payment (410) and the
 * status view. Server-rendered, whole without JavaScript (a plain `<form method="post">`); the one script, allowed by
 * the answer's CSP nonce, only stops a second click on Pay. Every value the merchant or the payer typed is escaped;
 * the card number and CVC are never written back. Inputs carry the HTML autofill tokens (`cc-name`, `cc-number`,
 * `cc-exp-month`, `cc-exp-year`, `cc-csc`: WHATWG HTML "Autofill") and `inputmode="numeric"`, so browsers and password
 * managers fill them; every input has a label, and an error is written next to its field and tied to it with
 * `aria-describedby` (WCAG 2.2 SC 3.3.1), with a summary announced first (`role="alert"`).
 */
import { type CheckoutDisplay, DEFAULT_CHECKOUT_DISPLAY, textColorOn } from '../domain/merchant-profile';
import type { Payment } from '../domain/payment';
import type { PaymentLink } from '../domain/payment-link';
import { type CheckoutField, type CheckoutForm, type FieldErrors, formatAmount } from '../operations/payment-links/checkout';
import type { MethodChoice } from '../operations/payment-links/checkout-methods';
import { type InputSpec, input } from './checkout-inputs';
import { METHOD_STYLE, methodChooser, methodFields } from './checkout-method-fields';
import { escapeHtml } from './html-handler';

/** The page's styles: system fonts, one column that fits a 360 px screen, contrast of at least 4.5:1. */
const STYLE =
  'body{font-family:system-ui,sans-serif;margin:0;color:#1b1f24;background:#f6f8fa}main{max-width:28rem;margin:0 auto;padding:1rem}' +
  'h1{font-size:1.25rem;margin:.5rem 0}.box{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:1rem}' +
  '.amount{font-size:1.6rem;font-weight:700;margin:.25rem 0}label{display:block;font-weight:600;margin:.8rem 0 .25rem}' +
  'input{box-sizing:border-box;width:100%;font-size:1rem;padding:.55rem;border:1px solid #6e7781;border-radius:6px}' +
  '.row{display:flex;gap:.6rem}.row>div{flex:1}.err{color:#a40e26;margin:.25rem 0 0}input[aria-invalid=true]{border-color:#a40e26}' +
  'button{width:100%;margin-top:1.2rem;font-size:1.05rem;padding:.75rem;border:0;border-radius:6px;background:#0a3069;color:#fff;cursor:pointer}' +
  '.alert{border:1px solid #a40e26;background:#ffebe9;border-radius:6px;padding:.6rem .8rem}small{color:#57606a}';

/** The merchant as the page shows it: its profile's display (shared/domain/merchant-profile.ts), or the default. */
export interface CheckoutBrand {
  name: string;
  /** An https URL (checked when set), or null. */
  logoUrl: string | null;
  /** `#rrggbb` (checked when set), or null: the default colours. */
  color: string | null;
}

/** The default display: no merchant name is known to the page. */
export const DEFAULT_BRAND: CheckoutBrand = { name: 'Secure checkout', logoUrl: null, color: null };

/** The brand of a merchant's checkout display. */
export function brandOf(display: CheckoutDisplay): CheckoutBrand {
  return { name: display.display_name ?? DEFAULT_BRAND.name, logoUrl: display.logo_url, color: display.brand_color };
}

/**
 * The styles a brand colour adds: the header and the Pay button in that colour, their text white or black, whichever
 * contrasts more (at least 4.58:1: shared/domain/merchant-profile.ts `textColorOn`). The colour is a checked `#rrggbb`.
 */
function brandStyle(brand: CheckoutBrand): string {
  if (!brand.color || !/^#[0-9a-f]{6}$/.test(brand.color)) return '';
  const ink = textColorOn(brand.color);
  return `.brand{background:${brand.color};color:${ink};padding:.6rem .8rem;border-radius:8px}button{background:${brand.color};color:${ink};border:1px solid ${ink}}`;
}

/** The page's header: the logo (decorative: the name beside it says who) and the merchant's name, escaped. */
function header(brand: CheckoutBrand): string {
  const logo = brand.logoUrl
    ? `<img src="${escapeHtml(brand.logoUrl)}" alt="" height="32" style="vertical-align:middle;margin-right:.5rem;max-width:8rem">`
    : '';
  return `<header class="brand">${logo}<strong>${escapeHtml(brand.name)}</strong></header>`;
}

/** A checkout page around its body: the styles, the brand's header, the one nonced script when given. */
export function checkoutFrame(title: string, nonce: string, body: string, brand: CheckoutBrand, options: { script?: string } = {}): string {
  const script = options.script ? `<script nonce="${escapeHtml(nonce)}">${options.script}</script>` : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>${STYLE}${METHOD_STYLE}${brandStyle(brand)}</style></head><body><main>${header(brand)}${body}</main>${script}</body></html>`;
}

const page = (title: string, nonce: string, body: string, brand: CheckoutBrand, script = '') =>
  checkoutFrame(title, nonce, body, brand, { script });

/** The amount line: the fixed amount, or the range the payer chooses in. */
function amountLine(link: PaymentLink): string {
  if (link.amount !== null) return `<p class="amount">${escapeHtml(formatAmount(link.amount, link.currency))}</p>`;
  const min = formatAmount(link.amount_min ?? 1, link.currency);
  const max = formatAmount(link.amount_max ?? 1, link.currency);
  return `<p>Choose an amount from ${escapeHtml(min)} to ${escapeHtml(max)}.</p>`;
}

/** The script the nonce allows: one submission per drawing of the form (a second click would be refused anyway). */
const ONE_SUBMIT_SCRIPT =
  'document.querySelector("form").addEventListener("submit",function(e){var b=e.target.querySelector("button");if(b.disabled){e.preventDefault();return}b.disabled=true;b.textContent="Paying…"});';

/** Everything the form page needs besides the link. */
export interface CheckoutFormView {
  nonce: string;
  csrfToken: string;
  /** The attempt id of this drawing (32 hex). */
  attempt: string;
  brand?: CheckoutBrand;
  /** The payer's earlier answers (re-drawn after a mistake; the card number and CVC are never written back). */
  form?: CheckoutForm;
  errors?: FieldErrors;
  /** A sentence above the form (a decline, an expired form, a method not taken). */
  message?: string;
  /** The methods offered, the one shown and whether the e-mail is asked (default: the card alone, no e-mail). */
  choice?: MethodChoice;
}

/** The checkout form of an active link. */
export function checkoutFormPage(link: PaymentLink, view: CheckoutFormView): string {
  const brand = view.brand ?? DEFAULT_BRAND;
  const form = view.form ?? {};
  const errors = view.errors ?? {};
  const wrong = Object.keys(errors) as CheckoutField[];
  const summary =
    view.message || wrong.length > 0
      ? `<div class="alert" role="alert">${view.message ? `<p>${escapeHtml(view.message)}</p>` : ''}${
          wrong.length > 0
            ? `<p>Check ${wrong.length === 1 ? 'this field' : `these ${wrong.length} fields`}:</p><ul>${wrong.map((f) => `<li><a href="#${f}">${escapeHtml(errors[f] as string)}</a></li>`).join('')}</ul>`
            : ''
        }</div>`
      : '';
  const fields: InputSpec[] = [];
  if (link.amount === null) {
    fields.push({
      field: 'amount',
      label: `Amount (${link.currency})`,
      attrs: 'inputmode="decimal" autocomplete="transaction-amount" required',
    });
  }
  const choice = view.choice ?? { methods: ['card'], method: 'card', askEmail: false };
  // The e-mail: a field the link asks for, one the processor routing may pick needs, or one a post found missing.
  if (link.customer_fields.includes('email') || choice.askEmail || errors.email)
    fields.push({ field: 'email', label: 'E-mail', attrs: 'type="email" autocomplete="email" required' });
  if (link.customer_fields.includes('name')) fields.push({ field: 'name', label: 'Your name', attrs: 'autocomplete="name" required' });
  if (link.customer_fields.includes('phone')) {
    fields.push({ field: 'phone', label: 'Phone (international, e.g. +2348012345678)', attrs: 'type="tel" autocomplete="tel" required' });
  }
  const method = methodFields(choice, link.currency, form, errors);
  const body = `<h1>${escapeHtml(link.description ?? 'Payment')}</h1>${amountLine(link)}${summary}${methodChooser(choice)}
<form method="post" class="box" novalidate><input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}"><input type="hidden" name="attempt" value="${escapeHtml(view.attempt)}">
${fields.map((f) => input(f, form, errors)).join('')}${method.fields}
<button type="submit">Pay${link.amount !== null ? ` ${escapeHtml(formatAmount(link.amount, link.currency))}` : ''}</button></form>
<p><small>${escapeHtml(method.note)}</small></p>`;
  return page(`Pay ${brand.name}`, view.nonce, body, brand, ONE_SUBMIT_SCRIPT);
}

/** The page of a link that takes no payment (answered with 410): why, in one sentence. */
export function closedLinkPage(sentence: string, nonce: string, brand: CheckoutBrand = DEFAULT_BRAND): string {
  return page(
    'Payment link unavailable',
    nonce,
    `<h1>This link cannot take payments</h1><div class="box"><p>${escapeHtml(sentence)}</p></div>`,
    brand,
  );
}

/** The status view after paying, for a link without a `return_url`. */
export function checkoutStatusPage(link: PaymentLink, payment: Payment, nonce: string, brand: CheckoutBrand = DEFAULT_BRAND): string {
  const done = payment.status === 'Succeeded' || payment.status === 'RequiresCapture';
  const failed = payment.status === 'Failed' || payment.status === 'Cancelled';
  const title = done ? 'Payment complete' : failed ? 'Payment not completed' : 'Payment pending';
  const detail = done
    ? 'Thank you: the merchant has your payment.'
    : failed
      ? `${payment.error_message ?? 'The payment did not go through.'} No money was taken. You can go back to the link and try again.`
      : 'Your bank has not answered yet. Do not pay again; the merchant will see the payment once it completes.';
  return page(
    title,
    nonce,
    `<h1>${escapeHtml(title)}</h1><div class="box" role="status"><p class="amount">${escapeHtml(formatAmount(payment.amount, payment.currency))}</p><p>${escapeHtml(detail)}</p><p><small>${escapeHtml(link.description ?? '')} · Reference ${escapeHtml(payment.payment_id)}</small></p></div>`,
    brand,
  );
}

/**
 * The checkout page's Content-Security-Policy around a nonce: nothing loads but the page's own inline styles, its one
 * nonced script and images from the merchant's logo origin (none without a logo); no `<base>`; framed only by the
 * merchant's `allowed_domains` (`frame-ancestors 'none'` without: CSP Level 3 "frame-ancestors", which browsers
 * obey over the `X-Frame-Options: DENY` kept for older ones). `form-action` is left open for the reason the payer
 * pages give (shared/http/html-handler.ts `pageSecurityHeaders`): the form's answer redirects to a processor's
 * 3-D Secure page on an origin known only once the processor answers, and Chrome checks redirects of a form
 * submission against `form-action`.
 * @param display the merchant's checkout display (its logo URL and origins were checked when set); default: none
 */
export function checkoutContentSecurityPolicy(nonce: string, display: CheckoutDisplay = DEFAULT_CHECKOUT_DISPLAY): string {
  let images = "'none'";
  if (display.logo_url) {
    try {
      images = new URL(display.logo_url).origin;
    } catch {
      images = "'none'";
    }
  }
  const framers = display.allowed_domains.length > 0 ? display.allowed_domains.join(' ') : "'none'";
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src ${images}; base-uri 'none'; frame-ancestors ${framers}`;
}
