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
