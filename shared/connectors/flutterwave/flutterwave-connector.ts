import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import { CURRENCIES, type Currency } from '../../domain/money';
import { type AuthenticationAddress, authenticationAction, type PaymentMethod } from '../../domain/payment';
import { logger } from '../../observability/logger';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  type Connector,
  type ConnectorDispute,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type DisputeEvidenceFile,
  type DisputeRef,
  type InboundWebhook,
  type PaymentResult,
  type RefundLookupRequest,
  type RefundResult,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
  WebhookSignatureError,
} from '../connector';
import { type ConnectorOperation, connectorFetch, timeoutFor, verifyCredentialsFetch } from '../connector-http';
import {
  MAX_WEBHOOK_ID_LENGTH,
  optionalString,
  readWebhookJson,
  requiredInteger,
  requiredObject,
  requiredString,
  type WebhookObject,
} from '../webhook-payload';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';
import { slugOf } from './decline-codes';
import {
  type ChargebackDefaults,
  chargebackListQuery,
  connectorDisputeOf,
  declineCommentOf,
  evidenceFileFieldsOf,
  FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES,
  flutterwaveChargebackPath,
  hasMoreChargebackPages,
} from './disputes';
import {
  FLUTTERWAVE_NOT_FOUND_SETTLE_MS,
  FLUTTERWAVE_REFUND_LIST_MAX_PAGES,
  FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS,
  hasMoreRefundPages,
  isTransactionNotFound,
  ourFlutterwaveRefund,
  ourPreauthRefund,
  refundListQuery,
} from './lookups';
import { majorToMinor } from './money';
import { cardStepReference, isCardStepReference } from './references';
import {
  buildCaptureBody,
  buildCardStepCharge,
  buildChargeRequest,
  buildPreauthRefundBody,
  buildRefundBody,
  buildTokenizedCharge,
  buildValidateChargeBody,
  FLUTTERWAVE_BALANCES_PATH,
  FLUTTERWAVE_TOKENIZED_CHARGE_PATH,
  isCompleteAvsAddress,
} from './requests';
import {
  authenticationStepResult,
  type ChargeContext,
  dataOf,
  flutterwaveErrorOf,
  isFlutterwaveBalances,
  paymentResultFromCapture,
  paymentResultFromCharge,
  paymentResultFromTransaction,
  paymentResultFromValidation,
  refundResultFromPreauthRefund,
  refundResultFromRefund,
} from './responses';
import { FLUTTERWAVE_NOT_FOUND_STATUS, FLUTTERWAVE_PENDING_STATUS } from './statuses';
import { flutterwaveChargeType } from './supported-methods';
import { FLUTTERWAVE_DISPUTE_TIMEOUT_MS, FLUTTERWAVE_TIMEOUTS_MS } from './timeouts';
import type { FlutterwaveTransferWebhook } from './transfer-wire-types';
import { FlutterwaveTransfers } from './transfers';
import { isFlutterwaveUssdBank } from './ussd-banks';
import { FLUTTERWAVE_WEBHOOK_HEADER, ignoredEventId, webhookChargeOf, webhookEventId, webhookHashProblem } from './webhooks';
import type {
  FlutterwaveChargeback,
  FlutterwaveChargebackList,
  FlutterwaveRefund,
  FlutterwaveRefundList,
  FlutterwaveRefundListItem,
  FlutterwaveResponse,
  FlutterwaveTransaction,
  FlutterwaveWebhookPayload,
} from './wire-types';

export { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';

/**
 * What the Flutterwave adapter needs. Keys come from configuration only
 * (Secrets Manager on a deployed stage, environment variables locally).
 */
export interface FlutterwaveConnectorConfig {
  /** `https://api.flutterwave.com` in production; a local fixture server in tests. Paths (`/v3/…`) are appended. */
  baseUrl: string;
  /** The secret key (`FLWSECK-…`), sent as `Authorization: Bearer`. */
  secretKey: string;
  /**
   * The webhook "secret hash" set in the dashboard, which Flutterwave sends back in `verif-hash`. Setting one is
   * optional at Flutterwave ("When enabling webhooks, you have the option to set a secret hash",
   * https://flutterwaveinc.mintlify.app/webhooks "Verifying Webhook Signatures"); empty, every webhook is refused
   * ({@link FlutterwaveConnector.parseWebhook}) and payments are settled by sync alone.
   */
  webhookSecret: string;
  /** The dashboard's encryption key (24 characters): the 3DES key of card charges. */
  encryptionKey: string;
  /**
   * Timeout of every Flutterwave call in milliseconds (`CONNECTOR_TIMEOUT_MS`). Unset, each operation
   * uses {@link FLUTTERWAVE_TIMEOUTS_MS} (Flutterwave's 28 s server-side wait plus a margin).
   */
  timeoutMs?: number;
  /** The clock, in epoch milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

const NUMERIC_ID = /^\d+$/;

/**
 * Flutterwave v3 adapter (https://developer.flutterwave.com, base URL
 * `https://api.flutterwave.com`, `Authorization: Bearer <secret key>`, JSON bodies). What it sends for each
 * flow and step is written down in docs/connectors/flutterwave.md:
 * - authorize: `POST /v3/charges?type=card|bank_transfer|ussd|mobile_money_ghana|mpesa`
 *   with our payment id as `tx_ref` (card payloads 3DES-encrypted into `{ client }`;
 *   manual capture sends `preauthorize: true`; USSD sends the payer's bank as `account_bank`); a saved card
 *   (`request.savedMethod`): `POST /v3/tokenized-charges` with the token and our payment id as `tx_ref`;
 *   every successful card answer carrying `data.card.token` returns it as `savedMethod` (authorize, authentication
 *   steps, sync, webhooks); no `detachSavedMethod` (Flutterwave has no call that revokes a card token);
 * - authenticate (card steps): `submit_pin` / `submit_address` send the whole card charge again with
 *   `authorization` (the card comes again with the step: `card_required`); `submit_otp` reads the charge's
 *   `flw_ref` (`GET /v3/transactions/{id}/verify`) and sends `POST /v3/validate-charge`;
 * - capture / void of a preauth: `POST /v3/charges/{flw_ref}/capture` and `/void`;
 * - refund: `POST /v3/transactions/{id}/refund`, or `POST /v3/charges/{flw_ref}/refund` for a preauthorized
 *   charge; refund sync: `GET /v3/refunds/{id}`; refund lookup by our refund id: `GET /v3/refunds?id=<transaction id>&from=…&to=…&page=N`;
 * - sync: `GET /v3/transactions/{id}/verify`, or `GET /v3/transactions/verify_by_reference?tx_ref=<payment id>`
 *   when we hold no transaction id (authorize timed out, the method answers without one, or a card waits for its
 *   PIN or address: see {@link cardStepReference}); "No transaction was found" by reference is `Failed` with
 *   `notFound: true` for card, USSD and M-Pesa once `FLUTTERWAVE_NOT_FOUND_SETTLE_MS` has passed;
 * - disputes (Flutterwave calls them chargebacks): `GET /v3/chargebacks` (listed per currency, paged; fetched by transaction `id`),
 *   `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment}`; no files; no chargeback webhook is published
 *   (polled by the scheduled worker): see the "Disputes" section of docs/connectors/flutterwave.md;
 * - webhooks: `verif-hash` must equal the dashboard's secret hash; a `charge.completed` event is
 *   re-verified with the verify endpoint before it is trusted, as Flutterwave recommends; a transfer event
 *   (`transfer.completed`) is re-read with `GET /v3/transfers/{id}` and settles the payout it names;
 * - payouts (`payouts`): Flutterwave transfers, ./transfers.ts.
 *
 * Every call goes through `connectorFetch` with the operation's timeout from `FLUTTERWAVE_TIMEOUTS_MS`
 * (35 s: Flutterwave's 28 s server-side wait plus a margin; `timeoutMs` overrides; authentication steps use
 * the authorize timeout) (timeout/network/5xx/409 → ConnectorTechnicalError, other 4xx → ConnectorRequestError with
 * Flutterwave's message as code, see `flutterwaveErrorOf`).
 * The secret key, encryption key and webhook hash live in private fields and never appear in
 * results, errors or logs; the PAN, CVC and PIN only travel encrypted; the OTP travels only in the
 * validate-charge body; neither is kept, logged or echoed (any copy in an error text is masked).
 */
export class FlutterwaveConnector implements Connector {
  readonly name = FLUTTERWAVE_CONNECTOR_NAME;
  readonly #baseUrl: string;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #encryptionKey: string;
  readonly #timeoutMs: number | undefined;
  readonly #now: () => number;

  /**
   * @throws Error when the base URL or secret key is missing or the encryption key is not 24 bytes (the key itself
   *   is never echoed). An empty `webhookSecret` is allowed: webhooks are then refused.
   */
  constructor(config: FlutterwaveConnectorConfig) {
    if (!config.baseUrl) throw new Error('Flutterwave baseUrl is not configured.');
    if (!config.secretKey) throw new Error('Flutterwave secretKey is not configured.');
    if (Buffer.byteLength(config.encryptionKey ?? '', 'utf8') !== 24)
      throw new Error('Flutterwave encryptionKey must be the 24-character key from the dashboard.');
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#secretKey = config.secretKey;
    this.#webhookSecret = config.webhookSecret ?? '';
    this.#encryptionKey = config.encryptionKey;
    this.#timeoutMs = config.timeoutMs;
    this.#now = config.now ?? (() => Date.now()); // read at call time (a mocked Date.now applies)
  }

  #transfers: FlutterwaveTransfers | undefined;

  /** Payouts as Flutterwave transfers (./transfers.ts), with this account's key and timeouts (sends as refunds, reads as syncs). */
  get payouts(): FlutterwaveTransfers {
    this.#transfers ??= new FlutterwaveTransfers(
      <T>(kind: 'send' | 'read', method: 'GET' | 'POST', path: string, body?: unknown) =>
        this.#call<T>(kind === 'send' ? 'refund' : 'sync', method, path, body),
      () => this.#now(),
    );
    return this.#transfers;
  }

  /**
   * Cards in NGN, USD, GHS, ZAR, KES; bank transfer and USSD in NGN; mobile money in GHS and KES (see
   * `FLUTTERWAVE_CHARGE_TYPES`). For USSD with a chosen bank (`options.ussdBankCode`, a CBN code), only the
   * banks of `FLUTTERWAVE_USSD_BANKS`.
   */
  supports(currency: Currency, paymentMethod: PaymentMethod, options?: { ussdBankCode?: string }): boolean {
    if (flutterwaveChargeType(currency, paymentMethod) === undefined) return false;
    if (paymentMethod === 'ussd' && options?.ussdBankCode !== undefined) return isFlutterwaveUssdBank(options.ussdBankCode);
    return true;
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
    return dataOf(
      await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(operation, 'GET', `/v3/transactions/${encodeURIComponent(id)}/verify`),
    );
  }

  /** `GET /v3/transactions/verify_by_reference?tx_ref=<our payment id>`. */
  async #verifyByReference(operation: ConnectorOperation, paymentId: string): Promise<FlutterwaveTransaction> {
    return dataOf(
      await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
        operation,
        'GET',
        `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(paymentId)}`,
      ),
    );
  }

  /**
   * The transaction behind a payment: by id when we hold Flutterwave's numeric id, else by our reference.
   * @throws ConnectorRequestError `verification_mismatch` when the transaction Flutterwave returns is not this payment's
   */
  async #transactionOf(
    operation: ConnectorOperation,
    ref: { paymentId: string; connectorTransactionId: string | null },
  ): Promise<FlutterwaveTransaction> {
    const id = ref.connectorTransactionId;
    const tx = id && NUMERIC_ID.test(id) ? await this.#verifyById(operation, id) : await this.#verifyByReference(operation, ref.paymentId);
    if (tx.tx_ref !== ref.paymentId) {
      throw new ConnectorRequestError(
        this.name,
        'verification_mismatch',
        `Flutterwave transaction ${tx.id} belongs to reference ${tx.tx_ref}, not to payment ${ref.paymentId}.`,
      );
    }
    return tx;
  }

  /**
   * Charges the payment (`POST /v3/charges?type=…`): see `buildChargeRequest` and `paymentResultFromCharge`.
   * A decline is a `Failed` result. A card that asks for its PIN (`pin`), billing address (`avs_noauth`) or an
   * OTP (`otp`) is `RequiresAction` with the step (`submit_pin` / `submit_address` with `card_required`, or
   * `submit_otp`). When Flutterwave asks for the billing address and the merchant gave a complete one
   * (`request.billingAddress`), the charge is sent again with it at once (same `tx_ref`) instead of asking the
   * payer; if Flutterwave refuses that address the payer is asked (`submit_address` with Flutterwave's message).
   * A successful card charge whose answer carries `data.card.token` returns it as `savedMethod`. With
   * `request.savedMethod`, the saved card is charged instead (`#chargeSavedCard`).
   * @throws ConnectorRequestError when a required detail is missing (nothing sent) or Flutterwave refuses the request (4xx)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx (a sync by reference finds the outcome)
   */
  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    if (request.savedMethod) return this.#chargeSavedCard(request);
    const charge = buildChargeRequest(request, { encryptionKey: this.#encryptionKey });
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
      'authorize',
      'POST',
      `/v3/charges?type=${charge.type}`,
      charge.body,
    );
    const ctx: ChargeContext = { request, type: charge.type, now: this.#now() };
    const result = paymentResultFromCharge(response, ctx);
    if (
      charge.type === 'card' &&
      result.nextAction?.type === 'submit_address' &&
      request.card &&
      isCompleteAvsAddress(request.billingAddress)
    ) {
      return this.#sendCardStep(
        {
          paymentId: request.paymentId,
          connectorTransactionId: result.connectorTransactionId,
          amount: request.amount,
          currency: request.currency,
          paymentMethod: request.paymentMethod,
          captureMethod: request.captureMethod,
          step: 'submit_address',
          address: request.billingAddress as AuthenticationAddress,
          card: request.card,
          email: request.email ?? null,
          publicBaseUrl: request.publicBaseUrl,
          returnUrl: request.returnUrl,
        },
        false,
      ); // Flutterwave has just answered that no charge exists yet: nothing to look up.
    }
    return result;
  }

  /**
   * Charges a saved card: `POST /v3/tokenized-charges` with the token, the e-mail it is tied to, the amount
   * in major units and our payment id as `tx_ref` (`buildTokenizedCharge`), so a sync by reference
   * (`verify_by_reference?tx_ref=<payment id>`) finds the charge when this answer is lost. The answer maps like a card
   * charge (`paymentResultFromCharge`): `successful` → `Succeeded` (or `RequiresCapture` for `preauthorize`), with the
   * card's token as `savedMethod`; `failed` → `Failed` with Flutterwave's `processor_response`; a charge Flutterwave
   * wants the payer to authenticate (3DS, `meta.authorization.mode: "redirect"`, the default for subsequent charges)
   * → `RequiresAction` with `redirect_to_url`, whether or not the payer is present (`offSession`): never a silent
   * failure. The token never appears in a result or an error (masked out of any text Flutterwave echoes it in).
   * Flutterwave documents no call that revokes a token, so this adapter has no `detachSavedMethod`: a detached method
   * is forgotten on our side only (docs/connectors/flutterwave.md, "Saved cards").
   * @throws ConnectorRequestError (nothing sent) `saved_method_required`, `unsupported_payment_method`, `email_required`;
   *   or Flutterwave's refusal (4xx: an unknown or expired token, another e-mail), its code the slug of its message
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx (outcome unknown: the sync by reference settles it)
   */
  async #chargeSavedCard(request: AuthorizeRequest): Promise<PaymentResult> {
    const secrets = [request.savedMethod?.token];
    try {
      const body = buildTokenizedCharge(request);
      const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
        'authorize',
        'POST',
        FLUTTERWAVE_TOKENIZED_CHARGE_PATH,
        body,
      );
      return maskResult(paymentResultFromCharge(response, { request, type: 'card', now: this.#now() }), secrets);
    } catch (err) {
      throw maskSecrets(err, secrets);
    }
  }

  /**
   * Relays the payer's answer to a card authentication step Flutterwave asked for (see docs/connectors/flutterwave.md):
   * - `submit_pin` / `submit_address`: the whole card charge is sent again (`POST /v3/charges?type=card`, same
   *   `tx_ref`) with `authorization: {mode: "pin", pin}` or `{mode: "avs_noauth", city, address, state, country,
   *   zipcode}`; the card must come with the step (`request.card`). When a transaction already exists for the
   *   payment (an earlier answer was lost and a sync recorded its id), nothing is re-sent: its state is read instead;
   * - `submit_otp`: `GET /v3/transactions/{id}/verify` (by our reference without an id) for the charge's `flw_ref`
   *   — Switchyard records only Flutterwave's transaction id — then `POST /v3/validate-charge` `{otp, flw_ref,
   *   type: "card"}`; a charge that is no longer pending is answered as it is, without sending the OTP.
   * The answer maps through the status and mode tables (the next step, e.g. `submit_otp` after the PIN, or the
   * outcome). A submission Flutterwave refuses (4xx, or an `error` envelope) is answered as Flutterwave then reports
   * the charge (`#afterRefusal`): still open → the same step again with Flutterwave's code
   * and message (tries are Flutterwave's to count); failed → `Failed` with that message.
   * @throws ConnectorRequestError (nothing sent) for a missing card, PIN, OTP, address or email, a step Flutterwave never
   *   asks (`submit_phone`, `submit_birthday`: `unsupported_authentication_step`), a non-card payment; or when the
   *   refusal's follow-up lookup is itself refused (e.g. a bad secret key)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx (outcome unknown: the reconciler syncs by reference)
   */
  async authenticate(request: AuthenticateRequest): Promise<PaymentResult> {
    const secrets = [request.pin, request.otp];
    try {
      return maskResult(await this.#step(request), secrets);
    } catch (err) {
      throw maskSecrets(err, secrets);
    }
  }

  /** {@link authenticate} by step. */
  async #step(request: AuthenticateRequest): Promise<PaymentResult> {
    if (flutterwaveChargeType(request.currency, request.paymentMethod) !== 'card') {
      throw new ConnectorRequestError(
        this.name,
        'unsupported_authentication_step',
        `Flutterwave asks no ${request.step} step of a ${request.paymentMethod} payment.`,
      );
    }
    switch (request.step) {
      case 'submit_pin':
      case 'submit_address':
        if (request.connectorTransactionId && NUMERIC_ID.test(request.connectorTransactionId)) {
          return this.#existingCharge(await this.#transactionOf('authorize', request), request);
        }
        return this.#sendCardStep(request);
      case 'submit_otp':
        return this.#validate(request);
      default:
        throw new ConnectorRequestError(
          this.name,
          'unsupported_authentication_step',
          `Flutterwave never asks for ${request.step}; it asks for a PIN, a billing address or an OTP.`,
        );
    }
  }

  /** What mapping an answer to a step needs. */
  #stepContext(request: AuthenticateRequest): ChargeContext {
    return { request, type: 'card', now: this.#now() };
  }

  /** The card charge sent again with the PIN or the address (`buildCardStepCharge`), mapped like a first charge. */
  async #sendCardStep(request: AuthenticateRequest, checkExisting = true): Promise<PaymentResult> {
    const body = buildCardStepCharge(request, { encryptionKey: this.#encryptionKey });
    if (checkExisting) {
      // A charge under our reference may exist already (an earlier re-send whose answer was lost):
      // never send the card again then, or Flutterwave could create a second charge.
      try {
        return this.#existingCharge(await this.#verifyByReference('authorize', request.paymentId), request);
      } catch (err) {
        if (!isTransactionNotFound(err)) throw err;
      }
    }
    try {
      const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('authorize', 'POST', '/v3/charges?type=card', body);
      return paymentResultFromCharge(response, this.#stepContext(request));
    } catch (err) {
      if (err instanceof ConnectorRequestError) return this.#afterRefusal(request, err);
      throw err;
    }
  }

  /** `submit_otp`: the charge's `flw_ref` from verify, then `POST /v3/validate-charge`. */
  async #validate(request: AuthenticateRequest): Promise<PaymentResult> {
    const tx = await this.#transactionOf('authorize', request);
    const ctx = this.#stepContext(request);
    const now = paymentResultFromTransaction(tx, {
      preauthorized: preauthorizedOf(request, tx),
      pendingStatus: 'RequiresAction',
      now: this.#now(),
    });
    if (now.status !== 'RequiresAction') return now; // settled meanwhile: the OTP is not sent
    const body = buildValidateChargeBody(request.otp, tx.flw_ref);
    try {
      const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>('authorize', 'POST', '/v3/validate-charge', body);
      return paymentResultFromValidation(response, ctx);
    } catch (err) {
      if (err instanceof ConnectorRequestError) return this.#afterRefusal(request, err);
      throw err;
    }
  }

  /**
   * A transaction that already exists while the payer was asked for a PIN or an address again: its state, and
   * when it is still pending, what it waits for — Flutterwave's 3DS page when it gives one (`auth_url`), else the
   * OTP of its validation (`submit_otp`, the step that follows a PIN [CARD]).
   */
  #existingCharge(tx: FlutterwaveTransaction, request: AuthenticateRequest): PaymentResult {
    const result = paymentResultFromTransaction(tx, {
      preauthorized: preauthorizedOf(request, tx),
      pendingStatus: 'RequiresAction',
      now: this.#now(),
    });
    if (result.status !== 'RequiresAction') return result;
    if (tx.auth_url && /^https?:\/\//i.test(tx.auth_url))
      return { ...result, nextAction: { type: 'redirect_to_url', redirect_to_url: tx.auth_url } };
    return authenticationStepResult('submit_otp', false, tx, this.#stepContext(request));
  }

  /**
   * A step submission Flutterwave refused (4xx or an `error` envelope). Flutterwave publishes no body for a wrong
   * PIN or OTP (the validate-charge reference prints its 400 example as `{}`), so the refusal's text is not
   * interpreted: Flutterwave is asked for the charge (verify by id, else by our reference) and
   * - no transaction (nothing was created: a refused PIN or address) → the same step stays open, with Flutterwave's code and message;
   * - pending → the OTP step stays open (another try, with the refusal's code and message) or, after a PIN or
   *   address, the step the existing charge waits for (`#existingCharge`);
   * - failed → `Failed` (Flutterwave allows no more tries) with the charge's `processor_response`, or the refusal's
   *   code and message when the charge has none;
   * - successful → the outcome.
   * @throws the lookup's own error when it fails otherwise (refused, e.g. a bad key, or technical)
   */
  async #afterRefusal(request: AuthenticateRequest, refusal: ConnectorRequestError): Promise<PaymentResult> {
    const said = { errorCode: refusal.code, errorMessage: refusal.message };
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#transactionOf('authorize', request);
    } catch (err) {
      // The submission was sent: a lookup that could not even connect says nothing about it.
      if (err instanceof ConnectorTechnicalError && err.notSent) throw new ConnectorTechnicalError(this.name, err.message, false);
      if (!isTransactionNotFound(err)) throw err;
      return {
        status: 'RequiresAction',
        connectorTransactionId: request.connectorTransactionId ?? cardStepReference(request.paymentId),
        amountCaptured: 0,
        nextAction: authenticationAction(request.step, request.publicBaseUrl, request.paymentId, null, request.step !== 'submit_otp'),
        ...said,
      };
    }
    const state = paymentResultFromTransaction(tx, {
      preauthorized: preauthorizedOf(request, tx),
      pendingStatus: 'RequiresAction',
      now: this.#now(),
    });
    // Failed: why the charge failed (its processor_response) when Flutterwave gives it, else what it said to the submission.
    if (state.status === 'Failed') return tx.processor_response?.trim() ? state : { ...state, ...said };
    if (state.status !== 'RequiresAction') return state;
    if (request.step === 'submit_otp') return { ...authenticationStepResult('submit_otp', false, tx, this.#stepContext(request)), ...said };
    return this.#existingCharge(tx, request);
  }

  /**
   * Captures `amount` minor units of a preauthorized card charge: reads the transaction's `flw_ref`
   * (verify), then `POST /v3/charges/{flw_ref}/capture` with the major-unit amount.
   * @throws ConnectorRequestError when Flutterwave refuses (not a preauth, already captured, amount too high)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    const tx = await this.#transactionOf('capture', request);
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
      'capture',
      'POST',
      `/v3/charges/${encodeURIComponent(tx.flw_ref)}/capture`,
      buildCaptureBody(request.amount),
    );
    return paymentResultFromCapture(response, request.amount, this.#now());
  }

  /**
   * Releases a preauthorization's hold: reads the `flw_ref` (verify), then `POST /v3/charges/{flw_ref}/void`.
   * A `success` answer means the lien is released → `Cancelled`. Flutterwave has no cancel for a pending
   * bank transfer, USSD or mobile-money charge; it refuses the void (4xx) and that refusal is thrown.
   * A card still waiting for its PIN or address ({@link cardStepReference}) of which Flutterwave has no
   * transaction is `Cancelled` without a call: nothing exists there to release.
   * @throws ConnectorRequestError when Flutterwave refuses
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async void(request: TransactionRef): Promise<PaymentResult> {
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#transactionOf('void', request);
    } catch (err) {
      if (isTransactionNotFound(err) && isCardStepReference(request.connectorTransactionId, request.paymentId)) {
        return { status: 'Cancelled', connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
      }
      throw err;
    }
    const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
      'void',
      'POST',
      `/v3/charges/${encodeURIComponent(tx.flw_ref)}/void`,
    );
    if (response.status !== 'success') dataOf(response);
    return { status: 'Cancelled', connectorTransactionId: String(tx.id), amountCaptured: 0 };
  }

  /**
   * Refunds `amount` minor units. The transaction is read first (verify by id, or by our reference), because
   * the endpoint depends on it:
   * - a preauthorized charge (`charge_type: "preauth"`): `POST /v3/charges/{flw_ref}/refund` `{amount}`, the
   *   documented preauth refund; its answer is the charge, mapped `Succeeded` (`refundResultFromPreauthRefund`,
   *   no refund id in the answer);
   * - any other: `POST /v3/transactions/{id}/refund` with the major-unit amount; Flutterwave takes no refund
   *   reference, so our refund id goes into `comments` (`Refund <id>`), which {@link findRefund} matches when the
   *   answer was lost.
   * @throws ConnectorRequestError when Flutterwave refuses (e.g. below its minimum: NGN 100, KES 10)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    const tx = await this.#transactionOf('refund', request);
    if (tx.charge_type === 'preauth') {
      const response = await this.#call<FlutterwaveResponse<FlutterwaveTransaction>>(
        'refund',
        'POST',
        `/v3/charges/${encodeURIComponent(tx.flw_ref)}/refund`,
        buildPreauthRefundBody(request.amount),
      );
      return refundResultFromPreauthRefund(response);
    }
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>(
      'refund',
      'POST',
      `/v3/transactions/${encodeURIComponent(String(tx.id))}/refund`,
      buildRefundBody(request.amount, request.refundId),
    );
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Flutterwave's current view of a payment (verify by id, or by our reference when we hold no id),
   * checked against what we expect (reference, currency, amount when successful) as Flutterwave's
   * verification guide requires. Pending maps to the status authorize gave for the method
   * (`FLUTTERWAVE_PENDING_STATUS`; `Processing` for a card whose authorize never answered); no
   * transaction found ("No transaction was found", see `isTransactionNotFound`):
   * - for a card waiting for its PIN or address ({@link cardStepReference} recorded): `RequiresAction`, the step
   *   stays open (Flutterwave creates nothing until the charge is sent again with it);
   * - otherwise through `FLUTTERWAVE_NOT_FOUND_STATUS`; when that is `Failed` (card, USSD, M-Pesa):
   *   looked up by our reference: `Processing` for {@link FLUTTERWAVE_NOT_FOUND_SETTLE_MS} after the
   *   payment's creation (the charge may still be in flight), then `Failed` (`transaction_not_found`)
   *   with `notFound: true`, on which routing may fall back; looked up by a transaction id Flutterwave gave us:
   *   `Failed` without `notFound` (the charge did reach Flutterwave).
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
      if (type === 'card' && isCardStepReference(request.connectorTransactionId, request.paymentId)) {
        // No charge yet while the payer is asked for a PIN or an address. Inside the not-found window
        // a re-sent charge (the step whose answer was lost) may still appear: say so, so its claim is
        // kept rather than the step reopened (a second re-send could create a second charge).
        const ageMs = this.#now() - Date.parse(request.createdAt);
        return {
          status: 'RequiresAction',
          connectorTransactionId: request.connectorTransactionId,
          amountCaptured: 0,
          ...(ageMs >= FLUTTERWAVE_NOT_FOUND_SETTLE_MS ? {} : { notYetKnown: true }),
        };
      }
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
      if (!(ageMs >= FLUTTERWAVE_NOT_FOUND_SETTLE_MS))
        return { status: 'Processing', connectorTransactionId: request.connectorTransactionId, amountCaptured: 0 };
      return { ...failed, notFound: true };
    }
    if (tx.currency !== request.currency || (tx.status === 'successful' && majorToMinor(tx.amount) < request.amount)) {
      throw new ConnectorRequestError(
        this.name,
        'verification_mismatch',
        `Flutterwave transaction ${tx.id} is ${tx.amount} ${tx.currency}, not the payment's amount and currency.`,
      );
    }
    const pendingStatus =
      !type || (type === 'card' && request.connectorTransactionId === null) ? 'Processing' : FLUTTERWAVE_PENDING_STATUS[type];
    return paymentResultFromTransaction(tx, {
      preauthorized: request.captureMethod === 'manual' || tx.charge_type === 'preauth',
      pendingStatus,
      now: this.#now(),
    });
  }

  /**
   * A refund's current state: `GET /v3/refunds/{id}` through `FLUTTERWAVE_REFUND_STATUS`.
   * @throws ConnectorRequestError when Flutterwave refuses (unknown refund id)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    const response = await this.#call<FlutterwaveResponse<FlutterwaveRefund>>(
      'syncRefund',
      'GET',
      `/v3/refunds/${encodeURIComponent(request.connectorRefundId)}`,
    );
    return refundResultFromRefund(dataOf(response));
  }

  /**
   * Finds our refund at Flutterwave when its outcome is unknown (we hold no Flutterwave refund id): the
   * transaction (verify by id, or by reference as `refund` does: its numeric id and whether it is a preauth),
   * then `GET /v3/refunds?id=<transaction id>&from=<day before our record>&to=<day after now>&page=N` for
   * every page (`meta.page_info`), and ours among them: by the `comment` our refund call sent
   * (`ourFlutterwaveRefund`), or — for a preauthorized charge, whose refund endpoint takes no note — by amount and
   * time (`ourPreauthRefund`). Once {@link FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS} has passed since `createdAt` an
   * absent refund is known never to have been created.
   * @returns the refund mapped through `FLUTTERWAVE_REFUND_STATUS` (with Flutterwave's refund id);
   *   `Pending` with a null id when absent within the settle window; null when absent after it
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx; when the match is ambiguous or
   *   ours has another amount; when the listing's pagination is unknown or longer than
   *   `FLUTTERWAVE_REFUND_LIST_MAX_PAGES` pages
   * @throws ConnectorRequestError on a 4xx, or when the envelope says `error`
   */
  async findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    const tx = await this.#transactionOf('findRefund', request);
    const transactionId = String(tx.id);
    const refunds: FlutterwaveRefundListItem[] = [];
    for (let page = 1; ; page += 1) {
      if (page > FLUTTERWAVE_REFUND_LIST_MAX_PAGES) {
        throw new ConnectorTechnicalError(
          this.name,
          `More than ${FLUTTERWAVE_REFUND_LIST_MAX_PAGES} pages of Flutterwave refunds for transaction ${transactionId}; the lookup of refund ${request.refundId} needs an operator.`,
        );
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
    const ours =
      tx.charge_type === 'preauth'
        ? ourPreauthRefund(refunds, transactionId, request)
        : ourFlutterwaveRefund(refunds, transactionId, request);
    if (ours) return refundResultFromRefund(ours);
    const ageMs = this.#now() - Date.parse(request.createdAt);
    if (!(ageMs >= FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS)) return { status: 'Pending', connectorRefundId: null };
    return null;
  }

  /**
   * Checks that Flutterwave accepts the secret key: one read-only `GET /v3/balances` (Get all wallet balances,
   * https://developer.flutterwave.com/v3.0.0/reference/get-all-wallet-balances) with `Authorization: Bearer`, no
   * body, timeout `FLUTTERWAVE_TIMEOUTS_MS.verifyCredentials` (10 s; `timeoutMs` overrides). Nothing changes at
   * Flutterwave. The encryption key and secret hash are not checked (Flutterwave has no call that reads them back).
   * @returns when Flutterwave answers 2xx with its balances envelope ({@link isFlutterwaveBalances})
   * @throws ConnectorRequestError `invalid_credentials` on 401 ("when you don't provide your secret key … or when
   *   the key provided isn't correct. They come with a 401 Unauthorized status code",
   *   https://developer.flutterwave.com/docs/integration-guides/errors) or 403; the message never holds the key
   * @throws ConnectorRequestError with Flutterwave's message slug for any other 4xx (the key masked out)
   * @throws ConnectorTechnicalError on timeout, network error, 5xx, or a 2xx that is not the balances envelope
   */
  async verifyCredentials(): Promise<void> {
    await verifyCredentialsFetch({
      connector: this.name,
      url: `${this.#baseUrl}${FLUTTERWAVE_BALANCES_PATH}`,
      headers: { Authorization: `Bearer ${this.#secretKey}`, Accept: 'application/json' },
      timeoutMs: timeoutFor(FLUTTERWAVE_TIMEOUTS_MS, 'verifyCredentials', this.#timeoutMs),
      secret: this.#secretKey,
      errorOf: flutterwaveErrorOf,
      accepts: isFlutterwaveBalances,
      expected: 'its balances envelope',
    });
  }

  /* ------------------------------------------------------------------ disputes */

  /** One chargeback call: bearer key, JSON body, {@link FLUTTERWAVE_DISPUTE_TIMEOUT_MS} (`timeoutMs` overrides), Flutterwave's error mapping. */
  async #disputeCall<T>(method: 'GET' | 'PUT', path: string, body?: unknown): Promise<T> {
    const override = this.#timeoutMs;
    return connectorFetch<T>({
      connector: this.name,
      method,
      url: `${this.#baseUrl}${path}`,
      headers: {
        Authorization: `Bearer ${this.#secretKey}`,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: override !== undefined && Number.isFinite(override) && override > 0 ? override : FLUTTERWAVE_DISPUTE_TIMEOUT_MS,
      errorOf: flutterwaveErrorOf,
    });
  }

  /**
   * Every page of `GET /v3/chargebacks?<query>&page=N` (`meta.page_info`).
   * @throws ConnectorTechnicalError past {@link FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES} pages or without page info
   * @throws ConnectorRequestError when the envelope says `error`
   */
  async #chargebackPages(
    query: (page: number) => URLSearchParams,
    stop?: (items: FlutterwaveChargeback[]) => boolean,
  ): Promise<FlutterwaveChargeback[]> {
    const all: FlutterwaveChargeback[] = [];
    for (let page = 1; ; page += 1) {
      if (page > FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES)
        throw new ConnectorTechnicalError(
          this.name,
          `More than ${FLUTTERWAVE_CHARGEBACK_LIST_MAX_PAGES} pages of Flutterwave chargebacks; the listing needs an operator.`,
        );
      const list = await this.#disputeCall<FlutterwaveChargebackList>('GET', `/v3/chargebacks?${query(page).toString()}`);
      if (list.status !== 'success') {
        const { code, message } = flutterwaveErrorOf(200, list);
        throw new ConnectorRequestError(this.name, code, message);
      }
      const items = Array.isArray(list.data) ? list.data : [];
      all.push(...items);
      if (stop?.(items)) break;
      if (!hasMoreChargebackPages(list, page)) break;
    }
    return all;
  }

  /** A chargeback mapped, with a warning logged for a status or stage the tables do not know. */
  #dispute(cb: FlutterwaveChargeback, defaults: ChargebackDefaults): ConnectorDispute {
    const { dispute, statusKnown, stageKnown } = connectorDisputeOf(cb, defaults);
    if (!statusKnown || !stageKnown)
      logger.warn('Flutterwave chargeback has an unknown status or stage', {
        connector: this.name,
        connector_dispute_id: dispute.connectorDisputeId,
        connector_status: dispute.connectorStatus,
        connector_stage: cb.stage ?? null,
        mapped_status: dispute.status,
        mapped_stage: dispute.stage,
      });
    return dispute;
  }

  /**
   * Chargebacks raised since `since` (Flutterwave sends no documented chargeback webhook: its chargeback webhooks are
   * "available on request" with no published payload, so the scheduled worker polls). For each currency of
   * {@link CURRENCIES}: `GET /v3/chargebacks?currency=X&from=<UTC day before since>&to=<UTC day after now>&page=N`, every
   * page (the answer names no currency: the one asked for is the chargeback's). A chargeback listed under two currencies
   * (the filter ignored) has its currency read from its transaction (`GET /v3/transactions/{transaction_id}/verify`).
   * `from`/`to` filter by the chargeback's date, so a chargeback raised before the window whose status changed since is
   * not listed: the core reads open disputes back with {@link FlutterwaveConnector.fetchDispute}.
   * @returns the chargebacks mapped (newest state), ids unique; our payment id from `tx_ref`
   * @throws ConnectorTechnicalError (timeout, network, 5xx, no page info, too many pages) / ConnectorRequestError (4xx)
   */
  async listDisputes(since: string): Promise<ConnectorDispute[]> {
    const now = this.#now();
    const seen = new Map<string, { cb: FlutterwaveChargeback; currencies: Currency[] }>();
    for (const currency of CURRENCIES) {
      const items = await this.#chargebackPages((page) => chargebackListQuery({ currency, page, since, now }));
      for (const cb of items) {
        const id = String(cb.id);
        const entry = seen.get(id);
        if (!entry) seen.set(id, { cb, currencies: [currency] });
        else if (!entry.currencies.includes(currency)) entry.currencies.push(currency);
      }
    }
    const disputes: ConnectorDispute[] = [];
    for (const { cb, currencies } of seen.values()) {
      let currency = currencies[0] as Currency;
      if (currencies.length > 1 && !cb.currency) currency = await this.#currencyOfChargeback(cb);
      disputes.push(this.#dispute(cb, { currency }));
    }
    return disputes;
  }

  /**
   * The currency of a chargeback's transaction (`GET /v3/transactions/{transaction_id}/verify`).
   * @throws ConnectorTechnicalError when the chargeback names no transaction or the transaction's currency is not ours
   */
  async #currencyOfChargeback(cb: FlutterwaveChargeback): Promise<Currency> {
    const id = cb.transaction_id === undefined || cb.transaction_id === null ? '' : String(cb.transaction_id);
    if (!NUMERIC_ID.test(id))
      throw new ConnectorTechnicalError(this.name, `Flutterwave chargeback ${cb.id} names no transaction; its currency is unknown.`);
    const tx = await this.#verifyById('sync', id);
    const currency = String(tx.currency ?? '').toUpperCase();
    if (!(CURRENCIES as readonly string[]).includes(currency))
      throw new ConnectorTechnicalError(this.name, `Flutterwave chargeback ${cb.id} is in ${currency}, not a currency of ours.`);
    return currency as Currency;
  }

  /**
   * The chargeback as Flutterwave shows it now: `GET /v3/chargebacks?currency=<ref.currency>&id=<transaction id>&page=N`
   * (the `id` filter only when we hold Flutterwave's numeric transaction id), paged until the chargeback with our
   * `connectorDisputeId` is found. Changes nothing.
   * @throws ConnectorRequestError `chargeback_not_found` when no page holds it, or Flutterwave refuses (4xx)
   * @throws ConnectorTechnicalError on timeout, network error, 5xx
   */
  async fetchDispute(request: DisputeRef): Promise<ConnectorDispute> {
    const transactionId =
      request.connectorTransactionId && NUMERIC_ID.test(request.connectorTransactionId) ? request.connectorTransactionId : null;
    const wanted = request.connectorDisputeId;
    const items = await this.#chargebackPages(
      (page) => chargebackListQuery({ currency: request.currency, page, transactionId }),
      (page) => page.some((cb) => String(cb.id) === wanted),
    );
    const cb = items.find((c) => String(c.id) === wanted);
    if (!cb)
      throw new ConnectorRequestError(
        this.name,
        'chargeback_not_found',
        `Flutterwave lists no chargeback ${wanted} for payment ${request.paymentId}.`,
      );
    return this.#dispute(cb, this.#defaultsOf(request));
  }

  #defaultsOf(request: DisputeRef): ChargebackDefaults {
    return { currency: request.currency, paymentId: request.paymentId, connectorTransactionId: request.connectorTransactionId };
  }

  /**
   * `PUT /v3/chargebacks/{id}` with `{action, comment}` (both required by Flutterwave). A refusal (4xx) is checked
   * against the chargeback's current state: one already in `alreadyStatus` (a retry of a call whose answer was lost)
   * answers it; any other refusal is thrown.
   */
  async #act(request: DisputeRef, action: 'accept' | 'decline', comment: string, alreadyStatus: string): Promise<ConnectorDispute> {
    let answer: FlutterwaveResponse<FlutterwaveChargeback>;
    try {
      answer = await this.#disputeCall<FlutterwaveResponse<FlutterwaveChargeback>>(
        'PUT',
        flutterwaveChargebackPath(request.connectorDisputeId),
        { action, comment },
      );
    } catch (err) {
      if (!(err instanceof ConnectorRequestError)) throw err;
      let current: ConnectorDispute;
      try {
        current = await this.fetchDispute(request);
      } catch {
        throw err;
      }
      if (current.connectorStatus.trim().toLowerCase() === alreadyStatus) return current;
      throw err;
    }
    return this.#dispute(dataOf(answer), this.#defaultsOf(request));
  }

  /**
   * Accepts a chargeback: `PUT /v3/chargebacks/{id}` `{action: "accept", comment}` (the comment names our payment). A
   * chargeback already `accepted` answers it (a retry).
   * @returns the chargeback after it (`accepted` → `dispute_accepted`)
   * @throws ConnectorTechnicalError (unknown: the core reads it back) / ConnectorRequestError (refused)
   */
  async acceptDispute(request: DisputeRef): Promise<ConnectorDispute> {
    return this.#act(request, 'accept', `Accepted by the merchant (payment ${request.paymentId}).`, 'accepted');
  }

  /**
   * Declines (challenges) a chargeback with our evidence: `PUT /v3/chargebacks/{id}` `{action: "decline", comment}`, the
   * comment built from the text fields ({@link declineCommentOf}). Flutterwave takes one comment and one link to proof;
   * this adapter sends no link, so files are refused before anything is sent. Flutterwave keeps no draft: with
   * `submit: false` nothing is sent and the current chargeback is returned. A chargeback already `declined` answers it.
   * @throws ConnectorRequestError `evidence_files_unsupported` when files (or file fields) are given; `evidence_comment_required`
   *   when no text field has a value (nothing sent in either case); or Flutterwave's refusal
   * @throws ConnectorTechnicalError on timeout, network error, 5xx
   */
  async submitDisputeEvidence(
    request: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
  ): Promise<ConnectorDispute> {
    const fileFields = evidenceFileFieldsOf(request.evidence);
    if (request.files.length > 0 || fileFields.length > 0)
      throw new ConnectorRequestError(
        this.name,
        'evidence_files_unsupported',
        'Flutterwave takes a comment and a link to proof, not files: send the evidence as text fields.',
      );
    if (!request.submit) return this.fetchDispute(request);
    const comment = declineCommentOf(request.evidence);
    if (!comment)
      throw new ConnectorRequestError(
        this.name,
        'evidence_comment_required',
        'Flutterwave needs a comment to decline a chargeback: give at least one text field of evidence.',
      );
    return this.#act(request, 'decline', comment, 'declined');
  }

  /**
   * Verifies and maps a webhook. `verif-hash` must equal the configured secret hash (constant-time).
   * A `charge.completed` event (or a legacy flat `*_TRANSACTION` body) is then re-read with
   * `GET /v3/transactions/{id}/verify` — the payload's own status is not trusted — and mapped:
   * outcomes (succeeded, failed, held for capture) become a payment event for `tx_ref`; a transaction
   * still waiting (pending, awaiting validation), a reference
   * mismatch, an unknown transaction and every other event are `ignored`. The event id is built
   * from event, transaction id and status (stable across redeliveries). A transfer event (`transfer.completed`, or the
   * v2 `"event.type": "Transfer"`) naming a payout of ours is re-read with `GET /v3/transfers/{id}` and becomes a payout
   * event (./transfers.ts `transferEvent`).
   * @throws WebhookSignatureError when no secret hash is configured (every webhook is refused then), or
   *   `verif-hash` is missing or wrong
   * @throws WebhookPayloadError (a `SyntaxError`) when a correctly signed body is not a JSON object, or a
   *   charge event lacks a field it is read by (`data.id`, `data.tx_ref`, `data.status`) — nothing is called
   * @throws ConnectorTechnicalError when the verify call fails technically (Flutterwave redelivers on a non-2xx answer)
   */
  async parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    if (!this.#webhookSecret)
      throw new WebhookSignatureError(this.name, 'No Flutterwave secret hash is configured: webhooks cannot be verified.');
    const problem = webhookHashProblem(webhook.headers[FLUTTERWAVE_WEBHOOK_HEADER], this.#webhookSecret);
    if (problem === 'missing') throw new WebhookSignatureError(this.name, 'The webhook has no verif-hash header.');
    if (problem === 'mismatch')
      throw new WebhookSignatureError(this.name, 'The webhook verif-hash does not match the configured secret hash.');
    const payload = readWebhookJson(this.name, webhook.rawBody);
    checkChargeFields(this.name, payload);
    // Transfers (payouts): ./transfers.ts, re-read by id before they are trusted.
    const transfer = await this.payouts.transferEvent(payload as FlutterwaveTransferWebhook);
    if (transfer) return transfer;
    const charge = webhookChargeOf(payload as FlutterwaveWebhookPayload);
    if (!charge)
      return {
        kind: 'ignored',
        eventId: ignoredEventId(webhook.rawBody),
        reason: `Flutterwave event ${String(payload?.event ?? payload?.['event.type'] ?? 'unknown')} is not a charge outcome.`,
      };
    const eventId = webhookEventId(charge);
    let tx: FlutterwaveTransaction;
    try {
      tx = await this.#verifyById('webhook', String(charge.id));
    } catch (err) {
      if (err instanceof ConnectorRequestError)
        return { kind: 'ignored', eventId, reason: `Flutterwave does not confirm transaction ${charge.id}: ${err.message}` };
      throw err;
    }
    if (tx.tx_ref !== charge.txRef)
      return { kind: 'ignored', eventId, reason: `Transaction ${charge.id} belongs to reference ${tx.tx_ref}, not ${charge.txRef}.` };
    const preauthorized = (tx.charge_type ?? charge.chargeType) === 'preauth';
    const result = paymentResultFromTransaction(tx, { preauthorized, pendingStatus: 'Processing', now: this.#now() });
    // Only outcomes settle a payment here; a still-waiting transaction would wipe the payer's instructions.
    if (result.status === 'Processing' || result.status === 'RequiresAction')
      return { kind: 'ignored', eventId, reason: `Transaction ${charge.id} is still ${tx.status} at Flutterwave.` };
    return { kind: 'payment', eventId, paymentId: tx.tx_ref, connectorTransactionId: String(tx.id), result };
  }
}

/**
 * Checks the fields {@link webhookChargeOf} reads on the events it applies, so a signed charge event
 * that lacks one is malformed (400) rather than silently ignored: `charge.completed` needs `data.id`
 * (Flutterwave's numeric transaction id), `data.tx_ref` and `data.status`; a legacy flat
 * `*_TRANSACTION` body needs `id`, `txRef` and `status` [WH]. Other events are not read, so not checked.
 * @throws WebhookPayloadError naming the field
 */
function checkChargeFields(connector: string, payload: WebhookObject): void {
  if (payload.event !== undefined) {
    const event = requiredString(connector, payload, 'event');
    if (event !== 'charge.completed') return;
    const data = requiredObject(connector, payload, 'data');
    requiredInteger(connector, data, 'id', 'data');
    requiredString(connector, data, 'tx_ref', 'data');
    requiredString(connector, data, 'status', 'data');
    optionalString(connector, data, 'charge_type', 'data', MAX_WEBHOOK_ID_LENGTH);
    return;
  }
  if (payload['event.type'] === undefined) return;
  const legacyType = requiredString(connector, payload, 'event.type');
  if (!/_TRANSACTION$/i.test(legacyType)) return;
  requiredInteger(connector, payload, 'id');
  requiredString(connector, payload, 'txRef');
  requiredString(connector, payload, 'status');
  optionalString(connector, payload, 'charge_type', '', MAX_WEBHOOK_ID_LENGTH);
}

/** Whether a payment is a preauth: manual capture, or Flutterwave's `charge_type: "preauth"`. */
function preauthorizedOf(
  request: { captureMethod: AuthenticateRequest['captureMethod'] },
  tx: Pick<FlutterwaveTransaction, 'charge_type'>,
): boolean {
  return request.captureMethod === 'manual' || tx.charge_type === 'preauth';
}

/** `text` with every occurrence of the secrets (PIN, OTP, a card token; 3+ characters) replaced by `[redacted]`. */
function maskText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 3) out = out.split(secret).join('[redacted]');
  return out;
}

