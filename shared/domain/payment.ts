import type * as z from 'zod';
import type {
  AttemptResource,
  AuthenticationActionResource,
  BillingResource,
  NextActionResource,
  PaymentMethodSummaryResource,
  PaymentResource,
  UssdBankSummaryResource,
} from '../schemas/payment-resource-schema';
import type { MetadataResource } from '../schemas/resource-fields';

/** Payment methods the service accepts. */
export const PAYMENT_METHODS = ['card', 'bank_transfer', 'ussd', 'mobile_money'] as const;

/** One of {@link PAYMENT_METHODS}. */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** `automatic` captures at confirm; `manual` stops at `RequiresCapture` until capture. */
export const CAPTURE_METHODS = ['automatic', 'manual'] as const;

/** One of {@link CAPTURE_METHODS}. */
export type CaptureMethod = (typeof CAPTURE_METHODS)[number];

/**
 * The address a processor asks for in a `submit_address` step (Paystack `POST /charge/submit_address`:
 * address, city, state, zip_code; Flutterwave `avs_noauth`: address, city, state, zipcode, country).
 * `country` is ISO 3166-1 alpha-2.
 */
export interface AuthenticationAddress {
  line1: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

/**
 * The URL of Switchyard's hosted page for a payment's authentication step (public; the payment id
 * is the capability, as a hosted checkout link is).
 * @param publicBaseUrl e.g. `https://api.example.com` (no trailing slash)
 */
export function authenticationPageUrl(publicBaseUrl: string, paymentId: string): string {
  return `${publicBaseUrl}/pay/${paymentId}/authenticate`;
}

/**
 * The URL every processor is given as the payer's return URL (after 3DS or a hosted page):
 * Switchyard's public return route, which syncs the payment and sends the payer (303) to the
 * merchant's `return_url` with `payment_id` and `status`, or shows a plain result page.
 * @param publicBaseUrl e.g. `https://api.example.com` (no trailing slash)
 */
export function processorReturnUrl(publicBaseUrl: string, paymentId: string): string {
  return `${publicBaseUrl}/pay/${paymentId}/return`;
}

/**
 * The public base URL a payment's hosted step page was served from (its `next_action.redirect_to_url`
 * without `/pay/{payment_id}/authenticate`), or null when it shows no such page. The reconciler has no
 * request of its own and uses it to let a sync name the processor's current step.
 */
export function publicBaseUrlOf(payment: Pick<Payment, 'payment_id' | 'next_action'>): string | null {
  const url = payment.next_action && 'redirect_to_url' in payment.next_action ? payment.next_action.redirect_to_url : null;
  const suffix = `/pay/${payment.payment_id}/authenticate`;
  return url?.endsWith(suffix) ? url.slice(0, -suffix.length) : null;
}

/**
 * The {@link AuthenticationAction} for a step, pointing at the hosted page of the payment.
 * @param displayText the processor's prompt, or null
 * @param cardRequired whether the processor needs the card sent again with the step
 */
export function authenticationAction(
  step: AuthenticationStep,
  publicBaseUrl: string,
  paymentId: string,
  displayText: string | null = null,
  cardRequired = false,
): AuthenticationAction {
  return {
    type: step,
    display_text: displayText,
    redirect_to_url: authenticationPageUrl(publicBaseUrl, paymentId),
    card_required: cardRequired,
  };
}

/**
 * Free-form string key/value pairs (≤ 50 keys, keys ≤ 40 chars, values ≤ 500 chars), echoed as
 * given; `{}` when none. Derived from `MetadataResource` (shared/schemas/resource-fields.ts).
 */
export type Metadata = z.output<typeof MetadataResource>;

/**
 * Billing details as accepted on create and echoed: `{address?: {first_name?, last_name?, line1?,
 * city?, state?, zip?, country?}}`, `country` ISO 3166-1 alpha-2. Derived from `BillingResource`
 * (shared/schemas/payment-resource-schema.ts).
 */
export type Billing = z.output<typeof BillingResource>;

/**
 * The authentication steps a processor may ask of the payer before it authorizes a card or a
 * mobile-money charge (Paystack's `send_pin` / `send_otp` / `send_phone` / `send_birthday` /
 * `send_address` charge statuses, https://paystack.com/docs/payments/charges/ ; Flutterwave's
 * `meta.authorization.mode` `pin` / `otp` / `avs_noauth`, https://developer.flutterwave.com/docs/direct-charge/card ).
 * Each is answered with `POST /payments/{payment_id}/authenticate`.
 */
export const AUTHENTICATION_STEPS = ['submit_pin', 'submit_otp', 'submit_phone', 'submit_birthday', 'submit_address'] as const;

/** One of {@link AUTHENTICATION_STEPS}. */
export type AuthenticationStep = (typeof AUTHENTICATION_STEPS)[number];

/**
 * A processor's request for one authentication step:
 * - `display_text`: the processor's prompt to show the payer (e.g. "Dial *110# to generate a voucher"), or null;
 * - `redirect_to_url`: Switchyard's hosted page where the payer can answer the step themselves
 *   (so a merchant's server never has to touch a PIN);
 * - `card_required`: true when the processor needs the card details sent again with this step
 *   (Flutterwave re-sends the whole card charge with the PIN or the address; we never keep the card).
 * Derived from `AuthenticationActionResource` (shared/schemas/payment-resource-schema.ts).
 */
export type AuthenticationAction = z.output<typeof AuthenticationActionResource>;

/**
 * What the customer must do next. `redirect_to_url` for 3DS and hosted pages;
 * `bank_transfer_instructions` and `display_ussd_code` for the offline methods (amounts in minor
 * units, `expires_at` ISO 8601 UTC); `submit_*` ({@link AuthenticationAction}) for a PIN, OTP,
 * phone, birthday or address step; `await_mobile_money_approval` for a phone prompt.
 * Derived from `NextActionResource` (shared/schemas/payment-resource-schema.ts).
 */
export type NextAction = z.output<typeof NextActionResource>;

/** The payer's bank chosen for a USSD payment: its CBN code and name (see `USSD_BANKS`). Derived from `UssdBankSummaryResource`. */
export type UssdBankSummary = z.output<typeof UssdBankSummaryResource>;

/**
 * A payment's stored method details: `{card}` (last4, brand, expiry, fingerprint) or `{ussd}` (the bank).
 * Derived from `PaymentMethodSummaryResource`.
 */
export type PaymentMethodSummary = z.output<typeof PaymentMethodSummaryResource>;

/**
 * One try of a payment at one connector, as routing made it. `status` is the
 * outcome of that try; a technical failure (timeout, 5xx, network) is recorded as
 * `Failed` with `error_code: connector_unreachable`. `created_at` ISO 8601 UTC.
 * Derived from `AttemptResource` (component `PaymentAttempt`).
 */
export type Attempt = z.output<typeof AttemptResource>;

/**
 * A payment intent as the API returns it. Amounts are integers in minor units;
 * timestamps ISO 8601 UTC with `Z`. No PAN or CVC ever appears here. Derived from
 * `PaymentResource` (shared/schemas/payment-resource-schema.ts, component `Payment` of
 * docs/openapi.json), which documents every field.
 */
export type Payment = z.output<typeof PaymentResource>;

/** The fields of a {@link Payment}, in the order responses list them. */
export const PAYMENT_FIELDS: readonly (keyof Payment)[] = [
  'payment_id',
  'status',
  'pending_operation',
  'amount',
  'currency',
  'amount_captured',
  'amount_refunded',
  'amount_disputed',
  'disputes',
  'capture_method',
  'payment_method',
  'payment_method_data',
  'payment_method_id',
  'setup_future_usage',
  'customer_acceptance',
  'connector',
  'merchant_connector_id',
  'connector_transaction_id',
  'customer_id',
  'description',
  'email',
  'metadata',
  'billing',
  'next_action',
  'return_url',
  'cancellation_reason',
  'error_code',
  'error_message',
  'attempts',
  'created_at',
  'updated_at',
];

/** The fields of an {@link Attempt}, in the order responses list them. */
export const ATTEMPT_FIELDS: readonly (keyof Attempt)[] = [
  'attempt_id',
  'connector',
  'merchant_connector_id',
  'status',
  'connector_transaction_id',
  'error_code',
  'error_message',
  'created_at',
];
