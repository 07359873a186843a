import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import {
  type AuthorizeRequest,
  type Connector,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type InboundWebhook,
  type PaymentResult,
  type RefundLookupRequest,
  type RefundResult,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
  WebhookSignatureError,
} from '../connector';
import { type ConnectorOperation, connectorFetch, timeoutFor, UNKNOWN_OUTCOME_STATUSES, verifyCredentialsFetch } from '../connector-http';
import {
  MAX_WEBHOOK_ID_LENGTH,
  optionalInteger,
  optionalObject,
  optionalString,
  readWebhookJson,
  requiredObject,
  requiredString,
  type WebhookObject,
} from '../webhook-payload';
import {
  buildCancelParams,
  buildCaptureParams,
  buildPaymentIntentParams,
  buildPaymentMethodParams,
  buildRefundParams,
  declineFromErrorBody,
  encodeStripeForm,
  isStripeBalance,
  ourRefundAmong,
  PAYMENT_ID_METADATA_KEY,
  PAYMENT_INTENT_SEND_WINDOW_MS,
  paymentResultFromIntent,
  REFUND_ID_METADATA_KEY,
  REFUND_LIST_MAX_PAGES,
  REFUND_LOOKUP_SETTLE_MS,
  refundListParams,
  refundResultFromRefund,
  SEARCH_PROPAGATION_MS,
  STRIPE_API_VERSION,
  STRIPE_BALANCE_PATH,
  STRIPE_TIMEOUTS_MS,
  STRIPE_WEBHOOK_EVENTS,
  type StripeEvent,
  type StripeList,
  type StripePaymentIntent,
  type StripePaymentMethod,
  type StripeRefund,
  type StripeSearchResult,
  searchParamsForPayment,
  signatureProblem,
  stripeApiVersionProblem,
  stripeErrorOf,
  stripeSupports,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookEventFromStripe,
} from './transformers';

/**
 * What the Stripe adapter needs. Keys come from configuration only (Secrets
 * Manager on a deployed stage, environment variables locally).
 */
