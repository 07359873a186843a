/**
 * A loopback Stripe stand-in for fault-injection tests: an in-process `node:http`
 * server on 127.0.0.1 (a free port) that plays the part of Stripe's REST API the
 * way our adapter (`shared/connectors/stripe/stripe-connector.ts`) calls it, keeps
 * a ledger of what it really did, and fails on command (hang, 500, connection
 * reset) before or after doing the work, so a test can compare our database with
 * the processor's truth after a fault.
 *
 * Accounts: the secret key names the Stripe account a request acts on (https://docs.stripe.com/keys:
 * "Stripe authenticates your API requests using your account's API keys"), as each merchant connects
 * its own account.
 * The stand-in starts with the default account ({@link STAND_IN_SECRET_KEY}, or `options.secretKey`),
 * plus one per key of `options.accounts`; `addAccount()` opens more at run time. Each account has its
 * own PaymentMethods, PaymentIntents, refunds, idempotency keys and balance: an object created with
 * one account's key is `404 resource_missing` ("No such payment_intent: 'pi_…'") with another's, and
 * `ledgerOf(key)` holds only what was done with that key (`ledger()` is the default account's). A key
 * that is no account's → 401 "Invalid API Key provided: sk_test_****…abcd" (masked as Stripe masks it).
 * Each request records the account it acted on (`accountId`) and the masked key (`keyHint`), never the
 * key. Faults, `setDown`, the request log and `reset()` are the server's (all accounts); a fault can be
 * limited to one account's key (`match.secretKey`).
 *
 * Wire behaviour, as Stripe documents it:
 * - form-encoded bodies (`card[number]`, `metadata[payment_id]`…),
 *   `Authorization: Bearer <secret key>` required (401 otherwise), JSON answers;
 * - `GET /v1/balance` (https://docs.stripe.com/api/balance/balance_retrieve): the account's Balance object,
 *   shaped as Stripe's OpenAPI fixture `resources.balance` (github.com/stripe/openapi `openapi/fixtures3.json`,
 *   tag v2436, kept as fixtures/stripe/openapi-fixtures3/balance.extract.json); faults apply to it as to
 *   every route, so a test can make one account's processor unreachable;
 * - a `Stripe-Version` header is required on every request (Stripe itself falls back to the
 *   account's default version; the stand-in answers 400 instead, so an adapter that stops pinning
 *   its version is caught) and recorded; a value that is not `YYYY-MM-DD[.name]` → 400;
 * - raw cards through `POST /v1/payment_methods` (https://docs.stripe.com/api/payment_methods/create;
 *   card errors of https://docs.stripe.com/testing#invalid-data: a number failing the Luhn check →
 *   402 `incorrect_number`, month outside 1–12 → `invalid_expiry_month`, a past or absent year →
 *   `invalid_expiry_year`, a CVC that is not 3–4 digits → `invalid_cvc`), then `POST /v1/payment_intents`
 *   with `payment_method=pm_…`; `payment_method_data[card]` is not a PaymentIntents parameter
 *   (stripe-node 23.1.0 `PaymentIntentCreateParams.PaymentMethodData` has no `card`) → 400
 *   `parameter_unknown`;
 * - `payment_method_types` on a PaymentIntent with `Stripe-Version` 2026-09-30 or later → 400
 *   `payment_method_types_no_longer_supported`
 *   (https://docs.stripe.com/changelog/endive/2026-09-30/removes-the-payment-method-types-parameter-from-payment-intents-and-setup-intents);
 *   `allowed_payment_method_types` before 2026-07-29 → 400 `parameter_unknown`
 *   (https://docs.stripe.com/changelog/dahlia/2026-07-29/allowed-payment-method-types-parameter), and
 *   together with `payment_method_types`, `automatic_payment_methods` or `payment_method_configuration`
 *   → 400 `parameters_exclusive`;
 * - objects are the recorded fixtures of test/connectors/fixtures/stripe/
 *   (`payment_intent.succeeded.json`, `refund.succeeded.json`, `search_result.empty.json`,
 *   `error.card_declined.json`, and the PaymentMethod of `openapi.fixtures3.extract.json`) with the
 *   fields set from the stand-in's state, so they carry every field the fixtures carry;
 * - amounts are integers in the currency's smallest unit (cents, kobo), exactly
 *   as Stripe's; `currency` is lower-case ISO 4217;
 * - idempotency (https://docs.stripe.com/api/idempotent_requests): a POST's
 *   `Idempotency-Key` saves the status and body of the first request once the
 *   endpoint started executing (declines, state errors and 500s included; not
 *   parameter-validation errors), and a retry with the same key, method, path and
 *   parameters replays it (`Idempotent-Replayed: true`) without doing the work
 *   again; the same key with another path or other parameters → 400
 *   `idempotency_error` (parameters are compared with card numbers reduced to their
 *   last 4 digits: the stand-in never keeps a PAN); while the first request is still
 *   running → 409 `idempotency_key_in_use`. Keys are ignored on GETs, as at Stripe.
 *
 * - saved payment methods (https://docs.stripe.com/payments/save-during-payment): Customers per account
 *   (`POST /v1/customers`, https://docs.stripe.com/api/customers/create, shaped as Stripe's OpenAPI fixture
 *   `resources.customer`, fixtures/stripe/openapi-fixtures3/customer.extract.json; `GET /v1/customers/:id`); a
 *   PaymentIntent with `setup_future_usage` and `customer` attaches its PaymentMethod to the Customer once authorized
 *   (`off_session` also sets the card up for off-session use); a PaymentIntent with `payment_method` + `customer` +
 *   `confirm=true` (and `off_session=true`) charges a saved one — an entry of the account's ledger under its
 *   `metadata.payment_id`; a PaymentMethod attached to a Customer is refused without that Customer; a PaymentMethod
 *   of another account is `resource_missing` ("No such payment_method"); `POST /v1/payment_methods/:id/detach`
 *   (https://docs.stripe.com/api/payment_methods/detach) makes it unusable for good; every card has a `fingerprint`
 *   (a keyed hash: the same number, the same fingerprint in one account);
 * - 3D Secure with Stripe's test cards of {@link STAND_IN_AUTHENTICATION_CARDS} (https://docs.stripe.com/testing#regulatory-cards):
 *   on-session → `requires_action` with `next_action.redirect_to_url` to the stand-in's page
 *   ({@link THREE_D_SECURE_PATH}; `completeAuthentication()` does the same from a test), off-session → 402
 *   `card_error` `authentication_required` with the intent in `requires_payment_method`
 *   (https://docs.stripe.com/declines/codes); `POST /v1/payment_intents/:id/confirm`
 *   (https://docs.stripe.com/api/payment_intents/confirm) confirms again (e.g. `off_session=false` to ask the payer);
 *   `declineCharges()` makes a saved card decline from now on;
 * - `expand[]` (https://docs.stripe.com/api/expanding_objects): `payment_method` and `customer` on PaymentIntent
 *   create, confirm and retrieve, `data.payment_method` and `data.customer` on search, `payment_intent` on the
 *   dispute routes; anything else → 400.
 * - disputes (https://docs.stripe.com/api/disputes, stripe-node 23.1.0 `resources/Disputes.d.ts`): a test
 *   opens one on an account's captured PaymentIntent (`openDispute`), moves it (`resolveDispute`, `setDisputeStatus`)
 *   and gets the `charge.dispute.*` event of its current state signed with the account's webhook secret as Stripe
 *   signs (`disputeEvent`: `Stripe-Signature: t=…,v1=<HMAC-SHA256 of "t.body">`, https://docs.stripe.com/webhooks/signature;
 *   the stand-in delivers nothing itself). Disputes are shaped as Stripe's OpenAPI fixture `resources.dispute`
 *   (fixtures/stripe/disputes/openapi.fixtures3.dispute.extract.json, tag v2436). Routes: `GET /v1/disputes/:id`,
 *   `POST /v1/disputes/:id` (`evidence[…]` staged; `submit` — default true, as at Stripe — moves `*needs_response` to
 *   `*under_review`; a file field must name a `dispute_evidence` file of the account; refused once submitted or
 *   decided), `POST /v1/disputes/:id/close` (→ `lost`, "Closing a dispute is irreversible"), and `POST /v1/files`
 *   (`multipart/form-data`, `purpose` and `file`; shaped as the fixture's `resources.file`, on the same base URL: Stripe
 *   serves it on files.stripe.com). `disputesOf` / `filesOf` are the truth. Refusals' wording is the stand-in's.
 *
 * Not modelled: a dispute's effect on refunds (`is_charge_refundable`) and on the balance, dispute listing, amount minimums, search lag (search is
 * immediately consistent here; Stripe's may lag up to an hour), webhooks,
 * refunds other than `succeeded`, the single use of a PaymentMethod that is not
 * attached to a Customer, accounts without raw card data access, Customers' other fields and endpoints
 * (update, delete, list), `PaymentMethod` attach, SetupIntents. Wording of the refusals marked "the stand-in's
 * wording" is not Stripe's published text.
 *
 * Works under jest (CommonJS: the fixtures are found through `__dirname`).
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/* ----------------------------------------------------------------- public types */

/**
 * What the stand-in does to one matching request:
 * - `hang_after_work`: does the work (ledger updated, idempotent answer saved), then
 *   never answers; the socket stays open until the client gives up, `reset()` or `close()`;
 * - `hang_before_work`: never answers and does nothing (the key is not taken either);
 * - `error_500_after_work`: does the work, answers 500 `api_error`; like Stripe, that
 *   500 is the saved answer, so a retry with the same key replays the 500;
 * - `error_500_before_work`: answers 500 `api_error` without doing anything (nothing
 *   saved: a retry with the same key does the work);
 * - `reset_after_work`: does the work (answer saved), then destroys the socket;
 * - `reset_before_work`: destroys the socket without doing anything;
 * - `slow`: takes the idempotency key, waits `delayMs` (default 200), then works and
 *   answers normally; a request with the same key meanwhile gets 409 `idempotency_key_in_use`.
 */
export type StandInFault =
  | 'hang_after_work'
  | 'hang_before_work'
  | 'error_500_after_work'
  | 'error_500_before_work'
  | 'reset_after_work'
  | 'reset_before_work'
  | 'slow';

/**
 * Which requests a fault applies to: `method` (any when omitted, case-insensitive)
 * and a `path` prefix matched against the request's path without its query
 * (`/v1/refunds` matches `POST /v1/refunds` and `GET /v1/refunds/re_…`;
 * `/v1/payment_intents` also matches `/v1/payment_intents/pi_…/capture`). A `path`
 * containing `?` is matched against the path with its query string.
 */
export interface StandInFaultMatch {
  method?: string;
  path: string;
  /**
   * Only requests sent with this secret key (one account's; see {@link StripeStandIn.addAccount}).
   * Any key, or none, when omitted.
   */
  secretKey?: string;
}

/** How often a fault applies (`times`, default 1) and, for `slow`, the delay in milliseconds (default 200). */
export interface StandInFaultOptions {
  times?: number;
  delayMs?: number;
}

/** A fault still armed: what it matches, what it does, how many more requests it applies to. */
export interface StandInPendingFault {
  match: StandInFaultMatch;
  fault: StandInFault;
  remaining: number;
}

/** One refund in the ledger. `amount` in minor units; `metadata` as sent (`refund_id`, `payment_id`). */
export interface StandInLedgerRefund {
  /** Stripe's refund id (`re_…`). */
  id: string;
  amount: number;
  /** Always `succeeded` in the stand-in. */
  status: 'succeeded';
  metadata: Record<string, string>;
}

/**
 * The processor's truth about one of our payments (all PaymentIntents carrying
 * `metadata[payment_id]` = our payment id). Amounts are integers in minor units.
 */
export interface StandInLedgerEntry {
  /** Our payment id (`metadata.payment_id`). */
  paymentId: string;
  /**
   * The PaymentIntent that authorized money for this payment (the first one, if
   * several did), else the latest one created (a declined or unconfirmed one).
   */
  paymentIntentId: string;
  /** Every PaymentIntent created with this payment id, oldest first. */
  paymentIntentIds: string[];
  /** Stripe's `status` of {@link paymentIntentId}: `succeeded`, `requires_capture`, `canceled`, `requires_payment_method`… */
  status: string;
  /** Lower-case ISO 4217, as Stripe writes it. */
  currency: string;
  /** `amount` of {@link paymentIntentId}. */
  amount: number;
  /** Still authorized and capturable, summed over the authorized intents. */
  amountCapturable: number;
  /** Captured (Stripe's `amount_received`), summed over the authorized intents. */
  amountCaptured: number;
  /** Sum of the refunds below. */
  amountRefunded: number;
  /** Refunds of these intents, oldest first. */
  refunds: StandInLedgerRefund[];
  /**
   * PaymentIntents for this payment id whose card was authorized (money held or
   * taken). Declines are not charges. More than 1 means the payer was charged twice.
   */
  charges: number;
  /** PaymentIntents for this payment id whose card was declined (no money moved). */
  declines: number;
}

/**
 * A PaymentMethod the stand-in created (`POST /v1/payment_methods`): moves no money, so it is not
 * in the ledger. Only the card's summary is kept, never its number or CVC.
 */
export interface StandInPaymentMethod {
  /** `pm_…`. */
  id: string;
  /** `metadata.payment_id` as sent (our payment id), or null. */
  paymentId: string | null;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The `Idempotency-Key` it was created under, or null. */
  idempotencyKey: string | null;
}

/** A Customer of one account (`POST /v1/customers`), as {@link StripeStandIn.customersOf} shows it. */
export interface StandInCustomer {
  /** `cus_…`. */
  id: string;
  email: string | null;
  /** As sent (`customer_id`: our customer id). */
  metadata: Record<string, string>;
  /** PaymentMethods attached to it now (`pm_…`), oldest first. */
  paymentMethodIds: string[];
  /** PaymentMethods detached from it (unusable), oldest first. */
  detachedPaymentMethodIds: string[];
  /** The `Idempotency-Key` it was created under, or null. */
  idempotencyKey: string | null;
}

