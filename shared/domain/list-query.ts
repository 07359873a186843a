/**
 * The storage-neutral description of a list request (`GET /payments`,
 * `GET /customers`, `GET /payments/{id}/refunds`) once validated.
 */

/** Inclusive/exclusive bounds on `created_at`, each an ISO 8601 UTC instant. */
export interface CreatedRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

/** Default and maximum page sizes (interface section 8). */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;
/** Largest `offset` accepted: offsets are read and skipped, so they are bounded. */
export const LIST_OFFSET_MAX = 10_000;

/** A validated list request. `offset` and `startingAfter` never both appear. */
export interface ListQuery {
  limit: number;
  offset?: number;
  startingAfter?: string;
  /**
   * Stripe's `ending_before` (https://docs.stripe.com/api/pagination): the page just before this item (newer items), still newest first;
   * `has_more` then says whether newer ones remain. Never with `startingAfter` or `offset`.
   */
  endingBefore?: string;
  created?: CreatedRange;
}

/** The id a list's cursor names (`starting_after` or `ending_before`), if any. */
export const listCursor = (query: ListQuery): string | undefined => query.startingAfter ?? query.endingBefore;

/** The name of the parameter the cursor came in (for the error of a cursor naming nothing). */
export const cursorName = (query: ListQuery): 'starting_after' | 'ending_before' =>
  query.endingBefore !== undefined ? 'ending_before' : 'starting_after';

/** One page of a list, newest first. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}
