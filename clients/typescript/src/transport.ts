/**
 * The transport: the custom `fetch` openapi-fetch sends every request through. It adds the key and
 * version headers, mints one `Idempotency-Key` per SDK call (reused by that call's retries), gives
 * each attempt its own timeout, and retries per the policy of `retry-policy.ts` — with the same
 * headers and body on every attempt, as stripe-node's `RequestSender` does.
 */
import { SwitchyardConnectionError } from './errors.js';
import { honoursIdempotencyKey, IDEMPOTENCY_KEY_HEADER } from './idempotency.js';
import { optional } from './internal/optional.js';
import { neverSent, type RetryDelayOptions, retryDelayMs, retryVerdict } from './retry-policy.js';
import { API_VERSION, API_VERSION_HEADER, SDK_VERSION } from './version.js';

/**
 * Default time one attempt may take, in milliseconds: 60 s, above the API's 29 s function
 * timeout and API Gateway's 30 s, so the server gives up first and answers.
 */
export const DEFAULT_TIMEOUT_MS = 60_000;

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

/** The fetch the SDK sends through (the global one by default). */
export type FetchFunction = (input: Request) => Promise<Response>;

/**
 * What the transport learns while it runs one call; read by the method that made the call (to put
 * the key and the attempt count on the error it throws).
 */
export interface CallState {
  /** The call's options (key, retries, timeout). */
  options: RequestOptions;
  /** The `Idempotency-Key` sent, once the transport has set it (absent on GETs and unkeyed POSTs). */
  idempotencyKey?: string;
  /** HTTP attempts made so far. */
  attempts: number;
}

/** The client-wide settings of a {@link Transport}, defaults already applied. */
export interface TransportSettings {
  /** Sent as the `api-key` header. */
  apiKey: string;
  /** Retries after the first attempt, unless a call's options say otherwise. */
  maxRetries: number;
  /** Time one attempt may take (ms), unless a call's options say otherwise. */
  timeoutMs: number;
  /** Backoff between retries. */
  retryDelay: RetryDelayOptions;
  /** Sends one attempt. */
  fetch: FetchFunction;
}

/** Sends one SDK call's request, with its retries. One per client; the state of a call lives in its {@link CallState}. */
export class Transport {
  readonly #settings: TransportSettings;

  /** @param settings the client's key, retry and timeout settings, and the fetch to send with */
  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  /**
   * Sends one SDK call's request, retrying per the policy (`retryVerdict`, and on a network error
   * or timeout when the request is replayable or never left). Headers (the key included) and body
   * are built once and reused by every attempt; each attempt is a fresh `Request` with its own
   * timeout, combined with the caller's signal, and `redirect: 'manual'`.
   * @param request what openapi-fetch built (its signal is the caller's)
   * @param state the call's options, updated with the key sent and the attempts made
   * @returns the last answer: a success, one the policy does not retry, or the last retry's
   * @throws SwitchyardConnectionError when the last attempt got no answer (`network_error` or `timeout`)
   * @throws the caller signal's reason when it aborts (during an attempt or a wait)
   */
  async send(request: Request, state: CallState): Promise<Response> {
    const headers = new Headers(request.headers);
    headers.set('api-key', this.#settings.apiKey);
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
    const maxRetries = Math.max(0, Math.floor(state.options.maxRetries ?? this.#settings.maxRetries));
    const timeoutMs = state.options.timeoutMs ?? this.#settings.timeoutMs;
    // Whether some attempt may have reached the API: it got an answer, or failed after the
    // connection was made (a reset, a timeout). Until then every attempt was refused (never left).
    let mayHaveReached = false;
    for (let retry = 0; ; retry++) {
      state.attempts = retry + 1;
      const timeout = AbortSignal.timeout(timeoutMs);
      let response: Response;
      try {
        response = await this.#settings.fetch(
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
        const refused = !timedOut && neverSent(err);
        if (!refused) mayHaveReached = true;
        if (retry < maxRetries && (replayable || refused)) {
          await sleep(retryDelayMs(retry, this.#settings.retryDelay), callerSignal);
          continue;
        }
        throw new SwitchyardConnectionError({
          code: timedOut ? 'timeout' : 'network_error',
          message: `${timedOut ? `No answer from Switchyard within ${timeoutMs} ms` : 'Could not reach Switchyard'} (${method} ${new URL(request.url).pathname}, ${retry + 1} attempt${retry === 0 ? '' : 's'}). ${connectionAdvice(
            mayHaveReached,
            method,
            state.idempotencyKey,
          )}`,
          ...optional('idempotencyKey', state.idempotencyKey),
          attempts: retry + 1,
          cause: err,
        });
      }
      mayHaveReached = true;
      if (retry >= maxRetries) return response;
      const verdict = await retryVerdict(response, replayable);
      if (!verdict.retry) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(retryDelayMs(retry, this.#settings.retryDelay, verdict.retryAfterMs), callerSignal);
    }
  }
}

/**
 * What a {@link SwitchyardConnectionError} tells the caller to do, true to what happened:
 * - every attempt was refused (connection refused, unknown host, connect timeout: `neverSent`): the
 *   request never left, so nothing was done and it may simply be sent again;
 * - some attempt may have reached the API (a reset or timeout after connecting, or an earlier answer
 *   that was retried): a keyed POST is retried with the same key (the API replays the first result);
 *   a GET changes nothing and is read again; any other request (an unkeyed POST, a PUT, a DELETE) is
 *   checked by reading the resource before it is sent again.
 * @param mayHaveReached whether some attempt may have reached the API
 * @param method the request's method
 * @param idempotencyKey the key sent, when the request carried one
 */
function connectionAdvice(mayHaveReached: boolean, method: string, idempotencyKey: string | undefined): string {
  if (!mayHaveReached) return 'The request was not received (no connection could be made): nothing was done; retry.';
  if (idempotencyKey !== undefined)
    return 'It may have been received: retry with the same idempotency key (error.idempotencyKey) to get its result, or read the resource; never resend it without the key.';
  if (method === 'GET' || method === 'HEAD') return 'It may have been received; a read changes nothing: read the resource again.';
  return 'It may have been received: read the resource before sending it again.';
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
