/**
 * The hosted checkout page of a payment link, without its HTML (shared/http/checkout-page.ts draws it): find the link
 * by its id alone (the id is the capability, as a processor's hosted link is), check the payer's form, and, when the
 * payer comes back, give a failed payment's place back and send the payer on to the merchant's `return_url` with a
 * signature. Paying is in ./checkout-payment.ts, so the page and the completion route load no processor call.
 */
import { ApiError } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import { type CheckoutDisplay, DEFAULT_CHECKOUT_DISPLAY } from '../../domain/merchant-profile';
import { type Currency, MAX_AMOUNT, MIN_AMOUNT } from '../../domain/money';
import type { Payment, PaymentMethod } from '../../domain/payment';
import { CLOSED_LINK_SENTENCES, checkoutPath, PAYMENT_CLOSED_SENTENCES, type PaymentLink } from '../../domain/payment-link';
import { cardSchema } from '../../schemas/common';
import { emailSchema, phoneSchema } from '../../schemas/contact-schemas';
import { returnSigningSecret, signReturn } from '../../security/checkout-return-signature';
import { getCustomer } from '../../storage/customers-repository';
import { getCheckoutDisplay } from '../../storage/merchant-profile-repository';
import { findPaymentLinkOwner, getAnyPaymentLink, releaseLinkPlace, type SingleUseLink } from '../../storage/payment-links-repository';
import { getPayment, type StoredPayment } from '../../storage/payments-repository';
import { isUssdBankCode, mobileMoneyPhoneProblem } from './checkout-methods';

/** The fields of the checkout form a payer fills in (the CSRF token and the attempt id are checked apart). */
export const CHECKOUT_FIELDS = [
  'amount',
  'email',
  'name',
  'phone',
  'card_name',
  'card_number',
  'card_exp_month',
  'card_exp_year',
  'card_cvc',
  'ussd_bank_code',
  'mobile_money_phone',
] as const;

/** One of {@link CHECKOUT_FIELDS}. */
export type CheckoutField = (typeof CHECKOUT_FIELDS)[number];

/** What is wrong with each field, in words for the payer (never repeating what was typed). */
export type FieldErrors = Partial<Record<CheckoutField, string>>;

/** A link found by its id alone, with its merchant. */
export interface CheckoutLink {
  merchantId: string;
  /** The link; for a payment's single-use link, a view of it drawn from its payment (amount, currency, description). */
  link: PaymentLink;
  /** A single-use link: the payment it pays, as of now. */
  payment?: Payment;
  /** Why the page takes no payment (answered with 410), or '' while it takes one. */
  closed: string;
  /** The merchant's checkout display: its name, logo and colour, and the origins that may frame the page. */
  display: CheckoutDisplay;
  /**
   * The payer's e-mail already known, so the page need not ask it: a single-use link's payment's `email`, else its
   * customer's (read only while the payment awaits its confirm); undefined for a reusable link.
   */
  payerEmail?: string;
}

/**
 * The view of a payment's single-use link the page draws: the payment's amount, currency and description, one
 * payment at most, closed once the payment is final or the link expired.
 * @param nowMs epoch ms
 */
function singleUseView(single: SingleUseLink, payment: Payment, nowMs: number): { link: PaymentLink; closed: string } {
  const paid = payment.status === 'Succeeded' || payment.status === 'RequiresCapture';
  const ended = payment.status === 'Failed' || payment.status === 'Cancelled';
  const expired = Date.parse(single.link.expires_at) <= nowMs;
  const closed = paid
    ? PAYMENT_CLOSED_SENTENCES.paid
    : ended
      ? PAYMENT_CLOSED_SENTENCES.ended
      : expired && payment.status === 'RequiresConfirmation'
        ? CLOSED_LINK_SENTENCES.expired
        : '';
  const link: PaymentLink = {
    payment_link_id: single.link.payment_link_id,
    url: single.link.link,
    active: true,
    status: paid || ended ? 'completed' : expired ? 'expired' : 'active',
    amount: payment.amount,
    amount_min: null,
    amount_max: null,
    currency: payment.currency,
    description: payment.description,
    payment_methods: payment.payment_method ? [payment.payment_method] : null,
    expires_at: single.link.expires_at,
    max_payments: 1,
    payments_count: 0,
    return_url: single.returnUrl,
    customer_fields: [],
    metadata: {},
    created_at: single.createdAt,
    updated_at: payment.updated_at,
  };
  return { link, closed };
}

/**
 * The link a checkout URL names, its status as of now (`Date.now()`): a reusable link, or a payment's single-use
 * link with its payment.
 * @throws ApiError 404 when no link has this id
 */
