/**
 * The error model of the API. Every failure leaves the service as
 * `{"error": {"type", "code", "message", "param"?}}` with one of these types.
 * A message names the field and what is wrong with it, never the value it was given.
 */

/**
 * Error families, as in the reference APIs of this field (Stripe, Hyperswitch): `invalid_request_error`,
 * `authentication_error`, `idempotency_error`, `connector_error`, `rate_limit_error`, `api_error`.
 * The wire schema (shared/schemas/error-schema.ts, component `ErrorType`) is built from this list.
 */
export const API_ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'idempotency_error',
  'connector_error',
  'rate_limit_error',
  'api_error',
] as const;

/** One of {@link API_ERROR_TYPES}. */
export type ApiErrorType = (typeof API_ERROR_TYPES)[number];

/**
 * The JSON body of every error response, `{error: {type, code, message, param?}}` (component `Error`,
 * shared/schemas/error-schema.ts): `code` a stable machine-readable code, `message` what to fix (never the
 * input), `param` the request field at fault when there is one.
 */
export interface ApiErrorBody {
  error: { type: ApiErrorType; code: string; message: string; param?: string | undefined };
}

/**
 * An error that maps straight to an HTTP response. Domain operations throw it;
 * the HTTP error mapper turns it into the status and body. `message` must tell
 * the caller what to fix and never repeat caller input; a processor's words put
 * into it pass the card-number masker (shared/domain/card-mask.ts) first.
 */
export class ApiError extends Error {
  /**
   * True for an answer that only holds for a moment (another request's processor call is still
   * running): it is not stored for Idempotency-Key replay, so a retry with the same key gets the
   * settled result instead of this answer for 24 h.
   */
  transient = false;

  constructor(
    readonly statusCode: number,
    readonly type: ApiErrorType,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Marks this answer as {@link transient} and returns it. */
  asTransient(): this {
    this.transient = true;
    return this;
  }

  /** The response body for this error. */
  toBody(): ApiErrorBody {
    return {
      error: { type: this.type, code: this.code, message: this.message, ...(this.param ? { param: this.param } : {}) },
    };
  }
}

/** 400 `invalid_request_error` with the given code, naming the offending field in `param`. */
export function invalidRequest(code: string, message: string, param?: string): ApiError {
  return new ApiError(400, 'invalid_request_error', code, message, param);
}

/**
 * 404 `resource_missing`: an id in the path that does not exist for this merchant. The
 * message names the resource and the parameter, never the id sent (it is caller input,
 * and an answer stored for Idempotency-Key replay would keep it for 24 hours).
 * @param resource what was looked up, e.g. `payment`
 * @param param the path or body parameter that named it, e.g. `payment_id`
 */
export function resourceNotFound(resource: string, param?: string): ApiError {
  const hint = param ? ` Check ${param}: it must be the id of a ${resource} of your account, as this API returned it.` : '';
  return new ApiError(404, 'invalid_request_error', 'resource_missing', `No such ${resource}.${hint}`, param);
}

/** 409 `payment_unexpected_state`: the operation is not allowed in the payment's current status. */
export function unexpectedState(operation: string, status: string, allowed: readonly string[]): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'payment_unexpected_state',
    `This payment has status ${status}; ${operation} is only allowed when the status is ${allowed.join(', ')}.`,
  );
}

/** 422 `idempotency_key_reused`: the Idempotency-Key was already used for a different request. */
export function idempotencyKeyReused(): ApiError {
  return new ApiError(
    422,
    'idempotency_error',
    'idempotency_key_reused',
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  );
}

/** 409 `idempotency_key_in_use`: the first request with this Idempotency-Key is still running. */
export function idempotencyKeyInUse(): ApiError {
  return new ApiError(
    409,
    'idempotency_error',
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is still being processed. Retry after it completes to get its result.',
  );
}

/** 409 `payment_busy`: a connector webhook arrived while the payment cannot take it; the processor should redeliver. */
export function paymentBusy(detail: string): ApiError {
  return new ApiError(409, 'api_error', 'payment_busy', `${detail} Deliver this event again shortly.`);
}

/** 401 `authentication_error`: one body for missing, malformed, unknown and revoked keys. */
export function authenticationFailed(): ApiError {
  return new ApiError(
    401,
    'authentication_error',
    'invalid_api_key',
    'Missing or invalid API key. Send your secret key in the `api-key` header.',
  );
}

/**
 * The response headers an {@link ApiError} asks to be sent with it (e.g. `Retry-After` of a 429 or of a
 * 503 `connector_unavailable`), or undefined when it carries none. An error carries them as a
 * `headers` property holding a record of header name → value (see {@link RateLimitExceededError}).
 * @param err any thrown value
 * @returns the headers, or undefined for anything that is not an ApiError with headers
 */
