/**
 * `@switchyard/client` — the TypeScript client of the Switchyard payment API.
 *
 * Typed end to end from `docs/openapi.json` (openapi-typescript → `src/generated/schema.ts`),
 * sent through `openapi-fetch` with a transport of our own that adds the API key, the
 * `Switchyard-Version` header and an `Idempotency-Key` on every POST, and retries what is safe to
 * retry (see {@link Switchyard} and the README). Webhook deliveries are verified with the
 * `standardwebhooks` package ({@link verifyWebhook}).
 *
 * This file is the package's only run-time module (the others hold types): the package is ESM
 * (`"type": "module"`), and one module means no relative run-time import, which Node's ESM
 * loader would need spelled `./x.js` while the repository's jest (CommonJS via ts-jest) cannot
 * resolve that spelling to a `.ts` file. Sections: constants, errors, retry policy, transport,
 * resources, client, webhooks.
 */
import createClient, { type Client } from 'openapi-fetch';
import { WebhookVerificationError as StandardWebhookVerificationError, Webhook } from 'standardwebhooks';
import type { paths } from './generated/schema.js';
import type {
  ApiVersion,
  Customer,
  CustomerCreateParams,
  CustomerList,
  CustomerListParams,
  CustomerUpdateParams,
  DeletedCustomer,
  DeletedWebhookEndpoint,
  Event,
  EventDeliveryList,
  EventList,
  EventListParams,
  EventRedeliverParams,
  EventRedeliverResult,
  Health,
  Payment,
  PaymentAuthenticateParams,
  PaymentCancelParams,
  PaymentCaptureParams,
  PaymentConfirmParams,
  PaymentCreateParams,
  PaymentList,
  PaymentListParams,
  PaymentRetrieveParams,
  Refund,
  RefundCreateParams,
  RefundList,
  RefundListParams,
  RefundRetrieveParams,
  WebhookEndpoint,
  WebhookEndpointCreateParams,
  WebhookEndpointList,
  WebhookEndpointListParams,
  WebhookEndpointRotated,
  WebhookEndpointUpdateParams,
  WebhookEndpointWithSecret,
} from './types.js';

export type { paths } from './generated/schema.js';
export type * from './types.js';

// ─── Constants ──────────────────────────────────────────────────────────────────────────────────

/**
 * The API version these types were generated from: `info.version` of `docs/openapi.json`
 * (a dated version, as Stripe dates its own). Sent as `Switchyard-Version` on every request. A
 * jest check (`clients/typescript/test/generated.test.ts`) fails when it differs from the spec the
 * committed types were generated from, and `satisfies ApiVersion` (the spec's enum of accepted
 * versions) stops the build when the regenerated types no longer accept it.
 */
export const API_VERSION = '2026-11-24' satisfies ApiVersion;

/** This package's version, sent in `User-Agent` (`switchyard-typescript/<version>`). */
export const SDK_VERSION = '0.1.0';

/** The request (and response) header naming the API version. */
export const API_VERSION_HEADER = 'Switchyard-Version';

/** The request header carrying an idempotency key (docs/api.md, "Idempotency keys"). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Default number of retries after the first attempt (3 attempts in all), as stripe-node's default of 2. */
export const DEFAULT_MAX_RETRIES = 2;

/**
 * Default time one attempt may take, in milliseconds: 60 s, above the API's 29 s function
 * timeout and API Gateway's 30 s, so the server gives up first and answers.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Default first backoff ceiling (ms): a retry waits a random time up to 500 ms, then up to 1 s, 2 s… */
export const DEFAULT_INITIAL_RETRY_DELAY_MS = 500;

/** Default backoff cap (ms): no computed wait exceeds 5 s (stripe-node's `maxNetworkRetryDelay`). */
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;

/**
 * The longest `Retry-After` the client waits for inside a call (ms), as stripe-node's
 * `MAX_RETRY_AFTER_WAIT` (60 s). A longer one ends the retries: the error is thrown with
 * {@link SwitchyardError.retryAfterMs} for the caller to schedule.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/** 409 codes that mean "try again": nothing was decided (docs/api.md, Errors). */
export const RETRYABLE_CONFLICT_CODES: readonly string[] = ['idempotency_key_in_use', 'concurrent_update'];

/**
 * POST routes whose `Idempotency-Key` the API ignores (no stored answer to replay): the SDK sends
 * no key there and re-sends them only on an answer that says nothing was done. Today only
 * `authenticate` (a PIN or OTP must never rest in an idempotency record; docs/api.md).
 */
