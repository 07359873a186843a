/**
 * The errors a `Switchyard` call (./client.ts) throws: {@link SwitchyardError} and one subclass per `type`
 * of the API's error body (docs/api.md, Errors), plus {@link SwitchyardConnectionError} for a call
 * that got no HTTP answer.
 */
import { errorEnvelope } from './internal/error-envelope.js';
import { optional } from './internal/optional.js';
import { parseRetryAfter } from './retry-policy.js';

/**
 * The `error.type` of the API's error body (`shared/domain/errors.ts`), plus `connection_error`
 * for a request that got no HTTP answer (network failure or timeout), which the SDK raises itself.
 */
export type SwitchyardErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'idempotency_error'
  | 'connector_error'
  | 'rate_limit_error'
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
 * Every failure a `Switchyard` method throws. `type` is the discriminant: each value has its
 * own subclass ({@link InvalidRequestError}, {@link AuthenticationError}, {@link IdempotencyError},
 * {@link ConnectorError}, {@link RateLimitError}, {@link ApiError}, {@link SwitchyardConnectionError}), so both
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
      case 'rate_limit_error':
        return new RateLimitError(fields);
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
 * 429 `rate_limit_exceeded`: over the merchant's requests-per-second limit for reads or writes
 * (docs/rate-limits.md). Retried after `Retry-After` (its {@link SwitchyardError.retryAfterMs});
 * thrown when every retry was refused. Nothing was done: call again later (a POST with the same
 * {@link SwitchyardError.idempotencyKey}).
 */
export class RateLimitError extends SwitchyardError {
  declare readonly type: 'rate_limit_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('rate_limit_error', fields);
    this.name = 'RateLimitError';
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
 * `code` is `timeout` or `network_error`; `status` is undefined. The message says which case it is:
 * every attempt refused (the request was never received: nothing was done, retry), or the request
 * may have reached the API: a keyed POST is retried with the same
 * {@link SwitchyardError.idempotencyKey} (its stored answer is replayed), a GET is read again, and
 * anything else is checked by reading the resource before it is sent again.
 */
export class SwitchyardConnectionError extends SwitchyardError {
  declare readonly type: 'connection_error';
  /** @param fields see {@link SwitchyardErrorFields} */
  constructor(fields: SwitchyardErrorFields) {
    super('connection_error', fields);
    this.name = 'SwitchyardConnectionError';
  }
}

/** Any error a `Switchyard` call throws, as a union discriminated by `type`. */
export type AnySwitchyardError =
  | InvalidRequestError
  | AuthenticationError
  | IdempotencyError
  | ConnectorError
  | RateLimitError
  | ApiError
  | SwitchyardConnectionError;

/** Narrows an unknown caught value to {@link AnySwitchyardError}. */
export function isSwitchyardError(err: unknown): err is AnySwitchyardError {
  return err instanceof SwitchyardError;
}