/** One dispute of one account, as {@link StripeStandIn.disputesOf} shows it. Amounts in minor units. */
export interface StandInDispute {
  /** `du_…`. */
  id: string;
  /** The disputed PaymentIntent (`pi_…`) and its charge (`ch_…`). */
  paymentIntentId: string;
  chargeId: string;
  /** `metadata.payment_id` of the PaymentIntent (our payment id), or null. */
  paymentId: string | null;
  amount: number;
  /** Lower-case ISO 4217. */
  currency: string;
  /** Stripe's `status`. */
  status: string;
  reason: string;
  /** `evidence_details.due_by`, Unix seconds. */
  dueBy: number;
  /** Evidence staged or submitted, as sent (`evidence[field]` → value; file fields hold `file_…` ids). */
  evidence: Record<string, string>;
  /** `evidence_details.submission_count`: requests with `submit` true. */
  submissionCount: number;
  /** Whether it was closed with `POST /v1/disputes/:id/close` (accepted). */
  closed: boolean;
}

/** One file uploaded to one account with `POST /v1/files`, as {@link StripeStandIn.filesOf} shows it. */
export interface StandInFile {
  /** `file_…`. */
  id: string;
  purpose: string;
  /** As sent in the `file` part's `filename`. */
  filename: string;
  /** The part's `Content-Type`. */
  mediaType: string;
  size: number;
  /** Hex SHA-256 of the bytes received. */
  sha256: string;
  idempotencyKey: string | null;
}

/** A Stripe Dispute object as the stand-in renders it (https://docs.stripe.com/api/disputes/object). */
export type StandInDisputeObject = Record<string, unknown> & { id: string; object: 'dispute'; status: string; payment_intent: unknown };

/** The dispute events Stripe sends (https://docs.stripe.com/api/events/types). */
export type StandInDisputeEventType =
  | 'charge.dispute.created'
  | 'charge.dispute.updated'
  | 'charge.dispute.closed'
  | 'charge.dispute.funds_withdrawn'
  | 'charge.dispute.funds_reinstated';

/** A signed webhook delivery as Stripe would POST it: the exact body, its headers, and the event parsed. */
export interface StandInSignedEvent {
  rawBody: string;
  /** Lower-case: `stripe-signature` (`t=<unix>,v1=<hex>`) and `content-type`. */
  headers: Record<string, string>;
  event: Record<string, unknown> & { id: string; type: string };
}

/** One PaymentIntent of one account, as {@link StripeStandIn.paymentIntentsOf} shows it. Amounts in minor units. */
export interface StandInPaymentIntent {
  /** `pi_…`. */
  id: string;
  /** `metadata.payment_id` (our payment id), or null. */
  paymentId: string | null;
  /** Stripe's `status`. */
  status: string;
  amount: number;
  /** Lower-case ISO 4217. */
  currency: string;
  /** `customer` (`cus_…`), or null. */
  customer: string | null;
  /** `payment_method` (`pm_…`), or null (none yet, or the last attempt failed). */
  paymentMethod: string | null;
  /** `setup_future_usage`, or null. */
  setupFutureUsage: string | null;
  /** Whether its last confirm was off-session. */
  offSession: boolean;
  /** The card was authorized (money held or taken). */
  authorized: boolean;
  /** `last_payment_error.code` (e.g. `authentication_required`, `card_declined`), or null. */
  lastPaymentErrorCode: string | null;
  /** `next_action.type` (`redirect_to_url`, `use_stripe_sdk`), or null. */
  nextActionType: string | null;
}

/**
 * One request as the stand-in received it. `form` is the parsed body (POST) or
 * query (GET) with card numbers reduced to their last 4 digits (`****4242`) and
 * CVCs replaced by `***`: no PAN or CVC is ever kept.
 */
export interface StandInRequest {
  /** 1, 2, 3… in arrival order. */
  seq: number;
  method: string;
  /** The path without the query, e.g. `/v1/payment_intents/pi_…/capture`. */
  path: string;
  /** The query string including `?`, or `''`. */
  query: string;
  idempotencyKey: string | null;
  /** The `Stripe-Version` header, or null when the client sent none. */
  stripeVersion: string | null;
  /**
   * The account (`acct_…`) whose secret key the request was sent with, or null when the key was
   * missing or is no account's (the request was answered 401).
   */
  accountId: string | null;
  /**
   * The secret key sent, masked as Stripe masks it in its 401 message (first 8 characters, `*`s,
   * last 4: `sk_test_****…abcd`), or null when none was sent. The key itself is never kept.
   */
  keyHint: string | null;
  form: Record<string, string>;
  /** The injected fault that applied, or `'down'`, or null. */
  fault: StandInFault | 'down' | null;
  /**
   * `answered` (work done or refused normally), `replayed` (an idempotent replay),
   * `hung` (never answered), `reset` (socket destroyed), `pending` (not finished yet).
   */
  outcome: 'pending' | 'answered' | 'replayed' | 'hung' | 'reset';
  /** HTTP status sent (or that would have been sent before a hang/reset after work), null when none. */
  status: number | null;
}

/** Options of {@link startStripeStandIn}. */
export interface StripeStandInOptions {
  /** The default account's secret key (default {@link STAND_IN_SECRET_KEY}). */
  secretKey?: string;
  /**
   * More secret keys accepted, each naming an account of its own (own objects, ledger, idempotency
   * keys, balance), as each merchant connects its own Stripe account. Each gets a generated account id
   * and webhook secret ({@link StripeStandIn.accounts}).
   */
  accounts?: string[];
  /** The clock for `created` timestamps, in epoch milliseconds (default `Date.now`). */
  now?: () => number;
}

/** A running stand-in. Obtain one with {@link startStripeStandIn}; call `close()` in `afterAll`. */
export interface StripeStandIn {
  /** Base URL, `http://127.0.0.1:<port>`, no trailing slash: the adapter's `baseUrl` / `STRIPE_BASE_URL`. */
  readonly url: string;
  /** The default account's secret key (fake, `sk_test_…`). */
  readonly secretKey: string;
  /** The default account's fake webhook signing secret (`whsec_…`) to configure the adapter with. */
  readonly webhookSecret: string;
  /** The default account's id (`acct_…`). */
  readonly accountId: string;
  /** Every request received since start or the last `reset()`, in arrival order (live, redacted). */
  readonly requests: readonly StandInRequest[];
  /**
   * The default account's truth, keyed by our payment id (`metadata.payment_id`); a fresh snapshot
   * each call. Same as `ledgerOf(secretKey)`.
   */
  ledger(): Record<string, StandInLedgerEntry>;
  /**
   * One account's truth (the account the secret key names), as {@link ledger}: only what was done
   * with that key.
   * @throws Error when the key is no account's
   */
  ledgerOf(secretKey: string): Record<string, StandInLedgerEntry>;
  /** The default account's PaymentMethods since start or the last `reset()`, oldest first (a fresh snapshot). */
  paymentMethods(): StandInPaymentMethod[];
  /**
   * One account's PaymentMethods, as {@link paymentMethods}.
   * @throws Error when the key is no account's
   */
  paymentMethodsOf(secretKey: string): StandInPaymentMethod[];
  /**
   * One account's Customers (the default account's without a key), oldest first, with the PaymentMethods attached to
   * and detached from each.
   * @throws Error when the key is no account's
   */
  customersOf(secretKey?: string): StandInCustomer[];
  /**
   * One account's PaymentIntents (the default account's without a key), oldest first: status, Customer,
   * PaymentMethod, `setup_future_usage`, off-session or not.
   * @throws Error when the key is no account's
   */
  paymentIntentsOf(secretKey?: string): StandInPaymentIntent[];
  /**
   * The payer finishes the 3DS of an intent in `requires_action` (what following its `redirect_to_url`,
   * {@link THREE_D_SECURE_PATH}, does): `succeeded` (default) authorizes it — unless its card declines — and attaches a
   * card set up for future usage to the Customer; `failed` leaves it `requires_payment_method` with
   * `payment_intent_authentication_failure`.
   * @throws Error when the key is no account's, the intent is unknown there, or it is not `requires_action`
   */
  completeAuthentication(paymentIntentId: string, outcome?: 'succeeded' | 'failed', secretKey?: string): void;
  /**
   * From now on, confirms with this PaymentMethod are declined 402 `card_declined` with `declineCode` (a saved card
   * the issuer starts to decline, e.g. `insufficient_funds` on a renewal; Stripe's test card `4000000000000341`
   * behaves so once attached, https://docs.stripe.com/testing#declined-payments); null lifts it.
   * @throws Error when the key is no account's or the PaymentMethod is unknown there
   */
  declineCharges(paymentMethodId: string, decline: { declineCode: string; message: string } | null, secretKey?: string): void;
  /**
   * A cardholder disputes a captured PaymentIntent of the account (the default account's without a key):
   * a Dispute (`du_…`) with `amount` (default: all captured), `reason` (default `fraudulent`), `status` (default
   * `needs_response`; any string, also one Stripe does not document), `networkReasonCode` (default `10.4`), `dueBy`
   * (Unix seconds; default 7 days after now), created now.
   * @returns the Dispute object as `GET /v1/disputes/:id` answers it (PaymentIntent not expanded)
   * @throws Error when the key is no account's, or the intent is unknown there or has no captured charge
   */
  openDispute(
    paymentIntentId: string,
    options?: { amount?: number; reason?: string; status?: string; networkReasonCode?: string | null; dueBy?: number },
    secretKey?: string,
  ): StandInDisputeObject;
  /**
   * The issuer decides: the dispute becomes `won` or `lost` (whatever its status).
   * @returns the Dispute object after it
   * @throws Error when no account has that dispute
   */
  resolveDispute(disputeId: string, outcome: 'won' | 'lost'): StandInDisputeObject;
  /**
   * Sets a dispute's `status` to any value (every value of Stripe's table, or an unknown one).
   * @returns the Dispute object after it
   * @throws Error when no account has that dispute
   */
  setDisputeStatus(disputeId: string, status: string): StandInDisputeObject;
  /**
   * The `charge.dispute.*` event Stripe would send now for a dispute (its current state in `data.object`, PaymentIntent
   * as an id), signed with the webhook secret of the account that holds it, exactly as Stripe signs
   * (`Stripe-Signature: t=<timestamp>,v1=<hex HMAC-SHA256 of "<timestamp>.<rawBody>">`). A new `evt_…` id each call
   * (a redelivery is the same `rawBody` sent again). `type` defaults to `charge.dispute.closed` for a decided dispute
   * (`won`, `lost`, `warning_closed`, `prevented`) and `charge.dispute.updated` otherwise; `timestamp` (Unix seconds)
   * defaults to the stand-in's clock.
   * @throws Error when no account has that dispute
   */
  disputeEvent(disputeId: string, type?: StandInDisputeEventType, options?: { timestamp?: number }): StandInSignedEvent;
  /**
   * One account's disputes (the default account's without a key), oldest first: the truth about them.
   * @throws Error when the key is no account's
   */
  disputesOf(secretKey?: string): StandInDispute[];
  /**
   * One account's uploaded files (the default account's without a key), oldest first.
   * @throws Error when the key is no account's
   */
  filesOf(secretKey?: string): StandInFile[];
  /**
   * Opens another account (a merchant's own Stripe account): a fresh `sk_test_…` key, webhook
   * secret and `acct_…` id; from now on requests with that key act on that account only.
   */
  addAccount(): StripeStandInAccount;
  /**
   * Closes an account (e.g. a merchant rolled its key): its key is answered 401 from now on, and its
   * objects are forgotten.
   * @throws Error for the default account's key or a key that is no account's
   */
  removeAccount(secretKey: string): void;
  /** Every account, the default one first, then in the order opened. */
  accounts(): StripeStandInAccount[];
  /**
   * Arms a fault for the next matching request (or the next `options.times`).
   * Faults apply in the order armed; a request takes at most one.
   */
  failNext(match: StandInFaultMatch, fault: StandInFault, options?: StandInFaultOptions): void;
  /** Faults armed and not yet used up. */
  pendingFaults(): StandInPendingFault[];
  /** While down, every request's socket is destroyed on arrival (connection reset) and nothing is done. */
  setDown(down: boolean): void;
  /**
   * Forgets everything: every account's payment methods, intents, refunds and idempotency keys,
   * faults, requests, `down`; destroys hanging sockets. The accounts themselves (keys) are kept.
   */
  reset(): void;
  /** Destroys hanging sockets, stops pending delays and closes the server. */
  close(): Promise<void>;
}

/** One account of the stand-in: its secret key names it. Fake values, not real Stripe keys. */
export interface StripeStandInAccount {
  /** `acct_…`. */
  accountId: string;
  /** `sk_test_…`: requests with it act on this account only. */
  secretKey: string;
  /** `whsec_…`: the account's webhook signing secret (the stand-in sends no webhooks; `disputeEvent` signs with it). */
  webhookSecret: string;
}

/** The fake secret key the stand-in accepts by default. Not a real Stripe key. */
export const STAND_IN_SECRET_KEY = 'sk_test_51StandInFakeKeyNotARealStripeKey000000000000000000000000standin';
/** The fake webhook signing secret handed out by {@link stripeEnv}. Not a real secret. */
export const STAND_IN_WEBHOOK_SECRET = 'whsec_standInFakeSigningSecretNotReal0000000000';

/**
 * Test card numbers the stand-in declines, as Stripe's test mode does
 * (https://docs.stripe.com/testing#declined-payments): HTTP 402 `card_error`
 * `card_declined`, the PaymentIntent left in `requires_payment_method`. Any other
 * number is approved.
 */