export const UNKEYED_POST_PATHS: readonly string[] = ['/payments/{payment_id}/authenticate'];

// ─── Errors ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The `error.type` of the API's error body (`shared/domain/errors.ts`), plus `connection_error`
 * for a request that got no HTTP answer (network failure or timeout), which the SDK raises itself.
 */
export type SwitchyardErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'idempotency_error'
  | 'connector_error'
  | 'api_error'
  | 'connection_error';

/** What every {@link SwitchyardError} is built from. */
export interface SwitchyardErrorFields {
  /** HTTP status; undefined for a {@link SwitchyardConnectionError}. */
  status?: number;
  code: string;
  message: string;
  /** The request field the error is about (`amount`, `billing.address.country`), when the API names one. */
  param?: string;
  /** The `request-id` response header: quote it to support. */
  requestId?: string;
  /** The `Idempotency-Key` the call sent (minted by the SDK or given by the caller), if any. */
  idempotencyKey?: string;
  /** How long the API asked to wait (`Retry-After`, in ms), when it did. */
  retryAfterMs?: number;
  /** HTTP attempts made for this call (1 when it was not retried). */
  attempts?: number;
  /** The parsed response body (or its text when not JSON). */
  body?: unknown;
  /** The response headers, when there was a response. */
  headers?: Headers;
  /** The underlying error (network errors). */
  cause?: unknown;
}

/**
 * Every failure a {@link Switchyard} method throws. `type` is the discriminant: each value has its
 * own subclass ({@link InvalidRequestError}, {@link AuthenticationError}, {@link IdempotencyError},
 * {@link ConnectorError}, {@link ApiError}, {@link SwitchyardConnectionError}), so both
 * `err instanceof ConnectorError` and `switch (err.type)` work. `code` is the API's machine-readable
 * code (`parameter_missing`, `payment_unexpected_state`, …; docs/api.md, Errors).
 */
export class SwitchyardError extends Error {
  readonly type: SwitchyardErrorType;
  readonly status: number | undefined;
  readonly code: string;
  readonly param: string | undefined;
  readonly requestId: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly attempts: number;
  readonly body: unknown;
  readonly headers: Headers | undefined;

  /** @param type the error family; prefer {@link SwitchyardError.from} to build one from a response */
  constructor(type: SwitchyardErrorType, fields: SwitchyardErrorFields) {
    super(fields.message, fields.cause !== undefined ? { cause: fields.cause } : undefined);
    this.name = 'SwitchyardError';
    this.type = type;
    this.status = fields.status;
    this.code = fields.code;
    this.param = fields.param;
    this.requestId = fields.requestId;
    this.idempotencyKey = fields.idempotencyKey;
    this.retryAfterMs = fields.retryAfterMs;
    this.attempts = fields.attempts ?? 1;
    this.body = fields.body;
    this.headers = fields.headers;
  }

  /**
   * The typed error for an API answer that is not a 2xx.
   * @param response the final response (its headers give `request-id` and `Retry-After`)
   * @param body its parsed body: the API's `{"error": {type, code, message, param?}}`, or anything
   *   else a proxy may answer (then `type` is `api_error` and `code` is `rate_limited` for a 429,
   *   `unexpected_response` otherwise)
   * @param call what the transport knows of the call: its key and attempt count
   */
  static from(response: Response, body: unknown, call: { idempotencyKey?: string; attempts?: number } = {}): SwitchyardError {
    const envelope = errorEnvelope(body);
    const fields: SwitchyardErrorFields = {
      status: response.status,
      code: envelope?.code ?? (response.status === 429 ? 'rate_limited' : 'unexpected_response'),
      message:
        envelope?.message ??
        `Switchyard answered HTTP ${response.status}${typeof body === 'object' && body !== null && 'message' in body ? `: ${String((body as { message: unknown }).message)}` : ''}.`,
      ...(envelope?.param !== undefined ? { param: envelope.param } : {}),
      ...optional('requestId', response.headers.get('request-id') ?? undefined),
      ...optional('idempotencyKey', call.idempotencyKey),
      ...optional('retryAfterMs', parseRetryAfter(response.headers.get('retry-after'))),
      attempts: call.attempts ?? 1,
      body,
      headers: response.headers,
    };
    switch (envelope?.type) {
      case 'invalid_request_error':
        return new InvalidRequestError(fields);
      case 'authentication_error':
        return new AuthenticationError(fields);
      case 'idempotency_error':
        return new IdempotencyError(fields);
      case 'connector_error':
        return new ConnectorError(fields);
      default:
        return new ApiError(fields);
    }
  }
}

