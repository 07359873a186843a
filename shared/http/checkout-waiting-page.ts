/**
 * The checkout page while the payer pays away from it: the bank transfer's account to pay into (bank, account number
 * and name, the exact amount, the reference, until when), the USSD code to dial, or the request to approve on the
 * phone. The page only reads the payment: an "I have paid — check status" link (no script, no form) reads it again at
 * the same address; once the payment is final, that address sends the payer on (the merchant's signed `return_url`,
 * or the status view). It does not refresh itself: a timed refresh the payer cannot turn off fails WCAG 2.2 SC 2.2.1
 * "Timing Adjustable" (axe-core rule `meta-refresh`, critical), and a payer still in their bank app would lose the page.
 */
import type { Currency } from '../domain/money';
import type { Payment } from '../domain/payment';
import type { PaymentLink } from '../domain/payment-link';
import { CURRENCY_LOCALES, formatAmount } from '../operations/payment-links/checkout';
import { type CheckoutBrand, checkoutFrame } from './checkout-page';
import { escapeHtml } from './html-handler';

/** The time zone a currency's payers read times in (its home country's; UTC for USD). */
const CURRENCY_TIME_ZONES: Readonly<Record<Currency, string>> = {
  NGN: 'Africa/Lagos',
  GHS: 'Africa/Accra',
  KES: 'Africa/Nairobi',
  ZAR: 'Africa/Johannesburg',
  USD: 'UTC',
};

/** An ISO 8601 instant for the payer to read: date and time in the currency's country, with its zone. */
function readableTime(iso: string, currency: Currency): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return new Intl.DateTimeFormat(CURRENCY_LOCALES[currency], {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: CURRENCY_TIME_ZONES[currency],
    timeZoneName: 'short',
  }).format(at);
}

/** A definition list of label → value, every value escaped. */
function details(rows: [string, string][]): string {
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd><strong>${escapeHtml(v)}</strong></dd>`).join('')}</dl>`;
}

/** The default view of a payment the processor has not confirmed yet: its amount, and not to pay again. */
function notConfirmedYet(amount: number, currency: Currency): { title: string; body: string } {
  return {
    title: 'Waiting for your payment',
    body: `<p>The payment processor has not confirmed ${escapeHtml(formatAmount(amount, currency))} yet. Do not pay again.</p>`,
  };
}

/** What the payer has to do now, by the payment's `next_action`. */
function instructions(payment: Payment): { title: string; body: string } {
  const action = payment.next_action;
  if (action?.type === 'bank_transfer_instructions') {
    const t = action.bank_transfer;
    return {
      title: 'Pay by bank transfer',
      body: `<p>Transfer exactly this amount to the account below from your bank app or at your bank. The account takes this payment only.</p>${details(
        [
          ['Bank', t.bank_name],
          ['Account number', t.account_number],
          ['Account name', t.account_name],
          ['Amount', formatAmount(t.amount, t.currency)],
          ['Reference', t.reference],
          ['Pay before', readableTime(t.expires_at, t.currency)],
        ],
      )}`,
    };
  }
  if (action?.type === 'display_ussd_code') {
    return {
      title: 'Dial to pay',
      body: `<p>On the phone registered with your bank, dial:</p><p class="amount">${escapeHtml(action.ussd.code)}</p><p>Follow your bank's prompts to approve ${escapeHtml(formatAmount(payment.amount, payment.currency))}.</p>${details(
        [
          ['Reference', action.ussd.reference],
          ['Dial before', readableTime(action.ussd.expires_at, payment.currency)],
        ],
      )}`,
    };
  }
  if (action?.type === 'await_mobile_money_approval') {
    return {
      title: 'Approve on your phone',
      body: `<p>Your phone will ask you to approve ${escapeHtml(formatAmount(payment.amount, payment.currency))}. Enter your mobile money PIN there.</p><p>${escapeHtml(action.mobile_money.message)}</p>`,
    };
  }
  return notConfirmedYet(payment.amount, payment.currency);
}

/**
 * The waiting page of a payment that waits for the payer (shared/operations/payment-links/checkout.ts `awaitsPayer`).
 * @param view.checkUrl the completion route of this payment (absolute): what the "check status" link re-reads
 */
export function checkoutWaitingPage(
  link: PaymentLink,
  payment: Payment,
  view: { nonce: string; brand: CheckoutBrand; checkUrl: string },
): string {
  const { title, body } = instructions(payment);
  const check = escapeHtml(view.checkUrl);
  return checkoutFrame(
    title,
    view.nonce,
    `<h1>${escapeHtml(title)}</h1><div class="box">${body}<p role="status">Once you have paid, check the status here: this page moves on when the payment is complete.</p><p><a class="button" href="${check}">I have paid — check status</a></p><p><small>${escapeHtml(link.description ?? '')} · Reference ${escapeHtml(payment.payment_id)}</small></p></div>`,
    view.brand,
  );
}

/**
 * The waiting page of a payment whose processor call has an unknown outcome that could not even be recorded (storage
 * failed after the call: the payment stays `Processing` with its `pending_operation` until it is reconciled). Drawn
 * from what the form post already knew, with no read: it never says whether anything was charged, asks the payer not
 * to pay again, and its "check status" link reads the payment at its completion route once storage answers.
 * @param pending the payment's id, and its amount (minor units) and currency
 * @param view.checkUrl the completion route of this payment (absolute)
 */
export function checkoutConfirmingPage(
  link: PaymentLink,
  pending: { paymentId: string; amount: number; currency: Currency },
  view: { nonce: string; brand: CheckoutBrand; checkUrl: string },
): string {
  const { title, body } = notConfirmedYet(pending.amount, pending.currency);
  const check = escapeHtml(view.checkUrl);
  return checkoutFrame(
    title,
    view.nonce,
    `<h1>${escapeHtml(title)}</h1><div class="box">${body}<p role="status">We are confirming this payment with the payment processor. Check the status here: this page moves on when the result is known.</p><p><a class="button" href="${check}">Check status</a></p><p><small>${escapeHtml(link.description ?? '')} · Reference ${escapeHtml(pending.paymentId)}</small></p></div>`,
    view.brand,
  );
}
