import { createHash } from 'node:crypto';
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
  buildCaptureForm,
  buildPaymentIntentForm,
  buildRefundForm,
  declineFromErrorBody,
  paymentResultFromIntent,
  refundResultFromRefund,
  SEARCH_PROPAGATION_MS,
  searchQueryForPayment,
  signatureProblem,
  stripeErrorOf,
  stripeSupports,
  webhookEventFromStripe,
  WEBHOOK_TOLERANCE_SECONDS,
  type StripeEvent,
  type StripePaymentIntent,
  type StripeRefund,
  type StripeSearchResult,
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
  /** Timeout of one Stripe call in milliseconds (default: `connectorFetch`'s 8000). */
  timeoutMs?: number;
  /**
   * Pins the API version with the `Stripe-Version` header (https://docs.stripe.com/api/versioning);
   * unset, the account's default version applies. Search needs 2020-08-27 or later.
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
 * Stripe adapter: card payments in USD, NGN, KES and ZAR through the
 * PaymentIntents API (https://docs.stripe.com/api/payment_intents), refunds
 * through the Refunds API, and `Stripe-Signature`-verified webhooks.
 *
 * Every call goes through `connectorFetch`: a timeout, network error or 5xx
 * throws `ConnectorTechnicalError`; a 4xx throws `ConnectorRequestError` with
 * Stripe's `error.code`, except a card decline on authorize, which is a `Failed`
 * result. POSTs carry an `Idempotency-Key` built from our id and the operation
 * (https://docs.stripe.com/api/idempotent_requests), so a retried call cannot
 * charge twice. The secret key is kept in a private field and never appears in
 * results, errors or logs; card numbers and CVCs only travel in the request body.
 */
export class StripeConnector implements Connector {
  readonly name = STRIPE_CONNECTOR_NAME;
  readonly #baseUrl: string;
  readonly #secretKey: string;
  readonly #webhookSecret: string;
  readonly #timeoutMs: number | undefined;
  readonly #apiVersion: string | undefined;
  readonly #toleranceSeconds: number;
  readonly #now: () => number;

  constructor(config: StripeConnectorConfig) {
    this.#baseUrl = config.baseUrl.replace(/\/+$/, '');
    this.#secretKey = config.secretKey;
    this.#webhookSecret = config.webhookSecret;
    this.#timeoutMs = config.timeoutMs;
    this.#apiVersion = config.apiVersion;
    this.#toleranceSeconds = config.webhookToleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
    this.#now = config.now ?? Date.now;
  }

  /** Card only, in USD, NGN, KES or ZAR (issue 6's matrix). */
  supports(currency: Currency, paymentMethod: PaymentMethod): boolean {
    return stripeSupports(currency, paymentMethod);
  }