export async function checkoutLink(paymentLinkId: string): Promise<CheckoutLink> {
  const merchantId = isIdOf('paymentLink', paymentLinkId) ? await findPaymentLinkOwner(paymentLinkId) : undefined;
  const nowMs = Date.now();
  // The link and the merchant's display are read at once (two GetItems in parallel).
  const [found, display] = merchantId
    ? await Promise.all([getAnyPaymentLink(merchantId, paymentLinkId, nowMs), getCheckoutDisplay(merchantId)])
    : [undefined, DEFAULT_CHECKOUT_DISPLAY];
  const stored = merchantId && found?.kind === 'payment' ? await getPayment(merchantId, found.single.paymentId) : undefined;
  if (!merchantId || !found || (found.kind === 'payment' && !stored)) {
    throw new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such payment link. Check the link you followed.');
  }
  if (found.kind === 'reusable') return { merchantId, link: found.link, closed: closedSentence(found.link), display };
  const payment = (stored as StoredPayment).payment;
  const payerEmail = await knownPayerEmail(merchantId, payment);
  return { merchantId, payment, display, ...singleUseView(found.single, payment, nowMs), ...(payerEmail ? { payerEmail } : {}) };
}

/**
 * The e-mail known for the payer of a payment: its own `email`, else (while it awaits its confirm) its customer's.
 * One read of the customer, only when the payment has a customer and no e-mail of its own.
 */
async function knownPayerEmail(merchantId: string, payment: Payment): Promise<string | undefined> {
  if (payment.email) return payment.email;
  if (!payment.customer_id || payment.status !== 'RequiresConfirmation') return undefined;
  return (await getCustomer(merchantId, payment.customer_id))?.email ?? undefined;
}

/** The sentence for a link that takes no payment (status other than `active`). */
export function closedSentence(link: PaymentLink): string {
  return link.status === 'active' ? '' : CLOSED_LINK_SENTENCES[link.status];
}

/**
 * Minor units of an amount the payer typed in major units (`1500`, `1,500.50`): digits with at most two decimals.
 * @returns undefined when it is not such an amount
 */
