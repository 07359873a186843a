import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import {
  ConnectorRequestError,
  WebhookSignatureError,
  type AuthorizeRequest,
  type Connector,
  type InboundWebhook,
  type PaymentResult,
  type RefundResult,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
} from '../connector';
import { connectorFetch } from '../connector-http';
import {
  buildCaptureBody,
  buildChargeRequest,
  buildRefundBody,
  dataOf,
  flutterwaveChargeType,
  flutterwaveErrorOf,
  FLUTTERWAVE_CONNECTOR_NAME,
  FLUTTERWAVE_NOT_FOUND_STATUS,
  FLUTTERWAVE_PENDING_STATUS,
  FLUTTERWAVE_WEBHOOK_HEADER,
  ignoredEventId,
  isTransactionNotFound,
  majorToMinor,
  paymentResultFromCapture,
  paymentResultFromCharge,
  paymentResultFromTransaction,
  refundResultFromRefund,
  webhookChargeOf,
  webhookEventId,
  webhookHashProblem,
  type FlutterwaveRefund,
  type FlutterwaveResponse,
  type FlutterwaveTransaction,
  type FlutterwaveWebhookPayload,
} from './transformers';

export { FLUTTERWAVE_CONNECTOR_NAME } from './transformers';

/**
 * What the Flutterwave adapter needs. Keys come from configuration only
 * (Secrets Manager on a deployed stage, environment variables locally).
 */
export interface FlutterwaveConnectorConfig {
  /** `https://api.flutterwave.com` in production; a local fixture server in tests. Paths (`/v3/…`) are appended. */
  baseUrl: string;
  /** The secret key (`FLWSECK-…`), sent as `Authorization: Bearer`. */
  secretKey: string;
  /** The webhook "secret hash" set in the dashboard, which Flutterwave sends back in `verif-hash`. */
  webhookSecret: string;
  /** The dashboard's encryption key (24 characters): the 3DES key of card charges. */
  encryptionKey: string;
  /** Timeout of one Flutterwave call in milliseconds (default: `connectorFetch`'s 8000). */
  timeoutMs?: number;
  /**
   * Bank code sent as `account_bank` for USSD charges (default `058`, Guaranty Trust Bank, the
   * bank of Flutterwave's own USSD example). Our API carries no bank choice, so every USSD
   * payment gets this bank's code; see https://developer.flutterwave.com/docs/direct-charge/ussd for the list.
   */
  ussdBankCode?: string;
  /** The clock, in epoch milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

/** Default USSD bank (Guaranty Trust Bank, `058`). */
export const DEFAULT_USSD_BANK_CODE = '058';

const NUMERIC_ID = /^\d+$/;

/**
 * Flutterwave v3 adapter (https://developer.flutterwave.com, base URL
 * `https://api.flutterwave.com`, `Authorization: Bearer <secret key>`, JSON bodies):
 * - authorize: `POST /v3/charges?type=card|bank_transfer|ussd|mobile_money_ghana|mpesa`
 *   with our payment id as `tx_ref` (card payloads 3DES-encrypted into `{ client }`;
 *   manual capture sends `preauthorize: true`);
 * - capture / void of a preauth: `POST /v3/charges/{flw_ref}/capture` and `/void`;
 * - refund: `POST /v3/transactions/{id}/refund`, refund sync: `GET /v3/refunds/{id}`;
 * - sync: `GET /v3/transactions/{id}/verify`, or `GET /v3/transactions/verify_by_reference?tx_ref=<payment id>`
 *   when we hold no transaction id (authorize timed out, or the method answers without one);
 * - webhooks: `verif-hash` must equal the dashboard's secret hash; a `charge.completed` event is
 *   re-verified with the verify endpoint before it is trusted, as Flutterwave recommends.
 *
 * Every call goes through `connectorFetch` (timeout/network/5xx → ConnectorTechnicalError,
 * 4xx → ConnectorRequestError with Flutterwave's message as code, see `flutterwaveErrorOf`).
 * The secret key, encryption key and webhook hash live in private fields and never appear in
 * results, errors or logs; the PAN and CVC only travel encrypted.
 */
export class FlutterwaveConnector implements Connector {
  readonly name = FLUTTERWAVE_CONNECTOR_NAME;
  readonly #baseUrl: string;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #encryptionKey: string;
  readonly #timeoutMs: number | undefined;
  readonly #ussdBankCode: string;
  readonly #now: () => number;

  /**
   * @throws Error when a key is missing or the encryption key is not 24 bytes (the key itself is never echoed)
   */
  constructor(config: FlutterwaveConnectorConfig) {
    if (!config.baseUrl) throw new Error('Flutterwave baseUrl is not configured.');
    if (!config.secretKey) throw new Error('Flutterwave secretKey is not configured.');
    if (!config.webhookSecret) throw new Error('Flutterwave webhookSecret (the dashboard secret hash) is not configured.');
    if (Buffer.byteLength(config.encryptionKey ?? '', 'utf8') !== 24) throw new Error('Flutterwave encryptionKey must be the 24-character key from the dashboard.');
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#secretKey = config.secretKey;
    this.#webhookSecret = config.webhookSecret;
    this.#encryptionKey = config.encryptionKey;
    this.#timeoutMs = config.timeoutMs;
    this.#ussdBankCode = config.ussdBankCode ?? DEFAULT_USSD_BANK_CODE;
    this.#now = config.now ?? Date.now;
  }

