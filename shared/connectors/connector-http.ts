import { ConnectorRequestError, ConnectorTechnicalError } from './connector';

/**
 * The connector operations whose processor calls get their own timeout. `findRefund` is the
 * refund lookup by our reference; `webhook` covers the calls a webhook makes to confirm what it
 * says (Flutterwave's re-verify, Paystack's refund lookup); `verifyCredentials` is the one read-only
 * call that checks an account's key when a merchant connects it ({@link verifyCredentialsFetch}).
 */
export type ConnectorOperation =
  | 'authorize'
  | 'capture'
  | 'void'
  | 'refund'
  | 'sync'
  | 'syncRefund'
  | 'findRefund'
  | 'webhook'
  | 'verifyCredentials';

/**
 * Timeout of one processor call per operation, in milliseconds. Each adapter documents its table
 * (with the processor's source) in its `timeouts.ts`: `STRIPE_TIMEOUTS_MS`,
 * `PAYSTACK_TIMEOUTS_MS`, `FLUTTERWAVE_TIMEOUTS_MS`. The callers additionally race every call
 * against the request's own time budget (API Gateway's 30 s; the reconciler has a longer one),
 * so a table value longer than that budget is cut short by the caller, never by the processor.
 */
export type ConnectorTimeouts = Readonly<Record<ConnectorOperation, number>>;

/**
 * Timeout of the credential check (`verifyCredentials`) of every processor, in milliseconds: 10 000. The check is
 * one read-only call (a balance read) made while a merchant waits on the request that connects an account, whose
 * whole budget is API Gateway's 30 s and which still has to encrypt and store the credentials after it; the read
 * changes nothing, so giving up early costs only a retry, never an unknown outcome. No processor documents a
 * timeout for its balance read: Paystack's own sample of `GET /balance` allows up to 30 s (`CURLOPT_TIMEOUT => 30`,
 * PaystackOSS/doc-code-snippets `src/api/transfers-control/balance/index.php`), Flutterwave's 28 s server-side
 * wait is for charges waiting on a provider, and stripe-node's 80 s default is for any call. A healthy processor
 * answers a balance read in well under a second, so 10 s tells "down or unreachable" from "slow" and leaves the
 * request time to answer. `CONNECTOR_TIMEOUT_MS` overrides it, as every other timeout.
 */
export const CREDENTIAL_CHECK_TIMEOUT_MS = 10_000;

/**
 * The timeout of one call: `override` (the `CONNECTOR_TIMEOUT_MS` setting, applied to every
 * operation of every processor) when it is a positive finite number, else the table's value.
 * @returns milliseconds
 */
export function timeoutFor(table: ConnectorTimeouts, operation: ConnectorOperation, override?: number): number {
  return override !== undefined && Number.isFinite(override) && override > 0 ? override : table[operation];
}

/** One HTTP call to a processor. */
export interface ConnectorHttpRequest {
  connector: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Full URL (the adapter joins its configured base URL and the documented path). */
  url: string;
  headers: Record<string, string>;
  /** Already encoded (JSON or form), or undefined. */
  body?: string;
  /** Timeout of this call in milliseconds (the adapter's per-operation table, see {@link timeoutFor}). */
  timeoutMs: number;
  /**
   * Maps a 4xx error body to the processor's code and message. Without it the
   * code is `http_<status>`.
   */
  errorOf?: (status: number, body: unknown) => { code: string; message: string };
}

/**
 * HTTP statuses that mean "the outcome is unknown", not "refused": 409 Conflict. Stripe answers
 * 409 `idempotency_key_in_use` while another request with the same `Idempotency-Key` is still in
 * flight (https://docs.stripe.com/error-low-level#idempotency), so the first request may still
 * succeed; stripe-node retries 409 like a 5xx (`src/RequestSender.ts` `_shouldRetry`, "Retry on
 * conflict errors", stripe/stripe-node v22.5.0, commit 663942164d38). Any processor's 409 is
 * treated the same way.
 */
export const UNKNOWN_OUTCOME_STATUSES: ReadonlySet<number> = new Set([409]);

/**
 * Error codes of the platform `fetch`'s `cause` (Node's undici) that mean the connection was never
 * established, so the request provably never reached the processor: refused, no such host, DNS
 * temporarily failing, no route, or the connect phase timing out (undici's own connect timeout; our
 * `AbortSignal` timeout is never counted, since it may fire after the request was sent). A reset or
 * closed socket (`ECONNRESET`, `UND_ERR_SOCKET`) may come after the request was written: not listed.
 */
