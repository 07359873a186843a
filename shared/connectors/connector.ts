import type { CardDetails } from '../domain/card';
import type { Currency } from '../domain/money';
import type { AuthenticationAddress, AuthenticationStep, CaptureMethod, NextAction, PaymentMethod } from '../domain/payment';
import type { PaymentStatus } from '../domain/payment-status';
import type { RefundStatus } from '../domain/refund';

/**
 * The contract every connector (processor adapter) implements. Amounts are
 * integers in minor units end to end; each adapter converts to its processor's
 * wire format in its own `transformers.ts` and keeps its status-mapping table there.
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
   * Verifies an inbound webhook's signature and maps it.
   * @throws WebhookSignatureError when the signature is missing or wrong
   * @throws WebhookPayloadError when the signature verifies but the body is not an event the adapter can read
   */
  parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent>;
}
