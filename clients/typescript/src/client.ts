/**
 * The {@link Switchyard} client: its options, the typed openapi-fetch client over the transport,
 * the resource objects, and {@link Switchyard.call}, which unwraps one openapi-fetch call into the
 * resource or a thrown {@link SwitchyardError}.
 */
import createClient, { type Client } from 'openapi-fetch';
import { SwitchyardError } from './errors.js';
import type { paths } from './generated/schema.js';
import { optional } from './internal/optional.js';
import { ConnectorAccounts } from './resources/connector-accounts.js';
import { Customers } from './resources/customers.js';
import { Disputes } from './resources/disputes.js';
import { Events } from './resources/events.js';
import { Files } from './resources/files.js';
import { Invoices } from './resources/invoices.js';
import { PaymentMethods } from './resources/payment-methods.js';
import { Payments } from './resources/payments.js';
import { Payouts } from './resources/payouts.js';
import { Refunds } from './resources/refunds.js';
import { Routing } from './resources/routing.js';
import { Subscriptions } from './resources/subscriptions.js';
import { TestClocks } from './resources/test-clocks.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { DEFAULT_MAX_RETRIES, type RetryDelayOptions } from './retry-policy.js';
import { type CallState, DEFAULT_TIMEOUT_MS, type FetchFunction, type RequestOptions, Transport } from './transport.js';
import type { Health } from './types.js';

/** Options of {@link Switchyard}. */
export interface SwitchyardOptions {
  /** The secret API key (`sk_test_…`, `sk_live_…`), sent as the `api-key` header. */
  apiKey: string;
  /** The API's origin, e.g. `http://localhost:3000` (`npm start`) or the stage's `ApiUrl`. */
  baseUrl: string;
  /** Retries after the first attempt (default {@link DEFAULT_MAX_RETRIES}; 0 turns retries off). */
  maxRetries?: number;
  /** Time one attempt may take, in ms (default {@link DEFAULT_TIMEOUT_MS}); a timed-out attempt counts as a network error. */
  timeoutMs?: number;
  /** Backoff between retries (defaults: 500 ms doubling, capped at 5 s, full jitter). */
  retryDelay?: RetryDelayOptions;
  /** The fetch to send requests with (default `globalThis.fetch`); it gets one `Request` per attempt. */
  fetch?: FetchFunction;
}

/**
 * What each openapi-fetch call receives from {@link Switchyard.call}: the call's transport, extra
 * headers and signal. A type alias, not an interface, so that it fits openapi-fetch's
 * `{ [key: string]: unknown }` init.
 */
