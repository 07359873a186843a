/**
 * Stripe's wire protocol for Switchyard: wire types, request builders, the
 * status-mapping tables and the webhook-signature rule. Everything
 * Stripe-specific that is not an HTTP call lives here (Hyperswitch's connector
 * layout: `crates/hyperswitch_connectors/src/connectors/stripe/transformers.rs`).
 *
 * Sources (public, read when writing this file):
 * - PaymentIntents: https://docs.stripe.com/api/payment_intents (create, confirm,
 *   capture, cancel, retrieve, search; the PaymentIntent object and its `status` values)
 * - Refunds: https://docs.stripe.com/api/refunds/object (`status`: pending,
 *   requires_action, succeeded, failed, canceled; `failure_reason`)
 * - Errors: https://docs.stripe.com/api/errors (`{error: {type, code, decline_code,
 *   message, payment_intent}}`, 402 for card errors)
 * - Search: https://docs.stripe.com/search and https://docs.stripe.com/api/payment_intents/search
 *   (query language, `search_result`, data freshness)
 * - Webhook signatures: https://docs.stripe.com/webhooks/signature and stripe-node
 *   `src/Webhooks.ts` (`t=…,v1=…`, HMAC-SHA256 of `${t}.${rawBody}`, 300 s default tolerance)
 * - Currencies: https://docs.stripe.com/currencies (amounts in the smallest unit;
 *   USD, NGN, KES and ZAR are two-decimal currencies there)
 * - Status mapping cross-checked with Hyperswitch's `StripePaymentStatus` →
 *   `AttemptStatus` and `RefundStatus` conversions in the transformers.rs above.
 * - List refunds: https://docs.stripe.com/api/refunds/list and stripe-node v22.5.0
 *   (github.com/stripe/stripe-node, commit 663942164d3876f04bb26617b88f498ba785e580):
 *   `src/resources/Refunds.ts` (`RefundListParams.payment_intent`), `src/shared.ts`
 *   (`PaginationParams`: `limit` 1–100, `starting_after`), `src/lib.ts` (`ApiList`: `data`, `has_more`)
 * - Timeouts and 409: the same stripe-node commit, `src/stripe.core.ts` (`DEFAULT_TIMEOUT = 80000`)
 *   and `src/RequestSender.ts` (409 retried as a conflict); https://docs.stripe.com/error-low-level#idempotency
 * - Request parameters: the param types of the `stripe` package installed here (stripe-node 23.1.0,
 *   generated from Stripe's OpenAPI spec v2596; `node_modules/stripe/cjs/resources/*.d.ts`), imported
 *   type-only so nothing of the package reaches a Lambda bundle; form encoding as stripe-node's
 *   `stringifyRequestData` (`node_modules/stripe/cjs/utils.js`)
 * - API version: `node_modules/stripe/cjs/apiVersion.js` (`ApiVersion = '2026-10-28.endive'`) and the
 *   Stripe changelog entries cited at {@link STRIPE_API_VERSION} and {@link buildPaymentIntentParams}
 * - Raw cards: https://docs.stripe.com/api/payment_methods/create (`type=card`, `card[number|exp_month|
 *   exp_year|cvc]`, `billing_details`), available only to accounts with raw card data access
 * - Saved payment methods: https://docs.stripe.com/payments/save-during-payment (`setup_future_usage`
 *   with a `customer`; charging the saved method later with `off_session=true, confirm=true`; the 402
 *   `authentication_required` answer), https://docs.stripe.com/api/customers/create,
 *   https://docs.stripe.com/api/payment_methods/detach, https://docs.stripe.com/api/payment_intents/confirm,
 *   https://docs.stripe.com/api/expanding_objects (`expand[]`, `data.` for lists and search results),
 *   https://docs.stripe.com/declines/codes (`authentication_required`) and Stripe support's "Manual confirmation
 *   for off-session payments requiring Strong Customer Authentication (SCA)"
 *   (https://support.stripe.com/questions/manual-confirmation-for-off-session-payments-requiring-strong-customer-authentication-sca)
 * - Disputes: the Dispute object and its `status` values of the installed `stripe` package
 *   (stripe-node 23.1.0, OpenAPI spec v2596, `node_modules/stripe/cjs/resources/Disputes.d.ts`: `Dispute`,
 *   `Dispute.Status`, `Dispute.EvidenceDetails.due_by`, `DisputeUpdateParams` (`evidence`, `submit`),
 *   `DisputeCloseParams`), `resources/Files.d.ts` (`FileCreateParams`: `file`, `purpose: 'dispute_evidence'`,
 *   multipart, host `files.stripe.com`); https://docs.stripe.com/api/disputes, https://docs.stripe.com/api/files/create,
 *   https://docs.stripe.com/disputes/api, https://docs.stripe.com/changelog/basil/2025-08-27/add-preventions-to-dispute
 *   (`prevented`); Stripe's OpenAPI fixture `resources.dispute` (github.com/stripe/openapi tag v2436,
 *   test/connectors/fixtures/stripe/disputes/openapi.fixtures3.dispute.extract.json)
 *
 * See docs/connectors/stripe.md for the decisions taken here.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type Stripe from 'stripe';
import type { CardDetails } from '../../domain/card';
import { fullExpiryYear } from '../../domain/card';
import type { DisputeEvidence, DisputeStage, DisputeStatus } from '../../domain/dispute-vocabulary';
import { CURRENCIES, type Currency } from '../../domain/money';
import type { CaptureMethod, NextAction } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import { logger } from '../../observability/logger';
import {
  type AuthorizeRequest,
  type ConnectorDispute,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type DisputeEvidenceFile,
  type PaymentResult,
  type ProcessorCustomerRef,
  type RefundResult,
  type SavedMethodToken,
  type WebhookEvent,
} from '../connector';
import { type ConnectorTimeouts, CREDENTIAL_CHECK_TIMEOUT_MS } from '../connector-http';

/* ------------------------------------------------------------------ matrix */

/* ---------------------------------------------------------------- timeouts */

/**
 * Stripe's own client default: stripe-node waits 80 000 ms for any request
 * (`const DEFAULT_TIMEOUT = 80000;` in `src/stripe.core.ts`; `timeout` "The default is 80000" in
 * `src/lib.ts`; stripe/stripe-node v22.5.0, commit 663942164d38). Stripe publishes no shorter
 * server-side limit, so every operation uses it. Online requests are cut earlier by the caller's
 * own budget (API Gateway's 30 s); the reconciler gets the full 80 s. `CONNECTOR_TIMEOUT_MS`
 * overrides all of them.
 */
export const STRIPE_DEFAULT_TIMEOUT_MS = 80_000;

/**
 * Timeout of one Stripe call per operation, in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS} for every call
 * that moves or reads money, and `CREDENTIAL_CHECK_TIMEOUT_MS` (10 s) for the credential check, a balance read
 * made while a merchant waits (see that constant in connector-http.ts).
 */
export const STRIPE_TIMEOUTS_MS: ConnectorTimeouts = {
  authorize: STRIPE_DEFAULT_TIMEOUT_MS,
  capture: STRIPE_DEFAULT_TIMEOUT_MS,
  void: STRIPE_DEFAULT_TIMEOUT_MS,
  refund: STRIPE_DEFAULT_TIMEOUT_MS,
  sync: STRIPE_DEFAULT_TIMEOUT_MS,
  syncRefund: STRIPE_DEFAULT_TIMEOUT_MS,
  findRefund: STRIPE_DEFAULT_TIMEOUT_MS,
  webhook: STRIPE_DEFAULT_TIMEOUT_MS,
  verifyCredentials: CREDENTIAL_CHECK_TIMEOUT_MS,
};

/**
 * The longest time, in milliseconds, between the start of an authorize and the sending of its
 * PaymentIntent request (after the PaymentMethod came back): {@link STRIPE_DEFAULT_TIMEOUT_MS}, the
 * longest a PaymentMethod request may take. Only a process suspended in between (a frozen Lambda
 * environment thawed later) goes past it; the intent is then not requested at all, so it can never be
 * created long after the caller gave up, when `sync` may already have declared it absent (search is
 * trusted as authoritative {@link SEARCH_PROPAGATION_MS} after the attempt's start).
 */
