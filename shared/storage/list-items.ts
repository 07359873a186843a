import type { CreatedRange, ListPage, ListQuery } from '../domain/list-query';
import { listSortKey } from './item-keys';
import { shardPartitions } from './list-shards';
import { queryUpTo } from './query-pages';

/** Sorts after every `#<id>` suffix (ids are `[A-Za-z0-9_]`, all below `~`). */
const AFTER_ANY_ID = '#~';

/**
 * Turns a `created` range into inclusive bounds on a `created_at#id` sort key.
 * `gte T` → `≥ "T"`, `gt T` → `≥ "T#~"`, `lte T` → `≤ "T#~"`, `lt T` → `≤ "T"`.
 * @returns the bounds, or `empty: true` when the range can hold nothing
 */
export function sortKeyBounds(created: CreatedRange | undefined): { lower?: string; upper?: string; empty: boolean } {
  const lowers: string[] = [];
  const uppers: string[] = [];
  if (created?.gte) lowers.push(created.gte);
  if (created?.gt) lowers.push(created.gt + AFTER_ANY_ID);
  if (created?.lte) uppers.push(created.lte + AFTER_ANY_ID);
  if (created?.lt) uppers.push(created.lt);
  const lower = lowers.sort().at(-1);
  const upper = uppers.sort().at(0);
  return { lower, upper, empty: lower !== undefined && upper !== undefined && lower > upper };
}

/** Where a list reads: one index and one partition value in it (sharded or not). */
export interface ListLocation {
  indexName: 'GSI1' | 'GSI2' | 'GSI3';
  /** The list's partition value; for a sharded list, shard 0's (shards k ≥ 1 are `<value>#S<k>`: shared/storage/list-shards.ts). */
  partitionValue: string;
  /** How many shards to read (the merchant's `read` count): 0..readShards−1. Default 1 (unsharded lists). */
  readShards?: number;
  /** The item named by `starting_after` (the page holds the items after it) or `ending_before` (those before it). */
  startAfter?: ListCursorItem;
}

/** The item a list page is read from (named by `starting_after` or `ending_before`): its table key and its list sort key parts. */
export interface ListCursorItem {
  key: { PK: string; SK: string };
  /** ISO 8601 UTC: its `created_at`. */
  createdAt: string;
  /** Its id (`pay_…`, `cus_…`, …). */
  id: string;
}

/**
 * The cursor item of a list request (the item `starting_after` or `ending_before` names), already read by the caller.
 * @param key the item's table key (`primaryKey.<resource>(…)`)
 * @param createdAt its `created_at`
 * @param id its id
 */
export function cursorOf(key: { PK: string; SK: string }, createdAt: string, id: string): ListCursorItem {
  return { key, createdAt, id };
}

