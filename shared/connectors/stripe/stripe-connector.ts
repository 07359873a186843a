import { createHash, randomBytes } from 'node:crypto';
import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';
import {
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
  type SavedMethodCharge,
  type SyncRequest,
  type TransactionRef,
  type WebhookEvent,
  WebhookSignatureError,
} from '../connector';
import { type ConnectorOperation, connectorFetch, timeoutFor, UNKNOWN_OUTCOME_STATUSES, verifyCredentialsFetch } from '../connector-http';
import { readWebhookJson } from '../webhook-payload';
import { STRIPE_API_VERSION, stripeApiVersionProblem } from './api-version';
import { isAuthenticationRequired } from './decline-codes';
import {
  buildCloseDisputeParams,
  buildDisputeEvidenceParams,
  buildFileUploadBody,
  disputeFromStripe,
  retrieveDisputeParams,
  stripeFilesBaseUrl,
} from './disputes';
import {
  ourRefundAmong,
  REFUND_LIST_MAX_PAGES,
  REFUND_LOOKUP_SETTLE_MS,
  refundListParams,
  SEARCH_PROPAGATION_MS,
  searchParamsForPayment,
} from './lookups';
import {
  buildAuthenticationRecoveryParams,
  buildCancelParams,
  buildCaptureParams,
  buildCustomerParams,
  buildDetachParams,
  buildPaymentIntentParams,
  buildPaymentMethodParams,
  buildRefundParams,
  buildSavedMethodIntentParams,
  encodeStripeForm,
  retrieveIntentParams,
  STRIPE_BALANCE_PATH,
} from './requests';
import {
  declineFromErrorBody,
  isStripeBalance,
  paymentMethodIdOf,
  paymentResultFromIntent,
  refundResultFromRefund,
  savedMethodFromIntent,
  stripeErrorOf,
} from './responses';
import { stripeSupports } from './supported-methods';
import { PAYMENT_INTENT_SEND_WINDOW_MS, STRIPE_DETACH_TIMEOUT_MS, STRIPE_DISPUTE_TIMEOUT_MS, STRIPE_TIMEOUTS_MS } from './timeouts';
import {
  checkStripeEventFields,
  signatureProblem,
  WEBHOOK_TOLERANCE_SECONDS,
  webhookEventFromStripe,
  webhookIntentReread,
} from './webhooks';
import type {
  StripeCustomer,
  StripeDispute,
  StripeErrorBody,
  StripeEvent,
  StripeFile,
  StripeList,
  StripePaymentIntent,
  StripePaymentMethod,
  StripeRefund,
  StripeSearchResult,
} from './wire-types';

/**
 * What the Stripe adapter needs. Keys come from configuration only (Secrets
 * Manager on a deployed stage, environment variables locally).
 */