export interface StripeConnectorConfig {
  /** `https://api.stripe.com` in production; a local fixture server in tests. No trailing path. */
  baseUrl: string;
  /** The secret API key (`sk_live_…`/`sk_test_…` or a restricted `rk_…`), sent as `Authorization: Bearer`. */
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_…`). */
  webhookSecret: string;
  /**
   * Timeout of every Stripe call in milliseconds (`CONNECTOR_TIMEOUT_MS`). Unset, each operation
   * uses {@link STRIPE_TIMEOUTS_MS} (stripe-node's 80 000 ms default).
   */
  timeoutMs?: number;
  /**
   * The `Stripe-Version` sent on every request (https://docs.stripe.com/api/versioning). Unset or empty:
   * {@link STRIPE_API_VERSION} (the version of the installed `stripe` package's types). An override must
   * pass {@link stripeApiVersionProblem} (a Stripe version dated 2026-07-29 or later); the registry reads
   * it from `STRIPE_API_VERSION`.
   */
  apiVersion?: string;
  /** Allowed skew between a webhook's signed timestamp and now, in seconds (default 300). */
  webhookToleranceSeconds?: number;
  /** The clock, in epoch milliseconds (default `Date.now`); injectable for tests. */
  now?: () => number;
}

/** Connector name: routing rules, a payment's `connector` field and `POST /webhooks/stripe`. */
export const STRIPE_CONNECTOR_NAME = 'stripe';

/**
 * Stripe adapter: card payments in USD, NGN, KES and ZAR through the PaymentMethods and
 * PaymentIntents APIs (https://docs.stripe.com/api/payment_methods, https://docs.stripe.com/api/payment_intents),
 * refunds through the Refunds API, and `Stripe-Signature`-verified webhooks.
 *
 * Every call goes through `connectorFetch` with the operation's timeout from
 * `STRIPE_TIMEOUTS_MS` (80 s, stripe-node's default; `timeoutMs` overrides) and carries
 * `Stripe-Version` ({@link STRIPE_API_VERSION} unless overridden): a timeout,
 * network error, 5xx or 409 (`idempotency_key_in_use`: the same request is still in flight)
 * throws `ConnectorTechnicalError`; any other 4xx throws `ConnectorRequestError` with
 * Stripe's `error.code`, except a card error on authorize, which is a `Failed`
 * result. Request bodies are built typed against the `stripe` package's param types and
 * form-encoded as stripe-node does. POSTs carry an `Idempotency-Key` built from our id and the
 * operation (https://docs.stripe.com/api/idempotent_requests), so a retried call cannot
 * charge twice. The secret key is kept in a private field and never appears in
 * results, errors or logs; card numbers and CVCs only travel in the PaymentMethod request body.
 */
export class StripeConnector implements Connector {
  readonly name = STRIPE_CONNECTOR_NAME;
  readonly #baseUrl: string;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #timeoutMs: number | undefined;
  readonly #apiVersion: string;
  readonly #toleranceSeconds: number;
  readonly #now: () => number;

  /** @throws RangeError when `config.apiVersion` is set but not usable (see {@link stripeApiVersionProblem}) */
  constructor(config: StripeConnectorConfig) {
    const apiVersion = config.apiVersion || STRIPE_API_VERSION;
    const problem = stripeApiVersionProblem(apiVersion);
    if (problem) throw new RangeError(problem);
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#secretKey = config.secretKey;
    this.#webhookSecret = config.webhookSecret;
    this.#timeoutMs = config.timeoutMs;
    this.#apiVersion = apiVersion;
    this.#toleranceSeconds = config.webhookToleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
    this.#now = config.now ?? (() => Date.now()); // read at call time (a mocked Date.now applies)
  }

  /** Card only, in USD, NGN, KES or ZAR (issue 6's matrix). */
  supports(currency: Currency, paymentMethod: PaymentMethod): boolean {
    return stripeSupports(currency, paymentMethod);
  }

  /**
   * Authorizes a card payment in two calls (raw card numbers go through PaymentMethods, Stripe's
   * documented path; the PaymentIntent carries no card data):
   * 1. `POST /v1/payment_methods` ({@link buildPaymentMethodParams}: `type=card`, `card[…]`, billing
   *    details, `metadata[payment_id]`) with `Idempotency-Key: <paymentId>:payment_method`;
   * 2. `POST /v1/payment_intents` ({@link buildPaymentIntentParams}: `payment_method=pm_…`,
   *    `confirm=true`, `allowed_payment_method_types[0]=card`, `return_url`, `metadata[payment_id]`) with
   *    `Idempotency-Key: <paymentId>:authorize` (https://docs.stripe.com/api/payment_intents/create).
   * A retry of the whole call replays both answers (the same PaymentMethod, then the same intent).
   *
   * Faults: a PaymentMethod moves no money, and the intent is only requested once the PaymentMethod
   * exists, so a technical failure (timeout, network error, 5xx, unparseable answer) of step 1 means no
   * PaymentIntent exists for this payment: `ConnectorTechnicalError` with `notSent` true (routing may
   * fall back). That holds because Switchyard asks a connector to authorize a payment at most once (the
   * confirm claim); a 409 on step 1 (another authorize of the same payment is in flight and may create
   * the intent) keeps `notSent` false. Step 2 is only sent within {@link PAYMENT_INTENT_SEND_WINDOW_MS}
   * of the start (a process suspended in between never sends it late; `notSent` true otherwise). A
   * technical failure of step 2 is an unknown outcome (`notSent` false): `sync` finds the intent by our
   * reference.
   * @returns the intent mapped by the status table; a 402 `card_error` → `Failed` with the code and
   *   message (from step 1: an invalid number, expiry or CVC, no intent id; from step 2: a decline,
   *   with the intent id)
   * @throws ConnectorRequestError for an unsupported currency/method, missing card details, or any
   *   other 4xx (Stripe's `error.code`, e.g. an account without raw card data access)
   * @throws ConnectorTechnicalError as described above
   */
  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    if (!this.supports(request.currency, request.paymentMethod)) {
      throw new ConnectorRequestError(
        this.name,
        'unsupported_payment',
        `Stripe is not configured for ${request.paymentMethod} in ${request.currency}.`,
      );
    }
    if (!request.card)
      throw new ConnectorRequestError(this.name, 'missing_card_details', 'Stripe needs the card details to authorize a card payment.');
    const startedAt = this.#now();
    const step1 = await this.#createPaymentMethod(request);
    if (step1.failed) return step1.failed;
    if (!(this.#now() - startedAt <= PAYMENT_INTENT_SEND_WINDOW_MS)) {
      throw new ConnectorTechnicalError(
        this.name,
        `Stripe's PaymentMethod for this payment came back after ${PAYMENT_INTENT_SEND_WINDOW_MS} ms; the PaymentIntent was not requested.`,
        true,
      );
    }
    let errorBody: unknown;
    try {
      const intent = await this.#call<StripePaymentIntent>('authorize', 'POST', '/v1/payment_intents', {
        params: buildPaymentIntentParams(request, step1.paymentMethodId),
        idempotencyKey: `${request.paymentId}:authorize`,
        onErrorBody: (body) => {
          errorBody = body;
        },
      });
      return paymentResultFromIntent(intent);
    } catch (err) {
      if (err instanceof ConnectorRequestError) {
        const decline = declineFromErrorBody(errorBody);
        if (decline) return decline;
      }
      throw err;
    }
  }

  /**
   * Step 1 of {@link authorize}: the PaymentMethod's id, or the `Failed` result of a card error.
   * @throws ConnectorRequestError on any other 4xx; ConnectorTechnicalError with `notSent` true on a
   *   technical failure other than a 409 (see {@link authorize})
   */
  async #createPaymentMethod(
    request: AuthorizeRequest,
  ): Promise<{ paymentMethodId: string; failed?: undefined } | { failed: PaymentResult }> {
    let errorBody: unknown;
    let conflict = false;
    let paymentMethod: StripePaymentMethod;
    try {
      paymentMethod = await this.#call<StripePaymentMethod>('authorize', 'POST', '/v1/payment_methods', {
        params: buildPaymentMethodParams(request),
        idempotencyKey: `${request.paymentId}:payment_method`,
        onErrorBody: (body, status) => {
          errorBody = body;
          if (UNKNOWN_OUTCOME_STATUSES.has(status)) conflict = true;
        },
      });
    } catch (err) {
      if (err instanceof ConnectorRequestError) {
        const cardError = declineFromErrorBody(errorBody);
        if (cardError) return { failed: cardError };
        throw err;
      }
      // A 409 whose body was not JSON never reaches onErrorBody; connectorFetch names its status.
      if (err instanceof ConnectorTechnicalError && !err.notSent && !conflict && !/\bHTTP 409\b/.test(err.message)) {
        throw new ConnectorTechnicalError(this.name, `${err.message} No PaymentIntent was requested: nothing was charged.`, true);
      }
      throw err;
    }
    if (typeof paymentMethod?.id !== 'string' || !paymentMethod.id) {
      throw new ConnectorTechnicalError(
        this.name,
        'Stripe answered the PaymentMethod request without an id; no PaymentIntent was requested.',
        true,
      );
    }
    return { paymentMethodId: paymentMethod.id };
  }

  /**
   * Captures `amount` minor units of a `requires_capture` intent:
   * `POST /v1/payment_intents/{id}/capture` with `amount_to_capture`
   * (https://docs.stripe.com/api/payment_intents/capture).
   * @throws ConnectorRequestError on a 4xx (e.g. `payment_intent_unexpected_state`)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    const intent = await this.#call<StripePaymentIntent>(
      'capture',
      'POST',
      `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}/capture`,
      {
        params: buildCaptureParams(request.amount),
        idempotencyKey: `${request.paymentId}:capture`,
      },
    );
    return paymentResultFromIntent(intent);
  }

  /**
   * Cancels an intent that is not yet captured (void):
   * `POST /v1/payment_intents/{id}/cancel` (https://docs.stripe.com/api/payment_intents/cancel).
   * @throws ConnectorRequestError on a 4xx (e.g. the intent already succeeded)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async void(request: TransactionRef): Promise<PaymentResult> {
    const intent = await this.#call<StripePaymentIntent>(
      'void',
      'POST',
      `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}/cancel`,
      {
        params: buildCancelParams(),
        idempotencyKey: `${request.paymentId}:void`,
      },
    );
    return paymentResultFromIntent(intent);
  }

  /**
   * Refunds `amount` minor units: `POST /v1/refunds` with `payment_intent`, `amount`
   * and our ids in metadata, `Idempotency-Key: <refundId>:refund`
   * (https://docs.stripe.com/api/refunds/create).
   * @throws ConnectorRequestError on a 4xx (e.g. `charge_already_refunded`)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    const refund = await this.#call<StripeRefund>('refund', 'POST', '/v1/refunds', {
      params: buildRefundParams({
        connectorTransactionId: request.connectorTransactionId,
        amount: request.amount,
        refundId: request.refundId,
        paymentId: request.paymentId,
      }),
      idempotencyKey: `${request.refundId}:refund`,
    });
    return refundResultFromRefund(refund);
  }

  /**
   * Stripe's current view of a payment. With a `connectorTransactionId`:
   * `GET /v1/payment_intents/{id}`. Without one (the authorize call timed out):
   * `GET /v1/payment_intents/search?query=metadata['payment_id']:'<paymentId>'`
   * (https://docs.stripe.com/api/payment_intents/search), first match. Search is
   * eventually consistent, so when nothing is found the payment stays `Processing`
   * for {@link SEARCH_PROPAGATION_MS} after its creation and is `Failed` with `notFound: true`
   * (`payment_intent_not_found`: the request never reached Stripe, routing may fall back) after that.
   * A `resource_missing` for an id we hold is not a "not found" answer: it is thrown.
   * @throws ConnectorRequestError on a 4xx (e.g. `resource_missing`)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    if (request.connectorTransactionId) {
      const intent = await this.#call<StripePaymentIntent>(
        'sync',
        'GET',
        `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}`,
      );
      return paymentResultFromIntent(intent);
    }
    const found = await this.#call<StripeSearchResult<StripePaymentIntent>>('sync', 'GET', '/v1/payment_intents/search', {
      params: searchParamsForPayment(request.paymentId),
    });
    const intent = found.data?.[0];
    if (intent) return paymentResultFromIntent(intent);
    const ageMs = this.#now() - Date.parse(request.createdAt);
    if (!(ageMs >= SEARCH_PROPAGATION_MS)) return { status: 'Processing', connectorTransactionId: null, amountCaptured: 0 };
    return {
      status: 'Failed',
      connectorTransactionId: null,
      amountCaptured: 0,
      errorCode: 'payment_intent_not_found',
      errorMessage: 'Stripe has no PaymentIntent for this payment: the authorize request never reached Stripe.',
      notFound: true,
    };
  }

  /**
   * Finds our refund at Stripe when its outcome is unknown (we hold no `re_…` id): lists the
   * PaymentIntent's refunds, `GET /v1/refunds?payment_intent=<pi>&limit=100`, following
   * `starting_after=<last id>` while `has_more` (https://docs.stripe.com/api/refunds/list), and
   * picks the one whose `metadata[refund_id]` is our refund id (see {@link ourRefundAmong}).
   * The list is authoritative (not Search), so once {@link REFUND_LOOKUP_SETTLE_MS} has passed since
   * `createdAt` an absent refund is known never to have been created.
   * @returns the refund mapped by the refund status table (with its `re_…` id); `Pending` with a
   *   null id when absent within the settle window; null when absent after it
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx; when several refunds
   *   carry our id or ours has another amount or currency; after {@link REFUND_LIST_MAX_PAGES}
   *   pages; when a page claims more but is empty
   * @throws ConnectorRequestError on a 4xx (e.g. `resource_missing` for an unknown PaymentIntent)
   */
  async findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    const refunds: StripeRefund[] = [];
    let startingAfter: string | undefined;
    for (let page = 1; ; page += 1) {
      if (page > REFUND_LIST_MAX_PAGES) {
        throw new ConnectorTechnicalError(
          this.name,
          `More than ${REFUND_LIST_MAX_PAGES} pages of refunds on ${request.connectorTransactionId}; the lookup of refund ${request.refundId} needs an operator.`,
        );
      }
      const list = await this.#call<StripeList<StripeRefund>>('findRefund', 'GET', '/v1/refunds', {
        params: refundListParams(request.connectorTransactionId, startingAfter),
      });
      const data = Array.isArray(list.data) ? list.data : [];
      refunds.push(...data);
      if (!list.has_more) break;
      const last = data[data.length - 1];
      if (!last?.id)
        throw new ConnectorTechnicalError(
          this.name,
          'Stripe answered has_more with an empty refund page; the listing is not authoritative.',
        );
      startingAfter = last.id;
    }
    const ours = ourRefundAmong(refunds, request);
    if (ours) return refundResultFromRefund(ours);
    const ageMs = this.#now() - Date.parse(request.createdAt);
    if (!(ageMs >= REFUND_LOOKUP_SETTLE_MS)) return { status: 'Pending', connectorRefundId: null };
    return null;
  }

  /**
   * Stripe's current view of a refund: `GET /v1/refunds/{id}` (https://docs.stripe.com/api/refunds/retrieve).
   * @throws ConnectorRequestError on a 4xx
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    const refund = await this.#call<StripeRefund>('syncRefund', 'GET', `/v1/refunds/${encodeURIComponent(request.connectorRefundId)}`);
    return refundResultFromRefund(refund);
  }

  /**
   * Checks that Stripe accepts the secret key: one read-only `GET /v1/balance` (Retrieve balance,
   * https://docs.stripe.com/api/balance/balance_retrieve) with `Authorization: Bearer` and `Stripe-Version`, no
   * parameters, timeout `STRIPE_TIMEOUTS_MS.verifyCredentials` (10 s; `timeoutMs` overrides). Nothing changes at
   * Stripe. Any secret key may read the balance; a restricted key (`rk_…`) needs read access to it.
   * @returns when Stripe answers 2xx with a Balance object ({@link isStripeBalance})
   * @throws ConnectorRequestError `invalid_credentials` when Stripe answers 401 ("No valid API key provided":
   *   unknown, revoked or expired key) or 403 ("The API key doesn't have permissions to perform the request",
   *   https://docs.stripe.com/api/errors); the message never holds the key nor Stripe's text (which quotes part of it)
   * @throws ConnectorRequestError with Stripe's code for any other 4xx (e.g. 429 `rate_limit`)
   * @throws ConnectorTechnicalError on timeout, network error, 5xx, or a 2xx that is not a Balance object
   */
  async verifyCredentials(): Promise<void> {
    await verifyCredentialsFetch({
      connector: this.name,
      url: `${this.#baseUrl}${STRIPE_BALANCE_PATH}`,
      headers: { Authorization: `Bearer ${this.#secretKey}`, 'Stripe-Version': this.#apiVersion },
      timeoutMs: timeoutFor(STRIPE_TIMEOUTS_MS, 'verifyCredentials', this.#timeoutMs),
      secret: this.#secretKey,
      errorOf: stripeErrorOf,
      accepts: isStripeBalance,
      expected: 'a Balance object',
    });
  }

  /**
   * Verifies `Stripe-Signature` (HMAC-SHA256 of `${t}.${rawBody}` with the endpoint
   * secret, constant-time, `|now − t|` within the tolerance;
   * https://docs.stripe.com/webhooks/signature) and maps the event.
   * @throws WebhookSignatureError when the header is missing or malformed, no `v1`
   *   matches, or the timestamp is outside the tolerance
   * @throws WebhookPayloadError when the signed body is not an Event object (`id`, `type`,
   *   `data.object`), or an applied event's object lacks a field the mapping reads (see
   *   {@link checkStripeEventFields})
   */
  async parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    const problem = signatureProblem({
      header: webhook.headers['stripe-signature'],
      rawBody: webhook.rawBody,
      secret: this.#webhookSecret,
      nowMs: this.#now(),
      toleranceSeconds: this.#toleranceSeconds,
    });
    if (problem) throw new WebhookSignatureError(this.name, problem);
    const event = readWebhookJson(this.name, webhook.rawBody);
    checkStripeEventFields(this.name, event);
    return webhookEventFromStripe(event as unknown as StripeEvent);
  }

  /**
   * One Stripe call: `Authorization: Bearer`, `Stripe-Version`, the typed `params` form-encoded
   * ({@link encodeStripeForm}) as the body of a POST or the query of a GET, the idempotency key, the
   * operation's timeout and Stripe's error mapping. `onErrorBody` sees the parsed body and HTTP status
   * of every 4xx (409 included) answered with JSON.
   */
  #call<T>(
    operation: ConnectorOperation,
    method: 'GET' | 'POST',
    path: string,
    options: { params?: object; idempotencyKey?: string; onErrorBody?: (body: unknown, status: number) => void } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#secretKey}`, 'Stripe-Version': this.#apiVersion };
    const encoded = options.params ? encodeStripeForm(options.params).toString() : '';
    let url = `${this.#baseUrl}${path}`;
    let body: string | undefined;
    if (method === 'POST') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = encoded;
    } else if (encoded) {
      url += `?${encoded}`;
    }
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    return connectorFetch<T>({
      connector: this.name,
      method,
      url,
      headers,
      body,
      timeoutMs: timeoutFor(STRIPE_TIMEOUTS_MS, operation, this.#timeoutMs),
      errorOf: (status, errorBody) => {
        options.onErrorBody?.(errorBody, status);
        return stripeErrorOf(status, errorBody);
      },
    });
  }
}

