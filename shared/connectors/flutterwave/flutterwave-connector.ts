import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import {
  ConnectorRequestError,
  ConnectorTechnicalError,
  WebhookSignatureError,
  type AuthorizeRequest,
  type Connector,
  type InboundWebhook,
  type PaymentResult,
  type RefundLookupRequest,
  type RefundResult,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
} from '../connector';
import { connectorFetch, timeoutFor, type ConnectorOperation } from '../connector-http';
import {
  buildCaptureBody,
  buildChargeRequest,
  buildRefundBody,
  dataOf,
  flutterwaveChargeType,
  flutterwaveErrorOf,
  FLUTTERWAVE_CONNECTOR_NAME,
  FLUTTERWAVE_NOT_FOUND_SETTLE_MS,
  FLUTTERWAVE_NOT_FOUND_STATUS,
  FLUTTERWAVE_PENDING_STATUS,
  FLUTTERWAVE_REFUND_LIST_MAX_PAGES,
  FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS,
  FLUTTERWAVE_TIMEOUTS_MS,
  FLUTTERWAVE_WEBHOOK_HEADER,
  hasMoreRefundPages,
  ignoredEventId,
  isTransactionNotFound,
  majorToMinor,
  ourFlutterwaveRefund,
  paymentResultFromCapture,
  paymentResultFromCharge,
  paymentResultFromTransaction,
  refundListQuery,
  refundResultFromRefund,
  webhookChargeOf,
  webhookEventId,
  webhookHashProblem,
  type FlutterwaveRefund,
  type FlutterwaveRefundList,
  type FlutterwaveRefundListItem,
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
  /**
   * Timeout of every Flutterwave call in milliseconds (`CONNECTOR_TIMEOUT_MS`). Unset, each operation
   * uses {@link FLUTTERWAVE_TIMEOUTS_MS} (Flutterwave's 28 s server-side wait plus a margin).
   */
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
 * - refund: `POST /v3/transactions/{id}/refund`, refund sync: `GET /v3/refunds/{id}`, refund lookup by our
 *   refund id: `GET /v3/refunds?id=<transaction id>&from=…&to=…&page=N`, matched on the refund's `comment`;
 * - sync: `GET /v3/transactions/{id}/verify`, or `GET /v3/transactions/verify_by_reference?tx_ref=<payment id>`
 *   when we hold no transaction id (authorize timed out, or the method answers without one); "No transaction
 *   was found" by reference is `Failed` with `notFound: true` for card, USSD and M-Pesa once
 *   `FLUTTERWAVE_NOT_FOUND_SETTLE_MS` has passed;
 * - webhooks: `verif-hash` must equal the dashboard's secret hash; a `charge.completed` event is
 *   re-verified with the verify endpoint before it is trusted, as Flutterwave recommends.
 *
 * Every call goes through `connectorFetch` with the operation's timeout from `FLUTTERWAVE_TIMEOUTS_MS`
 * (35 s: Flutterwave's 28 s server-side wait plus a margin; `timeoutMs` overrides)
 * (timeout/network/5xx/409 → ConnectorTechnicalError, other 4xx → ConnectorRequestError with
 * Flutterwave's message as code, see `flutterwaveErrorOf`).
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
    this.#now = config.now ?? (() => Date.now()); // read at call time (a mocked Date.now applies)
  }

  /** Cards in NGN, USD, GHS, ZAR, KES; bank transfer and USSD in NGN; mobile money in GHS and KES (see `FLUTTERWAVE_CHARGE_TYPES`). */
  supports(currency: Currency, paymentMethod: PaymentMethod): boolean {
    return flutterwaveChargeType(currency, paymentMethod) !== undefined;
  }

  /** One Flutterwave call: bearer key, JSON body, the operation's timeout, Flutterwave's error mapping. */
  async #call<T>(operation: ConnectorOperation, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
      timeoutMs: timeoutFor(FLUTTERWAVE_TIMEOUTS_MS, operation, this.#timeoutMs),
      errorOf: flutterwaveErrorOf,
    });
  }

  /** `GET /v3/transactions/{id}/verify`. */
  async #verifyById(operation: ConnectorOperation, id: string): Promise<FlutterwaveTransaction> {
    return dataOf(await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(operation, 'GET', `/v3/transactions/${encodeURIComponent(id)}/verify`));
  }

  /** `GET /v3/transactions/verify_by_reference?tx_ref=<our payment id>`. */
  async #verifyByReference(operation: ConnectorOperation, paymentId: string): Promise<FlutterwaveTransaction> {
    return dataOf(await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(operation, 'GET', `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(paymentId)}`));
  }

  /**
   * The transaction behind a payment: by id when we hold Flutterwave's numeric id, else by our reference.
   * @throws ConnectorRequestError `verification_mismatch` when the transaction Flutterwave returns is not this payment's
   */
  async #transactionOf(operation: ConnectorOperation, ref: { paymentId: string; connectorTransactionId: string | null }): Promise<FlutterwaveTransaction> {
    const id = ref.connectorTransactionId;
    const tx = id && NUMERIC_ID.test(id) ? await this.#verifyById(operation, id) : await this.#verifyByReference(operation, ref.paymentId);
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
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('authorize', 'POST', `/v3/charges?type=${charge.type}`, charge.body);
    return paymentResultFromCharge(response, { request, type: charge.type, now: this.#now() });
  }

  /**
   * Captures `amount` minor units of a preauthorized card charge: reads the transaction's `flw_ref`
   * (verify), then `POST /v3/charges/{flw_ref}/capture` with the major-unit amount.
   * @throws ConnectorRequestError when Flutterwave refuses (not a preauth, already captured, amount too high)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    const tx = await this.#transactionOf('capture', request);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('capture', 'POST', `/v3/charges/${encodeURIComponent(tx.flw_ref)}/capture`, buildCaptureBody(request.amount));
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
    const tx = await this.#transactionOf('void', request);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('void', 'POST', `/v3/charges/${encodeURIComponent(tx.flw_ref)}/void`);
    if (response.status !== 'success') dataOf(response);
    return { status: 'Cancelled', connectorTransactionId: String(tx.id), amountCaptured: 0 };
  }

  /**
   * Refunds `amount` minor units: `POST /v3/transactions/{id}/refund` with the major-unit amount
   * (the numeric id is looked up by reference first when we do not hold it). Flutterwave takes no
   * refund reference; our refund id goes into `comments` (`Refund <id>`), which {@link findRefund} matches when the answer was lost.
   * @throws ConnectorRequestError when Flutterwave refuses (e.g. below its minimum: NGN 100, KES 10)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    const id = NUMERIC_ID.test(request.connectorTransactionId) ? request.connectorTransactionId : String((await this.#transactionOf('refund', request)).id);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>('refund', 'POST', `/v3/transactions/${encodeURIComponent(id)}/refund`, buildRefundBody(request.amount, request.refundId));
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Flutterwave's current view of a payment (verify by id, or by our reference when we hold no id),
   * checked against what we expect (reference, currency, amount when successful) as Flutterwave's
   * verification guide requires. Pending maps to the status authorize gave for the method
   * (`FLUTTERWAVE_PENDING_STATUS`; `Processing` for a card whose authorize never answered); no
   * transaction found ("No transaction was found", see `isTransactionNotFound`) maps through
   * `FLUTTERWAVE_NOT_FOUND_STATUS`; when that is `Failed` (card, USSD, M-Pesa):
   * - looked up by our reference: `Processing` for {@link FLUTTERWAVE_NOT_FOUND_SETTLE_MS} after the
   *   payment's creation (the charge may still be in flight), then `Failed` (`transaction_not_found`)
   *   with `notFound: true`, on which routing may fall back;
   * - looked up by a transaction id Flutterwave gave us: `Failed` without `notFound` (the charge did
   *   reach Flutterwave).
   * @throws ConnectorRequestError `verification_mismatch` when the transaction is not this payment's
   *   (other reference or currency, or a successful amount below the payment's); any other 4xx
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    const type = request.paymentMethod ? flutterwaveChargeType(request.currency, request.paymentMethod) : undefined;
    const byReference = !(request.connectorTransactionId && NUMERIC_ID.test(request.connectorTransactionId));
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#transactionOf('sync', request);
    } catch (err) {
      if (!isTransactionNotFound(err)) throw err;
      const status = type ? FLUTTERWAVE_NOT_FOUND_STATUS[type] : 'Processing';
      if (status !== 'Failed') return { status, connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
      const failed: PaymentResult = {
        status,
        connectorTransactionId: request.connectorTransactionId,
        amountCaptured: 0,
        errorCode: 'transaction_not_found',
        errorMessage: 'Flutterwave has no transaction for this payment: the charge never reached it.',
      };
      if (!byReference) return failed;
      const ageMs = this.#now() - Date.parse(request.createdAt);
      if (!(ageMs >= FLUTTERWAVE_NOT_FOUND_SETTLE_MS)) return { status: 'Processing', connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
      return { ...failed, notFound: true };
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
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>('syncRefund', 'GET', `/v3/refunds/${encodeURIComponent(request.connectorRefundId)}`);
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Finds our refund at Flutterwave when its outcome is unknown (we hold no Flutterwave refund id):
   * the transaction's numeric id (ours, or looked up by reference as `refund` does), then
   * `GET /v3/refunds?id=<transaction id>&from=<day before our record>&to=<day after now>&page=N` for
   * every page (`meta.page_info`), and the refund whose `comment` is the `comments` our refund call sent
   * (`ourFlutterwaveRefund`, which documents the ambiguity rules). Once
   * {@link FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS} has passed since `createdAt` an absent refund is known
   * never to have been created.
   * @returns the refund mapped through `FLUTTERWAVE_REFUND_STATUS` (with Flutterwave's refund id);
   *   `Pending` with a null id when absent within the settle window; null when absent after it
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx; when the match is ambiguous or
   *   ours has another amount; when the listing's pagination is unknown or longer than
   *   `FLUTTERWAVE_REFUND_LIST_MAX_PAGES` pages
   * @throws ConnectorRequestError on a 4xx, or when the envelope says `error`
   */
  async findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    const transactionId = NUMERIC_ID.test(request.connectorTransactionId) ? request.connectorTransactionId : String((await this.#transactionOf('findRefund', request)).id);
    const refunds: FlutterwaveRefundListItem[] = [];
    for (let page = 1; ; page += 1) {
      if (page > FLUTTERWAVE_REFUND_LIST_MAX_PAGES) {
        throw new ConnectorTechnicalError(this.name, `More than ${FLUTTERWAVE_REFUND_LIST_MAX_PAGES} pages of Flutterwave refunds for transaction ${transactionId}; the lookup of refund ${request.refundId} needs an operator.`);
      }
      const query = refundListQuery(transactionId, request.createdAt, this.#now(), page);
      const list = await this.#call<FlutterwaveRefundList>('findRefund', 'GET', `/v3/refunds?${query.toString()}`);
      if (list.status !== 'success') {
        const { code, message } = flutterwaveErrorOf(200, list);
        throw new ConnectorRequestError(this.name, code, message);
      }
      refunds.push(...(Array.isArray(list.data) ? list.data : []));
      if (!hasMoreRefundPages(list, page)) break;
    }
    const ours = ourFlutterwaveRefund(refunds, transactionId, request);
    if (ours) return refundResultFromRefund(ours);
    const ageMs = this.#now() - Date.parse(request.createdAt);
    if (!(ageMs >= FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS)) return { status: 'Pending', connectorRefundId: null };
    return null;
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
      tx = await this.#verifyById('webhook', String(charge.id));
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
