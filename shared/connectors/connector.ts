import type { CardDetails } from '../domain/card';
import type { DisputeEvidence, DisputeStage, DisputeStatus } from '../domain/dispute-vocabulary';
import type { Currency } from '../domain/money';
import type { AuthenticationAddress, AuthenticationStep, CaptureMethod, NextAction, PaymentMethod } from '../domain/payment';
import type { SetupFutureUsage } from '../domain/payment-method';
import type { PaymentStatus } from '../domain/payment-status';
import type { RefundStatus } from '../domain/refund';
import type { PayoutAdapter, PayoutResult } from './payout-connector';

/**
 * The contract every connector (processor adapter) implements. Amounts are
 * integers in minor units end to end; each adapter converts to its processor's
 * wire format in its own files (`requests.ts`, `responses.ts`, `money.ts`) and keeps its status-mapping tables
 * in its `statuses.ts`.
 *
 * Outcomes:
 * - a business outcome (decline, insufficient funds, pending) is a result;
 * - the processor refusing the request (4xx with an error body: bad key, invalid
 *   field) is a thrown {@link ConnectorRequestError} carrying the processor's code;
 * - a technical failure (timeout, network error, 5xx) is a thrown
 *   {@link ConnectorTechnicalError}: the outcome is unknown, routing may fall back.
 */

/**
 * What a connector is asked to authorize (and, for automatic capture, capture).
 * `card` holds the PAN and CVC in memory only; an adapter must never log or store it.
 */
export interface AuthorizeRequest {
  /** Our payment id: the reference sent to the processor (so a sync can find it). */
  paymentId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  paymentMethod: PaymentMethod;
  captureMethod: CaptureMethod;
  card?: CardDetails;
  email?: string | null;
  /** The payer's phone (E.164) when known: mobile money. */
  phone?: string | null;
  /**
   * USSD only: the payer's bank, as its Nigerian (CBN/NIBSS) bank code, e.g. `058` (one of
   * `USSD_BANKS` in `shared/domain/ussd-banks.ts`). Each adapter maps it to its processor's
   * own code (Paystack's USSD `type` 737/919/822/966, Flutterwave's `account_bank`).
   */
  ussdBankCode?: string;
  /**
   * The payer's billing address when the merchant gave one (processors that verify the address,
   * e.g. Flutterwave AVS, may use it up front). Country ISO 3166-1 alpha-2.
   */
  billingAddress?: Partial<AuthenticationAddress> | null;
  /** Public base URL of this API (e.g. `https://api.example.com`), for hosted pages and redirects. */
  publicBaseUrl: string;
  /**
   * Where the processor sends the payer back after a redirect (3DS, hosted page): always
   * Switchyard's own public return route for the payment (`processorReturnUrl`), never the
   * merchant's `return_url` directly (the route syncs the payment first, then redirects).
   */
  returnUrl: string;
  /**
   * The merchant asked to save the payment method for later (`setup_future_usage`, Stripe's
   * vocabulary): `on_session` (the payer present again) or `off_session` (merchant-initiated charges).
   * The adapter asks its processor for a reusable token where the processor needs to be told (Stripe:
   * `setup_future_usage` on the PaymentIntent with a processor customer), and returns it in
   * {@link PaymentResult.savedMethod} when the payment succeeds. Absent/null: nothing to save.
   */
  setupFutureUsage?: SetupFutureUsage | null;
  /**
   * Our customer the payment belongs to, when it has one: its id, its e-mail, and the processor's own
   * customer id under this account when one was made before (Stripe `cus_…`, from an earlier saved
   * method); an adapter that needs a processor customer to save a method creates one when it is null.
   */
  customer?: ProcessorCustomerRef | null;
  /**
   * Charge a payment method saved earlier instead of a card or a payer's phone: the
   * processor's reusable token (decrypted in memory only; never log, store or echo it) and its
   * processor customer. Paystack `POST /transaction/charge_authorization`, Flutterwave
   * `POST /v3/tokenized-charges`, Stripe a PaymentIntent with `payment_method` (+ `customer`).
   */
  savedMethod?: SavedMethodCharge | null;
  /**
   * With {@link savedMethod}: the payer is not present (a merchant-initiated charge, e.g. a renewal):
   * Stripe `off_session=true, confirm=true`. A processor that still needs the payer answers
   * `RequiresAction` with a `next_action` (Stripe `authentication_required`), never a silent failure.
   */
  offSession?: boolean;
}