/**
 * Checks a signed body against what every Stripe Event carries (`id`, `type`, `data.object`;
 * https://docs.stripe.com/api/events/object) and, for the events the adapter applies
 * ({@link STRIPE_WEBHOOK_EVENTS}), the fields of the PaymentIntent or Refund its mapping reads, with
 * the types it relies on (https://docs.stripe.com/api/payment_intents/object,
 * https://docs.stripe.com/api/refunds/object). Fields the mapping does not read are not checked.
 * @throws WebhookPayloadError naming the field
 */
function checkStripeEventFields(connector: string, event: WebhookObject): void {
  requiredString(connector, event, 'id');
  const type = requiredString(connector, event, 'type');
  const data = requiredObject(connector, event, 'data');
  const object = requiredObject(connector, data, 'object', 'data');
  const kind = Object.hasOwn(STRIPE_WEBHOOK_EVENTS, type) ? STRIPE_WEBHOOK_EVENTS[type] : undefined;
  const path = 'data.object';
  if (kind === 'payment' && object.object === 'payment_intent') {
    requiredString(connector, object, 'id', path);
    requiredString(connector, object, 'status', path);
    optionalInteger(connector, object, 'amount_received', path);
    const metadata = optionalObject(connector, object, 'metadata', path);
    if (metadata) optionalString(connector, metadata, PAYMENT_ID_METADATA_KEY, `${path}.metadata`, MAX_WEBHOOK_ID_LENGTH);
    const error = optionalObject(connector, object, 'last_payment_error', path);
    if (error) {
      for (const key of ['type', 'code', 'decline_code'])
        optionalString(connector, error, key, `${path}.last_payment_error`, MAX_WEBHOOK_ID_LENGTH);
      optionalString(connector, error, 'message', `${path}.last_payment_error`);
    }
    const next = optionalObject(connector, object, 'next_action', path);
    if (next) {
      optionalString(connector, next, 'type', `${path}.next_action`, MAX_WEBHOOK_ID_LENGTH);
      const redirect = optionalObject(connector, next, 'redirect_to_url', `${path}.next_action`);
      if (redirect) optionalString(connector, redirect, 'url', `${path}.next_action.redirect_to_url`, 2048);
      optionalObject(connector, next, 'use_stripe_sdk', `${path}.next_action`);
    }
  }
  if (kind === 'refund' && object.object === 'refund') {
    requiredString(connector, object, 'id', path);
    optionalString(connector, object, 'status', path, MAX_WEBHOOK_ID_LENGTH);
    optionalString(connector, object, 'failure_reason', path, MAX_WEBHOOK_ID_LENGTH);
    const metadata = optionalObject(connector, object, 'metadata', path);
    if (metadata) optionalString(connector, metadata, REFUND_ID_METADATA_KEY, `${path}.metadata`, MAX_WEBHOOK_ID_LENGTH);
  }
}