/** 400/404/409/413/415: the request is wrong or not allowed in the resource's state (`payment_unexpected_state`). Not retried. */
export class InvalidRequestError extends SwitchyardError {
  declare readonly type: 'invalid_request_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('invalid_request_error', fields);
    this.name = 'InvalidRequestError';
  }
}

/** 401: a missing, malformed, unknown or revoked API key (`invalid_api_key`). Not retried. */
export class AuthenticationError extends SwitchyardError {
  declare readonly type: 'authentication_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('authentication_error', fields);
    this.name = 'AuthenticationError';
  }
}

/**
 * 409 `idempotency_key_in_use` (retried; thrown when the first request still runs after every
 * retry: call again later with the same {@link SwitchyardError.idempotencyKey}) or 422
 * `idempotency_key_reused` (the same key with another body; not retried).
 */
export class IdempotencyError extends SwitchyardError {
  declare readonly type: 'idempotency_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('idempotency_error', fields);
    this.name = 'IdempotencyError';
  }
}

/** 402/502: the processor refused or could not be reached (`authentication_failed`, `connector_unavailable`, …). Not retried. */
export class ConnectorError extends SwitchyardError {
  declare readonly type: 'connector_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('connector_error', fields);
    this.name = 'ConnectorError';
  }
}

/**
 * 409 `concurrent_update`, 500, 503 (`service_unavailable`, `outcome_unknown`), or any answer that
 * is not the API's error body (a proxy's 429/502/504). Thrown after the retries the policy allows.
 */
export class ApiError extends SwitchyardError {
  declare readonly type: 'api_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('api_error', fields);
    this.name = 'ApiError';
  }
}

/**
 * No HTTP answer: the connection failed or an attempt passed `timeoutMs`, on the last attempt.
 * `code` is `timeout` or `network_error`; `status` is undefined. The request may have reached the
 * API: retry with the same {@link SwitchyardError.idempotencyKey} (a POST's stored answer is
 * replayed), or read the resource.
 */
export class SwitchyardConnectionError extends SwitchyardError {
  declare readonly type: 'connection_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('connection_error', fields);
    this.name = 'SwitchyardConnectionError';
  }
}

/** Any error a {@link Switchyard} call throws, as a union discriminated by `type`. */
export type AnySwitchyardError =
  | InvalidRequestError
  | AuthenticationError
  | IdempotencyError
  | ConnectorError
  | ApiError
  | SwitchyardConnectionError;

/** Narrows an unknown caught value to {@link AnySwitchyardError}. */
export function isSwitchyardError(err: unknown): err is AnySwitchyardError {
  return err instanceof SwitchyardError;
}