export const STAND_IN_DECLINED_CARDS: Readonly<Record<string, { declineCode: string; message: string }>> = {
  '4000000000000002': { declineCode: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

/** How a card of {@link STAND_IN_AUTHENTICATION_CARDS} asks for the payer. */
export type StandInAuthentication = 'always' | 'unless_set_up';

/**
 * Stripe's 3D Secure test cards the stand-in models (https://docs.stripe.com/testing#regulatory-cards):
 * - `4000002760003184` (`always`): "authentication required on all transactions, regardless of how the card is set
 *   up" — every on-session confirm goes to `requires_action` (the hosted 3DS page), every off-session one is declined
 *   402 `authentication_required`;
 * - `4000002500003155` (`unless_set_up`): authentication is required until the card has been set up for off-session
 *   use (a `setup_future_usage=off_session` PaymentIntent succeeded with it, 3DS done), after which no payment asks
 *   for the payer again.
 * Any other card never asks.
 */
export const STAND_IN_AUTHENTICATION_CARDS: Readonly<Record<string, StandInAuthentication>> = {
  '4000002760003184': 'always',
  '4000002500003155': 'unless_set_up',
};

/** Where the stand-in serves its 3DS page (the shape of Stripe's `https://hooks.stripe.com/3d_secure_2/hosted?…`). */
export const THREE_D_SECURE_PATH = '/3d_secure_2/hosted';

/* ------------------------------------------------------------------- templates */

type Json = Record<string, unknown>;

const FIXTURES = join(__dirname, '..', 'connectors', 'fixtures', 'stripe');
const template = (name: string): Json => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Json;
const PAYMENT_INTENT_TEMPLATE = template('payment_intent.succeeded');
const REFUND_TEMPLATE = template('refund.succeeded');
const SEARCH_TEMPLATE = template('search_result.empty');
const DECLINE_TEMPLATE = (template('error.card_declined').error ?? {}) as Json;
const PAYMENT_METHOD_TEMPLATE = ((template('openapi.fixtures3.extract').resources as Json).payment_method ?? {}) as Json;
/** Stripe's OpenAPI fixture `resources.balance` (stripe/openapi v2436; source in the file). */
const BALANCE_TEMPLATE = ((template('openapi-fixtures3/balance.extract').resources as Json).balance ?? {}) as Json;
/** Stripe's OpenAPI fixture `resources.customer` (stripe/openapi v2436; source in the file). */
const CUSTOMER_TEMPLATE = ((template('openapi-fixtures3/customer.extract').resources as Json).customer ?? {}) as Json;
/** A failed 3DS: `last_payment_error` of the recorded `requires_payment_method` intent (`payment_intent_authentication_failure`). */
const DISPUTE_EXTRACT = template('disputes/openapi.fixtures3.dispute.extract').resources as Json;
/** Stripe's OpenAPI fixture `resources.dispute` (tag v2436): the shape every Dispute is rendered in. */
const DISPUTE_TEMPLATE = (DISPUTE_EXTRACT.dispute ?? {}) as Json;
/** Stripe's OpenAPI fixture `resources.file` (tag v2436), without its `links` list (the stand-in makes no links). */
const FILE_TEMPLATE = { ...((DISPUTE_EXTRACT.file ?? {}) as Json), links: null } as Json;
/** The `api_version` of the events `disputeEvent` builds: the version the adapter pins (stripe-node 23.1.0). */
export const STAND_IN_EVENT_API_VERSION = '2026-10-28.endive';
/** Dispute statuses in which evidence may still be staged or submitted (`*needs_response`). */
const DISPUTE_RESPONDABLE = ['needs_response', 'warning_needs_response', 'appeal_needs_response'];
/** Where `submit` moves a respondable dispute. */
const DISPUTE_SUBMITTED: Readonly<Record<string, string>> = {
  needs_response: 'under_review',
  warning_needs_response: 'warning_under_review',
  appeal_needs_response: 'appeal_under_review',
};
/** Decided disputes (their event is `charge.dispute.closed`). */
const DISPUTE_DECIDED = ['won', 'lost', 'warning_closed', 'prevented'];
/** Evidence fields holding a file id (stripe-node 23.1.0 `DisputeUpdateParams.Evidence`, "(ID of a file upload)"). */
const DISPUTE_FILE_FIELDS = [
  'cancellation_policy',
  'customer_communication',
  'customer_signature',
  'duplicate_charge_documentation',
  'receipt',
  'refund_policy',
  'service_documentation',
  'shipping_documentation',
  'uncategorized_file',
];
const AUTHENTICATION_FAILURE_TEMPLATE = (template('payment_intent.requires_payment_method').last_payment_error ?? {}) as Json;

/** The decline (and error) code of an off-session charge whose card needs the payer (https://docs.stripe.com/declines/codes). */
const AUTHENTICATION_REQUIRED = 'authentication_required';
/** `setup_future_usage` values ([pkg] `PaymentIntentCreateParams.SetupFutureUsage`). */
const SETUP_FUTURE_USAGES = ['on_session', 'off_session'];
/** What a PaymentIntent request may expand (https://docs.stripe.com/api/expanding_objects): the stand-in renders these two. */
const INTENT_EXPANDABLE = ['payment_method', 'customer'];

/** Stripe-Version dates: from 2026-09-30 `payment_method_types` is refused; from 2026-07-29 `allowed_payment_method_types` exists. */
const PAYMENT_METHOD_TYPES_REMOVED = '2026-09-30';
const ALLOWED_PAYMENT_METHOD_TYPES_ADDED = '2026-07-29';
const STRIPE_VERSION = /^(\d{4}-\d{2}-\d{2})(\.[a-z][a-z0-9_]*)?$/;
const clone = <T>(value: T): T => structuredClone(value);

/* --------------------------------------------------------------------- helpers */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A Stripe-looking id: `prefix_` + 24 random base62 characters. */
function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return `${prefix}_${out}`;
}

/** The form with card numbers cut to their last 4 digits and CVCs masked. */
function redact(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    if (/(^|\[)cvc\]?$/.test(key)) out[key] = '***';
    else if (/card\]?\[number\]$/.test(key)) out[key] = `****${value.slice(-4)}`;
    else out[key] = value;
  }
  return out;
}

/**
 * A secret key as Stripe shows it in its 401 message: the first 8 characters, `*`s, the last 4
 * (`sk_test_****…abcd`); `****` for a key of 12 characters or fewer. Never the key itself.
 */
function maskKey(key: string): string {
  return key.length > 12 ? `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}` : '****';
}

/** The key of an `Authorization: Bearer <key>` header, or null. */
function bearerKey(authorization: string | undefined): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? null;
}

/** `metadata[key]=value` fields → `{key: value}`. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) {
    const m = /^metadata\[([^\]]+)\]$/.exec(key);
    if (m?.[1]) out[m[1]] = value;
  }
  return out;
}

/** Stripe's card brand from the leading digits (for the decline's `payment_method.card`). */
/**
 * Parses a `multipart/form-data` body (RFC 7578; what stripe-node's `multipartDataGenerator` sends): its text parts as
 * form fields, and its file part (`name="file"`; any part with a `filename`) with its name, type and bytes. The file
 * is also listed in the fields as `file=<filename>:<size>:<sha256>` so idempotency compares it.
 * @returns null when the content type is not multipart or has no boundary
 */
function parseMultipart(contentType: string | undefined, body: Buffer): Multipart | null {
  const m = /^multipart\/form-data;.*\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  if (!m) return null;
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`);
  const fields = new URLSearchParams();
  let file: Multipart['file'] = null;
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // after the CRLF that ends the delimiter line, before the CRLF ending the part
    const split = part.indexOf('\r\n\r\n');
    if (split >= 0) {
      const head = part.subarray(0, split).toString('utf8');
      const content = part.subarray(split + 4);
      const name = /name="([^"]*)"/i.exec(head)?.[1] ?? '';
      const filename = /filename="([^"]*)"/i.exec(head)?.[1];
      if (filename !== undefined) {
        const mediaType = /^content-type:\s*(.+)$/im.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
        file = { filename, mediaType, content: Buffer.from(content) };
        fields.append(name, `${filename}:${content.length}:${createHash('sha256').update(content).digest('hex')}`);
      } else {
        fields.append(name, content.toString('utf8'));
      }
    }
    at = next;
  }
  return { fields, file };
}

function brandOf(pan: string): string {
  if (/^4/.test(pan)) return 'visa';
  if (/^(5[1-5]|2(2[2-9][1-9]|[3-6]\d\d|7[01]\d|720))/.test(pan)) return 'mastercard';
  if (/^3[47]/.test(pan)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(pan)) return 'discover';
  return 'unknown';
}

/** Luhn (mod 10) check of a digit string (ISO/IEC 7812-1). */
function luhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * `card.fingerprint` of a card number in one account: 16 base62 characters of an HMAC-SHA256 of the number under the
 * account's random key (Stripe's fingerprints are 16 characters, e.g. `AOB934RVNwzk6xtn` in its OpenAPI fixture). The
 * same number gives the same fingerprint in the account; the number itself is never kept.
 */
function fingerprintOf(key: Buffer, pan: string): string {
  const digest = createHmac('sha256', key).update(pan).digest();
  let out = '';
  for (const b of digest.subarray(0, 16)) out += BASE62[b % 62];
  return out;
}

/** `12345` minor units of `usd` → `123.45 usd`, for error messages (two-decimal currencies). */
function money(minor: number, currency: string): string {
  return `${(minor / 100).toFixed(2)} ${currency}`;
}

/* ---------------------------------------------------------------- wire answers */

interface Answer {
  status: number;
  body: unknown;
  /** Whether Stripe would save this answer under the request's idempotency key (endpoint execution began). */
  save: boolean;
}

const ok = (body: unknown): Answer => ({ status: 200, body, save: true });

/** An error answer: `{error: {...}}` (https://docs.stripe.com/api/errors). */
function stripeError(status: number, error: Json, save: boolean): Answer {
  return { status, body: { error }, save };
}

const API_ERROR = (): Answer => stripeError(500, { message: 'An unknown error occurred', type: 'api_error' }, false);

function invalid(code: string, message: string, param: string | null, save = false, extra: Json = {}): Answer {
  const error: Json = { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`, message };
  if (param) error.param = param;
  return stripeError(400, { ...error, ...extra, type: 'invalid_request_error' }, save);
}

function missing(kind: string, id: string, param: string, status = 404): Answer {
  return { ...invalid('resource_missing', `No such ${kind}: '${id}'`, param), status };
}