export function errorResponseHeadersOf(err: unknown): Readonly<Record<string, string>> | undefined {
  if (!(err instanceof ApiError)) return undefined;
  const headers = (err as { headers?: unknown }).headers;
  if (!headers || typeof headers !== 'object') return undefined;
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * 429 `rate_limit_error` / `rate_limit_exceeded`: the merchant is over its requests-per-second limit
 * for this operation class (shared/http/rate-limit.ts, docs/rate-limits.md). Stripe answers the same
 * situation with 429 and error code `rate_limit` (https://stripe.com/docs/rate-limits). The message
 * names the class and the merchant's own limit (nothing the caller sent) and what to do. It is
 * {@link ApiError.transient}: never stored for Idempotency-Key replay, so a retry with the same key
 * after the wait runs the request. The response carries {@link RateLimitExceededError.headers}
 * (`Retry-After`, `RateLimit`, `RateLimit-Policy`), added by shared/http/api-handler.ts.
 */
export class RateLimitExceededError extends ApiError {
  /**
   * @param operationClass `read` (GET) or `write` (any other method)
   * @param limit the merchant's limit for the class, requests per second
   * @param headers the response headers of the refusal (shared/http/rate-limit.ts `rateLimitHeaders`)
   */
  constructor(
    readonly operationClass: string,
    readonly limit: number,
    readonly headers: Readonly<Record<string, string>>,
  ) {
    super(
      429,
      'rate_limit_error',
      'rate_limit_exceeded',
      `Too many ${operationClass} requests for this account: the limit is ${limit} per second. Nothing was done. ` +
        `Wait the number of seconds in the Retry-After header, then retry${operationClass === 'write' ? ' (with the same Idempotency-Key)' : ''}; ` +
        'spread requests out, or ask for a higher limit if you need one.',
    );
    this.name = 'RateLimitExceededError';
    this.asTransient();
  }
}

/**
 * 503 `api_error/service_unavailable`: storage (DynamoDB) could not be reached before
 * any processor was called, so nothing was changed anywhere. After a processor call
 * the answer is {@link OutcomeUnknownError} instead.
 */
export function storageUnavailable(): ApiError {
  return new ApiError(
    503,
    'api_error',
    'service_unavailable',
    'The service could not reach its storage. Nothing was changed; retry the request shortly.',
  );
}

/**
 * 503 `api_error/service_unavailable` for a resumable operation that had begun when storage failed:
 * unlike {@link storageUnavailable} it never says "nothing was changed". Transient: a retry with the
 * same `Idempotency-Key` runs again (and finishes the work) instead of replaying this answer.
 * @param begun what was already done, in the caller's words (no caller input)
 * @param finish how the rest gets done (a retry, the reconciler)
 */
export function storageUnavailableAfterPartialWork(begun: string, finish: string): ApiError {
  return new ApiError(503, 'api_error', 'service_unavailable', `${begun} Then the service lost its storage. ${finish}`).asTransient();
}

/**
 * A processor was called (or may have been) but its answer could not be recorded
 * (storage failed after the call, or the request ran out of time). The payment or
 * refund keeps its `pending_operation` and the reconciler settles it with the
 * processor. Answered as 503 `api_error/outcome_unknown` with `Retry-After`.
 *
 * Not an {@link ApiError} on purpose: an ApiError is a final answer that the
 * idempotency layer stores and replays for 24 h, while a retry with the same
 * `Idempotency-Key` must get the reconciled result instead.
 */
export class OutcomeUnknownError extends Error {
  readonly statusCode = 503;
  /** Seconds a client should wait before retrying (with the same Idempotency-Key) or retrieving. */
  readonly retryAfterSeconds = 5;

  /**
   * @param resource what was being changed: `payment`, `refund`, `payout` or `dispute` (an answer to it)
   * @param resourceId our id of it (never caller input echoed: ids are ours)
   * @param connector the processor that was called
   * @param retrieve the path a client reads to follow the reconciliation (e.g. `/payments/pay_…`)
   */
  constructor(
    readonly resource: 'payment' | 'refund' | 'dispute' | 'payout',
    readonly resourceId: string,
    readonly connector: string,
    readonly retrieve: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The request reached ${connector}, but its outcome could not be recorded here. ` +
        `The ${resource} ${resourceId} ${resource === 'dispute' ? 'keeps its answer in progress' : 'shows pending_operation'} until it is reconciled with ${connector} (within minutes, without any action). ` +
        `Retry with the same Idempotency-Key, or GET ${retrieve}; do not send it as a new request, which could ${resource === 'payout' ? 'pay out' : 'charge or refund'} twice.`,
      options,
    );
    this.name = 'OutcomeUnknownError';
  }

  /** The response body: `{"error": {"type": "api_error", "code": "outcome_unknown", "message"}}`. */
  toBody(): ApiErrorBody {
    return { error: { type: 'api_error', code: 'outcome_unknown', message: this.message } };
  }
}
