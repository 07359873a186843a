import { ConnectorRequestError, ConnectorTechnicalError } from './connector';

/**
 * The connector operations whose processor calls get their own timeout. `findRefund` is the
 * refund lookup by our reference; `webhook` covers the calls a webhook makes to confirm what it
 * says (Flutterwave's re-verify, Paystack's refund lookup).
 */
export type ConnectorOperation = 'authorize' | 'capture' | 'void' | 'refund' | 'sync' | 'syncRefund' | 'findRefund' | 'webhook';

/**
 * Timeout of one processor call per operation, in milliseconds. Each adapter documents its table
 * (with the processor's source) in its `transformers.ts`: `STRIPE_TIMEOUTS_MS`,
 * `PAYSTACK_TIMEOUTS_MS`, `FLUTTERWAVE_TIMEOUTS_MS`. The callers additionally race every call
 * against the request's own time budget (API Gateway's 30 s; the reconciler has a longer one),
 * so a table value longer than that budget is cut short by the caller, never by the processor.
 */
export type ConnectorTimeouts = Readonly<Record<ConnectorOperation, number>>;

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