/** The API's error object when `body` is `{"error": {type, code, message, param?}}`, else undefined. */
function errorEnvelope(body: unknown): { type: string; code: string; message: string; param?: string } | undefined {
  const e = (body as { error?: unknown } | null)?.error as Record<string, unknown> | undefined;
  if (typeof e !== 'object' || e === null) return undefined;
  if (typeof e.type !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string') return undefined;
  return { type: e.type, code: e.code, message: e.message, ...(typeof e.param === 'string' ? { param: e.param } : {}) };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

// ─── Retry policy ───────────────────────────────────────────────────────────────────────────────

/** Backoff settings, in milliseconds. */
export interface RetryDelayOptions {
  /** Ceiling of the first wait (default {@link DEFAULT_INITIAL_RETRY_DELAY_MS}); doubles per retry. */
  initialMs?: number;
  /** Cap of every computed ceiling (default {@link DEFAULT_MAX_RETRY_DELAY_MS}). */
  maxMs?: number;
}

/**
 * How long to wait before retry number `retry` (0 for the first retry), in ms: capped exponential
 * backoff with full jitter — a uniform random wait in `[0, min(maxMs, initialMs × 2^retry))`
 * ("Exponential Backoff And Jitter", AWS Architecture Blog) — but never less than the server's
 * `Retry-After`. stripe-node's `_getSleepTimeInMS` (src/RequestSender.ts) is the model, with full
 * instead of half jitter so that clients retrying together spread out.
 * @param retryAfterMs the server's `Retry-After` in ms, when it sent one (≤ {@link MAX_RETRY_AFTER_MS})
 * @param random a source of [0, 1) (tests pass a fixed one)
 */
export function retryDelayMs(
  retry: number,
  delay: RetryDelayOptions = {},
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  const initial = delay.initialMs ?? DEFAULT_INITIAL_RETRY_DELAY_MS;
  const cap = delay.maxMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
  const ceiling = Math.min(cap, initial * 2 ** retry);
  return Math.max(Math.floor(random() * ceiling), retryAfterMs ?? 0);
}

/**
 * `Retry-After` in milliseconds: delay-seconds (`5`) or an HTTP-date (RFC 9110 §10.2.3); undefined
 * when absent or unreadable. A date in the past gives 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What the policy decided for one answer. */
interface RetryVerdict {
  retry: boolean;
  retryAfterMs?: number;
}

/**
 * Whether an HTTP answer is retried (docs/api.md's Errors and Unknown outcomes tables):
 * - 409 `idempotency_key_in_use` / `concurrent_update`: nothing was decided → retry. Any other 409
 *   (`payment_unexpected_state`, `payment_busy`) is a decision → returned;
 * - 429 (API Gateway's throttle: the handler never ran) → retry;
 * - 503 `service_unavailable` (storage down before any processor call) and `connector_unreachable`
 *   (authenticate: nothing was sent) → retry; 503 `outcome_unknown` or a 503 that is not the API's
 *   (a gateway's) → retry only when `replayable`, since the work may have happened;
 * - 502/504 that are not the API's error body (a proxy or load balancer's) → as a network error:
 *   retry when `replayable`. The API's own 502 is a `connector_error` about the processor → returned;
 * - anything else (every other 4xx, 500 `internal_error`, 2xx, 3xx) → returned.
 * `Retry-After` is honoured up to {@link MAX_RETRY_AFTER_MS}; a longer one ends the retries.
 * @param replayable the request may be sent twice without doing its work twice: GET, PUT, DELETE,
 *   or a POST carrying an Idempotency-Key its route honours
 */
async function retryVerdict(response: Response, replayable: boolean): Promise<RetryVerdict> {
  const status = response.status;
  if (![409, 429, 502, 503, 504].includes(status)) return { retry: false };
  let code: string | undefined;
  try {
    code = errorEnvelope(await response.clone().json())?.code;
  } catch {
    code = undefined; // not JSON: a proxy's answer
  }
  let retry: boolean;
  if (status === 409) retry = code !== undefined && RETRYABLE_CONFLICT_CODES.includes(code);
  else if (status === 429) retry = true;
  else if (status === 503) retry = code === 'service_unavailable' || code === 'connector_unreachable' || replayable;
  else retry = code === undefined && replayable; // 502, 504
  if (!retry) return { retry: false };
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
  if (retryAfterMs !== undefined && retryAfterMs > MAX_RETRY_AFTER_MS) return { retry: false };
  return { retry: true, ...optional('retryAfterMs', retryAfterMs) };
}

/** Whether `err` (thrown by fetch) means the connection was refused or the host unknown: the request never left. */
function neverSent(err: unknown): boolean {
  const codes = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'];
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.includes(code)) return true;
  }
  return false;
}

/** Waits `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const UNKEYED_POST_PATTERNS = UNKEYED_POST_PATHS.map((p) => new RegExp(`${p.replace(/\{[^}]+\}/g, '[^/]+')}/?$`));

/** Whether the API honours an Idempotency-Key on `POST <pathname>` (every POST but {@link UNKEYED_POST_PATHS}). */
function honoursIdempotencyKey(pathname: string): boolean {
  return !UNKEYED_POST_PATTERNS.some((re) => re.test(pathname));
}

// ─── Transport ──────────────────────────────────────────────────────────────────────────────────