export const PAYMENT_INTENT_SEND_WINDOW_MS = STRIPE_DEFAULT_TIMEOUT_MS;

/* ------------------------------------------------------------- API version */

/**
 * The Stripe API version sent as `Stripe-Version` on every request (https://docs.stripe.com/api/versioning):
 * the version the installed `stripe` package's types describe — stripe-node 23.1.0,
 * `node_modules/stripe/cjs/apiVersion.js`: `ApiVersion = '2026-10-28.endive'` (its CHANGELOG: "This release
 * changes the pinned API version to `2026-10-28.endive`"). Pinning it means the request bodies built here
 * (typed against that package) and the answers parsed here are the ones Stripe's reference documents for
 * this version, whatever the account's default version is. Change it together with the package.
 * The connector config's `apiVersion` overrides it (see {@link stripeApiVersionProblem}).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/**
 * The first API version whose PaymentIntents take `allowed_payment_method_types`, which the adapter
 * sends: 2026-07-29 (https://docs.stripe.com/changelog/dahlia/2026-07-29/allowed-payment-method-types-parameter).
 * An older override would make every authorize fail with an unknown parameter.
 */
export const STRIPE_MIN_API_VERSION_DATE = '2026-07-29';

/**
 * Why a `Stripe-Version` value cannot be used by this adapter, or null when it can. Stripe's versions are
 * `YYYY-MM-DD` with an optional release name (`2026-10-28.endive`, `2024-06-20`); the date must be on or
 * after {@link STRIPE_MIN_API_VERSION_DATE}.
 * @returns a sentence naming the problem (safe to log: it carries only the version), or null
 */
export function stripeApiVersionProblem(version: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(\.[a-z][a-z0-9_]*)?$/.exec(version);
  if (!m) return `"${version.slice(0, 40)}" is not a Stripe API version (YYYY-MM-DD or YYYY-MM-DD.name).`;
  if (m[1]! < STRIPE_MIN_API_VERSION_DATE) {
    return `Stripe API version ${version} predates ${STRIPE_MIN_API_VERSION_DATE}, when PaymentIntents gained allowed_payment_method_types, which this adapter sends.`;
  }
  return null;
}

/* ------------------------------------------------------------- wire types */

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

/* ---------------------------------------------------------- status tables */

/**
 * Stripe PaymentIntent status → our payment status. The one place this mapping lives.
 * - `requires_payment_method`: after a confirm, the attempt failed (decline,
 *   failed 3DS) and the intent waits for another method → `Failed` with
 *   `last_payment_error` (Hyperswitch maps it to `Failure` as well).
 * - `requires_confirmation`: not expected after `confirm=true`; nothing moved, the
 *   outcome is not final → `Processing` (a later sync or webhook settles it).
 * - `requires_action`: 3DS or another customer step → `RequiresAction` (with the redirect).
 * - `processing` → `Processing`; `requires_capture` (manual capture, authorized) →
 *   `RequiresCapture`; `succeeded` → `Succeeded`; `canceled` → `Cancelled`.
 */
export const STRIPE_PAYMENT_STATUS: Readonly<Record<StripePaymentIntentStatus, PaymentResult['status']>> = {
  requires_payment_method: 'Failed',
  requires_confirmation: 'Processing',
  requires_action: 'RequiresAction',
  processing: 'Processing',
  requires_capture: 'RequiresCapture',
  succeeded: 'Succeeded',
  canceled: 'Cancelled',
};

/**
 * Stripe Refund status → our refund status. `requires_action` (Stripe needs the
 * customer's details for some non-card refunds) is still in flight → `Pending`;
 * `canceled` means no money went back → `Failed`.
 */
export const STRIPE_REFUND_STATUS: Readonly<Record<StripeRefundStatus, RefundStatus>> = {
  pending: 'Pending',
  requires_action: 'Pending',
  succeeded: 'Succeeded',
  failed: 'Failed',
  canceled: 'Failed',
};

/**
 * Our status for a Stripe PaymentIntent status; an unknown (newer) status maps to
 * `Processing`: the outcome is not known, and a sync or webhook settles it later.
 */
export function mapPaymentStatus(status: string): PaymentResult['status'] {
  return Object.hasOwn(STRIPE_PAYMENT_STATUS, status) ? STRIPE_PAYMENT_STATUS[status as StripePaymentIntentStatus] : 'Processing';
}

/** Our status for a Stripe Refund status; null or an unknown status maps to `Pending`. */
export function mapRefundStatus(status: string | null | undefined): RefundStatus {
  return status && Object.hasOwn(STRIPE_REFUND_STATUS, status) ? STRIPE_REFUND_STATUS[status as StripeRefundStatus] : 'Pending';
}

/* ------------------------------------------------------------ money units */

/**
 * Our minor units → Stripe's `amount` (the smallest currency unit, https://docs.stripe.com/currencies).
 * For the four two-decimal currencies Stripe takes here the units are the same, so this only checks
 * the value.
 * @param minor a non-negative safe integer (cents, kobo)
 * @returns the same integer
 * @throws RangeError when `minor` is not a non-negative safe integer
 */
export function toStripeAmount(minor: number): number {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError('Amounts are non-negative integers in minor units.');
  return minor;
}

/**
 * Stripe's smallest-unit amount → our minor units (same unit for our currencies).
 * @returns the integer, or 0 when absent or not a non-negative safe integer
 */
export function fromStripeAmount(amount: number | null | undefined): number {
  return typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : 0;
}

/** Our ISO 4217 code → Stripe's lower-case `currency`. */
export function toStripeCurrency(currency: Currency): string {
  return currency.toLowerCase();
}

/* -------------------------------------------------------- request builders */

/** Metadata key carrying our payment id on PaymentMethods, PaymentIntents (searchable) and Refunds. */
export const PAYMENT_ID_METADATA_KEY = 'payment_id';
/** Metadata key carrying our refund id on Refunds. */
export const REFUND_ID_METADATA_KEY = 'refund_id';
/** Metadata key carrying our customer id (`cus_…` of Switchyard) on the Stripe Customers the adapter creates. */
const CUSTOMER_ID_METADATA_KEY = 'customer_id';

/**
 * Stripe's `capture_method` for ours (https://docs.stripe.com/api/payment_intents/create#create_payment_intent-capture_method).
 */
export function toStripeCaptureMethod(captureMethod: CaptureMethod): 'automatic' | 'manual' {
  return captureMethod === 'manual' ? 'manual' : 'automatic';
}

/** A request parameter value as the `stripe` package's param types allow it (before form encoding). */
type StripeParamValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | Date
  | readonly StripeParamValue[]
  | { readonly [key: string]: StripeParamValue };

/**
 * Form-encodes request parameters exactly as stripe-node does (`stringifyRequestData` in
 * `node_modules/stripe/cjs/utils.js`, stripe 23.1.0): nested objects as `a[b][c]=…`, arrays as
 * `a[0]=…`, booleans as `true`/`false`, numbers in decimal, `null` as the empty string (Stripe's way
 * of unsetting), `undefined` left out, dates as Unix seconds. Keys keep the order of the object.
 * @param params a typed parameter object, e.g. a `Stripe.PaymentIntentCreateParams`
 * @returns the `application/x-www-form-urlencoded` pairs (used as a POST body or a GET query)
 */
export function encodeStripeForm(params: object): URLSearchParams {
  const form = new URLSearchParams();
  const encode = (key: string, value: StripeParamValue): void => {
    if (value === undefined) return;
    if (value === null) {
      form.append(key, '');
      return;
    }
    if (value instanceof Date) {
      form.append(key, String(Math.floor(value.getTime() / 1000)));
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) encode(`${key}[${i}]`, item as StripeParamValue);
      return;
    }
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) encode(`${key}[${k}]`, v as StripeParamValue);
      return;
    }
    form.append(key, String(value));
  };
  for (const [key, value] of Object.entries(params)) encode(key, value as StripeParamValue);
  return form;
}