export function minorUnitsOfTyped(typed: string): number | undefined {
  const text = typed.replace(/[,\s]/g, '');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** The locale amounts of a currency are written in on the page (its home country's English). */
export const CURRENCY_LOCALES: Readonly<Record<Currency, string>> = {
  NGN: 'en-NG',
  GHS: 'en-GH',
  KES: 'en-KE',
  ZAR: 'en-ZA',
  USD: 'en-US',
};

/**
 * An amount for the payer to read, with `Intl.NumberFormat` in the currency's locale (`₦1,500.00` for 150000 NGN).
 * The amount is given to `format` as a decimal string, so no float rounding is involved.
 * @param amount minor units (every supported currency has two decimals)
 */
export function formatAmount(amount: number, currency: Currency): string {
  const decimal = `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
  return new Intl.NumberFormat(CURRENCY_LOCALES[currency], { style: 'currency', currency }).format(decimal as unknown as number);
}

/** The form as posted: every field a string or absent; `payment_method` names the method's form (card when absent). */
export type CheckoutForm = Partial<Record<CheckoutField | 'csrf_token' | 'attempt' | 'payment_method', string>>;

/** A field's value, trimmed; undefined when absent or blank. */
export const formValue = (form: CheckoutForm, field: CheckoutField) => {
  const v = form[field];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

/**
 * The checkout form's mistakes, field by field (an empty object when there are none): the amount and the payer's
 * fields the link asks for (the e-mail also when `askEmail`), then the method's own fields (the card; the USSD bank;
 * the mobile-money phone). A bank transfer needs none.
 * @param askEmail the page asks the payer's e-mail though the link's `customer_fields` do not (routing may pick a
 *   connector that needs one: ./checkout-methods.ts `methodRouting`)
 */
export function checkFormFields(
  link: PaymentLink,
  form: CheckoutForm,
  method: PaymentMethod = 'card',
  askEmail = false,
): { errors: FieldErrors; amount?: number } {
  const errors: FieldErrors = {};
  let amount = link.amount ?? undefined;
  if (link.amount === null) {
    const typed = formValue(form, 'amount');
    const minor = typed === undefined ? undefined : minorUnitsOfTyped(typed);
    const min = link.amount_min ?? MIN_AMOUNT;
    const max = link.amount_max ?? MAX_AMOUNT;
    if (minor === undefined || minor < min || minor > max) {
      errors.amount = `Enter an amount from ${formatAmount(min, link.currency)} to ${formatAmount(max, link.currency)}.`;
    } else amount = minor;
  }
  if ((askEmail || link.customer_fields.includes('email')) && !emailSchema.safeParse(formValue(form, 'email') ?? '').success) {
    errors.email = 'Enter your e-mail address, like name@example.com.';
  }
  if (link.customer_fields.includes('name') && !(formValue(form, 'name') && (formValue(form, 'name') as string).length <= 200)) {
    errors.name = 'Enter your name (at most 200 characters).';
  }
  if (link.customer_fields.includes('phone') && !phoneSchema.safeParse(formValue(form, 'phone') ?? '').success) {
    errors.phone = 'Enter your phone number in international form, like +2348012345678.';
  }
  if (method === 'ussd' && !isUssdBankCode(formValue(form, 'ussd_bank_code'))) errors.ussd_bank_code = 'Choose your bank.';
  if (method === 'mobile_money') {
    const problem = mobileMoneyPhoneProblem(link.currency, formValue(form, 'mobile_money_phone'));
    if (problem) errors.mobile_money_phone = problem;
  }
  if (method === 'card') checkCardFields(form, errors);
  return { errors, amount };
}

/** The card fields' mistakes, added to `errors` (the card number and CVC are never repeated). */
function checkCardFields(form: CheckoutForm, errors: FieldErrors): void {
  const card = {
    card_number: (formValue(form, 'card_number') ?? '').replace(/[\s-]/g, ''),
    card_exp_month: formValue(form, 'card_exp_month') ?? '',
    card_exp_year: formValue(form, 'card_exp_year') ?? '',
    card_cvc: formValue(form, 'card_cvc') ?? '',
  };
  const checked = cardSchema.safeParse(card);
  if (!checked.success) {
    const words: Partial<Record<CheckoutField, string>> = {
      card_number: 'Enter the card number: 12 to 19 digits, as on the card.',
      card_exp_month: 'Enter the expiry month, 01 to 12; the card must not have expired.',
      card_exp_year: 'Enter the expiry year, like 2030; the card must not have expired.',
      card_cvc: 'Enter the 3 or 4 digit security code from the back of the card.',
    };
    for (const issue of checked.error.issues) {
      const field = String(issue.path[0] ?? '') as CheckoutField;
      if (words[field] && !errors[field]) errors[field] = words[field];
    }
  }
  if (formValue(form, 'card_name') !== undefined && (formValue(form, 'card_name') as string).length > 200) {
    errors.card_name = 'Enter the name as on the card (at most 200 characters).';
  }
}

/** The completion route of a link: where the processor's return route sends the payer back (with `payment_id`). */
export function completionUrl(publicBaseUrl: string, paymentLinkId: string): string {
  return `${publicBaseUrl}${checkoutPath(paymentLinkId)}/complete`;
}

/**
 * Where the payer goes once back from the payment's steps: the merchant's `return_url`, the page's status view, or,
 * while the payer still has to pay away from the page (a transfer, a USSD code, a phone prompt), the waiting view.
 */
export type CompletionOutcome =
  | { kind: 'return'; location: string }
  | { kind: 'status' | 'waiting'; link: PaymentLink; payment: Payment; display: CheckoutDisplay };

/**
 * Whether a payment waits for the payer away from the page: a bank transfer, USSD or mobile-money payment that shows
 * its instructions (`bank_transfer_instructions`, `display_ussd_code`, `await_mobile_money_approval`) or is
 * `Processing` until the processor hears from the payer's bank or phone. A card's 3-D Secure, PIN or OTP step is a
 * page of its own (`redirect_to_url`), not this.
 */
export function awaitsPayer(payment: Payment): boolean {
  if (payment.payment_method === 'card' || payment.payment_method === null) return false;
  if (payment.status === 'Processing') return true;
  return payment.status === 'RequiresAction' && payment.next_action !== null && !('redirect_to_url' in payment.next_action);
}

/**
 * The payer is back on the link (the processor's return route or the page sent them here): a failed payment gives its
 * place back (once); a payment still waiting for the payer ({@link awaitsPayer}) answers the waiting view (a read,
 * never a confirm); otherwise the payer goes to the merchant's `return_url` with `payment_id`, `payment_link_id`, `status` (the stored
 * status, never the query's) and `signature`, or sees the status view when the link has no `return_url`.
 * @throws ApiError 404 when no link has this id, or the payment is not one of its payments
 */
export async function completeCheckout(paymentLinkId: string, paymentId: string | undefined): Promise<CompletionOutcome> {
  const { merchantId, link, payment: single, display } = await checkoutLink(paymentLinkId);
  const stored = paymentId && isIdOf('payment', paymentId) ? await getPayment(merchantId, paymentId) : undefined;
  if (!stored || stored.payment.payment_link_id !== paymentLinkId) {
    throw new ApiError(404, 'invalid_request_error', 'resource_missing', 'No such payment on this link. Check the link you followed.');
  }
  const payment = stored.payment;
  // A single-use link holds no place to give back.
  if (!single && (payment.status === 'Failed' || payment.status === 'Cancelled')) {
    await releaseLinkPlace(merchantId, paymentLinkId, payment.payment_id);
  }
  // Not final yet and the payer has to act elsewhere: the instructions, refreshed until the payment is final.
  if (awaitsPayer(payment)) return { kind: 'waiting', link, payment, display };
  if (!link.return_url) return { kind: 'status', link, payment, display };
  const fields = { payment_id: payment.payment_id, payment_link_id: paymentLinkId, status: payment.status };
  const url = new URL(link.return_url);
  for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  url.searchParams.set('signature', signReturn(await returnSigningSecret(merchantId), fields));
  return { kind: 'return', location: url.toString() };
}