/** Options of one SDK call (the last argument of every resource method). */
export interface RequestOptions {
  /**
   * The `Idempotency-Key` of this POST (1–255 printable ASCII characters). Default: a UUID minted
   * once for the call and reused by its retries. Pass your own to retry a call across processes
   * (e.g. your order id): the API replays the first answer for 24 h. Ignored on `authenticate`.
   */
  idempotencyKey?: string;
  /** Retries after the first attempt, for this call (default: the client's `maxRetries`). */
  maxRetries?: number;
  /** Time one attempt may take, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Aborts the call (its attempts and the waits between them); the abort reason is thrown as is. */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** What the transport learns while it runs one call; read by the method that made the call. */
interface CallState {
  options: RequestOptions;
  idempotencyKey?: string;
  attempts: number;
}

/** The fetch the SDK sends through (the global one by default). */
export type FetchFunction = (input: Request) => Promise<Response>;

// ─── Client ─────────────────────────────────────────────────────────────────────────────────────

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
 * {@link SwitchyardError}. Every request carries `api-key`, `Switchyard-Version: {@link API_VERSION}`
 * and a `User-Agent`; every POST carries an `Idempotency-Key` (a UUID minted once per call, or the
 * caller's own), except `authenticate`, whose key the API ignores.
 *
 * **Retries** happen inside the transport — never by calling the method again, which would mint a
 * new key and could charge twice — with the same headers and body on every attempt, as
 * stripe-node's RequestSender does: up to `maxRetries` times, after {@link retryDelayMs}, on
 * - a network error or timeout, when the request is replayable (GET, PUT, DELETE, or a keyed POST:
 *   the API replays its stored answer, or finds what the first attempt created); an unkeyed POST
 *   only when the connection was refused (it never left);
 * - the answers {@link retryVerdict} lists: 409 `idempotency_key_in_use`/`concurrent_update`, 429,
 *   503 (`outcome_unknown` only when replayable), a proxy's 502/504 when replayable.
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
  /** `/customers`. */
  readonly customers: Customers;
  /** `/webhook_endpoints`. */
  readonly webhookEndpoints: WebhookEndpoints;
  /** `/events` and their deliveries. */
  readonly events: Events;

  readonly #apiKey: string;
  readonly #maxRetries: number;
  readonly #timeoutMs: number;
  readonly #retryDelay: RetryDelayOptions;
  readonly #fetch: FetchFunction;

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
    this.#apiKey = options.apiKey;
    this.#maxRetries = Math.floor(options.maxRetries ?? DEFAULT_MAX_RETRIES);
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retryDelay = options.retryDelay ?? {};
    this.#fetch = options.fetch ?? ((request) => globalThis.fetch(request));
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: (request) => this.#send(request, { options: {}, attempts: 0 }),
    });
    this.payments = new Payments(this);
    this.refunds = new Refunds(this);
    this.customers = new Customers(this);
    this.webhookEndpoints = new WebhookEndpoints(this);
    this.events = new Events(this);
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
      fetch: (request) => this.#send(request, state),
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

  /**
   * The transport: sends one SDK call's request, retrying per the policy above. Headers (the key
   * included) and body are built once and reused by every attempt; each attempt is a fresh
   * `Request` with its own timeout, combined with the caller's signal.
   */
  async #send(request: Request, state: CallState): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.set('api-key', this.#apiKey);
    if (!headers.has(API_VERSION_HEADER)) headers.set(API_VERSION_HEADER, API_VERSION);
    if (!headers.has('user-agent')) headers.set('user-agent', `switchyard-typescript/${SDK_VERSION}`);
    const method = request.method.toUpperCase();
    let replayable = method !== 'POST';
    if (method === 'POST') {
      if (honoursIdempotencyKey(new URL(request.url).pathname)) {
        const key = headers.get(IDEMPOTENCY_KEY_HEADER) ?? state.options.idempotencyKey ?? globalThis.crypto.randomUUID();
        headers.set(IDEMPOTENCY_KEY_HEADER, key);
        state.idempotencyKey = key;
        replayable = true;
      } else {
        headers.delete(IDEMPOTENCY_KEY_HEADER);
      }
    }
    const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const callerSignal = request.signal;
    const maxRetries = Math.max(0, Math.floor(state.options.maxRetries ?? this.#maxRetries));
    const timeoutMs = state.options.timeoutMs ?? this.#timeoutMs;
    for (let retry = 0; ; retry++) {
      state.attempts = retry + 1;
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await this.#fetch(
          new Request(request.url, {
            method,
            headers,
            ...(body !== undefined ? { body } : {}),
            signal: AbortSignal.any([callerSignal, timeout]),
            redirect: 'manual',
          }),
        );
      } catch (err) {
        if (callerSignal.aborted) throw callerSignal.reason ?? err;
        const timedOut = timeout.aborted;
        if (retry < maxRetries && (replayable || (!timedOut && neverSent(err)))) {
          await sleep(retryDelayMs(retry, this.#retryDelay), callerSignal);
          continue;
        }
        throw new SwitchyardConnectionError({
          code: timedOut ? 'timeout' : 'network_error',
          message: `${timedOut ? `No answer from Switchyard within ${timeoutMs} ms` : 'Could not reach Switchyard'} (${method} ${new URL(request.url).pathname}, ${retry + 1} attempt${retry === 0 ? '' : 's'}). ${
            replayable
              ? 'It may have been received: retry with the same idempotency key (error.idempotencyKey), or read the resource.'
              : 'It may have been received: read the resource before sending it again.'
          }`,
          ...optional('idempotencyKey', state.idempotencyKey),
          attempts: retry + 1,
          cause: err,
        });
      }
      if (retry >= maxRetries) return response;
      const verdict = await retryVerdict(response, replayable);
      if (!verdict.retry) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryDelayMs(retry, this.#retryDelay, verdict.retryAfterMs), callerSignal);
    }
  }
}

/** Checks a path id before it is put in a URL: non-empty, and not `.`/`..` (which a URL would resolve away). */
function id(name: string, value: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new TypeError(`Switchyard: ${name} must be an id as the API returned it.`);
  }
  return value;
}