/**
 * The payer's billing details for the PaymentMethod, from what the merchant gave us: `email`, `phone`
 * (E.164) and the address (`line1`, `city`, `state`, `postal_code` from our `zip`, `country` ISO 3166-1
 * alpha-2; https://docs.stripe.com/api/payment_methods/create#create_payment_method-billing_details).
 * Empty values are left out.
 * @returns the details, or undefined when we know none of them
 */
export function billingDetailsOf(
  request: Pick<AuthorizeRequest, 'email' | 'phone' | 'billingAddress'>,
): Stripe.PaymentMethodCreateParams.BillingDetails | undefined {
  const details: Stripe.PaymentMethodCreateParams.BillingDetails = {};
  if (request.email) details.email = request.email;
  if (request.phone) details.phone = request.phone;
  const a = request.billingAddress;
  if (a) {
    const address: Stripe.AddressParam = {};
    if (a.line1) address.line1 = a.line1;
    if (a.city) address.city = a.city;
    if (a.state) address.state = a.state;
    if (a.zip) address.postal_code = a.zip;
    if (a.country) address.country = a.country.toUpperCase();
    if (Object.keys(address).length > 0) details.address = address;
  }
  return Object.keys(details).length > 0 ? details : undefined;
}

/**
 * The parameters of `POST /v1/payment_methods` that turns the raw card into a PaymentMethod
 * (https://docs.stripe.com/api/payment_methods/create; Stripe's documented path for raw card numbers,
 * open only to accounts with raw card data access): `type=card`, `card[number]`, `card[exp_month]`
 * (1–12), `card[exp_year]` (four digits), `card[cvc]`, `billing_details` when we know any
 * ({@link billingDetailsOf}) and `metadata[payment_id]` (our id, for operators). A PaymentMethod alone
 * moves no money. The result holds the PAN and CVC: send it, never log or keep it.
 * @throws RangeError when the request has no card
 */
