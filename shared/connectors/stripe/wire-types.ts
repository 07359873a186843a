/**
 * Stripe's objects as the adapter reads them: PaymentIntent, PaymentMethod, Customer, Refund, Dispute, File, Event,
 * search and list answers, and the error body. Only the fields the adapter reads; amounts are integers in the
 * currency's smallest unit, times Unix seconds. Request parameters are not declared here: they are the `stripe`
 * package's own param types (shared/connectors/stripe/requests.ts).
 *
 * Sources (each type cites its page):
 * - Stripe API reference, version `2026-10-28.endive` (./api-version.ts): https://docs.stripe.com/api/payment_intents/object,
 *   https://docs.stripe.com/api/payment_methods/object, https://docs.stripe.com/api/customers/object,
 *   https://docs.stripe.com/api/refunds/object, https://docs.stripe.com/api/disputes/object,
 *   https://docs.stripe.com/api/events/object, https://docs.stripe.com/api/payment_intents/search,
 *   https://docs.stripe.com/api/pagination, https://docs.stripe.com/api/errors
 * - The installed `stripe` package's types (stripe-node 23.1.0, generated from Stripe's OpenAPI spec v2596):
 *   `node_modules/stripe/cjs/resources/{PaymentIntents,PaymentMethods,Refunds,Disputes,Files}.d.ts`, and
 *   stripe-node v22.5.0 `src/lib.ts` (`ApiList`: `data`, `has_more`)
 */

/**
 * `PaymentIntent.status` values (https://docs.stripe.com/api/payment_intents/object#payment_intent_object-status).
 */
export type StripePaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'succeeded'
  | 'canceled';

/**
 * The error Stripe attaches to a failed attempt (`last_payment_error`) or returns
 * in a 4xx body (`error`). https://docs.stripe.com/api/errors
 */
export interface StripeApiError {
  /** `api_error`, `card_error`, `idempotency_error` or `invalid_request_error`. */
  type?: string | null;
  /** e.g. `card_declined`, `resource_missing`, `amount_too_small`. */
  code?: string | null;
  /** For issuer declines, e.g. `insufficient_funds`, `generic_decline`. */
  decline_code?: string | null;
  message?: string | null;
  param?: string | null;
  /** The PaymentIntent involved, on errors of requests about one (a declined confirm). */
  payment_intent?: StripePaymentIntent | null;
}

/** A 4xx answer's body: `{error: {...}}`. */
export interface StripeErrorBody {
  error?: StripeApiError;
}

/**
 * `PaymentIntent.next_action`: `type` names the member that carries the details.
 * For cards, Stripe answers `redirect_to_url` when a `return_url` was given at
 * confirm, else `use_stripe_sdk` (opaque to servers; 3DS payloads carry a
 * `stripe_js` redirect URL, as seen in Stripe's example responses).
 */
export interface StripeNextAction {
  type: string;
  redirect_to_url?: { url: string | null; return_url?: string | null } | null;
  use_stripe_sdk?: Record<string, unknown> | null;
}

/**
 * The fields of a PaymentIntent the adapter reads. Amounts are integers in the
 * currency's smallest unit; `currency` is lower-case ISO 4217.
 * https://docs.stripe.com/api/payment_intents/object
 */
export interface StripePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable?: number;
  /** Amount captured so far (smallest unit). */
  amount_received?: number;
  currency: string;
  capture_method?: 'automatic' | 'automatic_async' | 'manual';
  status: StripePaymentIntentStatus;
  next_action?: StripeNextAction | null;
  last_payment_error?: StripeApiError | null;
  cancellation_reason?: string | null;
  metadata?: Record<string, string> | null;
  latest_charge?: string | null;
  created?: number;
  /**
   * The PaymentMethod: its id (`pm_…`), or the object when the request asked `expand[]=payment_method`
   * (https://docs.stripe.com/api/expanding_objects); null when none.
   */
  payment_method?: string | StripePaymentMethod | null;
  /** The Customer (`cus_…`), or the object when expanded; null when none. */
  customer?: string | { id: string; object?: string } | null;
  /** `on_session` or `off_session` when the PaymentIntent saves its PaymentMethod on the Customer; null otherwise. */
  setup_future_usage?: string | null;
}

/**
 * The fields of a PaymentMethod the adapter reads (https://docs.stripe.com/api/payment_methods/object): its `id`
 * (`pm_…`), given to the PaymentIntent; and, for a saved method, the card summary Stripe returns —
 * `brand`, `last4`, `exp_month`, `exp_year`, `country` (the issuer's, ISO 3166-1 alpha-2) and `fingerprint` (the
 * same for every PaymentMethod of one card number in the account), never the number or CVC — its `customer`
 * and `billing_details.email`.
 */