/** Our customer as an adapter sees it. */
export interface ProcessorCustomerRef {
  /** Our customer id (`cus_…`). */
  customerId: string;
  email?: string | null;
  /** The processor's customer id under this account, when one exists (Stripe `cus_…` at Stripe). */
  processorCustomerId?: string | null;
}

/** A saved payment method to charge. `token` is secret: memory only. */
export interface SavedMethodCharge {
  /** Paystack `authorization_code`, Flutterwave card `token`, Stripe `pm_…`. */
  token: string;
  /** The processor customer the token belongs to (Stripe: required with the PaymentMethod); null when none. */
  processorCustomerId?: string | null;
  /** The e-mail the processor tied the token to (Paystack and Flutterwave charge it with the same e-mail). */
  email?: string | null;
}

/**
 * A reusable payment method a processor returned with a successful payment. `token` is secret:
 * it is encrypted before it is stored, and never logged or returned.
 */
export interface SavedMethodToken {
  /** Paystack `authorization.authorization_code` (only when `authorization.reusable`), Flutterwave `card.token`, Stripe `payment_method` (`pm_…`). */
  token: string;
  /** The processor customer it belongs to (Stripe `cus_…`; Paystack `customer.customer_code`); null when none. */
  processorCustomerId?: string | null;
  /** The e-mail the processor tied it to, needed to charge it again (Paystack, Flutterwave). */
  email?: string | null;
  /**
   * The card's identity at the processor, the same across tokens of one card: Paystack
   * `authorization.signature`, Stripe `card.fingerprint`; null when the processor gives none (a
   * fingerprint of ours is used then). Saved methods of one customer are deduplicated on it.
   */
  fingerprint?: string | null;
  /** The card as the processor describes it; null when not a card. */
  card?: SavedCardDetails | null;
  /** ISO 8601 UTC: when the token stops working at the processor (Flutterwave: a year after it was issued); null when the card's expiry is the only limit. */
  expiresAt?: string | null;
}

/** A saved card as shown (never the PAN): the processor's brand, last four digits, expiry, BIN and issuer country where given. */
export interface SavedCardDetails {
  /** Lower-case brand (`visa`, `mastercard`, `verve`, `amex`, …). */
  brand: string;
  last4: string;
  /** 1–12. */
  expMonth: number;
  /** Four digits. */
  expYear: number;
  /** First 6 digits, where the processor gives them (Paystack `bin`, Flutterwave `first_6digits`). */
  bin?: string | null;
  /** ISO 3166-1 alpha-2 of the issuer, where the processor gives it (Paystack `country_code`, Flutterwave `card.country`, Stripe `card.country`). */
  issuerCountry?: string | null;
}

/**
 * The payer's answer to an authentication step a processor asked for (a payment in
 * `RequiresAction` whose `next_action.type` is the step), relayed by
 * {@link Connector.authenticate}. Exactly the field of the step is set. PIN and OTP are
 * held in memory only: an adapter must never log, store or echo them.
 */
export interface AuthenticateRequest {
  paymentId: string;
  /** The processor's transaction id recorded from the previous answer (null when the processor gave none yet). */
  connectorTransactionId: string | null;
  /** Minor units. */
  amount: number;
  currency: Currency;
  paymentMethod: PaymentMethod;
  captureMethod: CaptureMethod;
  /** The step being answered (the payment's current `next_action.type`). */
  step: AuthenticationStep;
  pin?: string;
  otp?: string;
  /** `submit_phone`: the payer's phone as typed (the processor validates it). */
  phone?: string;
  /** `submit_birthday`: `YYYY-MM-DD`. */
  birthday?: string;
  address?: AuthenticationAddress;
  /**
   * The card again, for processors that re-send the whole charge with the step (Flutterwave's
   * `pin` and `avs_noauth` modes): present only when the step's `card_required` is true.
   */
  card?: CardDetails;
  email?: string | null;
  publicBaseUrl: string;
  /** See {@link AuthorizeRequest.returnUrl}. */
  returnUrl: string;
}

/** A connector's answer about a payment, mapped to our statuses. */
export interface PaymentResult {
  status: Extract<PaymentStatus, 'Succeeded' | 'Failed' | 'Processing' | 'RequiresAction' | 'RequiresCapture' | 'Cancelled'>;
  /** The processor's id of the transaction (charge, payment intent, transfer). */
  connectorTransactionId: string | null;
  /** Minor units captured by this call (0 unless money was captured). */
  amountCaptured: number;
  nextAction?: NextAction | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  /**
   * Set by `sync` only: the processor has no record of this payment under our
   * reference, and its documented propagation window (if any) has passed, so the
   * authorize request is known never to have taken effect there. `status` is then
   * `Failed`. Routing may fall back to the next connector only on this answer.
   */
  notFound?: boolean;
  /**
   * Set by `sync` only: the processor cannot tell yet whether a request we sent took effect (its
   * lookup is still inside its propagation window). `status` is what the payment showed before;
   * a claim (`pending_operation`) on the payment must be kept, not settled, on this answer.
   */
  notYetKnown?: boolean;
  /**
   * The reusable payment method the processor returned with this (successful) payment, when it
   * returned one (authorize, authenticate, sync or a webhook alike). The core saves it only for a payment
   * whose `setup_future_usage` asked for it; an adapter returns it whenever the processor's answer has one.
   */
  savedMethod?: SavedMethodToken | null;
}