  /**
   * Creates and confirms a card PaymentIntent: `POST /v1/payment_intents` with
   * `confirm=true` (https://docs.stripe.com/api/payment_intents/create), our
   * payment id in `metadata[payment_id]` and `Idempotency-Key: <paymentId>:authorize`.
   * @returns the intent mapped by the status table; a 402 `card_error` (decline) →
   *   `Failed` with the decline code and message
   * @throws ConnectorRequestError for an unsupported currency/method, missing card
   *   details, or any other 4xx (Stripe's `error.code`)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    if (!this.supports(request.currency, request.paymentMethod)) {
      throw new ConnectorRequestError(this.name, 'unsupported_payment', `Stripe is not configured for ${request.paymentMethod} in ${request.currency}.`);
    }
    if (!request.card) throw new ConnectorRequestError(this.name, 'missing_card_details', 'Stripe needs the card details to authorize a card payment.');
    let errorBody: unknown;
    try {
      const intent = await this.#call<StripePaymentIntent>('POST', '/v1/payment_intents', {
        form: buildPaymentIntentForm(request),
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
   * Captures `amount` minor units of a `requires_capture` intent:
   * `POST /v1/payment_intents/{id}/capture` with `amount_to_capture`
   * (https://docs.stripe.com/api/payment_intents/capture).
   * @throws ConnectorRequestError on a 4xx (e.g. `payment_intent_unexpected_state`)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    const intent = await this.#call<StripePaymentIntent>('POST', `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}/capture`, {
      form: buildCaptureForm(request.amount),
      idempotencyKey: `${request.paymentId}:capture`,
    });
    return paymentResultFromIntent(intent);
  }

  /**
   * Cancels an intent that is not yet captured (void):
   * `POST /v1/payment_intents/{id}/cancel` (https://docs.stripe.com/api/payment_intents/cancel).
   * @throws ConnectorRequestError on a 4xx (e.g. the intent already succeeded)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async void(request: TransactionRef): Promise<PaymentResult> {
    const intent = await this.#call<StripePaymentIntent>('POST', `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}/cancel`, {
      form: new URLSearchParams(),
      idempotencyKey: `${request.paymentId}:void`,
    });
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
    const refund = await this.#call<StripeRefund>('POST', '/v1/refunds', {
      form: buildRefundForm({ connectorTransactionId: request.connectorTransactionId, amount: request.amount, refundId: request.refundId, paymentId: request.paymentId }),
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
   * for {@link SEARCH_PROPAGATION_MS} after its creation and is `Failed`
   * (`payment_intent_not_found`: the request never reached Stripe) after that.
   * @throws ConnectorRequestError on a 4xx (e.g. `resource_missing`)
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async sync(request: SyncRequest): Promise<PaymentResult> {
    if (request.connectorTransactionId) {
      const intent = await this.#call<StripePaymentIntent>('GET', `/v1/payment_intents/${encodeURIComponent(request.connectorTransactionId)}`);
      return paymentResultFromIntent(intent);
    }
    const query = new URLSearchParams([['query', searchQueryForPayment(request.paymentId)]]);
    const found = await this.#call<StripeSearchResult<StripePaymentIntent>>('GET', `/v1/payment_intents/search?${query.toString()}`);
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
    };
  }

  /**
   * Stripe's current view of a refund: `GET /v1/refunds/{id}` (https://docs.stripe.com/api/refunds/retrieve).
   * @throws ConnectorRequestError on a 4xx
   * @throws ConnectorTechnicalError on timeout, network error or 5xx
   */
  async syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    const refund = await this.#call<StripeRefund>('GET', `/v1/refunds/${encodeURIComponent(request.connectorRefundId)}`);
    return refundResultFromRefund(refund);
  }

  /**
   * Verifies `Stripe-Signature` (HMAC-SHA256 of `${t}.${rawBody}` with the endpoint
   * secret, constant-time, `|now − t|` within the tolerance;
   * https://docs.stripe.com/webhooks/signature) and maps the event.
   * @throws WebhookSignatureError when the header is missing or malformed, no `v1`
   *   matches, or the timestamp is outside the tolerance
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
    let event: StripeEvent;
    try {
      event = JSON.parse(webhook.rawBody) as StripeEvent;
    } catch {
      const digest = createHash('sha256').update(webhook.rawBody).digest('hex');
      return { kind: 'ignored', eventId: `stripe_body_${digest}`, reason: 'The signed Stripe webhook body is not JSON.' };
    }
    if (!event || typeof event !== 'object' || typeof event.id !== 'string' || typeof event.type !== 'string') {
      const digest = createHash('sha256').update(webhook.rawBody).digest('hex');
      return { kind: 'ignored', eventId: `stripe_body_${digest}`, reason: 'The signed Stripe webhook body is not an event.' };
    }
    return webhookEventFromStripe(event);
  }

  /** One Stripe call: auth, optional form body and idempotency key, Stripe's error mapping. */
  #call<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { form?: URLSearchParams; idempotencyKey?: string; onErrorBody?: (body: unknown) => void } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#secretKey}` };
    if (this.#apiVersion) headers['Stripe-Version'] = this.#apiVersion;
    if (options.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
    return connectorFetch<T>({
      connector: this.name,
      method,
      url: `${this.#baseUrl}${path}`,
      headers,
      body: options.form?.toString(),
      timeoutMs: this.#timeoutMs,
      errorOf: (status, body) => {
        options.onErrorBody?.(body);
        return stripeErrorOf(status, body);
      },
    });
  }
}
