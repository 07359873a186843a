/**
 * The retry policy: what is retried (docs/api.md's Errors and Unknown outcomes tables), how long
 * to wait (capped exponential backoff with full jitter, never less than `Retry-After`), and how
 * many times. The transport (`transport.ts`) applies it; nothing here sends a request.
 */
import { errorEnvelope } from './internal/error-envelope.js';
import { optional } from './internal/optional.js';

/** Default number of retries after the first attempt (3 attempts in all), as stripe-node's default of 2. */
export const DEFAULT_MAX_RETRIES = 2;

/** Default first backoff ceiling (ms): a retry waits a random time up to 500 ms, then up to 1 s, 2 s… */
export const DEFAULT_INITIAL_RETRY_DELAY_MS = 500;

/** Default backoff cap (ms): no computed wait exceeds 5 s (stripe-node's `maxNetworkRetryDelay`). */
export const DEFAULT_MAX_RETRY_DELAY_MS = 5_000;

/**
 * The longest `Retry-After` the client waits for inside a call (ms), as stripe-node's
 * `MAX_RETRY_AFTER_WAIT` (60 s). A longer one ends the retries: the error is thrown with
 * `SwitchyardError.retryAfterMs` for the caller to schedule.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * 409 codes that mean "try again": nothing was decided or changed (docs/api.md, Errors): the first request
 * with the key still runs, a concurrent write won, or (connector accounts, routing) the account or the
 * routing profile changed while the request was applied.
 */
export const RETRYABLE_CONFLICT_CODES: readonly string[] = [
  'idempotency_key_in_use',
  'concurrent_update',
  'connector_account_changed',
  'routing_changed',
];

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
export interface RetryVerdict {
  retry: boolean;
  /** The answer's `Retry-After` in ms (≤ {@link MAX_RETRY_AFTER_MS}), when it sent one: the least wait. */
  retryAfterMs?: number;
}

/**
 * Whether an HTTP answer is retried (docs/api.md's Errors and Unknown outcomes tables):
 * - 409 {@link RETRYABLE_CONFLICT_CODES} (`idempotency_key_in_use`, `concurrent_update`,
 *   `connector_account_changed`, `routing_changed`): nothing was decided → retry. Any other 409
 *   (`payment_unexpected_state`, `payment_busy`, `connector_account_in_use`) is a decision → returned;
 * - 429 (API Gateway's throttle: the handler never ran) → retry;
 * - 503 `service_unavailable` (storage down before any processor call) and `connector_unreachable`
 *   (authenticate: nothing was sent) → retry; 503 `outcome_unknown` or a 503 that is not the API's
 *   (a gateway's) → retry only when `replayable`, since the work may have happened;
 * - 502/504 that are not the API's error body (a proxy or load balancer's) → as a network error:
 *   retry when `replayable`. The API's own 502 is a `connector_error` about the processor → returned;
 * - anything else (every other 4xx, 500 `internal_error`, 2xx, 3xx) → returned.
 * `Retry-After` is honoured up to {@link MAX_RETRY_AFTER_MS}; a longer one ends the retries.
 * The body is read from a clone: `response` itself stays unread.
 * @param replayable the request may be sent twice without doing its work twice: GET, PUT, DELETE,
 *   or a POST carrying an Idempotency-Key its route honours
 */
export async function retryVerdict(response: Response, replayable: boolean): Promise<RetryVerdict> {
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

/**
 * Whether `err` (thrown by fetch) means the connection was refused or the host unknown: the request
 * never left, so even an unkeyed POST may be sent again. Looks through up to 4 levels of `cause`
 * (undici wraps the socket error in a `TypeError: fetch failed`).
 */
export function neverSent(err: unknown): boolean {
  const codes = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT'];
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && codes.includes(code)) return true;
  }
  return false;
}