/** A connector's answer about a refund. */
export interface RefundResult {
  status: RefundStatus;
  connectorRefundId: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/** What a sync needs to find a payment at the connector: our id (the reference we sent) and what we know of it. */
export interface SyncRequest {
  paymentId: string;
  connectorTransactionId: string | null;
  amount: number;
  currency: Currency;
  paymentMethod: PaymentMethod | null;
  captureMethod: CaptureMethod;
  /**
   * ISO 8601 UTC: when the authorization being looked up was sent (the attempt's start; the
   * payment's creation when no attempt is known). Processors' propagation windows (e.g.
   * Stripe search's) are measured from it, so a payment created long before its confirm
   * is never declared absent too early.
   */
  createdAt: string;
  /**
   * Public base URL of this API when known (the request's, or the one the payment's hosted step page
   * was served from): lets a connector whose payment waits on an authentication step return the step
   * the processor asks for now (with its hosted page URL) instead of "still waiting". Optional.
   */
  publicBaseUrl?: string | null;
}

/**
 * What a refund lookup by our reference needs: our refund id (sent to the processor as
 * its reference or metadata at refund time), the payment it belongs to and the
 * processor's transaction id of that payment. `amount` in minor units; `createdAt`
 * ISO 8601 UTC (when our refund record was written, i.e. just before the refund call).
 */
export interface RefundLookupRequest {
  refundId: string;
  paymentId: string;
  connectorTransactionId: string;
  amount: number;
  currency: Currency;
  createdAt: string;
}

/** Identifies a transaction at the connector for capture, void and refund. */
export interface TransactionRef {
  paymentId: string;
  connectorTransactionId: string;
  currency: Currency;
}

/**
 * A dispute as the processor shows it, mapped by the adapter's status table (its `statuses.ts`):
 * amounts in minor units, times ISO 8601 UTC.
 */
export interface ConnectorDispute {
  /** The processor's id of the dispute. */
  connectorDisputeId: string;
  /** Our payment id when the processor names it (the reference or metadata we sent), else null. */
  paymentId: string | null;
  /** The processor's id of the disputed transaction, when it names one. */
  connectorTransactionId: string | null;
  /** Minor units disputed. */
  amount: number;
  currency: Currency;
  stage: DisputeStage;
  /** Mapped status; an unknown processor status maps to its nearest open one with a warning logged (the raw value in `connectorStatus`). */
  status: DisputeStatus;
  /** The processor's own status, raw. */
  connectorStatus: string;
  connectorReason: string | null;
  connectorReasonCode: string | null;
  /** The processor's deadline for evidence, or null when it gives none (the core then applies the documented window). */
  challengeRequiredBy: string | null;
  /** When the processor opened it, when it says. */
  createdAt: string | null;
}

/** What the core passes to a connector's dispute calls. */
export interface DisputeRef {
  connectorDisputeId: string;
  /** Our payment id and the processor's transaction id of the disputed payment. */
  paymentId: string;
  connectorTransactionId: string | null;
  currency: Currency;
}

/** A file of evidence handed to a connector: its name, media type and bytes. */
export interface DisputeEvidenceFile {
  fileId: string;
  filename: string;
  mediaType: string;
  content: Buffer;
}

/** An inbound webhook as received: the raw body (signatures are over the exact bytes) and lower-case headers. */
export interface InboundWebhook {
  rawBody: string;
  headers: Record<string, string | undefined>;
}

/**
 * A verified webhook, mapped: which payment (or refund) it concerns and what it
 * says. `eventId` is stable across redeliveries of the same event.
 */
export type WebhookEvent =
  | { kind: 'payment'; eventId: string; paymentId: string | null; connectorTransactionId: string | null; result: PaymentResult }
  | { kind: 'refund'; eventId: string; refundId: string | null; connectorRefundId: string | null; result: RefundResult }
  | {
      kind: 'dispute';
      eventId: string;
      /** The dispute as the event shows it, or null when the event only names it (Paystack: read it with `fetchDispute`). */
      dispute: ConnectorDispute | null;
      connectorDisputeId: string;
      /** Our payment id when the event names it. */
      paymentId: string | null;
      /** Set on a reminder the processor sends (Paystack `charge.dispute.remind`). */
      reminder?: boolean;
    }
  | { kind: 'payout'; eventId: string; payoutId: string; result: PayoutResult }
  | { kind: 'ignored'; eventId: string; reason: string };

/**
 * A technical failure talking to a connector (timeout, network error, 5xx):
 * the outcome is unknown, unlike a decline. The payment stays `Processing`
 * until a sync settles it, or routing tries the next connector.
 */
export class ConnectorTechnicalError extends Error {
  /**
   * @param notSent true only when the request provably never reached the processor
   *   (connection refused, host not found): nothing can have happened there.
   */
  constructor(
    readonly connector: string,
    message: string,
    readonly notSent = false,
  ) {
    super(message);
    this.name = 'ConnectorTechnicalError';
  }
}

/** The processor refused the request (4xx with its own error code): nothing happened there. */
export class ConnectorRequestError extends Error {
  constructor(
    readonly connector: string,
    /** The processor's own error code (e.g. Stripe's `card_declined`, Paystack's message slug). */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorRequestError';
  }
}

/** An inbound webhook whose signature does not verify (→ 401, nothing applied). */
export class WebhookSignatureError extends Error {
  constructor(
    readonly connector: string,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/**
 * What is wrong with a signed webhook body, as the API's 400 codes (docs/api.md "Errors"):
 * `invalid_json` (not JSON, or JSON that is not an object), `parameter_missing`,
 * `parameter_invalid_type`, `parameter_invalid` (a value outside what the processor sends).
 */
export type WebhookPayloadProblem = 'invalid_json' | 'parameter_missing' | 'parameter_invalid_type' | 'parameter_invalid';

/**
 * An inbound webhook whose signature verifies but whose body is not an event the adapter can
 * read: not JSON, not an object, or a field the event needs missing or of another type
 * (→ 400 with the API's error body, nothing applied or recorded). Thrown only after the
 * signature check, so an unsigned body is always a {@link WebhookSignatureError} (401).
 * A `SyntaxError` in the wide sense (the signed bytes do not form a readable event), so code
 * that treats an unparsable body as a `SyntaxError` keeps doing so. The message and `param`
 * name the field (dotted, e.g. `data.payment_id`), never its value.
 */
export class WebhookPayloadError extends SyntaxError {
  constructor(
    readonly connector: string,
    readonly code: WebhookPayloadProblem,
    message: string,
    /** The field at fault, dotted from the body's root; absent when the body as a whole is. */
    readonly param?: string,
  ) {
    super(message);
    this.name = 'WebhookPayloadError';
  }
}

/** A downstream processor. */
export interface Connector {
  /** Name shown in a payment's `connector` field and used in routing rules and webhook paths. */
  readonly name: string;
  /**
   * Whether this connector can take a payment in this currency with this method (and, for USSD
   * with a chosen bank, that bank: `options.ussdBankCode`, a CBN code from `USSD_BANKS`).
   */
  supports(currency: Currency, paymentMethod: PaymentMethod, options?: { ussdBankCode?: string }): boolean;
  /** Authorizes (and, with automatic capture, captures) a payment. */
  authorize(request: AuthorizeRequest): Promise<PaymentResult>;
  /**
   * Relays the payer's answer to an authentication step (PIN, OTP, phone, birthday, address)
   * and maps the processor's answer: `RequiresAction` with the next step, or the outcome.
   * A wrong value is a result carrying the processor's code and message (the step stays open
   * while the processor allows more tries, or the payment `Failed` when it does not).
   * Absent on connectors that never ask for a step.
   * @throws ConnectorTechnicalError (outcome unknown: the reconciler syncs) / ConnectorRequestError (refused: nothing happened)
   */
  authenticate?(request: AuthenticateRequest): Promise<PaymentResult>;
  /** Captures `amount` minor units of an authorization. */
  capture(request: TransactionRef & { amount: number }): Promise<PaymentResult>;
  /** Voids (cancels) an authorization or a pending payment. */
  void(request: TransactionRef): Promise<PaymentResult>;
  /** Refunds `amount` minor units of a captured payment; `refundId` is our refund id (the processor's reference where it takes one). */
  refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult>;
  /** The connector's current view of a payment (reconciliation); changes nothing there. */
  sync(request: SyncRequest): Promise<PaymentResult>;
  /**
   * Finds a refund at the processor by our reference (our refund id), for a refund whose
   * outcome is unknown (the refund call timed out, or the process died before writing
   * the processor's answer): we have no processor refund id. Changes nothing there.
   * @returns the refund's current result (with the processor's refund id), or `null` when
   *   the processor has no refund under our reference (known absent, after any documented
   *   propagation window; before it, a `Pending` result with a null id)
   * @throws ConnectorTechnicalError / ConnectorRequestError when the lookup itself fails
   */
  findRefund(request: RefundLookupRequest): Promise<RefundResult | null>;
  /** The connector's current view of a refund. */
  syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult>;
  /**
   * Checks that the processor accepts this adapter's credentials, as when a merchant connects an account: one
   * read-only, authenticated call (a balance read: Stripe `GET /v1/balance`, Paystack `GET /balance`,
   * Flutterwave `GET /v3/balances`; the sandbox calls nothing and always resolves). Nothing is created or changed
   * at the processor, so a failure leaves no unknown outcome. Timeout: the adapter table's `verifyCredentials`
   * entry (10 s; `CREDENTIAL_CHECK_TIMEOUT_MS` in connector-http.ts).
   * @returns when the processor answered with the documented body
   * @throws ConnectorRequestError with code `invalid_credentials` when the processor says the key is wrong (HTTP
   *   401 or 403, or Paystack's `Invalid key`); its message never contains the key
   * @throws ConnectorRequestError with the processor's code for any other refusal (4xx)
   * @throws ConnectorTechnicalError when the processor is unreachable, times out, answers 5xx, or answers
   *   something other than the documented body (the key could not be checked)
   */
  verifyCredentials(): Promise<void>;
  /**
   * Makes a saved method unusable at the processor (a customer detaching it, or being deleted):
   * Paystack `POST /customer/deactivate_authorization`, Stripe `POST /v1/payment_methods/{id}/detach`;
   * absent where the processor has no such call (Flutterwave: the token is forgotten on our side only).
   * @throws ConnectorTechnicalError (unknown: retried) / ConnectorRequestError (refused; e.g. already detached)
   */
  detachSavedMethod?(request: SavedMethodCharge): Promise<void>;
  /**
   * The processor's current view of a dispute (Paystack `GET /dispute/:id`, Stripe `GET /v1/disputes/:id`,
   * Flutterwave `GET /v3/chargebacks?flw_ref=`). Changes nothing there.
   * @throws ConnectorTechnicalError / ConnectorRequestError
   */
  fetchDispute?(request: DisputeRef): Promise<ConnectorDispute>;
  /**
   * Disputes opened or changed at the processor since `since` (ISO 8601 UTC), for processors that send no
   * dispute webhooks (Flutterwave: `GET /v3/chargebacks`, polled by the scheduled worker per account).
   */
  listDisputes?(since: string): Promise<ConnectorDispute[]>;
  /**
   * Accepts the dispute (the money stays with the cardholder): Paystack `PUT /dispute/:id/resolve`
   * (`resolution: merchant-accepted`), Stripe `POST /v1/disputes/:id/close`, Flutterwave `PUT /v3/chargebacks/:id`
   * (`action: accept`). Idempotent at the processor where it can be (a retry of an accepted one answers it).
   * @returns the dispute after it
   * @throws ConnectorTechnicalError (unknown: the core reads the dispute back) / ConnectorRequestError (refused)
   */
  acceptDispute?(request: DisputeRef): Promise<ConnectorDispute>;
  /**
   * Relays evidence (text fields, and files already read by the core), and submits it when `submit`:
   * Paystack `POST /dispute/:id/evidence` (+ `GET /dispute/:id/upload_url` per file) then
   * `PUT /dispute/:id/resolve` (`merchant-declined`), Stripe `POST /v1/files` + `POST /v1/disputes/:id`
   * (`evidence[...]`, `submit`), Flutterwave `PUT /v3/chargebacks/:id` (`action: decline`, `comment`).
   * @returns the dispute after it
   * @throws ConnectorTechnicalError / ConnectorRequestError
   */
  submitDisputeEvidence?(
    request: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
  ): Promise<ConnectorDispute>;
  /** Payouts from this account's balance (./payout-connector.ts); absent on connectors that cannot send them (Stripe). */
  readonly payouts?: PayoutAdapter;
  /**
   * Verifies an inbound webhook's signature and maps it.
   * @throws WebhookSignatureError when the signature is missing or wrong
   * @throws WebhookPayloadError when the signature verifies but the body is not an event the adapter can read
   */
  parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent>;
}