/** A 402 `card_error` about the card's data (https://docs.stripe.com/api/errors: no charge, no PaymentIntent). */
function cardError(code: string, message: string, param: string): Answer {
  return stripeError(
    402,
    { code, doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`, message, param, type: 'card_error' },
    true,
  );
}

/** Parses a positive integer amount field; `undefined` when absent. */
function amountParam(form: URLSearchParams, name: string): number | undefined | Answer {
  const raw = form.get(name);
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    return invalid('parameter_invalid_integer', `Invalid integer: ${raw}`, name);
  const n = Number(raw);
  if (n < 1) return invalid('parameter_invalid_integer', 'This value must be greater than or equal to 1.', name);
  return n;
}
const isAnswer = (v: unknown): v is Answer => typeof v === 'object' && v !== null && 'status' in v && 'save' in v;

/**
 * `expand[0]=…`, `expand[1]=…` (https://docs.stripe.com/api/expanding_objects), each one of `allowed`; anything else
 * → 400 "This property cannot be expanded (…)".
 */
function expandParam(form: URLSearchParams, allowed: readonly string[]): string[] | Answer {
  const out: string[] = [];
  for (const [key, value] of form) {
    if (!/^expand\[\d+\]$/.test(key)) continue;
    if (!allowed.includes(value)) return invalid('parameter_invalid_string', `This property cannot be expanded (${value}).`, key);
    out.push(value);
  }
  return out;
}

/**
 * `off_session` ([pkg] `boolean | 'one_off' | 'recurring'`): true for `true`, `one_off`, `recurring`; only with a
 * confirm ("This parameter can only be used with confirm=true"; the stand-in's wording).
 */
function offSessionParam(form: URLSearchParams, confirming: boolean): boolean | Answer {
  const raw = form.get('off_session');
  if (raw === null || raw === 'false') return false;
  if (!['true', 'one_off', 'recurring'].includes(raw))
    return invalid('parameter_invalid_boolean', `Invalid boolean: ${raw}`, 'off_session');
  if (!confirming) return invalid('parameter_invalid_boolean', 'off_session can only be used with confirm=true.', 'off_session');
  return true;
}

/**
 * Why a PaymentMethod cannot be used by an intent of `customerId`, or null:
 * - detached from a Customer: "The provided PaymentMethod was previously used with a PaymentIntent without Customer
 *   attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may
 *   not be used again. …" (Stripe's message as quoted in public threads: github.com/liberapay/liberapay.com/issues/2686,
 *   github.com/stripe/stripe-react-native/issues/1170);
 * - attached to a Customer the intent does not name (Stripe: "If the payment method is attached to a Customer, you
 *   must also provide the ID of that Customer", [pkg] `PaymentIntentCreateParams.payment_method`; the stand-in's
 *   wording).
 */
function paymentMethodRefusal(pm: PaymentMethodRecord, customerId: string | null): Answer | null {
  if (pm.detachedFrom) {
    return stripeError(
      400,
      {
        message:
          'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
        param: 'payment_method',
        type: 'invalid_request_error',
      },
      false,
    );
  }
  if (pm.customerId && pm.customerId !== customerId) {
    return stripeError(
      400,
      {
        message: customerId
          ? `The provided PaymentMethod belongs to another Customer than ${customerId}.`
          : 'The provided PaymentMethod is attached to a Customer: provide that Customer as customer.',
        param: 'payment_method',
        type: 'invalid_request_error',
      },
      false,
    );
  }
  return null;
}

/* ------------------------------------------------------------------------ state */

interface Intent {
  id: string;
  amount: number;
  currency: string;
  captureMethod: string;
  status: string;
  amountCapturable: number;
  amountReceived: number;
  created: number;
  metadata: Record<string, string>;
  paymentMethodTypes: string[];
  paymentMethodId: string | null;
  chargeId: string | null;
  clientSecret: string;
  canceledAt: number | null;
  cancellationReason: string | null;
  lastPaymentError: Json | null;
  /** The card was authorized (money held or taken). */
  authorized: boolean;
  declined: boolean;
  /** `customer` (`cus_…`), or null. */
  customerId: string | null;
  /** `setup_future_usage` (`on_session` | `off_session`), or null. */
  setupFutureUsage: string | null;
  /** Whether the last confirm was off-session (`off_session=true`). */
  offSession: boolean;
  /** The `return_url` of the last confirm that gave one. */
  returnUrl: string | null;
  /** `next_action` while `requires_action` (the hosted 3DS page), else null. */
  nextAction: Json | null;
}

interface PaymentMethodRecord {
  id: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  created: number;
  metadata: Record<string, string>;
  billingDetails: Json;
  /**
   * The decline its card gets on confirm (from {@link STAND_IN_DECLINED_CARDS}), decided at creation: the PAN is not
   * kept; {@link StripeStandIn.declineCharges} changes it later.
   */
  decline: { declineCode: string; message: string } | null;
  idempotencyKey: string | null;
  /** Whether its card asks for the payer ({@link STAND_IN_AUTHENTICATION_CARDS}), decided at creation. */
  authentication: 'none' | StandInAuthentication;
  /** `card.fingerprint`: a keyed hash of the number, the same for every PaymentMethod of one card in the account. */
  fingerprint: string;
  /** The Customer it is attached to (`cus_…`), or null. */
  customerId: string | null;
  /** The Customer it was detached from; a detached PaymentMethod can never be used again. */
  detachedFrom: string | null;
  /** Set up for off-session use (a `setup_future_usage=off_session` intent succeeded with it). */
  setUp: boolean;
}

/** A Customer of one account (`POST /v1/customers`). */
interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  metadata: Record<string, string>;
  idempotencyKey: string | null;
}

interface Refund {
  id: string;
  amount: number;
  currency: string;
  paymentIntentId: string;
  chargeId: string | null;
  created: number;
  metadata: Record<string, string>;
  reason: string | null;
  balanceTransaction: string;
  reference: string;
}

/** A dispute of one account. */
interface DisputeRecord {
  id: string;
  paymentIntentId: string;
  chargeId: string;
  amount: number;
  currency: string;
  status: string;
  reason: string;
  networkReasonCode: string | null;
  created: number;
  dueBy: number;
  evidence: Record<string, string>;
  submissionCount: number;
  closed: boolean;
  metadata: Record<string, string>;
}

/** A file uploaded with `POST /v1/files`. */
interface FileRecord {
  id: string;
  purpose: string;
  filename: string;
  mediaType: string;
  size: number;
  sha256: string;
  created: number;
  idempotencyKey: string | null;
}

/** A `multipart/form-data` body: its text fields and its file part (`file`), if any. */
interface Multipart {
  fields: URLSearchParams;
  file: { filename: string; mediaType: string; content: Buffer } | null;
}

interface IdempotencyEntry {
  method: string;
  path: string;
  fingerprint: string;
  state: 'running' | 'done';
  answer?: Answer;
}

/** One account's state: everything a request made with its key can see or change. */
interface Account {
  id: string;
  secretKey: string;
  webhookSecret: string;
  paymentMethods: Map<string, PaymentMethodRecord>;
  intents: Map<string, Intent>;
  refunds: Map<string, Refund>;
  /** Customers: a saved PaymentMethod belongs to one of them, in this account only. */
  customers: Map<string, CustomerRecord>;
  /** Idempotency keys are scoped to the account, as at Stripe. */
  idempotency: Map<string, IdempotencyEntry>;
  /** Disputes and uploaded files. */
  disputes: Map<string, DisputeRecord>;
  files: Map<string, FileRecord>;
  /** Keys the card fingerprints of this account (random per account). */
  fingerprintKey: Buffer;
}

const newAccount = (id: string, secretKey: string, webhookSecret: string): Account => ({
  id,
  secretKey,
  webhookSecret,
  paymentMethods: new Map(),
  intents: new Map(),
  refunds: new Map(),
  customers: new Map(),
  idempotency: new Map(),
  disputes: new Map(),
  files: new Map(),
  fingerprintKey: randomBytes(32),
});

/** The default account's id. Fake. */
const DEFAULT_ACCOUNT_ID = 'acct_1StandInDefault00';

interface ArmedFault extends StandInPendingFault {
  delayMs: number;
}

/** One request in flight: its parsed parts. */
interface Context {
  method: string;
  path: string;
  query: string;
  params: URLSearchParams;
  record: StandInRequest;
  authorization: string | undefined;
  idempotencyKey: string | null;
  /** The file part of a `multipart/form-data` body (`POST /v1/files`), or null. */
  upload: Multipart['file'];
}

/** What `#execute` did: the answer, whether it is an idempotent replay, the idempotency entry saved. */
interface Executed {
  answer: Answer;
  replayed: boolean;
  entry: IdempotencyEntry | null;
}

const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing'];
/** Statuses `POST /v1/payment_intents/:id/confirm` takes (https://docs.stripe.com/api/payment_intents/confirm). */
const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

/* ------------------------------------------------------------------- the server */

class StandIn implements StripeStandIn {
  readonly secretKey: string;
  readonly webhookSecret = STAND_IN_WEBHOOK_SECRET;
  readonly accountId = DEFAULT_ACCOUNT_ID;
  url = '';
  readonly #server: Server;
  readonly #now: () => number;
  #requests: StandInRequest[] = [];
  /** Every account by secret key, the default one first. */
  readonly #accounts = new Map<string, Account>();
  readonly #default: Account;
  #faults: ArmedFault[] = [];
  #down = false;
  #hanging = new Set<ServerResponse>();
  #timers = new Set<NodeJS.Timeout>();
  #generation = 0;

  constructor(options: StripeStandInOptions) {
    this.secretKey = options.secretKey ?? STAND_IN_SECRET_KEY;
    this.#default = newAccount(DEFAULT_ACCOUNT_ID, this.secretKey, STAND_IN_WEBHOOK_SECRET);
    this.#accounts.set(this.secretKey, this.#default);
    for (const key of options.accounts ?? []) {
      if (!/^\S+$/.test(key)) throw new Error('Stripe stand-in: an account key must be a non-empty string without spaces');
      if (this.#accounts.has(key)) throw new Error(`Stripe stand-in: two accounts with the key ${maskKey(key)}`);
      this.#accounts.set(key, newAccount(stripeId('acct', 16), key, `whsec_${stripeId('x', 32).slice(2)}`));
    }
    this.#now = options.now ?? Date.now;
    this.#server = createServer((req, res) => {
      res.on('error', () => undefined);
      this.#onRequest(req, res);
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
  }

  get requests(): readonly StandInRequest[] {
    return this.#requests;
  }

  failNext(match: StandInFaultMatch, fault: StandInFault, options: StandInFaultOptions = {}): void {
    const times = options.times ?? 1;
    if (!Number.isSafeInteger(times) || times < 1) throw new RangeError('times must be a positive integer');
    this.#faults.push({ match: { ...match }, fault, remaining: times, delayMs: options.delayMs ?? 200 });
  }

  pendingFaults(): StandInPendingFault[] {
    return this.#faults.map(({ match, fault, remaining }) => ({ match: { ...match }, fault, remaining }));
  }

  setDown(down: boolean): void {
    this.#down = down;
  }

  addAccount(): StripeStandInAccount {
    let key: string;
    do key = `sk_test_${stripeId('x', 99).slice(2)}`;
    while (this.#accounts.has(key));
    const account = newAccount(stripeId('acct', 16), key, `whsec_${stripeId('x', 32).slice(2)}`);
    this.#accounts.set(key, account);
    return { accountId: account.id, secretKey: account.secretKey, webhookSecret: account.webhookSecret };
  }

  removeAccount(secretKey: string): void {
    const account = this.#account(secretKey);
    if (account === this.#default) throw new Error('Stripe stand-in: the default account cannot be removed');
    this.#accounts.delete(secretKey);
  }

  accounts(): StripeStandInAccount[] {
    return [...this.#accounts.values()].map((a) => ({ accountId: a.id, secretKey: a.secretKey, webhookSecret: a.webhookSecret }));
  }

  /** The account a key names. @throws Error when none */
  #account(secretKey: string): Account {
    const account = this.#accounts.get(secretKey);
    if (!account) throw new Error(`Stripe stand-in: no account has the key ${maskKey(secretKey)}`);
    return account;
  }

  reset(): void {
    this.#generation += 1;
    this.#requests.length = 0;
    for (const a of this.#accounts.values()) {
      a.paymentMethods.clear();
      a.intents.clear();
      a.refunds.clear();
      a.customers.clear();
      a.idempotency.clear();
      a.disputes.clear();
      a.files.clear();
    }
    this.#faults = [];
    this.#down = false;
    this.#dropPending();
  }

  async close(): Promise<void> {
    this.#generation += 1;
    this.#dropPending();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  paymentMethods(): StandInPaymentMethod[] {
    return this.paymentMethodsOf(this.secretKey);
  }

  paymentMethodsOf(secretKey: string): StandInPaymentMethod[] {
    return [...this.#account(secretKey).paymentMethods.values()].map((pm) => ({
      id: pm.id,
      paymentId: pm.metadata.payment_id ?? null,
      brand: pm.brand,
      last4: pm.last4,
      expMonth: pm.expMonth,
      expYear: pm.expYear,
      idempotencyKey: pm.idempotencyKey,
    }));
  }

  customersOf(secretKey: string = this.secretKey): StandInCustomer[] {
    const account = this.#account(secretKey);
    const pms = [...account.paymentMethods.values()];
    return [...account.customers.values()].map((c) => ({
      id: c.id,
      email: c.email,
      metadata: { ...c.metadata },
      paymentMethodIds: pms.filter((pm) => pm.customerId === c.id).map((pm) => pm.id),
      detachedPaymentMethodIds: pms.filter((pm) => pm.detachedFrom === c.id).map((pm) => pm.id),
      idempotencyKey: c.idempotencyKey,
    }));
  }

  paymentIntentsOf(secretKey: string = this.secretKey): StandInPaymentIntent[] {
    return [...this.#account(secretKey).intents.values()].map((i) => ({
      id: i.id,
      paymentId: i.metadata.payment_id ?? null,
      status: i.status,
      amount: i.amount,
      currency: i.currency,
      customer: i.customerId,
      paymentMethod: i.paymentMethodId,
      setupFutureUsage: i.setupFutureUsage,
      offSession: i.offSession,
      authorized: i.authorized,
      lastPaymentErrorCode: typeof i.lastPaymentError?.code === 'string' ? i.lastPaymentError.code : null,
      nextActionType: typeof i.nextAction?.type === 'string' ? i.nextAction.type : null,
    }));
  }

  completeAuthentication(paymentIntentId: string, outcome: 'succeeded' | 'failed' = 'succeeded', secretKey: string = this.secretKey): void {
    const account = this.#account(secretKey);
    const intent = account.intents.get(paymentIntentId);
    if (!intent) throw new Error(`Stripe stand-in: no PaymentIntent ${paymentIntentId} in account ${account.id}`);
    const problem = this.#finishThreeDSecure(account, intent, outcome);
    if (problem) throw new Error(`Stripe stand-in: ${problem}`);
  }

  declineCharges(
    paymentMethodId: string,
    decline: { declineCode: string; message: string } | null,
    secretKey: string = this.secretKey,
  ): void {
    const account = this.#account(secretKey);
    const pm = account.paymentMethods.get(paymentMethodId);
    if (!pm) throw new Error(`Stripe stand-in: no PaymentMethod ${paymentMethodId} in account ${account.id}`);
    pm.decline = decline ? { ...decline } : null;
  }

  openDispute(
    paymentIntentId: string,
    options: { amount?: number; reason?: string; status?: string; networkReasonCode?: string | null; dueBy?: number } = {},
    secretKey: string = this.secretKey,
  ): StandInDisputeObject {
    const account = this.#account(secretKey);
    const intent = account.intents.get(paymentIntentId);
    if (!intent) throw new Error(`Stripe stand-in: no PaymentIntent ${paymentIntentId} in account ${account.id}`);
    if (!intent.chargeId || intent.amountReceived <= 0) {
      throw new Error(`Stripe stand-in: PaymentIntent ${paymentIntentId} has no captured charge to dispute (status ${intent.status})`);
    }
    const amount = options.amount ?? intent.amountReceived;
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > intent.amountReceived) {
      throw new RangeError(`Stripe stand-in: a dispute amount is 1..${intent.amountReceived} (the captured amount)`);
    }
    const created = Math.floor(this.#now() / 1000);
    const dispute: DisputeRecord = {
      id: stripeId('du'),
      paymentIntentId: intent.id,
      chargeId: intent.chargeId,
      amount,
      currency: intent.currency,
      status: options.status ?? 'needs_response',
      reason: options.reason ?? 'fraudulent',
      networkReasonCode: options.networkReasonCode === undefined ? '10.4' : options.networkReasonCode,
      created,
      dueBy: options.dueBy ?? created + 7 * 24 * 3600,
      evidence: {},
      submissionCount: 0,
      closed: false,
      metadata: {},
    };
    account.disputes.set(dispute.id, dispute);
    return this.#renderDispute(dispute, account) as StandInDisputeObject;
  }

  resolveDispute(disputeId: string, outcome: 'won' | 'lost'): StandInDisputeObject {
    if (outcome !== 'won' && outcome !== 'lost') throw new Error(`Stripe stand-in: a dispute is won or lost, not ${String(outcome)}`);
    return this.setDisputeStatus(disputeId, outcome);
  }

  setDisputeStatus(disputeId: string, status: string): StandInDisputeObject {
    const { account, dispute } = this.#disputeAnywhere(disputeId);
    dispute.status = status;
    return this.#renderDispute(dispute, account) as StandInDisputeObject;
  }

  disputeEvent(disputeId: string, type?: StandInDisputeEventType, options: { timestamp?: number } = {}): StandInSignedEvent {
    const { account, dispute } = this.#disputeAnywhere(disputeId);
    const eventType: StandInDisputeEventType =
      type ?? (DISPUTE_DECIDED.includes(dispute.status) ? 'charge.dispute.closed' : 'charge.dispute.updated');
    const timestamp = options.timestamp ?? Math.floor(this.#now() / 1000);
    // The shape of an Event (https://docs.stripe.com/api/events/object), as fixtures/stripe/event.*.json.
    const event = {
      id: stripeId('evt'),
      object: 'event',
      api_version: STAND_IN_EVENT_API_VERSION,
      created: timestamp,
      data: { object: this.#renderDispute(dispute, account) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type: eventType,
    };
    const rawBody = JSON.stringify(event, null, 2);
    const signature = createHmac('sha256', account.webhookSecret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
    return {
      rawBody,
      headers: { 'stripe-signature': `t=${timestamp},v1=${signature}`, 'content-type': 'application/json; charset=utf-8' },
      event: JSON.parse(rawBody) as StandInSignedEvent['event'],
    };
  }

  disputesOf(secretKey: string = this.secretKey): StandInDispute[] {
    const account = this.#account(secretKey);
    return [...account.disputes.values()].map((d) => ({
      id: d.id,
      paymentIntentId: d.paymentIntentId,
      chargeId: d.chargeId,
      paymentId: account.intents.get(d.paymentIntentId)?.metadata.payment_id ?? null,
      amount: d.amount,
      currency: d.currency,
      status: d.status,
      reason: d.reason,
      dueBy: d.dueBy,
      evidence: { ...d.evidence },
      submissionCount: d.submissionCount,
      closed: d.closed,
    }));
  }

  filesOf(secretKey: string = this.secretKey): StandInFile[] {
    return [...this.#account(secretKey).files.values()].map((f) => ({
      id: f.id,
      purpose: f.purpose,
      filename: f.filename,
      mediaType: f.mediaType,
      size: f.size,
      sha256: f.sha256,
      idempotencyKey: f.idempotencyKey,
    }));
  }

  /** The account holding a dispute, and the dispute. @throws Error when none */
  #disputeAnywhere(disputeId: string): { account: Account; dispute: DisputeRecord } {
    for (const account of this.#accounts.values()) {
      const dispute = account.disputes.get(disputeId);
      if (dispute) return { account, dispute };
    }
    throw new Error(`Stripe stand-in: no account has dispute ${disputeId}`);
  }

  ledger(): Record<string, StandInLedgerEntry> {
    return this.ledgerOf(this.secretKey);
  }

  ledgerOf(secretKey: string): Record<string, StandInLedgerEntry> {
    const account = this.#account(secretKey);
    const byPayment = new Map<string, Intent[]>();
    for (const intent of account.intents.values()) {
      const paymentId = intent.metadata.payment_id;
      if (paymentId === undefined) continue;
      const list = byPayment.get(paymentId) ?? [];
      list.push(intent);
      byPayment.set(paymentId, list);
    }
    const out: Record<string, StandInLedgerEntry> = {};
    for (const [paymentId, intents] of byPayment) {
      const authorized = intents.filter((i) => i.authorized);
      const primary = authorized[0] ?? intents[intents.length - 1]!;
      const ids = new Set(intents.map((i) => i.id));
      const refunds = [...account.refunds.values()]
        .filter((r) => ids.has(r.paymentIntentId))
        .map((r): StandInLedgerRefund => ({ id: r.id, amount: r.amount, status: 'succeeded', metadata: { ...r.metadata } }));
      out[paymentId] = {
        paymentId,
        paymentIntentId: primary.id,
        paymentIntentIds: intents.map((i) => i.id),
        status: primary.status,
        currency: primary.currency,
        amount: primary.amount,
        amountCapturable: authorized.reduce((s, i) => s + i.amountCapturable, 0),
        amountCaptured: authorized.reduce((s, i) => s + i.amountReceived, 0),
        amountRefunded: refunds.reduce((s, r) => s + r.amount, 0),
        refunds,
        charges: authorized.length,
        declines: intents.filter((i) => i.declined).length,
      };
    }
    return out;
  }

  /* ---------------------------------------------------------------- plumbing */

  #dropPending(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const res of this.#hanging) res.socket?.destroy();
    this.#hanging.clear();
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.#timers.delete(t);
        resolve();
      }, ms);
      this.#timers.add(t);
    });
  }

  #takeFault(method: string, path: string, pathWithQuery: string, key: string | null): ArmedFault | null {
    const index = this.#faults.findIndex(
      (f) =>
        (!f.match.method || f.match.method.toUpperCase() === method) &&
        (f.match.secretKey === undefined || f.match.secretKey === key) &&
        (f.match.path.includes('?') ? pathWithQuery : path).startsWith(f.match.path),
    );
    if (index < 0) return null;
    const fault = this.#faults[index]!;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.#faults.splice(index, 1);
    return fault;
  }

  #onRequest(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(req.url ?? '/', 'http://stand-in.invalid');
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const key = bearerKey(header('authorization'));
    const record: StandInRequest = {
      seq: this.#requests.length + 1,
      method,
      path: url.pathname,
      query: url.search,
      idempotencyKey: header('idempotency-key') ?? null,
      stripeVersion: header('stripe-version') ?? null,
      accountId: key === null ? null : (this.#accounts.get(key)?.id ?? null),
      keyHint: key === null ? null : maskKey(key),
      form: {},
      fault: null,
      outcome: 'pending',
      status: null,
    };
    this.#requests.push(record);
    if (this.#down) {
      record.fault = 'down';
      record.outcome = 'reset';
      req.socket.destroy();
      return;
    }
    if (method === 'GET' && url.pathname === THREE_D_SECURE_PATH) {
      this.#hostedThreeDSecure(url, record, res);
      return;
    }
    const generation = this.#generation;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', () => undefined);
    req.on('end', () => {
      if (generation !== this.#generation) return;
      const raw = Buffer.concat(chunks);
      const multipart = method === 'POST' ? parseMultipart(header('content-type'), raw) : null;
      const params = method === 'GET' ? url.searchParams : multipart ? multipart.fields : new URLSearchParams(raw.toString('utf8'));
      record.form = redact(params);
      const ctx: Context = {
        method,
        path: url.pathname,
        query: url.search,
        params,
        record,
        authorization: header('authorization'),
        idempotencyKey: method === 'POST' ? record.idempotencyKey : null,
        upload: multipart?.file ?? null,
      };
      void this.#serve(ctx, res, generation);
    });
  }

  /**
   * `GET /3d_secure_2/hosted?payment_intent=pi_…&payment_intent_client_secret=…[&outcome=failed]`: the payer's
   * browser at the 3DS page of a `redirect_to_url` (no API key: the client secret is the capability, as on Stripe's
   * page). The challenge is passed at once (`outcome=failed` fails it), then the payer is sent back: 302 to the
   * intent's `return_url` with `payment_intent`, `payment_intent_client_secret` and `redirect_status` (`succeeded` or
   * `failed`) added to its query, as Stripe returns a payer; 200 when it has none; 404 for an unknown intent or
   * secret, 409 when it does not wait for 3DS. No fault applies to it.
   */
  #hostedThreeDSecure(url: URL, record: StandInRequest, res: ServerResponse): void {
    const id = url.searchParams.get('payment_intent') ?? '';
    const secret = url.searchParams.get('payment_intent_client_secret') ?? '';
    const outcome = url.searchParams.get('outcome') === 'failed' ? 'failed' : 'succeeded';
    const account = [...this.#accounts.values()].find((a) => a.intents.get(id)?.clientSecret === secret);
    const intent = account?.intents.get(id);
    const answer = (status: number, text: string, location?: string) => {
      record.status = status;
      record.outcome = 'answered';
      res.writeHead(status, location ? { location, 'content-type': 'text/plain' } : { 'content-type': 'text/plain' });
      res.end(text);
    };
    if (!account || !intent || !secret) {
      answer(404, 'No such PaymentIntent.');
      return;
    }
    record.accountId = account.id;
    const problem = this.#finishThreeDSecure(account, intent, outcome);
    if (problem) {
      answer(409, problem);
      return;
    }
    if (!intent.returnUrl) {
      answer(200, `3D Secure ${outcome}.`);
      return;
    }
    const back = new URL(intent.returnUrl);
    back.searchParams.set('payment_intent', intent.id);
    back.searchParams.set('payment_intent_client_secret', intent.clientSecret);
    back.searchParams.set('redirect_status', outcome);
    answer(302, `3D Secure ${outcome}.`, back.toString());
  }

  #hang(res: ServerResponse, record: StandInRequest): void {
    record.outcome = 'hung';
    this.#hanging.add(res);
    res.on('close', () => this.#hanging.delete(res));
  }

  #send(res: ServerResponse, ctx: Context, answer: Answer, replayed: boolean): void {
    ctx.record.status = answer.status;
    ctx.record.outcome = replayed ? 'replayed' : 'answered';
    if (res.destroyed) return; // the client gave up (e.g. timed out during a `slow` fault)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'request-id': stripeId('req', 14),
    };
    if (ctx.idempotencyKey) headers['idempotency-key'] = ctx.idempotencyKey;
    if (replayed) headers['idempotent-replayed'] = 'true';
    if (ctx.record.stripeVersion) headers['stripe-version'] = ctx.record.stripeVersion;
    res.writeHead(answer.status, headers);
    res.end(JSON.stringify(answer.body, null, 2));
  }

  async #serve(ctx: Context, res: ServerResponse, generation: number): Promise<void> {
    const fault = this.#takeFault(ctx.method, ctx.path, ctx.path + ctx.query, bearerKey(ctx.authorization));
    ctx.record.fault = fault?.fault ?? null;
    switch (fault?.fault) {
      case 'hang_before_work':
        this.#hang(res, ctx.record);
        return;
      case 'error_500_before_work':
        this.#send(res, ctx, API_ERROR(), false);
        return;
      case 'reset_before_work':
        ctx.record.outcome = 'reset';
        res.socket?.destroy();
        return;
      default:
        break;
    }
    const outcome = await this.#execute(ctx, fault?.fault === 'slow' ? fault.delayMs : 0, generation);
    if (!outcome || generation !== this.#generation) return;
    const { answer, replayed, entry } = outcome;
    switch (fault?.fault) {
      case 'hang_after_work':
        ctx.record.status = answer.status;
        this.#hang(res, ctx.record);
        return;
      case 'reset_after_work':
        ctx.record.status = answer.status;
        ctx.record.outcome = 'reset';
        res.socket?.destroy();
        return;
      case 'error_500_after_work': {
        const error = API_ERROR();
        // Stripe saves the 500 under the key: a retry replays it.
        if (entry && !replayed) entry.answer = { ...error, save: true };
        this.#send(res, ctx, error, false);
        return;
      }
      default:
        this.#send(res, ctx, answer, replayed);
    }
  }

  /** Authentication, idempotency and the endpoint. Null when reset/closed meanwhile. */
  async #execute(ctx: Context, delayMs: number, generation: number): Promise<Executed | null> {
    const account = this.#authenticate(ctx.authorization);
    if (!('secretKey' in account)) return { answer: account, replayed: false, entry: null };
    const version = this.#checkVersion(ctx.record.stripeVersion);
    if (version) return { answer: version, replayed: false, entry: null };
    const key = ctx.idempotencyKey;
    if (!key) {
      if (delayMs) await this.#sleep(delayMs);
      if (generation !== this.#generation) return null;
      return { answer: this.#route(account, ctx), replayed: false, entry: null };
    }
    const idempotency = account.idempotency;
    const fingerprint = JSON.stringify(Object.entries(redact(ctx.params)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const existing = idempotency.get(key);
    if (existing) {
      if (existing.method !== ctx.method || existing.path !== ctx.path || existing.fingerprint !== fingerprint) {
        const answer = stripeError(
          400,
          {
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            type: 'idempotency_error',
          },
          false,
        );
        return { answer, replayed: false, entry: null };
      }
      if (existing.state === 'running') {
        const answer = stripeError(
          409,
          {
            code: 'idempotency_key_in_use',
            doc_url: 'https://stripe.com/docs/error-codes/idempotency-key-in-use',
            message: `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`,
            type: 'idempotency_error',
          },
          false,
        );
        return { answer, replayed: false, entry: null };
      }
      return { answer: existing.answer!, replayed: true, entry: existing };
    }
    const entry: IdempotencyEntry = { method: ctx.method, path: ctx.path, fingerprint, state: 'running' };
    idempotency.set(key, entry);
    if (delayMs) await this.#sleep(delayMs);
    if (generation !== this.#generation) return null;
    const answer = this.#route(account, ctx);
    if (answer.save) {
      entry.state = 'done';
      entry.answer = answer;
    } else {
      idempotency.delete(key);
    }
    return { answer, replayed: false, entry: answer.save ? entry : null };
  }

  /** The account the request's key names, or Stripe's 401 answer. */
  #authenticate(authorization: string | undefined): Account | Answer {
    const given = bearerKey(authorization);
    if (!given) {
      return stripeError(
        401,
        {
          message:
            "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
          type: 'invalid_request_error',
        },
        false,
      );
    }
    const account = this.#accounts.get(given);
    if (!account) return stripeError(401, { message: `Invalid API Key provided: ${maskKey(given)}`, type: 'invalid_request_error' }, false);
    return account;
  }

  /** The stand-in requires `Stripe-Version` (see the file header); Stripe refuses a malformed one. */
  #checkVersion(version: string | null): Answer | null {
    if (version === null) {
      return stripeError(
        400,
        {
          message: 'The Stripe stand-in requires a Stripe-Version header on every request (Stripe would use the account default version).',
          type: 'invalid_request_error',
        },
        false,
      );
    }
    if (!STRIPE_VERSION.test(version))
      return stripeError(400, { message: `Invalid Stripe API version: ${version.slice(0, 40)}`, type: 'invalid_request_error' }, false);
    return null;
  }

  #route(a: Account, ctx: Context): Answer {
    const { method, path, params } = ctx;
    const segments = path
      .split('/')
      .slice(1)
      .map((s) => decodeURIComponent(s));
    const [v1, resource, id, action, ...rest] = segments;
    if (v1 === 'v1' && rest.length === 0) {
      if (resource === 'balance' && method === 'GET' && id === undefined) return this.#balance(a);
      if (resource === 'payment_methods') {
        if (method === 'POST' && id === undefined) return this.#createPaymentMethod(a, params, ctx.idempotencyKey);
        if (method === 'GET' && id && action === undefined) return this.#retrievePaymentMethod(a, id);
        if (method === 'POST' && id && action === 'detach') return this.#detach(a, id, params);
      }
      if (resource === 'customers') {
        if (method === 'POST' && id === undefined) return this.#createCustomer(a, params, ctx.idempotencyKey);
        if (method === 'GET' && id && action === undefined) return this.#retrieveCustomer(a, id);
      }
      if (resource === 'payment_intents') {
        if (method === 'POST' && id === undefined) return this.#createIntent(a, params, ctx.record.stripeVersion ?? '');
        if (method === 'GET' && id === 'search' && action === undefined) return this.#searchIntents(a, params);
        if (method === 'GET' && id && action === undefined) return this.#retrieveIntent(a, id, params);
        if (method === 'POST' && id && action === 'capture') return this.#capture(a, id, params);
        if (method === 'POST' && id && action === 'cancel') return this.#cancel(a, id, params);
        if (method === 'POST' && id && action === 'confirm') return this.#confirm(a, id, params);
      }
      if (resource === 'disputes' && id) {
        if (method === 'GET' && action === undefined) return this.#retrieveDispute(a, id, params);
        if (method === 'POST' && action === undefined) return this.#updateDispute(a, id, params);
        if (method === 'POST' && action === 'close') return this.#closeDispute(a, id, params);
      }
      if (resource === 'files' && method === 'POST' && id === undefined) return this.#createFile(a, params, ctx);
      if (resource === 'refunds') {
        if (method === 'POST' && id === undefined) return this.#createRefund(a, params);
        if (method === 'GET' && id === undefined) return this.#listRefunds(a, params);
        if (method === 'GET' && id && action === undefined) return this.#retrieveRefund(a, id);
      }
    }
    return stripeError(
      404,
      {
        message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        type: 'invalid_request_error',
      },
      false,
    );
  }

  /* ------------------------------------------------------------ rendering */

  /**
   * A PaymentIntent in the shape of the recorded fixture; `expand` (`payment_method`, `customer`) renders those
   * fields as objects of account `a` (https://docs.stripe.com/api/expanding_objects).
   */
  #renderIntent(i: Intent, expand: readonly string[] = [], a?: Account): Json {
    const pm = i.paymentMethodId && a ? a.paymentMethods.get(i.paymentMethodId) : undefined;
    const customer = i.customerId && a ? a.customers.get(i.customerId) : undefined;
    return {
      ...clone(PAYMENT_INTENT_TEMPLATE),
      id: i.id,
      object: 'payment_intent',
      amount: i.amount,
      amount_capturable: i.amountCapturable,
      amount_received: i.amountReceived,
      canceled_at: i.canceledAt,
      cancellation_reason: i.cancellationReason,
      capture_method: i.captureMethod,
      client_secret: i.clientSecret,
      created: i.created,
      currency: i.currency,
      customer: expand.includes('customer') && customer ? this.#renderCustomer(customer) : i.customerId,
      last_payment_error: i.lastPaymentError ? clone(i.lastPaymentError) : null,
      latest_charge: i.chargeId,
      livemode: false,
      metadata: { ...i.metadata },
      next_action: i.nextAction ? clone(i.nextAction) : null,
      payment_method: expand.includes('payment_method') && pm ? this.#renderPaymentMethod(pm) : i.paymentMethodId,
      payment_method_types: [...i.paymentMethodTypes],
      setup_future_usage: i.setupFutureUsage,
      status: i.status,
    };
  }

  /** A Customer in the shape of Stripe's OpenAPI fixture `resources.customer` (a new Customer: no discount, no currency yet). */
  #renderCustomer(c: CustomerRecord): Json {
    return {
      ...clone(CUSTOMER_TEMPLATE),
      created: c.created,
      currency: null,
      description: c.description,
      discount: null,
      email: c.email,
      id: c.id,
      invoice_prefix: c.id.slice(4, 12).toUpperCase(),
      livemode: false,
      metadata: { ...c.metadata },
      name: c.name,
      object: 'customer',
      phone: c.phone,
      shipping: null,
    };
  }

  #renderPaymentMethod(pm: PaymentMethodRecord): Json {
    const t = clone(PAYMENT_METHOD_TEMPLATE);
    const card = { ...((t.card as Json | undefined) ?? {}) };
    const billing = { ...((t.billing_details as Json | undefined) ?? {}) };
    const templateAddress = (billing.address as Json | null | undefined) ?? {};
    const address = Object.fromEntries(Object.keys(templateAddress).map((k) => [k, null])) as Json;
    Object.assign(address, (pm.billingDetails.address as Json | undefined) ?? {});
    return {
      ...t,
      id: pm.id,
      object: 'payment_method',
      billing_details: { ...Object.fromEntries(Object.keys(billing).map((k) => [k, null])), ...pm.billingDetails, address },
      card: {
        ...card,
        brand: pm.brand,
        display_brand: pm.brand,
        exp_month: pm.expMonth,
        exp_year: pm.expYear,
        fingerprint: pm.fingerprint,
        last4: pm.last4,
        generated_from: null,
        networks: { available: [pm.brand], preferred: null },
        wallet: null,
      },
      created: pm.created,
      customer: pm.customerId,
      livemode: false,
      metadata: { ...pm.metadata },
      type: 'card',
    };
  }

  #renderRefund(r: Refund): Json {
    const t = clone(REFUND_TEMPLATE);
    const destination = t.destination_details as { card?: Json } | undefined;
    if (destination?.card) destination.card.reference = r.reference;
    return {
      ...t,
      id: r.id,
      object: 'refund',
      amount: r.amount,
      balance_transaction: r.balanceTransaction,
      charge: r.chargeId,
      created: r.created,
      currency: r.currency,
      metadata: { ...r.metadata },
      payment_intent: r.paymentIntentId,
      reason: r.reason,
      status: 'succeeded',
    };
  }

  #unexpectedState(i: Intent, message: string): Answer {
    return invalid('payment_intent_unexpected_state', message, null, true, { payment_intent: this.#renderIntent(i) });
  }

  /* ------------------------------------------------------------ endpoints */

  /**
   * GET /v1/balance (https://docs.stripe.com/api/balance/balance_retrieve): the Balance object of the
   * account the key names, in the shape of Stripe's OpenAPI fixture `resources.balance` (stripe/openapi
   * v2436, test/connectors/fixtures/stripe/openapi-fixtures3/balance.extract.json). One entry per
   * currency the account took money in (the fixture's `usd` zeros while it took none): what it
   * captured less what it refunded, all `pending` with `source_types.card`; `available` and
   * `connect_reserved` stay 0. Stand-in simplification: no fees, no payout schedule moving pending
   * funds to available (Stripe takes refunds from the available balance; here from pending).
   */
  #balance(a: Account): Answer {
    const t = clone(BALANCE_TEMPLATE);
    const net = new Map<string, number>();
    for (const i of a.intents.values()) if (i.authorized) net.set(i.currency, (net.get(i.currency) ?? 0) + i.amountReceived);
    for (const r of a.refunds.values()) net.set(r.currency, (net.get(r.currency) ?? 0) - r.amount);
    if (net.size === 0) return ok({ ...t, livemode: false, object: 'balance' });
    const currencies = [...net.keys()].sort();
    return ok({
      ...t,
      available: currencies.map((currency) => ({ amount: 0, currency, source_types: { card: 0 } })),
      connect_reserved: currencies.map((currency) => ({ amount: 0, currency })),
      livemode: false,
      object: 'balance',
      pending: currencies.map((currency) => ({ amount: net.get(currency)!, currency, source_types: { card: net.get(currency)! } })),
    });
  }

  /**
   * POST /v1/payment_methods (https://docs.stripe.com/api/payment_methods/create): `type=card` with
   * `card[number|exp_month|exp_year|cvc]`, optional `billing_details[…]` and `metadata[…]`. The card is
   * checked as Stripe's test mode does for invalid data (402 `card_error`, nothing created); the PAN is
   * reduced to its summary and whether it is one of {@link STAND_IN_DECLINED_CARDS}.
   */
  #createPaymentMethod(a: Account, form: URLSearchParams, idempotencyKey: string | null): Answer {
    const type = form.get('type');
    if (!type) return invalid('parameter_missing', 'Missing required param: type.', 'type');
    if (type !== 'card') return invalid('parameter_invalid_string', `The stand-in only creates card PaymentMethods, not ${type}.`, 'type');
    const known =
      /^(type|card\[(number|exp_month|exp_year|cvc)\]|billing_details\[(email|name|phone)\]|billing_details\[address\]\[(city|country|line1|line2|postal_code|state)\]|metadata\[[^\]]+\])$/;
    for (const key of form.keys()) {
      if (!known.test(key)) return invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    const number = form.get('card[number]');
    if (!number) return invalid('parameter_missing', 'Missing required param: card[number].', 'card[number]');
    if (!luhn(number)) return cardError('incorrect_number', 'Your card number is incorrect.', 'card[number]');
    const expMonth = Number(form.get('card[exp_month]'));
    if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12)
      return cardError('invalid_expiry_month', "Your card's expiration month is invalid.", 'card[exp_month]');
    const expYear = Number(form.get('card[exp_year]'));
    const now = new Date(this.#now());
    const past = expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1);
    if (!Number.isInteger(expYear) || expYear < 1000 || past)
      return cardError('invalid_expiry_year', "Your card's expiration year is invalid.", 'card[exp_year]');
    const cvc = form.get('card[cvc]');
    if (cvc !== null && !/^\d{3,4}$/.test(cvc)) return cardError('invalid_cvc', "Your card's security code is invalid.", 'card[cvc]');
    const billing: Json = {};
    const address: Json = {};
    for (const [key, value] of form) {
      const a = /^billing_details\[address\]\[(\w+)\]$/.exec(key);
      if (a?.[1]) address[a[1]] = value;
      const b = /^billing_details\[(email|name|phone)\]$/.exec(key);
      if (b?.[1]) billing[b[1]] = value;
    }
    if (Object.keys(address).length) billing.address = address;
    const pm: PaymentMethodRecord = {
      id: stripeId('pm'),
      brand: brandOf(number),
      last4: number.slice(-4),
      expMonth,
      expYear,
      created: Math.floor(this.#now() / 1000),
      metadata: metadataOf(form),
      billingDetails: billing,
      decline: STAND_IN_DECLINED_CARDS[number] ?? null,
      idempotencyKey,
      authentication: STAND_IN_AUTHENTICATION_CARDS[number] ?? 'none',
      fingerprint: fingerprintOf(a.fingerprintKey, number),
      customerId: null,
      detachedFrom: null,
      setUp: false,
    };
    a.paymentMethods.set(pm.id, pm);
    return ok(this.#renderPaymentMethod(pm));
  }

  /**
   * POST /v1/payment_methods/:id/detach (https://docs.stripe.com/api/payment_methods/detach): the PaymentMethod is
   * no longer attached to its Customer and can never be used again ("After a PaymentMethod is detached, it can no
   * longer be used for a payment or re-attached to a Customer"). Only `expand[]` is taken. One not attached to a
   * Customer → 400 (the stand-in's wording).
   */
  #detach(a: Account, id: string, form: URLSearchParams): Answer {
    for (const key of form.keys()) {
      if (!/^expand\[\d+\]$/.test(key)) return invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    const pm = a.paymentMethods.get(id);
    if (!pm) return missing('payment_method', id, 'payment_method');
    if (!pm.customerId) {
      return stripeError(
        400,
        {
          message: 'The payment method you provided is not attached to a customer so detachment is impossible.',
          type: 'invalid_request_error',
        },
        true,
      );
    }
    pm.detachedFrom = pm.customerId;
    pm.customerId = null;
    return ok(this.#renderPaymentMethod(pm));
  }

  /**
   * POST /v1/customers (https://docs.stripe.com/api/customers/create): `email`, `name`, `phone`, `description`,
   * `metadata[…]`; any other parameter → 400 `parameter_unknown`; an e-mail without `@` → 400 `email_invalid`.
   */
  #createCustomer(a: Account, form: URLSearchParams, idempotencyKey: string | null): Answer {
    for (const key of form.keys()) {
      if (!/^(email|name|phone|description|metadata\[[^\]]+\])$/.test(key))
        return invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    const email = form.get('email');
    if (email !== null && !/^[^@\s]+@[^@\s]+$/.test(email)) return invalid('email_invalid', `Invalid email address: ${email}`, 'email');
    const customer: CustomerRecord = {
      id: stripeId('cus', 14),
      created: Math.floor(this.#now() / 1000),
      email,
      name: form.get('name'),
      phone: form.get('phone'),
      description: form.get('description'),
      metadata: metadataOf(form),
      idempotencyKey,
    };
    a.customers.set(customer.id, customer);
    return ok(this.#renderCustomer(customer));
  }

  /** GET /v1/customers/:id. */
  #retrieveCustomer(a: Account, id: string): Answer {
    const customer = a.customers.get(id);
    return customer ? ok(this.#renderCustomer(customer)) : missing('customer', id, 'id');
  }

  /** GET /v1/payment_methods/:id. */
  #retrievePaymentMethod(a: Account, id: string): Answer {
    const pm = a.paymentMethods.get(id);
    return pm ? ok(this.#renderPaymentMethod(pm)) : missing('payment_method', id, 'payment_method');
  }

  /**
   * POST /v1/payment_intents (https://docs.stripe.com/api/payment_intents/create), with the parameter
   * rules of the `version` given (see the file header): `payment_method=pm_…` of a PaymentMethod
   * created here, `confirm=true` authorizes it (or declines it, 402, for a declined test card).
   */
  #createIntent(a: Account, form: URLSearchParams, version: string): Answer {
    const date = STRIPE_VERSION.exec(version)?.[1] ?? '';
    const keys = [...form.keys()];
    const has = (prefix: string) => keys.some((k) => k === prefix || k.startsWith(`${prefix}[`));
    if (has('payment_method_types') && date >= PAYMENT_METHOD_TYPES_REMOVED) {
      return invalid(
        'payment_method_types_no_longer_supported',
        `payment_method_types is no longer supported on API version ${version}. Use dynamic payment methods, excluded_payment_method_types or allowed_payment_method_types instead.`,
        'payment_method_types',
      );
    }
    if (has('allowed_payment_method_types')) {
      if (date < ALLOWED_PAYMENT_METHOD_TYPES_ADDED)
        return invalid('parameter_unknown', 'Received unknown parameter: allowed_payment_method_types', 'allowed_payment_method_types');
      const other = [
        'payment_method_types',
        'excluded_payment_method_types',
        'automatic_payment_methods',
        'payment_method_configuration',
      ].find(has);
      if (other)
        return invalid(
          'parameters_exclusive',
          `allowed_payment_method_types and ${other} cannot be used together.`,
          'allowed_payment_method_types',
        );
    }
    const cardKey = keys.find((k) => k.startsWith('payment_method_data[card]'));
    if (cardKey) return invalid('parameter_unknown', `Received unknown parameter: ${cardKey}`, cardKey);
    const amount = amountParam(form, 'amount');
    if (isAnswer(amount)) return amount;
    if (amount === undefined) return invalid('parameter_missing', 'Missing required param: amount.', 'amount');
    const currency = form.get('currency');
    if (!currency) return invalid('parameter_missing', 'Missing required param: currency.', 'currency');
    if (!/^[a-zA-Z]{3}$/.test(currency)) return invalid('parameter_invalid_string', `Invalid currency: ${currency}.`, 'currency');
    const captureMethod = form.get('capture_method') ?? 'automatic_async';
    if (!['automatic', 'automatic_async', 'manual'].includes(captureMethod)) {
      return invalid(
        'parameter_invalid_string',
        `Invalid capture_method: must be one of automatic, automatic_async, or manual`,
        'capture_method',
      );
    }
    const confirm = form.get('confirm') === 'true';
    const pmId = form.get('payment_method');
    const pm = pmId ? a.paymentMethods.get(pmId) : undefined;
    if (pmId && !pm) return missing('payment_method', pmId, 'payment_method', 400);
    if (confirm && !pm) {
      return invalid(
        'payment_intent_unexpected_state',
        'You cannot confirm this PaymentIntent because it is missing a payment method.',
        'payment_method',
      );
    }
    const customerId = form.get('customer');
    if (customerId !== null && !a.customers.has(customerId)) return missing('customer', customerId, 'customer', 400);
    const setupFutureUsage = form.get('setup_future_usage');
    if (setupFutureUsage !== null && !SETUP_FUTURE_USAGES.includes(setupFutureUsage)) {
      return invalid(
        'parameter_invalid_string',
        `Invalid setup_future_usage: must be one of ${SETUP_FUTURE_USAGES.join(' or ')}`,
        'setup_future_usage',
      );
    }
    const offSession = offSessionParam(form, confirm);
    if (isAnswer(offSession)) return offSession;
    const expand = expandParam(form, INTENT_EXPANDABLE);
    if (isAnswer(expand)) return expand;
    if (pm) {
      const refusal = paymentMethodRefusal(pm, customerId);
      if (refusal) return refusal;
    }
    const indexed = (name: string) => [...form.entries()].filter(([k]) => new RegExp(`^${name}\\[\\d+\\]$`).test(k)).map(([, v]) => v);
    const types = [...indexed('allowed_payment_method_types'), ...indexed('payment_method_types')];
    const id = stripeId('pi');
    const intent: Intent = {
      id,
      amount,
      currency: currency.toLowerCase(),
      captureMethod,
      status: pm ? 'requires_confirmation' : 'requires_payment_method',
      amountCapturable: 0,
      amountReceived: 0,
      created: Math.floor(this.#now() / 1000),
      metadata: metadataOf(form),
      paymentMethodTypes: types.length ? types : ['card'],
      paymentMethodId: pm?.id ?? null,
      chargeId: null,
      clientSecret: `${id}_secret_${stripeId('x', 25).slice(2)}`,
      canceledAt: null,
      cancellationReason: null,
      lastPaymentError: null,
      authorized: false,
      declined: false,
      customerId,
      setupFutureUsage,
      offSession: false,
      returnUrl: form.get('return_url'),
      nextAction: null,
    };
    a.intents.set(id, intent);
    if (!confirm || !pm) return ok(this.#renderIntent(intent, expand, a));
    return this.#confirmIntent(a, intent, pm, offSession, expand);
  }

  /**
   * Confirms an intent with its PaymentMethod (create with `confirm=true`, or `POST …/confirm`): the card's decline
   * (402 `card_declined`, {@link STAND_IN_DECLINED_CARDS} or {@link StripeStandIn.declineCharges}); a card of
   * {@link STAND_IN_AUTHENTICATION_CARDS} that needs the payer: off-session → 402 `authentication_required` (the
   * intent left in `requires_payment_method`), on-session → `requires_action` with the hosted 3DS page; otherwise
   * authorized (`succeeded`, or `requires_capture` for manual capture), and a PaymentMethod set up for future usage
   * attached to the intent's Customer.
   */
  #confirmIntent(a: Account, intent: Intent, pm: PaymentMethodRecord, offSession: boolean, expand: readonly string[]): Answer {
    intent.paymentMethodId = pm.id;
    intent.offSession = offSession;
    intent.lastPaymentError = null;
    intent.nextAction = null;
    if (pm.decline) return this.#decline(a, intent, pm, 'card_declined', pm.decline.declineCode, pm.decline.message, expand);
    const needsPayer = pm.authentication === 'always' || (pm.authentication === 'unless_set_up' && !pm.setUp);
    if (needsPayer && offSession) {
      return this.#decline(
        a,
        intent,
        pm,
        AUTHENTICATION_REQUIRED,
        AUTHENTICATION_REQUIRED,
        'Your card was declined. This transaction requires authentication.',
        expand,
      );
    }
    if (needsPayer) {
      intent.status = 'requires_action';
      intent.nextAction = this.#threeDSecureAction(intent);
      return ok(this.#renderIntent(intent, expand, a));
    }
    this.#authorize(a, intent, pm);
    return ok(this.#renderIntent(intent, expand, a));
  }

  /** The card is authorized: money held (`requires_capture`) or taken (`succeeded`); a card set up for future usage is attached. */
  #authorize(a: Account, intent: Intent, pm: PaymentMethodRecord): void {
    intent.authorized = true;
    intent.chargeId = stripeId('ch');
    intent.nextAction = null;
    if (intent.captureMethod === 'manual') {
      intent.status = 'requires_capture';
      intent.amountCapturable = intent.amount;
    } else {
      intent.status = 'succeeded';
      intent.amountReceived = intent.amount;
    }
    if (intent.setupFutureUsage && intent.customerId && a.customers.has(intent.customerId)) {
      pm.customerId = intent.customerId;
      if (intent.setupFutureUsage === 'off_session') pm.setUp = true;
    }
  }

  /**
   * A 402 `card_error` on confirm (https://docs.stripe.com/api/errors): the intent is left in `requires_payment_method`
   * without a PaymentMethod, with the error as `last_payment_error`; the answer carries the intent.
   */
  #decline(
    a: Account,
    intent: Intent,
    pm: PaymentMethodRecord,
    code: string,
    declineCode: string,
    message: string,
    expand: readonly string[],
  ): Answer {
    const chargeId = stripeId('ch');
    const error: Json = {
      ...clone(DECLINE_TEMPLATE),
      charge: chargeId,
      code,
      decline_code: declineCode,
      doc_url: `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`,
      message,
      payment_method: {
        id: pm.id,
        object: 'payment_method',
        type: 'card',
        card: { brand: pm.brand, last4: pm.last4, exp_month: pm.expMonth, exp_year: pm.expYear, country: 'US', funding: 'credit' },
      },
      type: 'card_error',
    };
    if (declineCode !== 'insufficient_funds') delete error.advice_code;
    delete error.payment_intent;
    intent.status = 'requires_payment_method';
    intent.paymentMethodId = null;
    intent.lastPaymentError = error;
    intent.declined = true;
    return stripeError(402, { ...clone(error), payment_intent: this.#renderIntent(intent, expand, a) }, true);
  }

  /**
   * `next_action` of an intent waiting for 3DS: `redirect_to_url` to the stand-in's hosted page
   * (`GET /3d_secure_2/hosted`, shaped as Stripe's `hooks.stripe.com/3d_secure_2/hosted?…`) with the `return_url`
   * when the confirm gave one; `use_stripe_sdk` with the same page as `stripe_js` otherwise.
   */
  #threeDSecureAction(intent: Intent): Json {
    const url = `${this.url}${THREE_D_SECURE_PATH}?${new URLSearchParams([
      ['payment_intent', intent.id],
      ['payment_intent_client_secret', intent.clientSecret],
    ]).toString()}`;
    if (intent.returnUrl) return { type: 'redirect_to_url', redirect_to_url: { return_url: intent.returnUrl, url } };
    return { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: url } };
  }

  /**
   * Ends the 3DS of an intent in `requires_action`: `succeeded` authorizes it (unless the card declines), `failed`
   * leaves it in `requires_payment_method` with `payment_intent_authentication_failure` (the error of
   * fixtures/stripe/payment_intent.requires_payment_method.json).
   * @returns null, or why it cannot be done
   */
  #finishThreeDSecure(a: Account, intent: Intent, outcome: 'succeeded' | 'failed'): string | null {
    if (intent.status !== 'requires_action') return `PaymentIntent ${intent.id} is ${intent.status}, not requires_action.`;
    const pm = intent.paymentMethodId ? a.paymentMethods.get(intent.paymentMethodId) : undefined;
    if (!pm) return `PaymentIntent ${intent.id} has no PaymentMethod.`;
    intent.nextAction = null;
    if (outcome === 'failed') {
      intent.status = 'requires_payment_method';
      intent.paymentMethodId = null;
      intent.lastPaymentError = {
        ...clone(AUTHENTICATION_FAILURE_TEMPLATE),
        payment_method: { id: pm.id, object: 'payment_method', type: 'card' },
      };
      return null;
    }
    if (pm.decline) {
      this.#decline(a, intent, pm, 'card_declined', pm.decline.declineCode, pm.decline.message, []);
      return null;
    }
    this.#authorize(a, intent, pm);
    return null;
  }

  /**
   * POST /v1/payment_intents/:id/confirm (https://docs.stripe.com/api/payment_intents/confirm): `payment_method`
   * (default: the intent's), `off_session`, `return_url`, `expand[]`. From `requires_payment_method`,
   * `requires_confirmation` or `requires_action`; then as a create with `confirm=true`.
   */
  #confirm(a: Account, id: string, form: URLSearchParams): Answer {
    for (const key of form.keys()) {
      if (!/^(payment_method|off_session|return_url|expand\[\d+\])$/.test(key))
        return invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    const intent = a.intents.get(id);
    if (!intent) return missing('payment_intent', id, 'intent');
    if (!CONFIRMABLE.includes(intent.status)) {
      return this.#unexpectedState(
        intent,
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: ${CONFIRMABLE.join(', ')}.`,
      );
    }
    const pmId = form.get('payment_method') ?? intent.paymentMethodId;
    const pm = pmId ? a.paymentMethods.get(pmId) : undefined;
    if (pmId && !pm) return missing('payment_method', pmId, 'payment_method', 400);
    if (!pm) {
      return invalid(
        'payment_intent_unexpected_state',
        'You cannot confirm this PaymentIntent because it is missing a payment method.',
        'payment_method',
      );
    }
    const offSession = offSessionParam(form, true);
    if (isAnswer(offSession)) return offSession;
    const expand = expandParam(form, INTENT_EXPANDABLE);
    if (isAnswer(expand)) return expand;
    const refusal = paymentMethodRefusal(pm, intent.customerId);
    if (refusal) return refusal;
    const returnUrl = form.get('return_url');
    if (returnUrl !== null) intent.returnUrl = returnUrl;
    return this.#confirmIntent(a, intent, pm, offSession, expand);
  }

  /** GET /v1/payment_intents/:id (`expand[]`: `payment_method`, `customer`). */
  #retrieveIntent(a: Account, id: string, params: URLSearchParams): Answer {
    const expand = expandParam(params, INTENT_EXPANDABLE);
    if (isAnswer(expand)) return expand;
    const intent = a.intents.get(id);
    return intent ? ok(this.#renderIntent(intent, expand, a)) : missing('payment_intent', id, 'intent');
  }

  /**
   * GET /v1/payment_intents/search: only `metadata['key']:'value'` queries (quotes
   * and backslashes escaped with a backslash), newest first, `limit` (default 10), `expand[]`
   * (`data.payment_method`, `data.customer`).
   */
  #searchIntents(a: Account, params: URLSearchParams): Answer {
    const query = params.get('query');
    if (!query) return invalid('parameter_missing', 'Missing required param: query.', 'query');
    const m = /^\s*metadata\[(['"])(.+?)\1\]\s*:\s*(['"])((?:\\.|(?!\3)[^\\])*)\3\s*$/.exec(query);
    if (!m) {
      return stripeError(
        400,
        {
          message: `The Stripe stand-in only understands metadata['key']:'value' search queries, not: ${query}`,
          param: 'query',
          type: 'invalid_request_error',
        },
        false,
      );
    }
    const key = m[2]!;
    const value = m[4]!.replace(/\\(.)/g, '$1');
    const limit = this.#limit(params);
    if (isAnswer(limit)) return limit;
    const expanded = expandParam(
      params,
      INTENT_EXPANDABLE.map((f) => `data.${f}`),
    );
    if (isAnswer(expanded)) return expanded;
    const expand = expanded.map((f) => f.slice('data.'.length));
    const found = [...a.intents.values()].filter((i) => i.metadata[key] === value).reverse();
    return ok({
      ...clone(SEARCH_TEMPLATE),
      object: 'search_result',
      data: found.slice(0, limit).map((i) => this.#renderIntent(i, expand, a)),
      has_more: found.length > limit,
      next_page: null,
      url: '/v1/payment_intents/search',
    });
  }

  /** POST /v1/payment_intents/:id/capture (`amount_to_capture`, default all of `amount_capturable`). */
  #capture(a: Account, id: string, form: URLSearchParams): Answer {
    const intent = a.intents.get(id);
    if (!intent) return missing('payment_intent', id, 'intent');
    const amount = amountParam(form, 'amount_to_capture');
    if (isAnswer(amount)) return amount;
    if (intent.status !== 'requires_capture') {
      return this.#unexpectedState(
        intent,
        `This PaymentIntent could not be captured because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      );
    }
    const toCapture = amount ?? intent.amountCapturable;
    if (toCapture > intent.amountCapturable) {
      return invalid(
        'amount_too_large',
        `The amount to capture (${toCapture}) must be less than or equal to the amount capturable (${intent.amountCapturable}).`,
        'amount_to_capture',
        true,
      );
    }
    intent.amountReceived = toCapture;
    intent.amountCapturable = 0;
    intent.status = 'succeeded';
    return ok(this.#renderIntent(intent));
  }

  /** POST /v1/payment_intents/:id/cancel (optional `cancellation_reason`). */
  #cancel(a: Account, id: string, form: URLSearchParams): Answer {
    const intent = a.intents.get(id);
    if (!intent) return missing('payment_intent', id, 'intent');
    if (!CANCELABLE.includes(intent.status)) {
      return this.#unexpectedState(
        intent,
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
      );
    }
    intent.status = 'canceled';
    intent.amountCapturable = 0;
    intent.canceledAt = Math.floor(this.#now() / 1000);
    intent.cancellationReason = form.get('cancellation_reason');
    return ok(this.#renderIntent(intent));
  }

  /** POST /v1/refunds (`payment_intent` or `charge`, optional `amount` = what is left, `metadata[…]`, `reason`). */
  #createRefund(a: Account, form: URLSearchParams): Answer {
    const piId = form.get('payment_intent');
    const chargeId = form.get('charge');
    if (!piId && !chargeId) {
      return invalid(
        'parameter_missing',
        'One of the following params should be provided for this request: payment_intent or charge.',
        'payment_intent',
      );
    }
    const intent = piId ? a.intents.get(piId) : [...a.intents.values()].find((i) => i.chargeId === chargeId);
    if (!intent) return piId ? missing('payment_intent', piId, 'payment_intent', 400) : missing('charge', chargeId!, 'charge', 400);
    const amount = amountParam(form, 'amount');
    if (isAnswer(amount)) return amount;
    if (intent.status !== 'succeeded' || !intent.chargeId) {
      // Approximation: Stripe refuses to refund an intent without a captured charge (cancel it instead).
      return this.#unexpectedState(intent, `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`);
    }
    const refunded = [...a.refunds.values()].filter((r) => r.paymentIntentId === intent.id).reduce((s, r) => s + r.amount, 0);
    const left = intent.amountReceived - refunded;
    if (left <= 0) return invalid('charge_already_refunded', `Charge ${intent.chargeId} has already been refunded.`, null, true);
    const toRefund = amount ?? left;
    if (toRefund > left) {
      return invalid(
        'amount_too_large',
        `Refund amount (${money(toRefund, intent.currency)}) is greater than unrefunded amount on charge (${money(left, intent.currency)})`,
        'amount',
        true,
      );
    }
    const refund: Refund = {
      id: stripeId('re'),
      amount: toRefund,
      currency: intent.currency,
      paymentIntentId: intent.id,
      chargeId: intent.chargeId,
      created: Math.floor(this.#now() / 1000),
      metadata: metadataOf(form),
      reason: form.get('reason'),
      balanceTransaction: stripeId('txn'),
      reference: String(randomBytes(6).readUIntBE(0, 6) % 1_000_000_000_000).padStart(12, '0'),
    };
    a.refunds.set(refund.id, refund);
    return ok(this.#renderRefund(refund));
  }

  /** GET /v1/refunds/:id. */
  #retrieveRefund(a: Account, id: string): Answer {
    const refund = a.refunds.get(id);
    return refund ? ok(this.#renderRefund(refund)) : missing('refund', id, 'id');
  }

  /**
   * GET /v1/refunds: a list object, newest first, filtered by `payment_intent` and/or
   * `charge`, paginated by `limit` (1–100, default 10) and `starting_after` / `ending_before`.
   */
  #listRefunds(a: Account, params: URLSearchParams): Answer {
    const limit = this.#limit(params);
    if (isAnswer(limit)) return limit;
    const pi = params.get('payment_intent');
    const charge = params.get('charge');
    const all = [...a.refunds.values()].filter((r) => (!pi || r.paymentIntentId === pi) && (!charge || r.chargeId === charge)).reverse();
    let page: Refund[];
    let hasMore: boolean;
    const after = params.get('starting_after');
    const before = params.get('ending_before');
    const cursor = after ?? before;
    if (cursor && !a.refunds.has(cursor)) return missing('refund', cursor, after ? 'starting_after' : 'ending_before', 400);
    if (after) {
      const i = all.findIndex((r) => r.id === after);
      const rest = i < 0 ? [] : all.slice(i + 1);
      page = rest.slice(0, limit);
      hasMore = rest.length > limit;
    } else if (before) {
      const i = all.findIndex((r) => r.id === before);
      const prior = i < 0 ? [] : all.slice(0, i);
      page = prior.slice(Math.max(0, prior.length - limit));
      hasMore = prior.length > limit;
    } else {
      page = all.slice(0, limit);
      hasMore = all.length > limit;
    }
    return ok({ object: 'list', data: page.map((r) => this.#renderRefund(r)), has_more: hasMore, url: '/v1/refunds' });
  }

  /**
   * A Dispute in the shape of Stripe's OpenAPI fixture `resources.dispute`, with the fields set from the record;
   * `payment_intent` expanded when asked (`expand[]=payment_intent`).
   */
  #renderDispute(d: DisputeRecord, a: Account, expand: readonly string[] = []): Json {
    const template = clone(DISPUTE_TEMPLATE);
    const evidence = { ...((template.evidence as Json | undefined) ?? {}) };
    for (const [field, value] of Object.entries(d.evidence)) evidence[field] = value;
    const intent = a.intents.get(d.paymentIntentId);
    const methodDetails = clone((template.payment_method_details as Json | undefined) ?? {});
    const card = (methodDetails.card as Json | undefined) ?? {};
    card.network_reason_code = d.networkReasonCode;
    card.case_type = d.status.startsWith('warning_') ? 'inquiry' : 'chargeback';
    methodDetails.card = card;
    return {
      ...template,
      amount: d.amount,
      balance_transactions: [],
      charge: d.chargeId,
      created: d.created,
      currency: d.currency,
      evidence,
      evidence_details: {
        ...((template.evidence_details as Json | undefined) ?? {}),
        due_by: d.dueBy,
        has_evidence: Object.keys(d.evidence).length > 0,
        past_due: false,
        submission_count: d.submissionCount,
      },
      id: d.id,
      is_charge_refundable: d.status.startsWith('warning_'),
      livemode: false,
      metadata: { ...d.metadata },
      network_reason_code: d.networkReasonCode,
      object: 'dispute',
      payment_intent: expand.includes('payment_intent') && intent ? this.#renderIntent(intent, [], a) : d.paymentIntentId,
      payment_method_details: methodDetails,
      reason: d.reason,
      status: d.status,
    };
  }

  /** GET /v1/disputes/:id (`expand[]`: `payment_intent`). */
  #retrieveDispute(a: Account, id: string, params: URLSearchParams): Answer {
    const expand = expandParam(params, ['payment_intent']);
    if (isAnswer(expand)) return expand;
    const dispute = a.disputes.get(id);
    return dispute ? ok(this.#renderDispute(dispute, a, expand)) : missing('dispute', id, 'dispute');
  }

  /**
   * POST /v1/disputes/:id: `evidence[field]` staged (merged over what was staged), `submit` (default true) moves a
   * `*needs_response` dispute to `*under_review`, `metadata[…]`, `expand[]` (`payment_intent`). A file field must name
   * a `dispute_evidence` file of this account. Refused (400, the stand-in's wording) once the dispute is no longer
   * waiting for a response.
   */
  #updateDispute(a: Account, id: string, form: URLSearchParams): Answer {
    const expand = expandParam(form, ['payment_intent']);
    if (isAnswer(expand)) return expand;
    const dispute = a.disputes.get(id);
    if (!dispute) return missing('dispute', id, 'dispute');
    const submitRaw = form.get('submit');
    if (submitRaw !== null && submitRaw !== 'true' && submitRaw !== 'false')
      return invalid('parameter_invalid_boolean', `Invalid boolean: ${submitRaw}`, 'submit');
    const submit = submitRaw !== 'false';
    const evidence: Record<string, string> = {};
    for (const [key, value] of form) {
      const m = /^evidence\[([a-z_]+)\]$/.exec(key);
      if (m) evidence[m[1]!] = value;
      else if (key.startsWith('evidence[')) return invalid('parameter_unknown', `Received unknown parameter: ${key}`, key);
    }
    for (const field of DISPUTE_FILE_FIELDS) {
      const fileId = evidence[field];
      if (fileId === undefined || fileId === '') continue;
      const file = a.files.get(fileId);
      if (!file || file.purpose !== 'dispute_evidence')
        return invalid('resource_missing', `No such file upload: '${fileId}'`, `evidence[${field}]`);
    }
    if (!DISPUTE_RESPONDABLE.includes(dispute.status)) {
      return invalid(
        'dispute_not_respondable',
        `This dispute has a status of ${dispute.status}; evidence can only be given while it needs a response (the stand-in's wording).`,
        null,
        true,
      );
    }
    Object.assign(dispute.evidence, evidence);
    for (const [key, value] of Object.entries(metadataOf(form))) dispute.metadata[key] = value;
    if (submit) {
      dispute.submissionCount += 1;
      dispute.status = DISPUTE_SUBMITTED[dispute.status] ?? dispute.status;
    }
    return ok(this.#renderDispute(dispute, a, expand));
  }

  /**
   * POST /v1/disputes/:id/close: "The status of the dispute will change from needs_response to lost. Closing a dispute
   * is irreversible" (stripe-node 23.1.0 `DisputeResource.close`). Any `*needs_response` dispute → `lost`; a dispute
   * closed already answers as it is; any other status → 400 (the stand-in's wording).
   */
  #closeDispute(a: Account, id: string, form: URLSearchParams): Answer {
    const expand = expandParam(form, ['payment_intent']);
    if (isAnswer(expand)) return expand;
    const dispute = a.disputes.get(id);
    if (!dispute) return missing('dispute', id, 'dispute');
    if (dispute.closed && dispute.status === 'lost') return ok(this.#renderDispute(dispute, a, expand));
    if (!DISPUTE_RESPONDABLE.includes(dispute.status)) {
      return invalid(
        'dispute_not_closable',
        `This dispute has a status of ${dispute.status} and cannot be closed (the stand-in's wording).`,
        null,
        true,
      );
    }
    dispute.status = 'lost';
    dispute.closed = true;
    return ok(this.#renderDispute(dispute, a, expand));
  }

  /**
   * POST /v1/files (`multipart/form-data`: `purpose` and the `file` part; https://docs.stripe.com/api/files/create):
   * a File in the shape of the fixture's `resources.file`. A body that is not multipart, or without `file` or
   * `purpose` → 400.
   */
  #createFile(a: Account, form: URLSearchParams, ctx: Context): Answer {
    const purpose = form.get('purpose');
    if (!purpose) return invalid('parameter_missing', 'Missing required param: purpose.', 'purpose');
    const upload = ctx.upload;
    if (!upload) return invalid('parameter_missing', 'Missing required param: file.', 'file');
    const created = Math.floor(this.#now() / 1000);
    const file: FileRecord = {
      id: stripeId('file'),
      purpose,
      filename: upload.filename,
      mediaType: upload.mediaType,
      size: upload.content.length,
      sha256: createHash('sha256').update(upload.content).digest('hex'),
      created,
      idempotencyKey: ctx.idempotencyKey,
    };
    a.files.set(file.id, file);
    const ext = /\.([A-Za-z0-9]{1,8})$/.exec(file.filename)?.[1]?.toLowerCase() ?? null;
    return ok({
      ...clone(FILE_TEMPLATE),
      created,
      expires_at: null,
      filename: file.filename,
      id: file.id,
      object: 'file',
      purpose,
      size: file.size,
      title: null,
      type: ext,
      url: `/v1/files/${file.id}/contents`,
    });
  }

  #limit(params: URLSearchParams): number | Answer {
    const raw = params.get('limit');
    if (raw === null) return 10;
    if (!/^\d+$/.test(raw)) return invalid('parameter_invalid_integer', `Invalid integer: ${raw}`, 'limit');
    const n = Number(raw);
    if (n < 1 || n > 100) return invalid('parameter_invalid_integer', 'This value must be between 1 and 100.', 'limit');
    return n;
  }
}

/* ------------------------------------------------------------------- entry points */

/**
 * Starts a Stripe stand-in on 127.0.0.1 at a free port.
 * @param options the accepted secret key and the clock (both optional)
 * @returns the running stand-in; `close()` it when done
 * @example
 *   const standIn = await startStripeStandIn();
 *   const stripe = new StripeConnector({ baseUrl: standIn.url, secretKey: standIn.secretKey, webhookSecret: standIn.webhookSecret, timeoutMs: 300 });
 *   standIn.failNext({ method: 'POST', path: '/v1/refunds' }, 'hang_after_work');
 */
export async function startStripeStandIn(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const standIn = new StandIn(options);
  await standIn.listen();
  return standIn;
}

/**
 * The environment variables the connector registry (`shared/processor-call/connector-registry.ts`)
 * reads to build the Stripe connector against the stand-in: `STRIPE_SECRET_KEY`
 * (the stand-in's fake `sk_test_…`), `STRIPE_BASE_URL` (its URL) and
 * `STRIPE_WEBHOOK_SECRET` (a fake `whsec_…`) — the default account's, or `options.account`'s (one of
 * {@link StripeStandIn.accounts}); plus `CONNECTOR_TIMEOUT_MS` (string milliseconds; note it applies
 * to every connector) when `options.timeoutMs` is given.
 */
export function stripeEnv(
  standIn: Pick<StripeStandIn, 'url' | 'secretKey' | 'webhookSecret'>,
  options: { timeoutMs?: number; account?: Pick<StripeStandInAccount, 'secretKey' | 'webhookSecret'> } = {},
): { STRIPE_SECRET_KEY: string; STRIPE_BASE_URL: string; STRIPE_WEBHOOK_SECRET: string; CONNECTOR_TIMEOUT_MS?: string } {
  const account = options.account ?? standIn;
  const env: { STRIPE_SECRET_KEY: string; STRIPE_BASE_URL: string; STRIPE_WEBHOOK_SECRET: string; CONNECTOR_TIMEOUT_MS?: string } = {
    STRIPE_SECRET_KEY: account.secretKey,
    STRIPE_BASE_URL: standIn.url,
    STRIPE_WEBHOOK_SECRET: account.webhookSecret,
  };
  if (options.timeoutMs !== undefined) env.CONNECTOR_TIMEOUT_MS = String(options.timeoutMs);
  return env;
}
