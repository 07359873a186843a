/**
 * The error codes an operation can answer, by status, and the tables the routes merge theirs from. Error
 * statuses come from reading the handler chain (shared/http/api-handler.ts: version check → 413 body size →
 * 401 api key → 415/400 JSON body → 400 validation → the operation) and the operations
 * (shared/operations/*): see {@link JSON_ROUTE} and the other parts each route's `openapi.errors` merges.
 * Documentation data read by the OpenAPI generator (scripts/openapi.ts) and the tests; no handler imports it.
 */

/** HTTP statuses the API answers with its error object (or, on HTML routes, an error page). */
export type ErrorStatus = 400 | 401 | 402 | 404 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503;

/** The error codes an operation can answer, by status (documented in the response's description). */
export type ErrorCodes = Partial<Record<ErrorStatus, readonly string[]>>;

/**
 * Merges error-code tables: statuses in ascending order, codes in first-seen order, no duplicates.
 * @param parts the tables to merge
 * @returns one table
 */
export function mergeErrors(...parts: readonly ErrorCodes[]): ErrorCodes {
  const merged = new Map<ErrorStatus, string[]>();
  for (const part of parts) {
    for (const [status, codes] of Object.entries(part) as [string, readonly string[]][]) {
      const list = merged.get(Number(status) as ErrorStatus) ?? [];
      for (const code of codes) if (!list.includes(code)) list.push(code);
      merged.set(Number(status) as ErrorStatus, list);
    }
  }
  return Object.fromEntries([...merged.entries()].sort(([a], [b]) => a - b)) as ErrorCodes;
}

/**
 * What any route wrapped by `apiHandler` can answer: 400 `api_version_invalid` (a `Switchyard-Version`
 * other than API_VERSION) and `idempotency_key_invalid` (checked on every route), 413 (the body size
 * limit runs on every route), 500.
 */
export const JSON_ROUTE: ErrorCodes = {
  400: ['api_version_invalid', 'idempotency_key_invalid'],
  413: ['body_too_large'],
  500: ['internal_error'],
};

/**
 * An `api-key` route: 401 (one body for missing, malformed, unknown, revoked keys); 429 when the
 * merchant is over its requests-per-second limit for the route's class, `read` for GET and `write`
 * otherwise (shared/http/rate-limit.ts, docs/rate-limits.md; the answer carries `Retry-After`,
 * `RateLimit` and `RateLimit-Policy`); the key lookup reads DynamoDB (503).
 */
export const AUTHENTICATED: ErrorCodes = { 401: ['invalid_api_key'], 429: ['rate_limit_exceeded'], 503: ['service_unavailable'] };

/** A route with a JSON body schema: 415 for another media type, 400 for JSON that does not parse or does not validate. */
export const JSON_BODY: ErrorCodes = {
  400: ['invalid_json', 'parameter_missing', 'parameter_invalid_type', 'parameter_invalid', 'parameter_unknown'],
  415: ['unsupported_media_type'],
};

/** A body that may hold a card (`payment_method_data.card`): the card fields' own codes (as Stripe's). */
export const CARD_BODY: ErrorCodes = { 400: ['invalid_number', 'invalid_expiry_month', 'invalid_expiry_year', 'invalid_cvc'] };

/** A route with a query schema: unknown or invalid parameters. */
export const QUERY: ErrorCodes = { 400: ['parameter_invalid', 'parameter_invalid_type', 'parameter_unknown'] };

/** A list: the query, plus an unknown `starting_after` (400 `resource_missing`). */
export const LIST: ErrorCodes = mergeErrors(QUERY, { 400: ['resource_missing'] });

/** `Idempotency-Key` honoured: a retry while the first runs (409), the same key with another body (422). */
export const IDEMPOTENT: ErrorCodes = { 409: ['idempotency_key_in_use'], 422: ['idempotency_key_reused'] };

/** An id in the path that does not exist for this merchant. */
export const NOT_FOUND: ErrorCodes = { 404: ['resource_missing'] };

/** A DynamoDB transaction cancelled by a concurrent one: nothing written, retry. */
export const CONCURRENT_WRITE: ErrorCodes = { 409: ['concurrent_update'] };

/** An operation not allowed in the payment's status (or a lost race, or a processor call in flight). */
export const PAYMENT_STATE: ErrorCodes = { 409: ['payment_unexpected_state'] };

/**
 * A route that may call a processor to move money: 502 when the connector is not configured or the
 * processor refused (its own code, e.g. `card_declined`, as `code`), 503 `outcome_unknown` when the
 * call was made and its answer could not be recorded (with `Retry-After`).
 */
export const MONEY_CALL: ErrorCodes = { 502: ['connector_unavailable', '<processor code>'], 503: ['outcome_unknown'] };

/**
 * Errors of an authorization's routing (create with `confirm: true`, confirm): 503
 * `connector_unavailable` when every connector that could take the payment has its circuit open
 * (shared/operations/routing/route-candidates.ts `ConnectorUnavailableError`; nothing changed or sent; with `Retry-After`).
 * The 502 of the same code is another case: the payment's connector is not configured on the stage.
 */
export const ROUTING_CIRCUITS: ErrorCodes = { 503: ['connector_unavailable'] };

/** A `force_sync` read: the processor could not be reached (502), nothing changed. */
export const SYNC_CALL: ErrorCodes = { 502: ['connector_unavailable', 'connector_unreachable'] };
