import type { CardBrand } from './card';
import type { PaymentDispute } from './dispute';
import type { Currency } from './money';
import type { AcceptanceType, SetupFutureUsage } from './payment-method';
import type { PaymentStatus } from './payment-status';
import type { PendingOperationView } from './pending-operation';
import type { RoutingApproach } from './routing-algorithm';

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
 * given; `{}` when none (`MetadataResource`, shared/schemas/resource-fields.ts).
 */
export type Metadata = Record<string, string>;

/**
 * Billing details as accepted on create and echoed: `{address?: {first_name?, last_name?, line1?,
 * city?, state?, zip?, country?}}`, `country` ISO 3166-1 alpha-2 (`BillingResource`,
 * shared/schemas/payment-resource-schema.ts).
 */
export interface Billing {
  address?:
    | {
        first_name?: string | undefined;
        last_name?: string | undefined;
        line1?: string | undefined;
        city?: string | undefined;
        state?: string | undefined;
        zip?: string | undefined;
        country?: string | undefined;
      }
    | undefined;
}

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
 * (`AuthenticationActionResource`, shared/schemas/payment-resource-schema.ts).
 */
export interface AuthenticationAction {
  type: AuthenticationStep;
  display_text: string | null;
  redirect_to_url: string;
  card_required: boolean;
}

/**
 * What the customer must do next. `redirect_to_url` for 3DS and hosted pages;
 * `bank_transfer_instructions` and `display_ussd_code` for the offline methods (amounts in minor
 * units, `expires_at` ISO 8601 UTC); `submit_*` ({@link AuthenticationAction}) for a PIN, OTP,
 * phone, birthday or address step; `await_mobile_money_approval` for a phone prompt.
 * (`NextActionResource`, shared/schemas/payment-resource-schema.ts).
 */
export type NextAction =
  | { type: 'redirect_to_url'; redirect_to_url: string }
  | AuthenticationAction
  | {
      type: 'bank_transfer_instructions';
      bank_transfer: {
        bank_name: string;
        account_number: string;
        account_name: string;
        amount: number;
        currency: Currency;
        reference: string;
        expires_at: string;
      };
    }
  | { type: 'display_ussd_code'; ussd: { code: string; reference: string; expires_at: string } }
  | { type: 'await_mobile_money_approval'; mobile_money: { message: string; reference: string } };

/** The payer's bank chosen for a USSD payment: its CBN code and name (see `USSD_BANKS`). */
export interface UssdBankSummary {
  bank_code: string;
  bank_name: string;
}

/**
 * A payment's stored method details: `{card}` (last4, brand, expiry, fingerprint) or `{ussd}` (the bank).
 */
export type PaymentMethodSummary =
  | { card: { last4: string; brand: CardBrand; exp_month: number; exp_year: number; fingerprint: string } }
  | { ussd: UssdBankSummary };

/**
 * One try of a payment at one connector, as routing made it. `status` is the
 * outcome of that try; a technical failure (timeout, 5xx, network) is recorded as
 * `Failed` with `error_code: connector_unreachable`. `created_at` ISO 8601 UTC.
 * Component `PaymentAttempt`.
 */
export interface Attempt {
  attempt_id: string;
  connector: string;
  merchant_connector_id: string | null;
  status: PaymentStatus;
  connector_transaction_id: string | null;
  error_code: string | null;
  error_message: string | null;
  /**
   * Why routing chose this account (Hyperswitch `payment_attempt.routing_approach`; shared/domain/routing-algorithm.ts
   * `ROUTING_APPROACHES`), or null for a try routing did not choose (a webhook's or the reconciler's outcome, a try
   * recorded before routing approaches were).
   */
  routing_approach: RoutingApproach | null;
  /**
   * The success-rate segment the try's outcome counts in (`payment_method=card|card_network=visa|currency=NGN`:
   * shared/operations/routing/success-rate-segment.ts; a card appears by its BIN, 6 digits, at most), or null when
   * the account was not chosen by success rate.
   */
  routing_segment: string | null;
  created_at: string;
}

/**
 * The single-use link of a payment (`payment.payment_link`, shared/domain/payment-link.ts): the page that pays that payment only.
 * `expires_at` is ISO 8601 UTC.
 */
export interface PaymentLinkOfPayment {
  /** `plink_…` */
  payment_link_id: string;
  /** The checkout page's URL: the link to share. */
  link: string;
  expires_at: string;
}

/**
 * A payment intent as the API returns it. Amounts are integers in minor units;
 * timestamps ISO 8601 UTC with `Z`. No PAN or CVC ever appears here. Component `Payment`
 * (shared/schemas/payment-resource-schema.ts), which documents every field.
 */
export interface Payment {
  /** `pay_…` */
  payment_id: string;
  status: PaymentStatus;
  pending_operation: PendingOperationView | null;
  amount: number;
  currency: Currency;
  amount_captured: number;
  amount_refunded: number;
  amount_disputed: number;
  disputes: PaymentDispute[];
  capture_method: CaptureMethod;
  payment_method: PaymentMethod | null;
  payment_method_data: PaymentMethodSummary | null;
  payment_method_id: string | null;
  setup_future_usage: SetupFutureUsage | null;
  customer_acceptance: {
    acceptance_type: AcceptanceType;
    accepted_at: string;
    online: { ip_address: string; user_agent: string } | null;
  } | null;
  connector: string;
  merchant_connector_id: string | null;
  connector_transaction_id: string | null;
  customer_id: string | null;
  description: string | null;
  email: string | null;
  metadata: Metadata;
  billing: Billing | null;
  next_action: NextAction | null;
  return_url: string | null;
  /** The payment link (`plink_…`) whose checkout page created the payment, or null. */
  payment_link_id: string | null;
  /** The single-use link that pays this payment (`payment_link: true` at create), or null. */
  payment_link: PaymentLinkOfPayment | null;
  cancellation_reason: string | null;
  error_code: string | null;
  error_message: string | null;
  attempts: Attempt[];
  created_at: string;
  updated_at: string;
}

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
  'payment_link_id',
  'payment_link',
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
  'routing_approach',
  'routing_segment',
  'created_at',
];