export const NOT_SENT_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * Whether a `fetch` failure provably happened before the request left: its `cause` (or, for an
 * `AggregateError` of several addresses tried, every one of its errors) has a code in
 * {@link NOT_SENT_ERROR_CODES}, or is the Fetch standard's `bad port` network error (undici refuses
 * a URL on a blocked port, e.g. 1 or 25, before opening any connection).
 */
export function neverSent(err: unknown): boolean {
  const cause = (err as { cause?: unknown } | null)?.cause as { code?: unknown; errors?: unknown; message?: unknown } | undefined;
  if (!cause || typeof cause !== 'object') return false;
  if (typeof cause.code === 'string' && NOT_SENT_ERROR_CODES.has(cause.code)) return true;
  if (cause.code === undefined && cause.message === 'bad port') return true;
  if (Array.isArray(cause.errors) && cause.errors.length > 0) {
    return cause.errors.every(
      (e) => typeof (e as { code?: unknown } | null)?.code === 'string' && NOT_SENT_ERROR_CODES.has((e as { code: string }).code),
    );
  }
  return false;
}

/**
 * Calls a processor with the platform `fetch`, with a timeout, and parses JSON.
 * @returns the parsed JSON body of a 2xx answer
 * @throws ConnectorTechnicalError on timeout, network failure, 5xx, 409 (see
 *   {@link UNKNOWN_OUTCOME_STATUSES}; the message carries the processor's code, never its body)
 *   or an unparseable 2xx/5xx body; with `notSent` true only when the connection was never
 *   established ({@link neverSent})
 * @throws ConnectorRequestError on any other 4xx, with the processor's code and message
 */
export async function connectorFetch<T>(request: ConnectorHttpRequest): Promise<T> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    if (timedOut) throw new ConnectorTechnicalError(request.connector, `${request.connector} did not answer in time.`);
    const notSent = neverSent(err);
    throw new ConnectorTechnicalError(
      request.connector,
      notSent ? `${request.connector} could not be reached (the request was not sent).` : `${request.connector} could not be reached.`,
      notSent,
    );
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    // The body was cut off (timeout or connection reset while reading): the outcome is unknown.
    throw new ConnectorTechnicalError(request.connector, `${request.connector} did not finish its answer (HTTP ${response.status}).`);
  }
  let body: unknown;
  let parsed = true;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    parsed = false;
  }
  if (UNKNOWN_OUTCOME_STATUSES.has(response.status)) {
    const code = parsed && request.errorOf ? request.errorOf(response.status, body).code : `http_${response.status}`;
    throw new ConnectorTechnicalError(
      request.connector,
      `${request.connector} answered HTTP ${response.status} (${code}): another request for the same operation may still be in progress; the outcome is unknown.`,
    );
  }
  if (!parsed) {
    if (response.status >= 400 && response.status < 500) {
      throw new ConnectorRequestError(
        request.connector,
        `http_${response.status}`,
        `${request.connector} refused the request (HTTP ${response.status}).`,
      );
    }
    throw new ConnectorTechnicalError(
      request.connector,
      `${request.connector} answered HTTP ${response.status} with a body that is not JSON.`,
    );
  }
  if (response.status >= 500)
    throw new ConnectorTechnicalError(request.connector, `${request.connector} answered HTTP ${response.status}.`);
  if (response.status >= 400) {
    const mapped = request.errorOf?.(response.status, body) ?? {
      code: `http_${response.status}`,
      message: `${request.connector} refused the request (HTTP ${response.status}).`,
    };
    throw new ConnectorRequestError(request.connector, mapped.code, mapped.message);
  }
  return body as T;
}

/** The code of the {@link ConnectorRequestError} a credential check throws when the processor does not accept the key. */
export const INVALID_CREDENTIALS_CODE = 'invalid_credentials';

/**
 * HTTP statuses with which a processor says the key itself is not accepted: 401 (no valid key: unknown,
 * revoked, expired or malformed) and 403 (the key is known but may not make the call, e.g. a Stripe
 * restricted key without read access to the balance; https://docs.stripe.com/api/errors "403 Forbidden:
 * The API key doesn't have permissions to perform the request").
 */