  /** Cards in NGN, USD, GHS, ZAR, KES; bank transfer and USSD in NGN; mobile money in GHS and KES (see `FLUTTERWAVE_CHARGE_TYPES`). */
  supports(currency: Currency, paymentMethod: PaymentMethod): boolean {
    return flutterwaveChargeType(currency, paymentMethod) !== undefined;
  }

  async #call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return connectorFetch<T>({
      connector: this.name,
      method,
      url: `${this.#baseUrl}${path}`,
      headers: {
        Authorization: `Bearer ${this.#secretKey}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      ...(this.#timeoutMs === undefined ? {} : { timeoutMs: this.#timeoutMs }),
      errorOf: flutterwaveErrorOf,
    });
  }

  /** `GET /v3/transactions/{id}/verify`. */
  async #verifyById(id: string): Promise<FlutterwaveTransaction> {
    return dataOf(await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('GET', `/v3/transactions/${encodeURIComponent(id)}/verify`));
  }

  /** `GET /v3/transactions/verify_by_reference?tx_ref=<our payment id>`. */
  async #verifyByReference(paymentId: string): Promise<FlutterwaveTransaction> {
    return dataOf(await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('GET', `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(paymentId)}`));
  }

  /**
   * The transaction behind a payment: by id when we hold Flutterwave's numeric id, else by our reference.
   * @throws ConnectorRequestError `verification_mismatch` when the transaction Flutterwave returns is not this payment's
   */
  async #transactionOf(ref: { paymentId: string; connectorTransactionId: string | null }): Promise<FlutterwaveTransaction> {
    const id = ref.connectorTransactionId;
    const tx = id && NUMERIC_ID.test(id) ? await this.#verifyById(id) : await this.#verifyByReference(ref.paymentId);
    if (tx.tx_ref !== ref.paymentId) {
      throw new ConnectorRequestError(this.name, 'verification_mismatch', `Flutterwave transaction ${tx.id} belongs to reference ${tx.tx_ref}, not to payment ${ref.paymentId}.`);
    }
    return tx;
  }

  /**
   * Charges the payment (`POST /v3/charges?type=…`): see `buildChargeRequest` and `paymentResultFromCharge`.
   * A decline is a `Failed` result; a card that asks for a PIN, billing address or OTP is `Failed`
   * with `unsupported_authorization_mode`.
   * @throws ConnectorRequestError when a required detail is missing (nothing sent) or Flutterwave refuses the request (4xx)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx (a sync by reference finds the outcome)
   */
  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    const charge = buildChargeRequest(request, { encryptionKey: this.#encryptionKey, ussdBankCode: this.#ussdBankCode });
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('POST', `/v3/charges?type=${charge.type}`, charge.body);
    return paymentResultFromCharge(response, { request, type: charge.type, now: this.#now() });
  }

  /**
   * Captures `amount` minor units of a preauthorized card charge: reads the transaction's `flw_ref`
   * (verify), then `POST /v3/charges/{flw_ref}/capture` with the major-unit amount.
   * @throws ConnectorRequestError when Flutterwave refuses (not a preauth, already captured, amount too high)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    const tx = await this.#transactionOf(request);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('POST', `/v3/charges/${encodeURIComponent(tx.flw_ref)}/capture`, buildCaptureBody(request.amount));
    return paymentResultFromCapture(response, request.amount);
  }

  /**
   * Releases a preauthorization's hold: reads the `flw_ref` (verify), then `POST /v3/charges/{flw_ref}/void`.
   * A `success` answer means the lien is released → `Cancelled`. Flutterwave has no cancel for a pending
   * bank transfer, USSD or mobile-money charge; it refuses the void (4xx) and that refusal is thrown.
   * @throws ConnectorRequestError when Flutterwave refuses
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async void(request: TransactionRef): Promise<PaymentResult> {
    const tx = await this.#transactionOf(request);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('POST', `/v3/charges/${encodeURIComponent(tx.flw_ref)}/void`);
    if (response.status !== 'success') dataOf(response);
    return { status: 'Cancelled', connectorTransactionId: String(tx.id), amountCaptured: 0 };
  }

  /**
   * Refunds `amount` minor units: `POST /v3/transactions/{id}/refund` with the major-unit amount
   * (the numeric id is looked up by reference first when we do not hold it). Flutterwave takes no
   * refund reference; our refund id goes into `comments`.
   * @throws ConnectorRequestError when Flutterwave refuses (e.g. below its minimum: NGN 100, KES 10)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    const id = NUMERIC_ID.test(request.connectorTransactionId) ? request.connectorTransactionId : String((await this.#transactionOf(request)).id);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>('POST', `/v3/transactions/${encodeURIComponent(id)}/refund`, buildRefundBody(request.amount, request.refundId));
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Flutterwave's current view of a payment (verify by id, or by our reference when we hold no id),
   * checked against what we expect (reference, currency, amount when successful) as Flutterwave's
   * verification guide requires. Pending maps to the status authorize gave for the method
   * (`FLUTTERWAVE_PENDING_STATUS`; `Processing` for a card whose authorize never answered); no
   * transaction found maps through `FLUTTERWAVE_NOT_FOUND_STATUS`.
   * @throws ConnectorRequestError `verification_mismatch` when the transaction is not this payment's
   *   (other reference or currency, or a successful amount below the payment's)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    const type = request.paymentMethod ? flutterwaveChargeType(request.currency, request.paymentMethod) : undefined;
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#transactionOf(request);
    } catch (err) {
      if (!isTransactionNotFound(err)) throw err;
      const status = type ? FLUTTERWAVE_NOT_FOUND_STATUS[type] : 'Processing';
      return status === 'Failed'
        ? { status, connectorTransactionId: request.connectorTransactionId, amountCaptured: 0, errorCode: 'transaction_not_found', errorMessage: 'Flutterwave has no transaction for this payment: the charge never reached it.' }
        : { status, connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
    }
    if (tx.currency !== request.currency || (tx.status === 'successful' && majorToMinor(tx.amount) < request.amount)) {
      throw new ConnectorRequestError(this.name, 'verification_mismatch', `Flutterwave transaction ${tx.id} is ${tx.amount} ${tx.currency}, not the payment's amount and currency.`);
    }
    const pendingStatus = !type || (type === 'card' && request.connectorTransactionId === null) ? 'Processing' : FLUTTERWAVE_PENDING_STATUS[type];
    return paymentResultFromTransaction(tx, { preauthorized: request.captureMethod === 'manual' || tx.charge_type === 'preauth', pendingStatus });
  }

  /**
   * A refund's current state: `GET /v3/refunds/{id}` through `FLUTTERWAVE_REFUND_STATUS`.
   * @throws ConnectorRequestError when Flutterwave refuses (unknown refund id)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>('GET', `/v3/refunds/${encodeURIComponent(request.connectorRefundId)}`);
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Verifies and maps a webhook. `verif-hash` must equal the configured secret hash (constant-time).
   * A `charge.completed` event (or a legacy flat `*_TRANSACTION` body) is then re-read with
   * `GET /v3/transactions/{id}/verify` — the payload's own status is not trusted — and mapped:
   * outcomes (succeeded, failed, held for capture) become a payment event for `tx_ref`; a transaction
   * still waiting (pending, awaiting validation), a reference
   * mismatch, an unknown transaction and every other event are `ignored`. The event id is built
   * from event, transaction id and status (stable across redeliveries).
   * @throws WebhookSignatureError when `verif-hash` is missing or wrong
   * @throws SyntaxError when a correctly signed body is not JSON
   * @throws ConnectorTechnicalError when the verify call fails technically (Flutterwave redelivers on a non-2xx answer)
   */
  async parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    const problem = webhookHashProblem(webhook.headers[FLUTTERWAVE_WEBHOOK_HEADER], this.#webhookSecret);
    if (problem === 'missing') throw new WebhookSignatureError(this.name, 'The webhook has no verif-hash header.');
    if (problem === 'mismatch') throw new WebhookSignatureError(this.name, 'The webhook verif-hash does not match the configured secret hash.');
    const payload = JSON.parse(webhook.rawBody) as FlutterwaveWebhookPayload;
    const charge = webhookChargeOf(payload ?? {});
    if (!charge) return { kind: 'ignored', eventId: ignoredEventId(webhook.rawBody), reason: `Flutterwave event ${String(payload?.event ?? payload?.['event.type'] ?? 'unknown')} is not a charge outcome.` };
    const eventId = webhookEventId(charge);
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#verifyById(String(charge.id));
    } catch (err) {
      if (err instanceof ConnectorRequestError) return { kind: 'ignored', eventId, reason: `Flutterwave does not confirm transaction ${charge.id}: ${err.message}` };
      throw err;
    }
    if (tx.tx_ref !== charge.txRef) return { kind: 'ignored', eventId, reason: `Transaction ${charge.id} belongs to reference ${tx.tx_ref}, not ${charge.txRef}.` };
    const preauthorized = (tx.charge_type ?? charge.chargeType) === 'preauth';
    const result = paymentResultFromTransaction(tx, { preauthorized, pendingStatus: 'Processing' });
    // Only outcomes settle a payment here; a still-waiting transaction would wipe the payer's instructions.
    if (result.status === 'Processing' || result.status === 'RequiresAction') return { kind: 'ignored', eventId, reason: `Transaction ${charge.id} is still ${tx.status} at Flutterwave.` };
    return { kind: 'payment', eventId, paymentId: tx.tx_ref, connectorTransactionId: String(tx.id), result };
  }
}
