/**
 * Signals from the repositories that an operation turns into API errors.
 * They carry no HTTP knowledge.
 */

/** A conditional write lost: the item is not in the status/version the caller read. `current` is the item now (if any). */
export class ConditionFailedError<T> extends Error {
  constructor(readonly current: T | undefined) {
    super('The item changed since it was read.');
    this.name = 'ConditionFailedError';
  }
}

/** A write referred to a customer that does not exist for this merchant. */
export class LinkedCustomerMissingError extends Error {
  constructor(readonly customerId: string) {
    super(`Customer ${customerId} does not exist.`);
    this.name = 'LinkedCustomerMissingError';
  }
}

/** A refund's reservation failed: the payment is no longer refundable by that amount (or its status changed). */
export class RefundReservationError<T> extends Error {
  constructor(readonly current: T | undefined) {
    super('The payment cannot take this refund any more.');
    this.name = 'RefundReservationError';
  }
}

/** A create found its item already written (the id was derived from an idempotency key already used). */
export class ItemExistsError extends Error {
  constructor(readonly id: string) {
    super(`${id} already exists.`);
    this.name = 'ItemExistsError';
  }
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNAVAILABLE_SDK_ERRORS = new Set([
  'TimeoutError',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ResourceNotFoundException',
]);

/**
 * @returns true for failures to reach DynamoDB (network errors, timeouts,
 * throttling, 5xx, a missing table): these answer 503, never 500.
 */
export function isStorageUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number }; cause?: unknown; errors?: unknown[] };
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.name && UNAVAILABLE_SDK_ERRORS.has(e.name)) return true;
  if (e.$metadata && (e.$metadata.httpStatusCode === undefined || e.$metadata.httpStatusCode >= 500)) return true;
  if (Array.isArray(e.errors) && e.errors.some(isStorageUnavailable)) return true; // AggregateError from happy-eyeballs connects
  return e.cause !== undefined && e.cause !== err && isStorageUnavailable(e.cause);
}