/** The sort key condition of a list read, shared by every shard. */
interface KeyRange {
  condition: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * Reads the newest `wanted` items of one partition (after the start key, within the range):
 * one Query (at most 1,000 items), more only when DynamoDB's 1 MB page limit cut it short.
 */
async function queryPartition(
  indexName: ListLocation['indexName'],
  partitionValue: string,
  range: KeyRange,
  wanted: number,
  startAfter: Record<string, unknown> | undefined,
  newestFirst = true,
): Promise<Record<string, unknown>[]> {
  const query = {
    IndexName: indexName,
    KeyConditionExpression: range.condition,
    ExpressionAttributeNames: range.names,
    ExpressionAttributeValues: { ...range.values, ':pk': partitionValue },
    ScanIndexForward: !newestFirst,
    ExclusiveStartKey: startAfter && { ...startAfter, [`${indexName}PK`]: partitionValue },
  };
  return (await queryUpTo(query, wanted, 1000)).items;
}

/**
 * Merges per-shard pages, each newest first, into one list newest first by the index's sort
 * key (`created_at#id`, unique per item, so the order is total and the same on every read).
 * @param sortKey the sort key attribute (`GSI1SK`, …)
 * @returns at most `wanted` items
 */
export function mergeNewestFirst(pages: Record<string, unknown>[][], sortKey: string, wanted: number): Record<string, unknown>[] {
  if (pages.length === 1) return (pages[0] ?? []).slice(0, wanted);
  const all = pages.flat();
  all.sort((a, b) => {
    const x = String(a[sortKey]);
    const y = String(b[sortKey]);
    return x < y ? 1 : x > y ? -1 : 0;
  });
  return all.slice(0, wanted);
}

/**
 * Reads one page of a list with DynamoDB Query on an index (never a Scan), newest first.
 * A sharded list makes one Query per shard, all in parallel, each for the newest
 * `offset + limit + 1` items of its shard after the cursor, then merges them by `created_at#id`:
 * the page's items and the one after it (which answers `has_more`) are among those, since no
 * shard can hold more of the newest `offset + limit + 1` than that. Offsets are read and dropped,
 * so each shard's read covers `offset + limit + 1` items.
 * `starting_after` applies in every shard as "sort key below the cursor's" (an ExclusiveStartKey
 * at the cursor's `created_at#id` in that shard's partition), so the page is the same whichever
 * shard holds the cursor.
 * @returns raw items (keys included) and whether more exist after them
 */
export async function queryListPage(
  location: ListLocation,
  query: ListQuery,
): Promise<{ items: Record<string, unknown>[]; hasMore: boolean }> {
  const bounds = sortKeyBounds(query.created);
  if (bounds.empty) return { items: [], hasMore: false };
  const pk = `${location.indexName}PK`;
  const sk = `${location.indexName}SK`;
  let condition = '#pk = :pk';
  const values: Record<string, unknown> = {};
  if (bounds.lower !== undefined && bounds.upper !== undefined) {
    condition += ' AND #sk BETWEEN :lower AND :upper';
    values[':lower'] = bounds.lower;
    values[':upper'] = bounds.upper;
  } else if (bounds.lower !== undefined) {
    condition += ' AND #sk >= :lower';
    values[':lower'] = bounds.lower;
  } else if (bounds.upper !== undefined) {
    condition += ' AND #sk <= :upper';
    values[':upper'] = bounds.upper;
  }
  const names: Record<string, string> = { '#pk': pk };
  if (condition.includes('#sk')) names['#sk'] = sk;

  const offset = query.offset ?? 0;
  const wanted = offset + query.limit + 1;
  let startKey: Record<string, unknown> | undefined = location.startAfter && {
    ...location.startAfter.key,
    [sk]: listSortKey(location.startAfter.createdAt, location.startAfter.id),
  };
  // DynamoDB refuses a start key outside the key condition's range. Newest first, the page
  // after `starting_after` holds the keys below it: none when it sits at or below the lower
  // bound, the whole range when it sits above the upper bound.
  const startSort = startKey?.[sk] as string | undefined;
  if (startSort !== undefined && query.endingBefore === undefined) {
    if (bounds.lower !== undefined && startSort <= bounds.lower) return { items: [], hasMore: false };
    if (bounds.upper !== undefined && startSort > bounds.upper) startKey = undefined;
  }
  const range = { condition, names, values };
  const partitions = shardPartitions(location.partitionValue, location.readShards ?? 1);
  if (query.endingBefore !== undefined) {
    // The page just before the cursor: in every shard the oldest `limit + 1` items newer than the cursor (ascending
    // from it), merged oldest first; the `limit` nearest the cursor are the page (answered newest first), one more
    // says newer ones remain. The bounds mirror the forward case: none newer when the cursor sits at or above the
    // upper bound, the whole range when it sits below the lower one.
    let after = startKey;
    const cursorSort = startSort;
    if (cursorSort !== undefined) {
      // (`lower` and `upper` are inclusive sort-key bounds: the sort keys strictly between lower and the cursor are newer.)
      if (bounds.upper !== undefined && cursorSort >= bounds.upper) return { items: [], hasMore: false };
      if (bounds.lower !== undefined && cursorSort < bounds.lower) after = undefined;
    }
    const want = query.limit + 1;
    const pages = await Promise.all(partitions.map((p) => queryPartition(location.indexName, p, range, want, after, false)));
    const oldestFirst = pages
      .flat()
      .sort((a, b) => (String(a[sk]) < String(b[sk]) ? -1 : String(a[sk]) > String(b[sk]) ? 1 : 0))
      .slice(0, want);
    return { items: oldestFirst.slice(0, query.limit).reverse(), hasMore: oldestFirst.length > query.limit };
  }
  const pages = await Promise.all(partitions.map((p) => queryPartition(location.indexName, p, range, wanted, startKey)));
  const items = mergeNewestFirst(pages, sk, wanted);
  return { items: items.slice(offset, offset + query.limit), hasMore: items.length > offset + query.limit };
}

/**
 * One page of a list as the API answers it ({@link queryListPage}), each item read by `read`.
 * @param read turns a stored item into the API object
 * @returns `data` newest first and `has_more`
 */
export async function listPage<T>(
  location: ListLocation,
  query: ListQuery,
  read: (item: Record<string, unknown>) => T,
): Promise<ListPage<T>> {
  const page = await queryListPage(location, query);
  return { data: page.items.map(read), has_more: page.hasMore };
}

/**
 * Picks an API object's fields out of a stored item, in the given order (keys
 * and bookkeeping attributes are left behind); a missing field becomes null.
 */
export function pickFields<T>(item: Record<string, unknown>, fields: readonly (keyof T)[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) out[f as string] = item[f as string] ?? null;
  return out as T;
}