export const INVALID_CREDENTIALS_STATUSES: ReadonlySet<number> = new Set([401, 403]);

/** The one read-only call of a credential check ({@link verifyCredentialsFetch}). */
export interface CredentialCheckRequest {
  connector: string;
  /** Full URL of the documented read (the adapter's base URL and path). */
  url: string;
  /** The processor's headers, the key's `Authorization` among them. */
  headers: Record<string, string>;
  /** Milliseconds: the adapter's `verifyCredentials` timeout (see {@link timeoutFor}). */
  timeoutMs: number;
  /** The key being checked: masked out of every message thrown, should a processor echo it. */
  secret: string;
  /** The adapter's 4xx mapping (its `errorOf`), for refusals that are not about the key. */
  errorOf: (status: number, body: unknown) => { code: string; message: string };
  /**
   * Whether a 4xx answer says the key is wrong beyond {@link INVALID_CREDENTIALS_STATUSES} (Paystack's
   * `Invalid key` message); `body` is undefined when the answer was not JSON.
   */
  keyRefused?: (status: number, body: unknown) => boolean;
  /** Whether a 2xx body is the answer the documented read gives (so a wrong base URL is not taken for a valid key). */
  accepts: (body: unknown) => boolean;
  /** What {@link accepts} looks for, for the error message (e.g. `a Balance object`). */
  expected: string;
}

/** `text` with every occurrence of `secret` (3+ characters) replaced by `[redacted]`. */
function withoutSecret(text: string, secret: string): string {
  return secret.length >= 3 ? text.split(secret).join('[redacted]') : text;
}

/**
 * One read-only, authenticated `GET` that tells whether a processor accepts a key (an account's
 * `verifyCredentials`), through {@link connectorFetch}. Nothing is created or changed at the processor,
 * so a timeout leaves no unknown outcome: the check can simply be tried again.
 * @returns when the processor answered 2xx with the documented body ({@link CredentialCheckRequest.accepts})
 * @throws ConnectorRequestError with code {@link INVALID_CREDENTIALS_CODE} when the processor refuses the key:
 *   HTTP 401 or 403 (JSON or not), or a 4xx that `keyRefused` recognises. The message names the connector and
 *   the HTTP status only: never the key, nor the processor's text (which may quote the key)
 * @throws ConnectorRequestError with the processor's code and message (the key masked out) on any other 4xx
 *   (e.g. a 404 from a wrong base URL, a 429)
 * @throws ConnectorTechnicalError on timeout, network failure, 5xx, 409, an unparseable 2xx/5xx body, or a 2xx
 *   body that is not the documented answer (the key masked out of any message)
 */
export async function verifyCredentialsFetch(request: CredentialCheckRequest): Promise<void> {
  let refusal: { status: number; body: unknown } | undefined;
  let body: unknown;
  try {
    body = await connectorFetch<unknown>({
      connector: request.connector,
      method: 'GET',
      url: request.url,
      headers: request.headers,
      timeoutMs: request.timeoutMs,
      errorOf: (status, errorBody) => {
        refusal = { status, body: errorBody };
        return request.errorOf(status, errorBody);
      },
    });
  } catch (err) {
    if (err instanceof ConnectorRequestError) {
      // A 4xx whose body is not JSON never reaches errorOf: connectorFetch names its status in the code.
      const status = refusal?.status ?? Number(/^http_(\d{3})$/.exec(err.code)?.[1]);
      if (INVALID_CREDENTIALS_STATUSES.has(status) || request.keyRefused?.(status, refusal?.body)) {
        throw new ConnectorRequestError(
          request.connector,
          INVALID_CREDENTIALS_CODE,
          status === 403
            ? `${request.connector} refused the API key (HTTP 403): the key may not make this read-only call.`
            : `${request.connector} did not accept the API key (HTTP ${status}).`,
        );
      }
      throw new ConnectorRequestError(err.connector, withoutSecret(err.code, request.secret), withoutSecret(err.message, request.secret));
    }
    if (err instanceof ConnectorTechnicalError)
      throw new ConnectorTechnicalError(err.connector, withoutSecret(err.message, request.secret), err.notSent);
    throw err;
  }
  if (!request.accepts(body)) {
    throw new ConnectorTechnicalError(
      request.connector,
      `${request.connector} answered the credential check with something other than ${request.expected}; the key could not be checked.`,
    );
  }
}