export function buildPaymentMethodParams(request: AuthorizeRequest): Stripe.PaymentMethodCreateParams {
  const card: CardDetails | undefined = request.card;
  if (!card) throw new RangeError('Stripe needs card details to authorize a card payment.');
  const params: Stripe.PaymentMethodCreateParams = {
    type: 'card',
    card: {
      number: card.card_number,
      exp_month: Number(card.card_exp_month),
      exp_year: fullExpiryYear(card.card_exp_year),
      cvc: card.card_cvc,
    },
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  const billing = billingDetailsOf(request);
  if (billing) params.billing_details = billing;
  return params;
}

/**
 * The payment method types the PaymentIntent allows: cards only (docs/connectors.md "Support matrix"). Sent as
 * `allowed_payment_method_types`, the documented replacement of `payment_method_types`, which
 * API version 2026-09-30.endive removed ("Passing `payment_method_types` on this API version returns a
 * 400 error with the code `payment_method_types_no_longer_supported`… If you need more control… use
 * `allowed_payment_method_types`", https://docs.stripe.com/changelog/endive/2026-09-30/removes-the-payment-method-types-parameter-from-payment-intents-and-setup-intents;
 * the parameter itself: https://docs.stripe.com/changelog/dahlia/2026-07-29/allowed-payment-method-types-parameter,
 * mutually exclusive with `automatic_payment_methods` and `payment_method_configuration`, so neither is sent).
 */
export const STRIPE_ALLOWED_PAYMENT_METHOD_TYPES: readonly Stripe.PaymentIntentCreateParams.AllowedPaymentMethodType[] = ['card'];

/**
 * The parameters of `POST /v1/payment_intents` that creates and confirms a card PaymentIntent
 * with the PaymentMethod made by {@link buildPaymentMethodParams}
 * (https://docs.stripe.com/api/payment_intents/create): `amount` (smallest unit), `currency`
 * (lower-case), `confirm=true`, `capture_method`, `payment_method=pm_…`,
 * `allowed_payment_method_types[0]=card` (see {@link STRIPE_ALLOWED_PAYMENT_METHOD_TYPES}; never
 * `payment_method_types`), `return_url` (Switchyard's own return route for the payment, so 3DS answers
 * `redirect_to_url`) and `metadata[payment_id]` (our id, for search and webhooks). No card data.
 *
 * Saving the card (`request.setupFutureUsage`): also `setup_future_usage` (`on_session` |
 * `off_session`), `customer=cus_…` (the Stripe Customer the PaymentMethod is attached to once the payment
 * succeeds and any authentication is done: "If you provide a Customer with the PaymentIntent, you can use this
 * parameter to attach the payment method to the Customer after the PaymentIntent is confirmed", [pkg]
 * `PaymentIntentCreateParams.setup_future_usage`; https://docs.stripe.com/payments/save-during-payment) and
 * `expand[0]=payment_method`, so the answer carries the PaymentMethod object (card summary and fingerprint)
 * in the same call (https://docs.stripe.com/api/expanding_objects).
 * @param processorCustomerId the Stripe Customer (`cus_…`); required with `setupFutureUsage`, ignored without
 * @throws RangeError when the amount is not a non-negative integer, or `setupFutureUsage` comes without a Customer
 */
export function buildPaymentIntentParams(
  request: AuthorizeRequest,
  paymentMethodId: string,
  processorCustomerId?: string | null,
): Stripe.PaymentIntentCreateParams {
  const params: Stripe.PaymentIntentCreateParams = {
    amount: toStripeAmount(request.amount),
    currency: toStripeCurrency(request.currency),
    confirm: true,
    capture_method: toStripeCaptureMethod(request.captureMethod),
    payment_method: paymentMethodId,
    allowed_payment_method_types: [...STRIPE_ALLOWED_PAYMENT_METHOD_TYPES],
    return_url: request.returnUrl,
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  if (request.setupFutureUsage) {
    if (!processorCustomerId) throw new RangeError('Saving a card at Stripe needs a Stripe Customer.');
    params.setup_future_usage = request.setupFutureUsage;
    params.customer = processorCustomerId;
    params.expand = [...EXPAND_PAYMENT_METHOD];
  }
  return params;
}

/* ------------------------------------------------------ saved methods */

/**
 * `expand[]` of a PaymentIntent request whose answer must carry the PaymentMethod object instead of its id:
 * `payment_method` ("Many objects allow you to request additional information as an expanded response by using
 * the `expand` request parameter", https://docs.stripe.com/api/expanding_objects; [pkg]
 * `PaymentIntentCreateParams.expand`, `PaymentIntentRetrieveParams.expand`: `Array<string>`).
 */
export const EXPAND_PAYMENT_METHOD: readonly string[] = ['payment_method'];

/**
 * `expand[]` of a PaymentIntent search: the same field inside each result, `data.payment_method` (expanding in
 * lists and search results goes through `data`, https://docs.stripe.com/api/expanding_objects; [pkg]
 * `PaymentIntentSearchParams.expand`).
 */
export const EXPAND_SEARCH_PAYMENT_METHOD: readonly string[] = ['data.payment_method'];

/**
 * The parameters of `POST /v1/customers` (https://docs.stripe.com/api/customers/create) that makes the Stripe
 * Customer a saved card is attached to: `email` (our customer's, else the payment's, when known) and
 * `metadata[customer_id]` = our customer id, so an operator finds our customer from Stripe's dashboard.
 * One Customer per our customer and account; the core keeps its id ({@link SavedMethodToken.processorCustomerId})
 * and passes it back as `ProcessorCustomerRef.processorCustomerId`.
 */
export function buildCustomerParams(customer: ProcessorCustomerRef, email?: string | null): Stripe.CustomerCreateParams {
  const params: Stripe.CustomerCreateParams = {};
  const address = customer.email || email;
  if (address) params.email = address;
  params.metadata = { [CUSTOMER_ID_METADATA_KEY]: customer.customerId };
  return params;
}

/**
 * The parameters of `POST /v1/payment_intents` that charges a saved PaymentMethod (
 * https://docs.stripe.com/payments/save-during-payment, "Charge the saved payment method later"):
 * `amount`, `currency`, `confirm=true`, `capture_method`, `payment_method=pm_…` (the saved token), `customer=cus_…`
 * (required by Stripe for a PaymentMethod attached to a Customer: "If the payment method is attached to a Customer,
 * you must also provide the ID of that Customer", [pkg] `PaymentIntentCreateParams.payment_method`),
 * `allowed_payment_method_types[0]=card`, `metadata[payment_id]` (the same reference as every other intent of the
 * adapter, so `sync` finds a charge whose answer was lost), and:
 * - off-session (`request.offSession`): `off_session=true` ("the customer isn't in your checkout flow during this
 *   payment attempt and can't authenticate", [pkg] `PaymentIntentCreateParams.off_session`), no `return_url`
 *   (nothing to redirect; {@link buildAuthenticationRecoveryParams} carries it when the issuer asks for the payer);
 * - on-session: `return_url`, so a 3DS the issuer asks for answers `redirect_to_url`.
 * No `setup_future_usage`: the method is already saved.
 * @throws RangeError when there is no saved method, no Stripe Customer, or the amount is not a non-negative integer
 */
export function buildSavedMethodIntentParams(request: AuthorizeRequest): Stripe.PaymentIntentCreateParams {
  const saved = request.savedMethod;
  if (!saved?.token) throw new RangeError('No saved payment method to charge.');
  if (!saved.processorCustomerId) throw new RangeError('A saved Stripe PaymentMethod is charged with its Customer.');
  const params: Stripe.PaymentIntentCreateParams = {
    amount: toStripeAmount(request.amount),
    currency: toStripeCurrency(request.currency),
    confirm: true,
    capture_method: toStripeCaptureMethod(request.captureMethod),
    payment_method: saved.token,
    customer: saved.processorCustomerId,
    allowed_payment_method_types: [...STRIPE_ALLOWED_PAYMENT_METHOD_TYPES],
    metadata: { [PAYMENT_ID_METADATA_KEY]: request.paymentId },
  };
  if (request.offSession) params.off_session = true;
  else params.return_url = request.returnUrl;
  return params;
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/confirm` that asks the payer to authenticate an off-session
 * charge the issuer refused with `authentication_required` (https://docs.stripe.com/api/payment_intents/confirm):
 * `payment_method` = the same saved PaymentMethod (the failed attempt left the intent in `requires_payment_method`
 * without one), `off_session=false` and `return_url` = Switchyard's return route. Stripe support's documented way
 * to bring such an intent to `requires_action` ("Use an update PaymentIntent API call to set payment_method to the
 * same payment method ID that failed. Attempt confirmation with off_session set to false. Confirmation should fail
 * with PaymentIntent in requires_action status", https://support.stripe.com/questions/manual-confirmation-for-off-session-payments-requiring-strong-customer-authentication-sca;
 * `confirm` takes `payment_method` itself, so one call does both); with a `return_url` the action is
 * `redirect_to_url`, a link the payer can follow whenever the merchant brings them back.
 */
export function buildAuthenticationRecoveryParams(paymentMethodId: string, returnUrl: string): Stripe.PaymentIntentConfirmParams {
  return { payment_method: paymentMethodId, off_session: false, return_url: returnUrl };
}

/**
 * The parameters of `GET /v1/payment_intents/{id}` of a sync: `expand[0]=payment_method`
 * ({@link EXPAND_PAYMENT_METHOD}), so a PaymentIntent that saved its card answers with the card summary in the same
 * call ([pkg] `PaymentIntentRetrieveParams`).
 */
export function retrieveIntentParams(): Stripe.PaymentIntentRetrieveParams {
  return { expand: [...EXPAND_PAYMENT_METHOD] };
}

/**
 * The parameters of `POST /v1/payment_methods/{id}/detach` (https://docs.stripe.com/api/payment_methods/detach:
 * "Detaches a PaymentMethod object from a Customer. After a PaymentMethod is detached, it can no longer be used
 * for a payment or re-attached to a Customer"): none ([pkg] `PaymentMethodDetachParams` has only `expand`).
 */
export function buildDetachParams(): Stripe.PaymentMethodDetachParams {
  return {};
}

/**
 * Timeout of `POST /v1/payment_methods/{id}/detach`, in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS}
 * (stripe-node's default for every request; `CONNECTOR_TIMEOUT_MS` overrides it). Not in
 * {@link STRIPE_TIMEOUTS_MS}: detaching is no payment operation of the shared table.
 */
export const STRIPE_DETACH_TIMEOUT_MS = STRIPE_DEFAULT_TIMEOUT_MS;

/**
 * Timeout of each dispute call (`GET /v1/disputes/:id`, `POST /v1/disputes/:id/close`, `POST /v1/files`,
 * `POST /v1/disputes/:id`), in milliseconds: {@link STRIPE_DEFAULT_TIMEOUT_MS} (stripe-node's default for every
 * request, file uploads included; `CONNECTOR_TIMEOUT_MS` overrides it). Not in {@link STRIPE_TIMEOUTS_MS}: disputes
 * are no operation of the shared table.
 */
export const STRIPE_DISPUTE_TIMEOUT_MS = STRIPE_DEFAULT_TIMEOUT_MS;

/** The decline code (and error code) Stripe gives an off-session charge the issuer wants the payer to authenticate. */
export const AUTHENTICATION_REQUIRED_CODE = 'authentication_required';

/**
 * Whether a Stripe error asks for the payer: `code` or `decline_code` `authentication_required` ("The card was
 * declined because the transaction requires authentication such as 3D Secure … In some cases, such as off-session
 * payments, you might need to request the customer to retry", https://docs.stripe.com/declines/codes; the 402 of
 * an off-session charge, https://docs.stripe.com/payments/save-during-payment).
 */
export function isAuthenticationRequired(error: StripeApiError | null | undefined): boolean {
  return error?.code === AUTHENTICATION_REQUIRED_CODE || error?.decline_code === AUTHENTICATION_REQUIRED_CODE;
}

/** The id of a PaymentIntent's `customer` (a string, or an expanded Customer), or null. */
export function customerIdOf(intent: Pick<StripePaymentIntent, 'customer'>): string | null {
  const customer = intent.customer;
  if (typeof customer === 'string') return customer || null;
  return customer && typeof customer.id === 'string' && customer.id ? customer.id : null;
}

/** The id of a PaymentIntent's `payment_method` (a string, or an expanded PaymentMethod), or null. */
export function paymentMethodIdOf(intent: Pick<StripePaymentIntent, 'payment_method'>): string | null {
  const pm = intent.payment_method;
  if (typeof pm === 'string') return pm || null;
  return pm && typeof pm.id === 'string' && pm.id ? pm.id : null;
}

/**
 * Whether a PaymentIntent saved (or is saving) its PaymentMethod for reuse and has come far enough for the method
 * to be attached: `setup_future_usage` set, a `customer`, a `payment_method`, and `succeeded` or `requires_capture`
 * (the PaymentMethod "attaches to the Customer after the PaymentIntent has been confirmed and any required actions
 * from the user are complete", [pkg] `PaymentIntentCreateParams.customer`).
 */
export function savesPaymentMethod(intent: StripePaymentIntent): boolean {
  return (
    (intent.status === 'succeeded' || intent.status === 'requires_capture') &&
    !!intent.setup_future_usage &&
    customerIdOf(intent) !== null &&
    paymentMethodIdOf(intent) !== null
  );
}

/**
 * The saved method a PaymentIntent carries, when {@link savesPaymentMethod} and its `payment_method` is
 * the expanded object of a card: token = the PaymentMethod id (`pm_…`), `processorCustomerId` = the intent's
 * Customer, `email` = the PaymentMethod's `billing_details.email`, `fingerprint` = `card.fingerprint`, `card` =
 * `brand` (lower-case), `last4`, `exp_month`, `exp_year`, `country` as the issuer country (Stripe gives no BIN:
 * `card.iin` is "For internal use only and not typically available", [pkg] `PaymentMethod.Card.iin`), `expiresAt`
 * null (a saved Stripe PaymentMethod does not expire; the card's expiry is the limit).
 * @returns the token, or null when the intent saves nothing or its PaymentMethod is not expanded (an id only: the
 *   caller reads it, see `StripeConnector.parseWebhook`) or not a card with its summary
 */
export function savedMethodFromIntent(intent: StripePaymentIntent): SavedMethodToken | null {
  if (!savesPaymentMethod(intent)) return null;
  const pm = intent.payment_method;
  if (!pm || typeof pm !== 'object') return null;
  const card = pm.card;
  if (!card || typeof card.brand !== 'string' || typeof card.last4 !== 'string') return null;
  if (typeof card.exp_month !== 'number' || typeof card.exp_year !== 'number') return null;
  return {
    token: pm.id,
    processorCustomerId: customerIdOf(intent),
    email: pm.billing_details?.email ?? null,
    fingerprint: card.fingerprint ?? null,
    card: {
      brand: card.brand.toLowerCase(),
      last4: card.last4,
      expMonth: card.exp_month,
      expYear: card.exp_year,
      bin: null,
      issuerCountry: card.country ?? null,
    },
    expiresAt: null,
  };
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/capture`: `amount_to_capture` in the smallest unit
 * (https://docs.stripe.com/api/payment_intents/capture).
 */
export function buildCaptureParams(amount: number): Stripe.PaymentIntentCaptureParams {
  return { amount_to_capture: toStripeAmount(amount) };
}

/**
 * The parameters of `POST /v1/payment_intents/{id}/cancel` (https://docs.stripe.com/api/payment_intents/cancel):
 * none (no `cancellation_reason`: Stripe's optional reasons describe the payer or fraud, which a void
 * through our API does not tell us).
 */
export function buildCancelParams(): Stripe.PaymentIntentCancelParams {
  return {};
}

/**
 * The parameters of `POST /v1/refunds` (https://docs.stripe.com/api/refunds/create): `payment_intent`,
 * `amount` (smallest unit), and our ids in `metadata[refund_id]` and `metadata[payment_id]` so a
 * webhook or a lookup can be matched to our refund.
 */
export function buildRefundParams(input: {
  connectorTransactionId: string;
  amount: number;
  refundId: string;
  paymentId: string;
}): Stripe.RefundCreateParams {
  return {
    payment_intent: input.connectorTransactionId,
    amount: toStripeAmount(input.amount),
    metadata: { [REFUND_ID_METADATA_KEY]: input.refundId, [PAYMENT_ID_METADATA_KEY]: input.paymentId },
  };
}

/** Page size of the refund listing: Stripe's maximum `limit` (1–100, stripe-node `PaginationParams`). */
export const REFUND_LIST_PAGE_SIZE = 100;

/**
 * Pages of refunds read for one lookup before giving up (100 refunds a page: 2 000 refunds on one
 * PaymentIntent). Beyond it the lookup is not authoritative and throws.
 */
export const REFUND_LIST_MAX_PAGES = 20;

/**
 * The parameters of `GET /v1/refunds` listing one PaymentIntent's refunds
 * (https://docs.stripe.com/api/refunds/list): `payment_intent`, `limit` ({@link REFUND_LIST_PAGE_SIZE})
 * and, after the first page, `starting_after` = the last refund id of the previous page.
 */
export function refundListParams(paymentIntentId: string, startingAfter?: string): Stripe.RefundListParams {
  const params: Stripe.RefundListParams = { payment_intent: paymentIntentId, limit: REFUND_LIST_PAGE_SIZE };
  if (startingAfter) params.starting_after = startingAfter;
  return params;
}

/**
 * How long after our refund record was written (just before `POST /v1/refunds`) a refund absent
 * from the PaymentIntent's refund list may still appear: 10 minutes. Stripe's list endpoints
 * document no propagation delay (only Search is eventually consistent), but a refund request whose
 * answer we lost may still be executing at Stripe (a concurrent retry would get 409
 * `idempotency_key_in_use`); our own call gives up after {@link STRIPE_DEFAULT_TIMEOUT_MS}. Before
 * this window an absent refund is `Pending` with no id, after it it is known absent.
 */
export const REFUND_LOOKUP_SETTLE_MS = 10 * 60 * 1000;

/**
 * Picks our refund among a PaymentIntent's refunds: the one whose `metadata.refund_id` is our
 * refund id ({@link buildRefundParams} always sends it).
 * @returns the refund, or null when none carries our id
 * @throws ConnectorTechnicalError when several refunds carry our id, or the one that does is for
 *   another amount or currency than ours (an operator must look: nothing is settled automatically)
 */
export function ourRefundAmong(
  refunds: readonly StripeRefund[],
  ours: { refundId: string; amount: number; currency: Currency },
): StripeRefund | null {
  const matches = refunds.filter((r) => r.metadata?.[REFUND_ID_METADATA_KEY] === ours.refundId);
  if (matches.length > 1) {
    throw new ConnectorTechnicalError(
      'stripe',
      `Stripe holds ${matches.length} refunds carrying refund id ${ours.refundId}; an operator must reconcile them.`,
    );
  }
  const match = matches[0];
  if (!match) return null;
  if (fromStripeAmount(match.amount) !== ours.amount || match.currency !== toStripeCurrency(ours.currency)) {
    throw new ConnectorTechnicalError(
      'stripe',
      `Stripe refund ${match.id} carries refund id ${ours.refundId} but is ${match.amount} ${match.currency}, not ${ours.amount} ${toStripeCurrency(ours.currency)}.`,
    );
  }
  return match;
}

/**
 * The Search Query Language query that finds the PaymentIntent carrying our
 * payment id: `metadata['payment_id']:'<id>'` (quotes and backslashes in the
 * value escaped with a backslash). https://docs.stripe.com/search#search-query-language
 */
export function searchQueryForPayment(paymentId: string): string {
  const escaped = paymentId.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
  return `metadata['${PAYMENT_ID_METADATA_KEY}']:'${escaped}'`;
}

/**
 * The parameters of `GET /v1/payment_intents/search` that find the PaymentIntent carrying our payment id
 * (https://docs.stripe.com/api/payment_intents/search): `query` = {@link searchQueryForPayment}, and
 * `expand[0]=data.payment_method` ({@link EXPAND_SEARCH_PAYMENT_METHOD}: a found intent that saved its card
 * answers with the card summary in the same call).
 */
export function searchParamsForPayment(paymentId: string): Stripe.PaymentIntentSearchParams {
  return { query: searchQueryForPayment(paymentId), expand: [...EXPAND_SEARCH_PAYMENT_METHOD] };
}

/**
 * How long a PaymentIntent may take to appear in search results. Stripe: "under
 * normal operating conditions, data is searchable in less than a minute.
 * Occasionally, propagation … can be up to an hour behind during outages"
 * (https://docs.stripe.com/api/payment_intents/search). A payment older than this
 * that search does not find was never created at Stripe.
 */
export const SEARCH_PROPAGATION_MS = 60 * 60 * 1000;

/* ----------------------------------------------------- response → results */

/** The `error_code` we keep for a Stripe error: the issuer's `decline_code` when present, else `code`, else `type`. */
export function stripeErrorCode(error: StripeApiError | null | undefined): string | null {
  return error?.decline_code || error?.code || error?.type || null;
}

/**
 * Maps a 4xx error body to the processor's code and message, for `connectorFetch`.
 * The code is Stripe's `error.code` (e.g. `resource_missing`), else `error.type`,
 * else `http_<status>`; the message has API keys masked.
 */
export function stripeErrorOf(status: number, body: unknown): { code: string; message: string } {
  const error = (body as StripeErrorBody | null)?.error;
  return {
    code: error?.code || error?.type || `http_${status}`,
    message: redactKeys(error?.message || `Stripe refused the request (HTTP ${status}).`),
  };
}

/* ------------------------------------------------------- credential check */

/**
 * The read of the credential check: Retrieve balance, `GET /v1/balance`
 * (https://docs.stripe.com/api/balance/balance_retrieve): "Retrieves the current account balance, based on the
 * authentication that was used to make the request". It takes no parameters the adapter sends (stripe-node
 * 23.1.0 `BalanceRetrieveParams` has only `expand`), changes nothing, and any secret key may make it; a
 * restricted key needs read access to the balance.
 */
export const STRIPE_BALANCE_PATH = '/v1/balance';

/**
 * Whether a body is the Balance object `GET /v1/balance` answers (https://docs.stripe.com/api/balance/balance_object;
 * stripe-node 23.1.0 `resources/Balance.d.ts` `Balance`: `object: 'balance'`, `available` and `pending` arrays,
 * `livemode`), e.g. `resources.balance` of Stripe's OpenAPI fixtures. Anything else (a proxy's page, another API
 * behind a wrong base URL) is not an answer about the key.
 */
export function isStripeBalance(body: unknown): boolean {
  const b = body as { object?: unknown; available?: unknown; pending?: unknown; livemode?: unknown } | null;
  return (
    !!b &&
    typeof b === 'object' &&
    b.object === 'balance' &&
    Array.isArray(b.available) &&
    Array.isArray(b.pending) &&
    typeof b.livemode === 'boolean'
  );
}

/**
 * Masks anything shaped like a Stripe API key or webhook secret
 * (`sk_`, `rk_`, `pk_`, `whsec_` prefixes) in a text that may reach logs or clients.
 */
export function redactKeys(text: string): string {
  return text.replace(/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9*]+/g, '$1_$2_[redacted]').replace(/\bwhsec_[A-Za-z0-9*]+/g, 'whsec_[redacted]');
}

/**
 * What the customer must do for a `requires_action` PaymentIntent:
 * `next_action.redirect_to_url.url`, or for `use_stripe_sdk` the `stripe_js`
 * redirect URL when Stripe gives one; otherwise null (nothing we can relay).
 */
export function nextActionOf(nextAction: StripeNextAction | null | undefined): NextAction | null {
  if (!nextAction) return null;
  if (nextAction.type === 'redirect_to_url' && nextAction.redirect_to_url?.url) {
    return { type: 'redirect_to_url', redirect_to_url: nextAction.redirect_to_url.url };
  }
  if (nextAction.type === 'use_stripe_sdk') {
    const url = nextAction.use_stripe_sdk?.stripe_js;
    if (typeof url === 'string' && /^https:\/\//.test(url)) return { type: 'redirect_to_url', redirect_to_url: url };
  }
  return null;
}

/**
 * Maps a PaymentIntent to our result through {@link STRIPE_PAYMENT_STATUS}.
 * `amountCaptured` is `amount_received` (what Stripe has captured on the intent);
 * a `Failed` result carries `last_payment_error` (code via {@link stripeErrorCode}, message).
 * A `Succeeded` or `RequiresCapture` intent that saved its card, with its PaymentMethod expanded, carries
 * `savedMethod` ({@link savedMethodFromIntent}); no other result has the key.
 */
export function paymentResultFromIntent(intent: StripePaymentIntent): PaymentResult {
  const status = mapPaymentStatus(intent.status);
  const result: PaymentResult = {
    status,
    connectorTransactionId: intent.id,
    amountCaptured: status === 'Succeeded' ? fromStripeAmount(intent.amount_received) : 0,
  };
  if (status === 'RequiresAction') result.nextAction = nextActionOf(intent.next_action);
  if (status === 'Failed') {
    result.errorCode = stripeErrorCode(intent.last_payment_error);
    result.errorMessage = intent.last_payment_error?.message ? redactKeys(intent.last_payment_error.message) : null;
  }
  const saved = savedMethodFromIntent(intent);
  if (saved) result.savedMethod = saved;
  return result;
}

/**
 * A declined card on create+confirm: Stripe answers HTTP 402 with
 * `error.type = card_error` and the PaymentIntent in `error.payment_intent`
 * (https://docs.stripe.com/api/errors). That is a business outcome, so it becomes a
 * `Failed` result with the decline code and message.
 * @returns the `Failed` result, or null when the body is not a card error
 */
export function declineFromErrorBody(body: unknown): PaymentResult | null {
  const error = (body as StripeErrorBody | null)?.error;
  if (error?.type !== 'card_error') return null;
  return {
    status: 'Failed',
    connectorTransactionId: error.payment_intent?.id ?? null,
    amountCaptured: 0,
    errorCode: stripeErrorCode(error),
    errorMessage: error.message ? redactKeys(error.message) : null,
  };
}

/**
 * Maps a Refund to our result through {@link STRIPE_REFUND_STATUS}; a failed or
 * canceled refund carries `failure_reason` (or `canceled`) as its error code.
 */
export function refundResultFromRefund(refund: StripeRefund): RefundResult {
  const status = mapRefundStatus(refund.status);
  const result: RefundResult = { status, connectorRefundId: refund.id };
  if (status === 'Failed') {
    result.errorCode = refund.failure_reason ?? refund.status ?? null;
    result.errorMessage = refund.status === 'canceled' ? 'The refund was canceled at Stripe.' : 'The refund failed at Stripe.';
  }
  return result;
}

/**
 * Why a PaymentIntent carried by a webhook event must be read again before it is mapped, or null:
 * - `saved_method`: it saved its card ({@link savesPaymentMethod}) but events carry `payment_method` as an id,
 *   never expanded, so the card summary and fingerprint are read with the intent
 *   (`GET /v1/payment_intents/{id}?expand[0]=payment_method`, one call);
 * - `authentication`: an off-session attempt the issuer refused with `authentication_required`
 *   ({@link isAuthenticationRequired}), which the adapter answers by asking the payer
 *   (`StripeConnector.authorize`): the intent has moved on to `requires_action` (or failed for good), and that
 *   current state, not the failure the event shows, is what the payment must take.
 */
export function webhookIntentReread(intent: StripePaymentIntent): 'saved_method' | 'authentication' | null {
  if (intent.status === 'requires_payment_method' && isAuthenticationRequired(intent.last_payment_error)) return 'authentication';
  if (savesPaymentMethod(intent) && typeof intent.payment_method === 'string') return 'saved_method';
  return null;
}

/* ------------------------------------------------------------------ webhooks */

/** Default tolerance between a webhook's signed timestamp and our clock, in seconds (Stripe's libraries: 300). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Event types the adapter applies and what they concern. Every other event type
 * is acknowledged and ignored. https://docs.stripe.com/api/events/types;
 * `refund.created|updated|failed` apply to all refunds since API version
 * 2024-10-28 (https://docs.stripe.com/changelog/acacia/2024-10-28/refund-webhook-update),
 * `charge.refund.updated` before that.
 */
export const STRIPE_WEBHOOK_EVENTS: Readonly<Record<string, 'payment' | 'refund' | 'dispute'>> = {
  'payment_intent.succeeded': 'payment',
  'payment_intent.payment_failed': 'payment',
  'payment_intent.canceled': 'payment',
  'payment_intent.amount_capturable_updated': 'payment',
  'payment_intent.processing': 'payment',
  'charge.refund.updated': 'refund',
  'refund.created': 'refund',
  'refund.updated': 'refund',
  'refund.failed': 'refund',
  // Every dispute event carries the Dispute in `data.object` (https://docs.stripe.com/api/events/types).
  'charge.dispute.created': 'dispute',
  'charge.dispute.updated': 'dispute',
  'charge.dispute.closed': 'dispute',
  'charge.dispute.funds_withdrawn': 'dispute',
  'charge.dispute.funds_reinstated': 'dispute',
};

/** A parsed `Stripe-Signature` header: the signed timestamp (Unix seconds) and every `v1` signature. */
export interface StripeSignatureHeader {
  timestamp: number;
  signatures: string[];
}

/**
 * Parses `Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…][,v0=…]` (other schemes ignored,
 * as Stripe's libraries do).
 * @returns the timestamp and `v1` signatures, or null when there is no integer `t` or no `v1`
 */
export function parseSignatureHeader(header: string | undefined): StripeSignatureHeader | null {
  if (!header) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && value) signatures.push(value);
  }
  return timestamp === null || signatures.length === 0 ? null : { timestamp, signatures };
}

/**
 * The `v1` signature Stripe computes: hex HMAC-SHA256 of `${timestamp}.${rawBody}`
 * keyed with the endpoint's signing secret (`whsec_…`, used as-is).
 */
export function computeSignature(timestamp: number, rawBody: string, secret: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex signatures (false when lengths differ). */
export function signaturesMatch(expectedHex: string, givenHex: string): boolean {
  const expected = Buffer.from(expectedHex, 'utf8');
  const given = Buffer.from(givenHex, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * Why a `Stripe-Signature` does not verify, or null when it does: some `v1`
 * matches (constant-time) and `|now − t| ≤ toleranceSeconds`.
 */
export function signatureProblem(input: {
  header: string | undefined;
  rawBody: string;
  secret: string;
  nowMs: number;
  toleranceSeconds: number;
}): string | null {
  if (!input.secret) return 'No Stripe webhook secret is configured.';
  if (!input.header) return 'The Stripe-Signature header is missing.';
  const parsed = parseSignatureHeader(input.header);
  if (!parsed) return 'The Stripe-Signature header has no timestamp or no v1 signature.';
  const expected = computeSignature(parsed.timestamp, input.rawBody, input.secret);
  if (!parsed.signatures.some((s) => signaturesMatch(expected, s))) return 'No Stripe-Signature v1 signature matches the payload.';
  const skew = Math.abs(Math.floor(input.nowMs / 1000) - parsed.timestamp);
  if (skew > input.toleranceSeconds) return 'The Stripe-Signature timestamp is outside the tolerance.';
  return null;
}

/**
 * Maps a verified event to ours. PaymentIntent events → `payment` with our id from
 * `metadata.payment_id` and the intent mapped by {@link paymentResultFromIntent};
 * refund events → `refund` with our id from `metadata.refund_id`; `charge.dispute.*` → `dispute` with the Dispute
 * mapped by {@link disputeFromStripe} (`paymentId` null: an event's Dispute names the PaymentIntent by id only, so the
 * core finds the payment by `dispute.connectorTransactionId`; a dispute in a currency we never take → `ignored`); anything else →
 * `ignored`. `eventId` is Stripe's `evt_…` id, identical on redelivery.
 */
export function webhookEventFromStripe(event: StripeEvent): WebhookEvent {
  const eventId = String(event.id);
  const kind = Object.hasOwn(STRIPE_WEBHOOK_EVENTS, event.type) ? STRIPE_WEBHOOK_EVENTS[event.type] : undefined;
  const object = event.data?.object;
  if (kind === 'payment' && object?.object === 'payment_intent') {
    const intent = object as unknown as StripePaymentIntent;
    return {
      kind: 'payment',
      eventId,
      paymentId: intent.metadata?.[PAYMENT_ID_METADATA_KEY] ?? null,
      connectorTransactionId: intent.id ?? null,
      result: paymentResultFromIntent(intent),
    };
  }
  if (kind === 'dispute' && object?.object === 'dispute') {
    const dispute = disputeFromStripe(object as unknown as StripeDispute);
    if (!dispute)
      return { kind: 'ignored', eventId, reason: `Stripe dispute ${String(object.id)} is in a currency Switchyard does not take.` };
    return { kind: 'dispute', eventId, dispute, connectorDisputeId: dispute.connectorDisputeId, paymentId: dispute.paymentId };
  }
  if (kind === 'refund' && object?.object === 'refund') {
    const refund = object as unknown as StripeRefund;
    return {
      kind: 'refund',
      eventId,
      refundId: refund.metadata?.[REFUND_ID_METADATA_KEY] ?? null,
      connectorRefundId: refund.id ?? null,
      result: refundResultFromRefund(refund),
    };
  }
  return { kind: 'ignored', eventId, reason: `Stripe event ${event.type} is not applied.` };
}

/* ------------------------------------------------------------------ disputes */

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

/**
 * Stripe Dispute status → our stage and status. The one place this mapping lives.
 * - `warning_*`: an inquiry (retrieval request) before any chargeback; no money moved yet → `pre_dispute`.
 *   `warning_needs_response` → `dispute_opened`, `warning_under_review` (evidence sent) → `dispute_challenged`,
 *   `warning_closed` (the inquiry ended without a chargeback) → `dispute_cancelled`.
 * - `needs_response` → `dispute`/`dispute_opened`; `under_review` → `dispute`/`dispute_challenged`.
 * - `appeal_needs_response`, `appeal_under_review`: the second round (a pre-arbitration or appeal after a first
 *   decision) → `pre_arbitration`, opened / challenged.
 * - `won` → `dispute_won`, `lost` → `dispute_lost` (also what `POST /v1/disputes/:id/close`, accepting it, leads
 *   to: "The status of the dispute will change from needs_response to lost", stripe-node `DisputeResource.close`).
 *   The stage of a final status is `dispute`: Stripe does not say in which round it was decided.
 * - `prevented`: stopped before a formal chargeback (Visa RDR / dispute prevention; the payment is refunded by the
 *   prevention, not by the dispute) → `pre_dispute`/`dispute_cancelled`: no chargeback, no dispute money withdrawn.
 * Any other value: see {@link mapDisputeStatus}.
 */
export const STRIPE_DISPUTE_STATUS: Readonly<Record<StripeDisputeStatus, { stage: DisputeStage; status: DisputeStatus }>> = {
  warning_needs_response: { stage: 'pre_dispute', status: 'dispute_opened' },
  warning_under_review: { stage: 'pre_dispute', status: 'dispute_challenged' },
  warning_closed: { stage: 'pre_dispute', status: 'dispute_cancelled' },
  needs_response: { stage: 'dispute', status: 'dispute_opened' },
  under_review: { stage: 'dispute', status: 'dispute_challenged' },
  appeal_needs_response: { stage: 'pre_arbitration', status: 'dispute_opened' },
  appeal_under_review: { stage: 'pre_arbitration', status: 'dispute_challenged' },
  won: { stage: 'dispute', status: 'dispute_won' },
  lost: { stage: 'dispute', status: 'dispute_lost' },
  prevented: { stage: 'pre_dispute', status: 'dispute_cancelled' },
};

/**
 * Our stage and status for a Stripe Dispute status through {@link STRIPE_DISPUTE_STATUS}. An unknown (newer) value
 * maps to `dispute`/`dispute_opened` (the nearest open status: the merchant may still have to act) and logs a
 * warning naming it; the raw value stays in `connectorStatus`.
 */
export function mapDisputeStatus(status: string, disputeId?: string): { stage: DisputeStage; status: DisputeStatus } {
  if (Object.hasOwn(STRIPE_DISPUTE_STATUS, status)) return STRIPE_DISPUTE_STATUS[status as StripeDisputeStatus];
  logger.warn('unknown Stripe dispute status; mapped to dispute_opened', {
    connector: 'stripe',
    connectorStatus: String(status).slice(0, 64),
    connectorDisputeId: disputeId,
  });
  return { stage: 'dispute', status: 'dispute_opened' };
}

/** Unix seconds → ISO 8601 UTC, or null when absent, not a positive safe integer (Stripe's `due_by` 0: no response allowed). */
export function isoFromUnixSeconds(seconds: number | null | undefined): string | null {
  return typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds > 0 ? new Date(seconds * 1000).toISOString() : null;
}

/** An expandable field's id: the string, or the object's `id`, or null. */
function expandableId(value: string | { id?: unknown } | null | undefined): string | null {
  if (typeof value === 'string') return value || null;
  return value && typeof value.id === 'string' && value.id ? value.id : null;
}

/** Our currency for Stripe's lower-case code, or null when it is none we take. */
export function fromStripeCurrency(currency: string | null | undefined): Currency | null {
  const upper = typeof currency === 'string' ? currency.toUpperCase() : '';
  return (CURRENCIES as readonly string[]).includes(upper) ? (upper as Currency) : null;
}

/**
 * Maps a Dispute to ours:
 * - `connectorDisputeId`: `id` (`du_…`/`dp_…`);
 * - `paymentId`: `payment_intent.metadata.payment_id` when the PaymentIntent is expanded (the adapter's own calls
 *   ask `expand[0]=payment_intent`), else null — a Dispute carries no metadata of ours (its own `metadata` is the
 *   dispute's), and an event's Dispute names the PaymentIntent by id only;
 * - `connectorTransactionId`: the PaymentIntent's id (`pi_…`, what our payments hold as their connector transaction
 *   id), or null for a charge made without one;
 * - `amount` (smallest unit), `currency`; stage and status from {@link mapDisputeStatus}, `connectorStatus` raw;
 * - `connectorReason`: `reason`; `connectorReasonCode`: `network_reason_code`, else
 *   `payment_method_details.card.network_reason_code`, else null;
 * - `challengeRequiredBy`: `evidence_details.due_by` as ISO 8601 UTC (null when absent or 0);
 * - `createdAt`: `created` as ISO 8601 UTC.
 * @returns the dispute, or null when its currency is none Switchyard takes (it cannot concern one of our payments)
 */
export function disputeFromStripe(dispute: StripeDispute): ConnectorDispute | null {
  const currency = fromStripeCurrency(dispute.currency);
  if (!currency) return null;
  const { stage, status } = mapDisputeStatus(dispute.status, dispute.id);
  const intent = dispute.payment_intent;
  const paymentId = intent && typeof intent === 'object' ? (intent.metadata?.[PAYMENT_ID_METADATA_KEY] ?? null) : null;
  return {
    connectorDisputeId: dispute.id,
    paymentId,
    connectorTransactionId: expandableId(intent),
    amount: fromStripeAmount(dispute.amount),
    currency,
    stage,
    status,
    connectorStatus: dispute.status,
    connectorReason: dispute.reason || null,
    connectorReasonCode: dispute.network_reason_code || dispute.payment_method_details?.card?.network_reason_code || null,
    challengeRequiredBy: isoFromUnixSeconds(dispute.evidence_details?.due_by),
    createdAt: isoFromUnixSeconds(dispute.created),
  };
}

/**
 * The PaymentIntent expanded on the adapter's dispute calls (`expand[0]=payment_intent`,
 * https://docs.stripe.com/api/expanding_objects), so their answer names our payment id ({@link disputeFromStripe}).
 */
export const EXPAND_DISPUTE_PAYMENT_INTENT = ['payment_intent'] as const;

/** `GET /v1/disputes/:id` parameters: `expand[0]=payment_intent`. https://docs.stripe.com/api/disputes/retrieve */
export function retrieveDisputeParams(): Stripe.DisputeRetrieveParams {
  return { expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** `POST /v1/disputes/:id/close` parameters: `expand[0]=payment_intent`. https://docs.stripe.com/api/disputes/close */
export function buildCloseDisputeParams(): Stripe.DisputeCloseParams {
  return { expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** Our evidence fields that hold a file (Stripe's file-upload fields of `DisputeUpdateParams.Evidence`). */
const FILE_EVIDENCE_FIELDS: ReadonlySet<string> = new Set([
  'receipt',
  'customer_communication',
  'shipping_documentation',
  'service_documentation',
  'refund_policy',
  'cancellation_policy',
  'uncategorized_file',
]);

/**
 * The parameters of `POST /v1/disputes/:id` (https://docs.stripe.com/api/disputes/update; stripe-node 23.1.0
 * `DisputeUpdateParams`): `evidence[<field>]` for each field given — text fields as given, file fields as the Stripe
 * file id (`file_…`) uploaded for our file id — `submit` (`true` sends it to the issuer; `false` stages it, "Staged
 * evidence is visible in the API and Dashboard, and can be submitted to the bank by making another request with this
 * attribute set to `true`") and `expand[0]=payment_intent`. Our field names are Stripe's
 * (shared/domain/dispute-vocabulary.ts).
 * @param stripeFileIds our file id → the Stripe file id it was uploaded as
 * @throws ConnectorRequestError `missing_evidence_file` when a file field names a file not uploaded (nothing is sent)
 */
export function buildDisputeEvidenceParams(
  evidence: DisputeEvidence,
  stripeFileIds: ReadonlyMap<string, string>,
  submit: boolean,
): Stripe.DisputeUpdateParams {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(evidence)) {
    if (value === undefined) continue;
    if (FILE_EVIDENCE_FIELDS.has(field)) {
      const fileId = stripeFileIds.get(value);
      if (!fileId) {
        throw new ConnectorRequestError(
          'stripe',
          'missing_evidence_file',
          `Evidence field ${field} names file ${value.slice(0, 64)}, which was not handed to the adapter; nothing was sent.`,
        );
      }
      out[field] = fileId;
    } else {
      out[field] = value;
    }
  }
  return { evidence: out as Stripe.DisputeUpdateParams.Evidence, submit, expand: [...EXPAND_DISPUTE_PAYMENT_INTENT] };
}

/** The `purpose` of evidence files at Stripe (stripe-node 23.1.0 `FileCreateParams.Purpose`). */
export const STRIPE_DISPUTE_FILE_PURPOSE: Stripe.FileCreateParams.Purpose = 'dispute_evidence';

/**
 * The host Stripe serves `POST /v1/files` on: `files.stripe.com` (stripe-node 23.1.0 `cjs/Types.js`
 * `files: 'files.stripe.com'`; https://docs.stripe.com/api/files/create, "POST https://files.stripe.com/v1/files").
 * The adapter uses it when its base URL is Stripe's API host; any other base URL (a stand-in, a proxy) serves both.
 */
export const STRIPE_FILES_BASE_URL = 'https://files.stripe.com';

/** The base URL of file uploads for an API base URL (see {@link STRIPE_FILES_BASE_URL}). */
export function stripeFilesBaseUrl(apiBaseUrl: string): string {
  try {
    if (new URL(apiBaseUrl).hostname === 'api.stripe.com') return STRIPE_FILES_BASE_URL;
  } catch {
    // not a URL: used as given
  }
  return apiBaseUrl;
}

/**
 * The `multipart/form-data` body of `POST /v1/files` (stripe-node 23.1.0 `FileCreateParams`: `purpose`, `file`),
 * built as stripe-node's `multipartDataGenerator` builds it (`cjs/multipart.js`: one part per field, the file's part
 * with `filename` and `Content-Type`, `"` in names as `%22`, CR/LF in header values replaced by spaces, CRLF line ends).
 * @returns the `Content-Type` header (with its boundary) and the bytes
 */
export function buildFileUploadBody(file: DisputeEvidenceFile, boundary: string): { contentType: string; body: Uint8Array } {
  const stripCrLf = (s: string): string => s.replace(/\r\n|\r|\n/g, ' ');
  const quote = (s: string): string => `"${stripCrLf(s.replace(/"/g, '%22'))}"`;
  const parts: Buffer[] = [];
  const line = (text: string | Buffer): void => {
    parts.push(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, Buffer.from('\r\n'));
  };
  line(`--${boundary}`);
  line('Content-Disposition: form-data; name="purpose"');
  line('');
  line(STRIPE_DISPUTE_FILE_PURPOSE);
  line(`--${boundary}`);
  line(`Content-Disposition: form-data; name="file"; filename=${quote(file.filename || 'blob')}`);
  line(`Content-Type: ${stripCrLf(file.mediaType || 'application/octet-stream')}`);
  line('');
  line(file.content);
  line(`--${boundary}--`);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: new Uint8Array(Buffer.concat(parts)) };
}