/**
 * An error code without the secrets: a code that is the slug of its message (`flutterwaveErrorOf`, `declineOf`) is the
 * slug of the masked message (a slug turns a token's `-` into `_`, so masking the code itself would miss it); any
 * other code has the secrets and their slugs replaced.
 */
function maskCode(code: string, message: string | null | undefined, secrets: ReadonlyArray<string | undefined>): string {
  if (message && code === slugOf(message)) {
    const masked = maskText(message, secrets);
    return masked === message ? code : slugOf(masked) || 'redacted';
  }
  return maskText(code, [...secrets, ...secrets.map((secret) => (secret ? slugOf(secret) : undefined))]);
}

/** A result whose error code and message cannot carry the PIN, OTP or card token (should Flutterwave ever echo one). */
function maskResult(result: PaymentResult, secrets: ReadonlyArray<string | undefined>): PaymentResult {
  if (!result.errorCode && !result.errorMessage) return result;
  return {
    ...result,
    ...(result.errorCode ? { errorCode: maskCode(result.errorCode, result.errorMessage, secrets) } : {}),
    ...(result.errorMessage ? { errorMessage: maskText(result.errorMessage, secrets) } : {}),
  };
}

/**
 * An error of an authentication step or a tokenized charge with the PIN, OTP or card token masked out of its code and message (the same class,
 * so callers still tell a refusal from a technical failure). Other errors are returned as they are.
 */
function maskSecrets(err: unknown, secrets: ReadonlyArray<string | undefined>): unknown {
  if (err instanceof ConnectorRequestError) {
    const code = maskCode(err.code, err.message, secrets);
    const message = maskText(err.message, secrets);
    return code === err.code && message === err.message ? err : new ConnectorRequestError(err.connector, code, message);
  }
  if (err instanceof ConnectorTechnicalError) {
    const message = maskText(err.message, secrets);
    return message === err.message ? err : new ConnectorTechnicalError(err.connector, message, err.notSent);
  }
  return err;
}