export interface StripeConnectorConfig {
  /** `https://api.stripe.com` in production; a local fixture server in tests. No trailing path. */
  baseUrl: string;
  /**
   * Base URL of file uploads (`POST /v1/files`). Unset: `https://files.stripe.com` when `baseUrl` is
   * `https://api.stripe.com`, else `baseUrl` itself (a stand-in or proxy serves both). See `stripeFilesBaseUrl`.
   */
  filesBaseUrl?: string;
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
  readonly #filesBaseUrl: string;
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
    this.#filesBaseUrl = (config.filesBaseUrl || stripeFilesBaseUrl(this.#baseUrl)).replace(/\/+$/, '');
    this.#secretKey = config.secretKey;
    this.#webhookSecret = config.webhookSecret;
    this.#timeoutMs = config.timeoutMs;
    this.#apiVersion = apiVersion;
    this.#toleranceSeconds = config.webhookToleranceSeconds ?? WEBHOOK_TOLERANCE_SECONDS;
    this.#now = config.now ?? (() => Date.now()); // read at call time (a mocked Date.now applies)
  }

  /** Card only, in USD, NGN, KES or ZAR (docs/connectors.md "Support matrix"). */
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
   * Saving the card (`setupFutureUsage`, which needs `request.customer`): the intent also carries
   * `setup_future_usage`, `customer=cus_…` and `expand[0]=payment_method`. The Stripe Customer is
   * `customer.processorCustomerId` when the core has one for this account; otherwise it is made first,
   * `POST /v1/customers` ({@link buildCustomerParams}: `email`, `metadata[customer_id]`) with
   * `Idempotency-Key: <paymentId>:customer`, so a retried authorize gets the same Customer back, never a second one
   * (https://docs.stripe.com/api/idempotent_requests). A `Succeeded` or `RequiresCapture` answer then carries
   * `savedMethod` (the PaymentMethod id, the Customer, the card's fingerprint and summary; see
   * `savedMethodFromIntent`); a 3DS answer (`RequiresAction`) carries it once a sync or webhook sees the intent
   * succeed.
   *
   * Charging a saved method (`savedMethod`): see `#chargeSavedMethod`; no card is sent.
   *
   * Faults: a Customer and a PaymentMethod move no money, and the intent is only requested once they
   * exist, so a technical failure (timeout, network error, 5xx, unparseable answer) of either means no
   * PaymentIntent exists for this payment: `ConnectorTechnicalError` with `notSent` true (routing may
   * fall back). That holds because Switchyard asks a connector to authorize a payment at most once (the
   * confirm claim); a 409 on either (another authorize of the same payment is in flight and may create
   * the intent) keeps `notSent` false. Step 2 is only sent within {@link PAYMENT_INTENT_SEND_WINDOW_MS}
   * of the start per call made before it (80 s, or 160 s when a Customer was made first; a process
   * suspended in between never sends it late; `notSent` true otherwise). A technical failure of step 2 is
   * an unknown outcome (`notSent` false): `sync` finds the intent by our reference.
   * @returns the intent mapped by the status table; a 402 `card_error` → `Failed` with the code and
   *   message (from step 1: an invalid number, expiry or CVC, no intent id; from step 2: a decline,
   *   with the intent id)
   * @throws ConnectorRequestError for an unsupported currency/method, missing card details,
   *   `setupFutureUsage` without `customer` (`customer_required`), or any other 4xx (Stripe's `error.code`,
   *   e.g. an account without raw card data access); nothing was charged
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
    if (request.savedMethod) return this.#chargeSavedMethod(request);
    if (!request.card)
      throw new ConnectorRequestError(this.name, 'missing_card_details', 'Stripe needs the card details to authorize a card payment.');
    if (request.setupFutureUsage && !request.customer?.customerId) {
      throw new ConnectorRequestError(
        this.name,
        'customer_required',
        'Saving a card at Stripe needs the customer the payment belongs to; nothing was sent.',
      );
    }
    const startedAt = this.#now();
    let callsBefore = 1;
    let processorCustomerId: string | null = null;
    if (request.setupFutureUsage) {
      processorCustomerId = request.customer?.processorCustomerId || null;
      if (!processorCustomerId) {
        processorCustomerId = await this.#createCustomer(request);
        callsBefore = 2;
      }
    }
    const step1 = await this.#createPaymentMethod(request);
    if (step1.failed) return step1.failed;
    const windowMs = PAYMENT_INTENT_SEND_WINDOW_MS * callsBefore;
    if (!(this.#now() - startedAt <= windowMs)) {
      throw new ConnectorTechnicalError(
        this.name,
        `Stripe's PaymentMethod for this payment came back after ${windowMs} ms; the PaymentIntent was not requested.`,
        true,
      );
    }
    let errorBody: unknown;
    try {
      const intent = await this.#call<StripePaymentIntent>('authorize', 'POST', '/v1/payment_intents', {
        params: buildPaymentIntentParams(request, step1.paymentMethodId, processorCustomerId),
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
   * Charges a saved PaymentMethod: one `POST /v1/payment_intents` ({@link buildSavedMethodIntentParams}:
   * `payment_method=pm_…`, `customer=cus_…`, `confirm=true`, `off_session=true` when `offSession`, else
   * `return_url`; `metadata[payment_id]`) with `Idempotency-Key: <paymentId>:authorize`
   * (https://docs.stripe.com/payments/save-during-payment, "Charge the saved payment method later"). A lost answer
   * is found by `sync` through the usual search on `metadata['payment_id']`.
   *
   * **The issuer asks for the payer** (off-session, 402 `card_error` `authentication_required`; the intent is left
   * in `requires_payment_method`, https://docs.stripe.com/declines/codes): never answered as a plain failure. The
   * adapter asks for the payer at once, in one more call on the same intent:
   * `POST /v1/payment_intents/{id}/confirm` ({@link buildAuthenticationRecoveryParams}: the same `payment_method`,
   * `off_session=false`, `return_url`) with `Idempotency-Key: <paymentId>:authenticate` — Stripe support's documented
   * recovery, which brings the intent to `requires_action` with a `redirect_to_url` the payer can follow whenever
   * the merchant brings them back (e-mail, app). The answer is then `RequiresAction` with
   * `next_action: {type: 'redirect_to_url', redirect_to_url}`; completing it returns the payer through
   * Switchyard's return route, whose sync finds the intent `succeeded`. When that call is refused (a 4xx, e.g. the
   * card now declines on-session: its decline is answered) or its action is not one a payer can follow, or it
   * would be sent more than {@link PAYMENT_INTENT_SEND_WINDOW_MS} after the charge started (a suspended process),
   * the answer is `Failed` with `error_code: authentication_required` and Stripe's message — the merchant sees why
   * and must bring the payer on-session. A technical failure of it throws (unknown outcome: `sync` reads the
   * intent, `RequiresAction` if the confirm landed, else `Failed` `authentication_required`).
   * @returns the intent mapped by the status table (on-session 3DS: `RequiresAction` with the redirect); a decline
   *   (402) → `Failed` with Stripe's code and message
   * @throws ConnectorRequestError `ambiguous_payment_method` (a card given too), `missing_processor_customer`, or
   *   Stripe's refusal (4xx: e.g. `resource_missing` for a PaymentMethod of another account, a detached one); nothing
   *   was charged
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx (unknown outcome)
   */
  async #chargeSavedMethod(request: AuthorizeRequest): Promise<PaymentResult> {
    const saved = request.savedMethod!;
    if (request.card) {
      throw new ConnectorRequestError(
        this.name,
        'ambiguous_payment_method',
        'A payment charges either a card or a saved payment method, not both; nothing was sent.',
      );
    }
    if (!saved.token || !saved.processorCustomerId) {
      throw new ConnectorRequestError(
        this.name,
        'missing_processor_customer',
        'A saved Stripe PaymentMethod is charged with the Stripe Customer it is attached to; none was given, nothing was sent.',
      );
    }
    const startedAt = this.#now();
    let errorBody: unknown;
    try {
      const intent = await this.#call<StripePaymentIntent>('authorize', 'POST', '/v1/payment_intents', {
        params: buildSavedMethodIntentParams(request),
        idempotencyKey: `${request.paymentId}:authorize`,
        onErrorBody: (body) => {
          errorBody = body;
        },
      });
      const result = paymentResultFromIntent(intent);
      if (request.offSession && result.status === 'Failed' && isAuthenticationRequired(intent.last_payment_error)) {
        return this.#askPayerToAuthenticate(request, result, intent.id, startedAt);
      }
      return result;
    } catch (err) {
      if (err instanceof ConnectorRequestError) {
        const decline = declineFromErrorBody(errorBody);
        const error = (errorBody as StripeErrorBody | null)?.error;
        if (decline && request.offSession && isAuthenticationRequired(error)) {
          return this.#askPayerToAuthenticate(request, decline, error?.payment_intent?.id ?? null, startedAt);
        }
        if (decline) return decline;
      }
      throw err;
    }
  }

  /**
   * The second call of an off-session charge the issuer refused with `authentication_required`: see
   * `#chargeSavedMethod`.
   * @param failed the charge's own `Failed` result (answered when the payer cannot be asked)
   * @param intentId the intent left in `requires_payment_method`, or null when Stripe named none
   * @param startedAt when the charge started (epoch ms)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx of the confirm (unknown outcome)
   */
  async #askPayerToAuthenticate(
    request: AuthorizeRequest,
    failed: PaymentResult,
    intentId: string | null,
    startedAt: number,
  ): Promise<PaymentResult> {
    const asked: PaymentResult = { ...failed, errorCode: failed.errorCode || 'authentication_required' };
    if (!intentId || !(this.#now() - startedAt <= PAYMENT_INTENT_SEND_WINDOW_MS)) return asked;
    let errorBody: unknown;
    try {
      const intent = await this.#call<StripePaymentIntent>(
        'authorize',
        'POST',
        `/v1/payment_intents/${encodeURIComponent(intentId)}/confirm`,
        {
          params: buildAuthenticationRecoveryParams(request.savedMethod!.token, request.returnUrl),
          idempotencyKey: `${request.paymentId}:authenticate`,
          onErrorBody: (body) => {
            errorBody = body;
          },
        },
      );
      const result = paymentResultFromIntent(intent);
      if (result.status === 'RequiresAction' && !result.nextAction) return asked;
      return result;
    } catch (err) {
      if (err instanceof ConnectorRequestError) return declineFromErrorBody(errorBody) ?? asked;
      throw err;
    }
  }

  /**
   * The Stripe Customer a card is saved on, made for this payment (see {@link authorize}): `POST /v1/customers`
   * with `Idempotency-Key: <paymentId>:customer`.
   * @returns its id (`cus_…`)
   * @throws ConnectorRequestError on a 4xx; ConnectorTechnicalError with `notSent` true on a technical failure
   *   other than a 409 (no PaymentIntent was requested), or when the answer has no id
   */
  async #createCustomer(request: AuthorizeRequest): Promise<string> {
    let conflict = false;
    let customer: StripeCustomer;
    try {
      customer = await this.#call<StripeCustomer>('authorize', 'POST', '/v1/customers', {
        params: buildCustomerParams(request.customer!, request.email),
        idempotencyKey: `${request.paymentId}:customer`,
        onErrorBody: (_body, status) => {
          if (UNKNOWN_OUTCOME_STATUSES.has(status)) conflict = true;
        },
      });
    } catch (err) {
      throw this.#beforeIntentFailure(err, conflict);
    }
    if (typeof customer?.id !== 'string' || !customer.id) {
      throw new ConnectorTechnicalError(
        this.name,
        'Stripe answered the Customer request without an id; no PaymentIntent was requested.',
        true,
      );
    }
    return customer.id;
  }

  /**
   * A failure of a call made before the PaymentIntent (Customer, PaymentMethod): a technical failure other than a
   * 409 becomes `notSent` (no intent was requested, nothing charged); anything else is returned as is.
   */
  #beforeIntentFailure(err: unknown, conflict: boolean): unknown {
    // A 409 whose body was not JSON never reaches onErrorBody; connectorFetch names its status.
    if (err instanceof ConnectorTechnicalError && !err.notSent && !conflict && !/\bHTTP 409\b/.test(err.message)) {
      return new ConnectorTechnicalError(this.name, `${err.message} No PaymentIntent was requested: nothing was charged.`, true);
    }
    return err;
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
      throw this.#beforeIntentFailure(err, conflict);
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
   * `GET /v1/payment_intents/{id}?expand[0]=payment_method`. Without one (the authorize call timed out):
   * `GET /v1/payment_intents/search?query=metadata['payment_id']:'<paymentId>'&expand[0]=data.payment_method`
   * (https://docs.stripe.com/api/payment_intents/search), first match. The PaymentMethod is expanded
   * (https://docs.stripe.com/api/expanding_objects) so an intent that saved its card answers with `savedMethod`
   * in the same call; it changes nothing else. Search is
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
        { params: retrieveIntentParams() },
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
   * Makes a saved PaymentMethod unusable: `POST /v1/payment_methods/{id}/detach` ({@link buildDetachParams},
   * no parameters) with `Idempotency-Key: <pm id>:detach`, so a retry after a lost answer replays it instead of being
   * refused as already detached. Stripe: "After a PaymentMethod is detached, it can no longer be used for a payment
   * or re-attached to a Customer" (https://docs.stripe.com/api/payment_methods/detach). Timeout
   * {@link STRIPE_DETACH_TIMEOUT_MS} (80 s; `timeoutMs` overrides). The token travels only in the path.
   * @throws ConnectorRequestError `missing_saved_method` when no token is given (nothing sent), or Stripe's refusal
   *   (4xx): `resource_missing` for a PaymentMethod this account does not have, a 400 for one not attached to a
   *   Customer (already detached, beyond the idempotency window)
   *
   * A technical failure of the detach is checked with one read, `GET /v1/payment_methods/{id}`
   * (https://docs.stripe.com/api/payment_methods/retrieve): a PaymentMethod attached to no Customer any more is
   * detached (the call did the work before its answer was lost), and the detach succeeded. This matters for a 500:
   * Stripe saves it under the idempotency key ("including 500 errors", https://docs.stripe.com/api/idempotent_requests),
   * so every retry with the same key would replay it for 24 h although the PaymentMethod is detached.
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx (unknown: retry) when that read does not
   *   show the PaymentMethod detached, or an answer without the PaymentMethod's id
   */
  async detachSavedMethod(request: SavedMethodCharge): Promise<void> {
    if (!request.token) {
      throw new ConnectorRequestError(this.name, 'missing_saved_method', 'No saved Stripe PaymentMethod to detach; nothing was sent.');
    }
    const path = `/v1/payment_methods/${encodeURIComponent(request.token)}`;
    let detached: StripePaymentMethod;
    try {
      detached = await this.#call<StripePaymentMethod>('detachSavedMethod', 'POST', `${path}/detach`, {
        params: buildDetachParams(),
        idempotencyKey: `${request.token}:detach`,
      });
    } catch (err) {
      if (err instanceof ConnectorTechnicalError && (await this.#isDetached(path, request.token))) return;
      throw err;
    }
    if (typeof detached?.id !== 'string' || !detached.id) {
      throw new ConnectorTechnicalError(this.name, 'Stripe answered the detach request without the PaymentMethod; the outcome is unknown.');
    }
  }

  /**
   * Whether Stripe shows the PaymentMethod (`path`, `/v1/payment_methods/{id}`) attached to no Customer: one read
   * (the `sync` timeout). False when the read fails or its answer is not that PaymentMethod.
   */
  async #isDetached(path: string, token: string): Promise<boolean> {
    try {
      const pm = await this.#call<StripePaymentMethod>('sync', 'GET', path);
      return pm?.id === token && pm.customer === null;
    } catch {
      return false;
    }
  }

  /**
   * Stripe's current view of a dispute: `GET /v1/disputes/{id}?expand[0]=payment_intent`
   * (https://docs.stripe.com/api/disputes/retrieve), mapped by the dispute status table (`disputeFromStripe`); the
   * PaymentIntent is expanded so the answer names our payment id (`metadata.payment_id`). Changes nothing.
   * @throws ConnectorRequestError on a 4xx (e.g. `resource_missing` for a dispute of another account)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx, or an answer that is not that dispute
   */
  async fetchDispute(request: DisputeRef): Promise<ConnectorDispute> {
    const dispute = await this.#call<StripeDispute>('dispute', 'GET', this.#disputePath(request), { params: retrieveDisputeParams() });
    return this.#disputeOf(dispute, request);
  }

  /**
   * Accepts a dispute: `POST /v1/disputes/{id}/close` (https://docs.stripe.com/api/disputes/close: "Closing
   * the dispute for a charge indicates that you do not have any evidence to submit and are essentially dismissing the
   * dispute (accepting it), acknowledging it as lost"; its status becomes `lost`) with `expand[0]=payment_intent` and
   * `Idempotency-Key: <dispute id>:close`, so a retry after a lost answer replays it.
   * @returns the dispute after it (normally `lost` → `dispute_lost`)
   * @throws ConnectorRequestError on a 4xx (e.g. a dispute already decided)
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx (unknown: read it back), or an answer that
   *   is not that dispute
   */
  async acceptDispute(request: DisputeRef): Promise<ConnectorDispute> {
    const dispute = await this.#call<StripeDispute>('dispute', 'POST', `${this.#disputePath(request)}/close`, {
      params: buildCloseDisputeParams(),
      idempotencyKey: `${request.connectorDisputeId}:close`,
    });
    return this.#disputeOf(dispute, request);
  }

  /**
   * Relays evidence:
   * 1. each file: `POST /v1/files` on Stripe's files host (`filesBaseUrl`), `multipart/form-data` with
   *    `purpose=dispute_evidence` and the file (https://docs.stripe.com/api/files/create), with
   *    `Idempotency-Key: <dispute id>:file:<our file id>`;
   * 2. `POST /v1/disputes/{id}` (https://docs.stripe.com/api/disputes/update) with `evidence[<field>]` (text as given,
   *    file fields as the `file_…` ids of step 1), `submit=true|false` and `expand[0]=payment_intent`, with
   *    `Idempotency-Key: <dispute id>:evidence:<hash of the parameters>` (a retry of the same evidence replays; staging
   *    then submitting is two requests).
   * Nothing is sent when a file field names a file not in `files` (`missing_evidence_file`).
   * @returns the dispute after it (`submit`: normally `under_review` → `dispute_challenged`)
   * @throws ConnectorRequestError on a 4xx of either step
   * @throws ConnectorTechnicalError on timeout, network error, 409 or 5xx (an upload's: the evidence was not sent; the
   *   update's: unknown, read it back), or an answer without the file's id or that is not that dispute
   */
  async submitDisputeEvidence(
    request: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
  ): Promise<ConnectorDispute> {
    const given = new Map(request.files.map((f) => [f.fileId, f.fileId]));
    buildDisputeEvidenceParams(request.evidence, given, request.submit); // throws before any call on a missing file
    const stripeFileIds = new Map<string, string>();
    for (const file of request.files) stripeFileIds.set(file.fileId, await this.#uploadEvidenceFile(request, file));
    const params = buildDisputeEvidenceParams(request.evidence, stripeFileIds, request.submit);
    const digest = createHash('sha256').update(encodeStripeForm(params).toString()).digest('hex').slice(0, 32);
    const dispute = await this.#call<StripeDispute>('dispute', 'POST', this.#disputePath(request), {
      params,
      idempotencyKey: `${request.connectorDisputeId}:evidence:${digest}`,
    });
    return this.#disputeOf(dispute, request);
  }

  /** Step 1 of {@link submitDisputeEvidence}: one file uploaded; its Stripe id (`file_…`). */
  async #uploadEvidenceFile(request: DisputeRef, file: DisputeEvidenceFile): Promise<string> {
    const upload = buildFileUploadBody(file, `switchyard-${randomBytes(16).toString('hex')}`);
    const uploaded = await this.#call<StripeFile>('dispute', 'POST', '/v1/files', {
      multipart: upload,
      baseUrl: this.#filesBaseUrl,
      idempotencyKey: `${request.connectorDisputeId}:file:${file.fileId}`,
    });
    if (typeof uploaded?.id !== 'string' || !uploaded.id) {
      throw new ConnectorTechnicalError(
        this.name,
        `Stripe answered the upload of file ${file.fileId} without an id; no evidence was sent.`,
      );
    }
    return uploaded.id;
  }

  /** `/v1/disputes/{id}`. */
  #disputePath(request: DisputeRef): string {
    return `/v1/disputes/${encodeURIComponent(request.connectorDisputeId)}`;
  }

  /**
   * A Dispute answer mapped, checked to be the dispute asked about.
   * @throws ConnectorTechnicalError when it is another object or in a currency we do not take
   */
  #disputeOf(dispute: StripeDispute, request: DisputeRef): ConnectorDispute {
    if (dispute?.object !== 'dispute' || dispute.id !== request.connectorDisputeId) {
      throw new ConnectorTechnicalError(
        this.name,
        `Stripe answered a request about dispute ${request.connectorDisputeId} with another object.`,
      );
    }
    const mapped = disputeFromStripe(dispute);
    if (!mapped) {
      throw new ConnectorTechnicalError(this.name, `Stripe dispute ${dispute.id} is in a currency Switchyard does not take.`);
    }
    return mapped;
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
   *
   * Two PaymentIntent events are completed by one read, `GET /v1/payment_intents/{id}?expand[0]=payment_method`
   * (operation `webhook`; see `webhookIntentReread`): a `succeeded` or `requires_capture` intent that
   * saved its card (events carry `payment_method` as an id only), whose result then carries `savedMethod` read from
   * the expanded PaymentMethod (status and amounts stay the event's); and an off-session attempt refused with
   * `authentication_required`, whose result is the intent's current state (`RequiresAction` once the payer was
   * asked, see {@link authorize}) instead of the failure the event shows. Every other event makes no call.
   * @throws WebhookSignatureError when the header is missing or malformed, no `v1`
   *   matches, or the timestamp is outside the tolerance
   * @throws WebhookPayloadError when the signed body is not an Event object (`id`, `type`,
   *   `data.object`), or an applied event's object lacks a field the mapping reads (see
   *   {@link checkStripeEventFields})
   * @throws ConnectorTechnicalError / ConnectorRequestError when that read fails (the event is answered with a
   *   redelivery request, nothing applied)
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
    const mapped = webhookEventFromStripe(event as unknown as StripeEvent);
    if (mapped.kind !== 'payment') return mapped;
    const intent = (event as unknown as StripeEvent).data.object as unknown as StripePaymentIntent;
    const reread = webhookIntentReread(intent);
    if (!reread) return mapped;
    const current = await this.#call<StripePaymentIntent>('webhook', 'GET', `/v1/payment_intents/${encodeURIComponent(intent.id)}`, {
      params: retrieveIntentParams(),
    });
    if (current?.id !== intent.id) {
      throw new ConnectorTechnicalError(
        this.name,
        `Stripe answered the read of ${intent.id} with another object; the event is not applied.`,
      );
    }
    if (reread === 'authentication') return { ...mapped, result: paymentResultFromIntent(current) };
    if (paymentMethodIdOf(current) !== paymentMethodIdOf(intent)) return mapped;
    const saved = savedMethodFromIntent({ ...intent, payment_method: current.payment_method ?? null });
    return saved ? { ...mapped, result: { ...mapped.result, savedMethod: saved } } : mapped;
  }

  /**
   * One Stripe call: `Authorization: Bearer`, `Stripe-Version`, the typed `params` form-encoded
   * ({@link encodeStripeForm}) as the body of a POST or the query of a GET, the idempotency key, the
   * operation's timeout (`detachSavedMethod`: {@link STRIPE_DETACH_TIMEOUT_MS}, with the same override rule as
   * `timeoutFor`) and Stripe's error mapping. `onErrorBody` sees the parsed body and HTTP status
   * of every 4xx (409 included) answered with JSON.
   */
  #call<T>(
    operation: ConnectorOperation | 'detachSavedMethod' | 'dispute',
    method: 'GET' | 'POST',
    path: string,
    options: {
      params?: object;
      /** A `multipart/form-data` body instead of `params` (`POST /v1/files`). */
      multipart?: { contentType: string; body: Uint8Array };
      /** Another host than `baseUrl` (the files host). */
      baseUrl?: string;
      idempotencyKey?: string;
      onErrorBody?: (body: unknown, status: number) => void;
    } = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#secretKey}`, 'Stripe-Version': this.#apiVersion };
    const encoded = options.params ? encodeStripeForm(options.params).toString() : '';
    let url = `${options.baseUrl ?? this.#baseUrl}${path}`;
    let body: string | undefined;
    if (method === 'POST' && options.multipart) {
      headers['Content-Type'] = options.multipart.contentType;
      // connectorFetch hands `body` to the platform fetch untouched, which sends a Uint8Array as its bytes (a string
      // would be re-encoded as UTF-8 and corrupt a binary file); its type says string only.
      body = options.multipart.body as unknown as string;
    } else if (method === 'POST') {
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
      timeoutMs:
        operation === 'detachSavedMethod'
          ? timeoutFor({ ...STRIPE_TIMEOUTS_MS, void: STRIPE_DETACH_TIMEOUT_MS }, 'void', this.#timeoutMs)
          : operation === 'dispute'
            ? timeoutFor({ ...STRIPE_TIMEOUTS_MS, void: STRIPE_DISPUTE_TIMEOUT_MS }, 'void', this.#timeoutMs)
            : timeoutFor(STRIPE_TIMEOUTS_MS, operation, this.#timeoutMs),
      errorOf: (status, errorBody) => {
        options.onErrorBody?.(errorBody, status);
        return stripeErrorOf(status, errorBody);
      },
    });
  }
}