// ─── Resources ──────────────────────────────────────────────────────────────────────────────────

/** `/payments`: create, read, list, and the state changes (confirm, authenticate, capture, cancel, refund). */
export class Payments {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /payments`: a payment intent (`RequiresConfirmation`, or processed at once with `confirm: true`). Keyed. */
  create(params: PaymentCreateParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call((init) => this.client.api.POST('/payments', { body: params, ...init }), options);
  }

  /** `GET /payments/{payment_id}`; `{ force_sync: true }` first asks the connector (docs/api.md). */
  retrieve(paymentId: string, params?: PaymentRetrieveParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payments/{payment_id}', {
          params: { path: { payment_id: id('paymentId', paymentId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }

  /** `GET /payments`: one page, newest first (`limit`, `starting_after`, `created`, `status`). */
  list(params?: PaymentListParams, options?: RequestOptions): Promise<PaymentList> {
    return this.client.call(
      (init) => this.client.api.GET('/payments', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/confirm`: from `RequiresConfirmation`; a decline is a `Failed` payment, not an error. Keyed. */
  confirm(paymentId: string, params: PaymentConfirmParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/confirm', {
          params: { path: { payment_id: id('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /**
   * `POST /payments/{payment_id}/authenticate`: the payer's answer to `next_action` (PIN, OTP, …).
   * Not keyed (the API keeps no record of it) and so re-sent only on answers that say nothing was done.
   */
  authenticate(paymentId: string, params: PaymentAuthenticateParams, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/authenticate', {
          params: { path: { payment_id: id('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/capture`: from `RequiresCapture` (`amount_to_capture` ≤ amount). Keyed. */
  capture(paymentId: string, params: PaymentCaptureParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/capture', {
          params: { path: { payment_id: id('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/cancel`: to `Cancelled` (a held authorization is voided). Keyed. */
  cancel(paymentId: string, params: PaymentCancelParams = {}, options?: RequestOptions): Promise<Payment> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/cancel', {
          params: { path: { payment_id: id('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `POST /payments/{payment_id}/refund`: a refund of a `Succeeded` payment (default: all that is left). Keyed. */
  refund(paymentId: string, params: RefundCreateParams = {}, options?: RequestOptions): Promise<Refund> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/payments/{payment_id}/refund', {
          params: { path: { payment_id: id('paymentId', paymentId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `GET /payments/{payment_id}/refunds`: one page of the payment's refunds. */
  listRefunds(paymentId: string, params?: RefundListParams, options?: RequestOptions): Promise<RefundList> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/payments/{payment_id}/refunds', {
          params: { path: { payment_id: id('paymentId', paymentId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }
}

/** `/refunds`. */
export class Refunds {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /refunds/{refund_id}`; `{ force_sync: true }` first asks the connector about a `Pending` refund. */
  retrieve(refundId: string, params?: RefundRetrieveParams, options?: RequestOptions): Promise<Refund> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/refunds/{refund_id}', {
          params: { path: { refund_id: id('refundId', refundId) }, ...(params ? { query: params } : {}) },
          ...init,
        }),
      options,
    );
  }
}

/** `/customers`. */
export class Customers {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /customers` (every field optional). Keyed. */
  create(params: CustomerCreateParams = {}, options?: RequestOptions): Promise<Customer> {
    return this.client.call((init) => this.client.api.POST('/customers', { body: params, ...init }), options);
  }

  /** `GET /customers/{customer_id}`. */
  retrieve(customerId: string, options?: RequestOptions): Promise<Customer> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/customers/{customer_id}', { params: { path: { customer_id: id('customerId', customerId) } }, ...init }),
      options,
    );
  }

  /** `PUT /customers/{customer_id}`: sets the fields given (`metadata` replaces the whole map). */
  update(customerId: string, params: CustomerUpdateParams, options?: RequestOptions): Promise<Customer> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/customers/{customer_id}', {
          params: { path: { customer_id: id('customerId', customerId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /** `DELETE /customers/{customer_id}` → `{ customer_id, deleted: true }` (a retried delete answers the same). */
  delete(customerId: string, options?: RequestOptions): Promise<DeletedCustomer> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/customers/{customer_id}', { params: { path: { customer_id: id('customerId', customerId) } }, ...init }),
      options,
    );
  }

  /** `GET /customers`: one page (`email` matches exactly, case-insensitively). */
  list(params?: CustomerListParams, options?: RequestOptions): Promise<CustomerList> {
    return this.client.call(
      (init) => this.client.api.GET('/customers', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }
}

/** `/webhook_endpoints`: where events are delivered, signed with the endpoint's secret. */
export class WebhookEndpoints {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `POST /webhook_endpoints` → the endpoint with its `secret` (`whsec_…`), shown only now: store it. Keyed. */
  create(params: WebhookEndpointCreateParams, options?: RequestOptions): Promise<WebhookEndpointWithSecret> {
    return this.client.call((init) => this.client.api.POST('/webhook_endpoints', { body: params, ...init }), options);
  }

  /** `GET /webhook_endpoints/{webhook_endpoint_id}` (without its secret). */
  retrieve(endpointId: string, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: id('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }

  /** `PUT /webhook_endpoints/{webhook_endpoint_id}`: sets `url`, `enabled_events`, `description`, `status`. */
  update(endpointId: string, params: WebhookEndpointUpdateParams, options?: RequestOptions): Promise<WebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: id('endpointId', endpointId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /**
   * `DELETE /webhook_endpoints/{webhook_endpoint_id}`. A retry after a lost answer may meet the
   * endpoint already deleted and throw 404 `resource_missing` (check `error.attempts > 1`).
   */
  delete(endpointId: string, options?: RequestOptions): Promise<DeletedWebhookEndpoint> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/webhook_endpoints/{webhook_endpoint_id}', {
          params: { path: { webhook_endpoint_id: id('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /webhook_endpoints`: one page, newest first. */
  list(params?: WebhookEndpointListParams, options?: RequestOptions): Promise<WebhookEndpointList> {
    return this.client.call(
      (init) => this.client.api.GET('/webhook_endpoints', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /**
   * `POST /webhook_endpoints/{webhook_endpoint_id}/rotate_secret` → the endpoint with a new `secret`;
   * the old one keeps signing beside it for 24 h. Keyed (a retry replays the same new secret).
   */
  rotateSecret(endpointId: string, options?: RequestOptions): Promise<WebhookEndpointRotated> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/webhook_endpoints/{webhook_endpoint_id}/rotate_secret', {
          params: { path: { webhook_endpoint_id: id('endpointId', endpointId) } },
          ...init,
        }),
      options,
    );
  }
}

/** `/events`: every change, kept 30 days, and their webhook deliveries. */
export class Events {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /events/{event_id}`. */
  retrieve(eventId: string, options?: RequestOptions): Promise<Event> {
    return this.client.call(
      (init) => this.client.api.GET('/events/{event_id}', { params: { path: { event_id: id('eventId', eventId) } }, ...init }),
      options,
    );
  }

  /** `GET /events`: one page, newest first (`type`, `created`, paging). */
  list(params?: EventListParams, options?: RequestOptions): Promise<EventList> {
    return this.client.call(
      (init) => this.client.api.GET('/events', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /** `GET /events/{event_id}/deliveries`: the event's deliveries to each endpoint, with their attempts. */
  listDeliveries(eventId: string, options?: RequestOptions): Promise<EventDeliveryList> {
    return this.client.call(
      (init) => this.client.api.GET('/events/{event_id}/deliveries', { params: { path: { event_id: id('eventId', eventId) } }, ...init }),
      options,
    );
  }

  /** `POST /events/{event_id}/redeliver`: one attempt now, to one endpoint or every subscribed one. Keyed. */
  redeliver(eventId: string, params: EventRedeliverParams = {}, options?: RequestOptions): Promise<EventRedeliverResult> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/events/{event_id}/redeliver', {
          params: { path: { event_id: id('eventId', eventId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }
}

// ─── Webhooks ───────────────────────────────────────────────────────────────────────────────────

/** Why a delivery was refused by {@link verifyWebhook}. */
export type WebhookVerificationFailure =
  | 'missing_headers'
  | 'invalid_timestamp'
  | 'timestamp_too_old'
  | 'timestamp_too_new'
  | 'no_matching_signature'
  | 'invalid_payload';

/**
 * A webhook delivery that must not be trusted: `code` says why. Answer it with a 4xx (Switchyard
 * will retry it on its schedule) and do not act on its body.
 */
export class WebhookVerificationError extends Error {
  /** @param code why the delivery was refused */
  constructor(
    readonly code: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/**
 * Request headers as a receiver has them: the fetch `Headers`, Node's `IncomingHttpHeaders`
 * (`req.headers`), or a plain record. Names are matched case-insensitively.
 */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a webhook delivery and returns its event (Standard Webhooks, standardwebhooks 1.1.1):
 * the HMAC-SHA256 over `webhook-id.webhook-timestamp.body` with the endpoint's secret must match
 * one of the space-separated `v1,…` signatures of `webhook-signature` (two during a rotation's
 * 24 h), and `webhook-timestamp` must be within 5 minutes of now.
 * @param payload the body exactly as received — the raw bytes (a Buffer/Uint8Array, decoded as
 *   UTF-8) or their text — never a re-serialised object: any other spelling of the same JSON fails
 * @param headers the request headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`)
 * @param secret the endpoint's `whsec_…` secret (from create or `rotateSecret`), or several: the
 *   delivery verifies when any of them signed it (a receiver holding the old and the new secret)
 * @returns the event, as `GET /events/{event_id}` answers it
 * @throws WebhookVerificationError when the headers are missing, the timestamp is unreadable or off
 *   by more than 5 minutes, no signature matches, or the payload is not UTF-8 JSON
 * @throws TypeError when `secret` is empty or `payload` is not a string or bytes (a parsed object)
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string | readonly string[]): Event {
  const secrets = typeof secret === 'string' ? [secret] : [...secret];
  if (secrets.length === 0 || secrets.some((s) => typeof s !== 'string' || s === '' || s === 'whsec_')) {
    throw new TypeError('verifyWebhook: secret must be the endpoint’s whsec_… secret.');
  }
  let text: string;
  if (typeof payload === 'string') text = payload;
  else if (payload instanceof Uint8Array) {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload);
    } catch {
      throw new WebhookVerificationError('invalid_payload', 'The webhook body is not UTF-8.');
    }
  } else throw new TypeError('verifyWebhook: pass the raw request body (string or bytes), not a parsed object.');
  const flat = flattenHeaders(headers);
  let failure: unknown;
  for (const s of secrets) {
    try {
      new Webhook(s).verify(text, flat, { jsonParse: false });
      failure = undefined;
      break;
    } catch (err) {
      failure = err;
      // Only a signature mismatch can go another way with another secret (headers and timestamp are the same for all).
      if (!(err instanceof StandardWebhookVerificationError) || err.message !== 'No matching signature found') break;
    }
  }
  if (failure !== undefined) throw toVerificationError(failure);
  try {
    return JSON.parse(text) as Event;
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The webhook body is signed but is not JSON.');
  }
}

/** Lower-cased single-valued headers for the standardwebhooks package (repeated values joined by a space). */
function flattenHeaders(headers: WebhookHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string | string[] | undefined][] =
    typeof (headers as Headers).forEach === 'function' && typeof (headers as Headers).get === 'function'
      ? [...(headers as Headers).entries()]
      : Object.entries(headers as Record<string, string | string[] | undefined>);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
  }
  return out;
}

/** Maps the standardwebhooks package's error (identified by its message) to a {@link WebhookVerificationError}. */
function toVerificationError(err: unknown): Error {
  if (!(err instanceof StandardWebhookVerificationError)) return err instanceof Error ? err : new Error(String(err));
  const byMessage: Record<string, [WebhookVerificationFailure, string]> = {
    'Missing required headers': ['missing_headers', 'The webhook-id, webhook-timestamp and webhook-signature headers are required.'],
    'Invalid Signature Headers': ['invalid_timestamp', 'The webhook-timestamp header is not a Unix time in seconds.'],
    'Message timestamp too old': ['timestamp_too_old', 'The webhook-timestamp is more than 5 minutes old (a replay, or a clock off).'],
    'Message timestamp too new': ['timestamp_too_new', 'The webhook-timestamp is more than 5 minutes in the future (a clock off).'],
    'No matching signature found': ['no_matching_signature', 'No webhook-signature matches the body with this secret.'],
  };
  const [code, message] = byMessage[err.message] ?? ['no_matching_signature', err.message];
  return new WebhookVerificationError(code, message);
}
