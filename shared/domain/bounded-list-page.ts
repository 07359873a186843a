import type { ApiError } from './errors';
import type { ListPage, ListQuery } from './list-query';

/**
 * One page of a small, bounded list held whole in memory (a merchant's connector accounts or routing
 * algorithms, read by one Query of their partition), with the usual list semantics: `created[…]` bounds
 * (ISO 8601 UTC strings compare in time order), `starting_after` (items after that one, newest first),
 * `offset` and `limit`.
 * @param newestFirst every item of the list, newest first (before any filter)
 * @param idOf an item's id, as `starting_after` names it
 * @param createdOf an item's `created_at`, ISO 8601 UTC
 * @param unknownCursor the error for a `starting_after` that names no item of the list
 * @param keep the list's own filters (e.g. `connector_name`); a cursor is still looked up in the whole list
 * @throws the `unknownCursor` error when `starting_after` is not in the list
 */
export function boundedListPage<T>(
  newestFirst: readonly T[],
  query: ListQuery,
  idOf: (item: T) => string,
  createdOf: (item: T) => string,
  unknownCursor: () => ApiError,
  keep: (item: T) => boolean = () => true,
): ListPage<T> {
  const c = query.created;
  let rows = newestFirst.map((item, position) => ({ item, position })).filter(({ item }) => keep(item));
  if (c) {
    rows = rows.filter(({ item }) => {
      const at = createdOf(item);
      return (
        (c.gt === undefined || at > c.gt) &&
        (c.gte === undefined || at >= c.gte) &&
        (c.lt === undefined || at < c.lt) &&
        (c.lte === undefined || at <= c.lte)
      );
    });
  }
  if (query.startingAfter) {
    const cursor = newestFirst.findIndex((item) => idOf(item) === query.startingAfter);
    if (cursor === -1) throw unknownCursor();
    rows = rows.filter(({ position }) => position > cursor);
  }
  if (query.endingBefore) {
    // The `limit` items just before the cursor (newer), newest first; `has_more`: newer ones remain.
    const cursor = newestFirst.findIndex((item) => idOf(item) === query.endingBefore);
    if (cursor === -1) throw unknownCursor();
    const before = rows.filter(({ position }) => position < cursor);
    return { data: before.slice(-query.limit).map(({ item }) => item), has_more: before.length > query.limit };
  }
  const offset = query.offset ?? 0;
  return { data: rows.slice(offset, offset + query.limit).map(({ item }) => item), has_more: rows.length > offset + query.limit };
}