export type CallInit = {
  fetch: FetchFunction;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/**
 * The Switchyard client.
 *
 * ```ts
 * const switchyard = new Switchyard({ apiKey: process.env.SWITCHYARD_API_KEY!, baseUrl: 'http://localhost:3000' });
 * const payment = await switchyard.payments.create({ amount: 150000, currency: 'NGN', payment_method: 'card' });
 * ```
 *
 * Every method returns the resource (the JSON of the `200` answer, typed from the spec) or throws a
 * {@link SwitchyardError}. Every request carries `api-key`, `Switchyard-Version: API_VERSION`
 * and a `User-Agent`; every POST carries an `Idempotency-Key` (a UUID minted once per call, or the
 * caller's own), except `authenticate` and the routing activations, whose key the API ignores.
 *
 * **Retries** happen inside the transport (`transport.ts`) — never by calling the method again,
 * which would mint a new key and could charge twice — with the same headers and body on every
 * attempt, as stripe-node's RequestSender does: up to `maxRetries` times, after `retryDelayMs`, on
 * - a network error or timeout, when the request is replayable (GET, PUT, DELETE, or a keyed POST:
 *   the API replays its stored answer, or finds what the first attempt created); an unkeyed POST
 *   only when the connection was refused (it never left);
 * - the answers `retryVerdict` (retry-policy.ts) lists: 409 `idempotency_key_in_use`/`concurrent_update`,
 *   429, 503 (`outcome_unknown` only when replayable), a proxy's 502/504 when replayable.
 * Never on other 4xx (a 409 `payment_unexpected_state` is a decision), 500, or the API's own 502.
 *
 * `api` is the underlying typed openapi-fetch client (same transport) for anything the resource
 * methods do not cover, e.g. reading response headers: `const { data, error, response } = await
 * switchyard.api.GET('/payments/{payment_id}', { params: { path: { payment_id } } })`.
 */
export class Switchyard {
  /** The typed openapi-fetch client over the same transport (keys, version header, retries). */
  readonly api: Client<paths>;
  /** `/payments` and its sub-resources. */
  readonly payments: Payments;
  /** `/refunds`. */
  readonly refunds: Refunds;
  /** `/payouts`. */
  readonly payouts: Payouts;
  /** `/customers`. */
  readonly customers: Customers;
  /** `/payment_methods` and `/customers/{customer_id}/payment_methods`: the customers' saved payment methods. */
  readonly paymentMethods: PaymentMethods;
  /** `/subscriptions`: recurring charges of a customer's saved payment method. */
  readonly subscriptions: Subscriptions;
  /** `/invoices`: the subscriptions' invoices, one per period. */
  readonly invoices: Invoices;
  /** `/disputes`: cardholders' disputes of payments, and the answers to them. */
  readonly disputes: Disputes;
  /** `/files`: dispute evidence files. */
  readonly files: Files;
  /** `/test_helpers`: test clocks (stages with the sandbox only). */
  readonly testHelpers: { readonly testClocks: TestClocks };
  /** `/webhook_endpoints`. */
  readonly webhookEndpoints: WebhookEndpoints;
  /** `/events` and their deliveries. */
  readonly events: Events;
  /** `/connector_accounts`: the merchant's own processor accounts. */
  readonly connectorAccounts: ConnectorAccounts;
  /** `/routing`: routing algorithms, the active one, the default fallback list. */
  readonly routing: Routing;

  readonly #transport: Transport;

  /**
   * @throws TypeError when `apiKey` or `baseUrl` is missing, `maxRetries` is negative or `timeoutMs` not positive
   */
  constructor(options: SwitchyardOptions) {
    if (typeof options?.apiKey !== 'string' || options.apiKey === '') throw new TypeError('Switchyard: apiKey is required.');
    if (typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('Switchyard: baseUrl must be an http(s) URL, e.g. http://localhost:3000.');
    }
    if (options.maxRetries !== undefined && !(Number.isFinite(options.maxRetries) && options.maxRetries >= 0)) {
      throw new TypeError('Switchyard: maxRetries must be a number ≥ 0.');
    }
    if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
      throw new TypeError('Switchyard: timeoutMs must be a number of milliseconds > 0.');
    }
    this.#transport = new Transport({
      apiKey: options.apiKey,
      maxRetries: Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES),
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retryDelay: options.retryDelay ?? {},
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    });
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: (request) => this.#transport.send(request, { options: {}, attempts: 0 }),
    });
    this.payments = new Payments(this);
    this.refunds = new Refunds(this);
    this.payouts = new Payouts(this);
    this.customers = new Customers(this);
    this.paymentMethods = new PaymentMethods(this);
    this.subscriptions = new Subscriptions(this);
    this.invoices = new Invoices(this);
    this.disputes = new Disputes(this);
    this.files = new Files(this);
    this.testHelpers = { testClocks: new TestClocks(this) };
    this.webhookEndpoints = new WebhookEndpoints(this);
    this.events = new Events(this);
    this.connectorAccounts = new ConnectorAccounts(this);
    this.routing = new Routing(this);
  }

  /** `GET /health` (no key needed): `{ status, dynamodb, time }`. */
  health(options?: RequestOptions): Promise<Health> {
    return this.call((init) => this.api.GET('/health', init), options);
  }

  /**
   * Runs one openapi-fetch call through the transport with this call's options, and unwraps it.
   * Used by the resource classes; `run` receives the `fetch`, `headers` and `signal` to pass on.
   * @returns the `data` of a 2xx answer
   * @throws SwitchyardError (a subclass per `type`) for any other answer, after the retries the policy allows
   * @throws SwitchyardConnectionError when the last attempt got no answer
   * @throws the signal's reason when `options.signal` aborts
   */
  async call<T>(
    run: (init: CallInit) => Promise<{ data?: T; error?: unknown; response: Response }>,
    options: RequestOptions = {},
  ): Promise<T> {
    const state: CallState = { options, attempts: 0 };
    const init: CallInit = {
      fetch: (request) => this.#transport.send(request, state),
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    };
    const { data, error, response } = await run(init);
    if (!response.ok || error !== undefined) {
      throw SwitchyardError.from(response, error, {
        ...optional('idempotencyKey', state.idempotencyKey),
        attempts: state.attempts,
      });
    }
    return data as T;
  }
}