export interface StripePaymentMethod {
  id: string;
  object: 'payment_method';
  type?: string;
  card?: {
    brand?: string;
    last4?: string;
    exp_month?: number;
    exp_year?: number;
    country?: string | null;
    fingerprint?: string | null;
  } | null;
  customer?: string | { id: string } | null;
  billing_details?: { email?: string | null } | null;
  metadata?: Record<string, string> | null;
}

/** The fields of a Customer the adapter reads: its `id` (`cus_…`). https://docs.stripe.com/api/customers/object */
export interface StripeCustomer {
  id: string;
  object: 'customer';
  email?: string | null;
  metadata?: Record<string, string> | null;
}

/** `Refund.status` values (https://docs.stripe.com/api/refunds/object#refund_object-status). */
export type StripeRefundStatus = 'pending' | 'requires_action' | 'succeeded' | 'failed' | 'canceled';

/** The fields of a Refund the adapter reads. https://docs.stripe.com/api/refunds/object */
export interface StripeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent?: string | null;
  charge?: string | null;
  status: StripeRefundStatus | null;
  /** Set when `status` is `failed`, e.g. `expired_or_canceled_card`, `lost_or_stolen_card`, `unknown`. */
  failure_reason?: string | null;
  metadata?: Record<string, string> | null;
}

/** A search answer (https://docs.stripe.com/api/payment_intents/search). */
export interface StripeSearchResult<T> {
  object: 'search_result';
  data: T[];
  has_more: boolean;
  next_page?: string | null;
  url?: string;
}

/**
 * A list answer (https://docs.stripe.com/api/pagination; stripe-node `ApiList` in `src/lib.ts`):
 * `data` newest first, `has_more` true when a next page exists (ask it with
 * `starting_after=<last id of this page>`).
 */
export interface StripeList<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  url?: string;
}

/** A webhook event (https://docs.stripe.com/api/events/object): the object concerned is in `data.object`. */
export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created?: number;
  livemode?: boolean;
  api_version?: string | null;
  data: { object: Record<string, unknown> & { object?: string; id?: string } };
}

/**
 * `Dispute.status` values of stripe-node 23.1.0 (`node_modules/stripe/cjs/resources/Disputes.d.ts`, `Dispute.Status`:
 * "Possible values include: `warning_needs_response`, `warning_under_review`, `warning_closed`, `needs_response`,
 * `under_review`, `appeal_needs_response`, `appeal_under_review`, `won`, `lost`, or `prevented`"; the type also admits
 * any other string, `OtherString`). `prevented` came with API version 2025-08-27.basil
 * (https://docs.stripe.com/changelog/basil/2025-08-27/add-preventions-to-dispute).
 */
export type StripeDisputeStatus =
  | 'warning_needs_response'
  | 'warning_under_review'
  | 'warning_closed'
  | 'needs_response'
  | 'under_review'
  | 'appeal_needs_response'
  | 'appeal_under_review'
  | 'won'
  | 'lost'
  | 'prevented';

/**
 * The fields of a Dispute the adapter reads (https://docs.stripe.com/api/disputes/object; stripe-node 23.1.0
 * `Dispute`). `payment_intent` and `charge` are ids, or objects when expanded. `evidence_details.due_by` is Unix
 * seconds, 0 when the issuer allows no response. The network's reason code is `network_reason_code` (stripe-node
 * 23.1.0) or, in older versions and Stripe's OpenAPI fixture, `payment_method_details.card.network_reason_code`.
 */
export interface StripeDispute {
  id: string;
  object: 'dispute';
  amount: number;
  currency: string;
  charge?: string | { id: string } | null;
  payment_intent?: string | StripePaymentIntent | null;
  status: string;
  reason?: string | null;
  network_reason_code?: string | null;
  payment_method_details?: { type?: string; card?: { network_reason_code?: string | null } | null } | null;
  evidence_details?: { due_by?: number | null; has_evidence?: boolean; submission_count?: number } | null;
  evidence?: Record<string, unknown> | null;
  created?: number;
  metadata?: Record<string, string> | null;
}

/** The fields of a File the adapter reads (`POST /v1/files` answer; stripe-node 23.1.0 `resources/Files.d.ts` `File`). */
export interface StripeFile {
  id: string;
  object: 'file';
  purpose?: string;
  size?: number;
  type?: string | null;
  filename?: string | null;
}
