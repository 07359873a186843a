import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CreatedRange, ListQuery } from '../domain/list-query';
import { documentClient } from './client';
import { listSortKey } from './item-keys';
import { tableName } from './table-definition';

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

/** Where a list reads: one index and one partition value in it. */
export interface ListLocation {
  indexName: 'GSI1' | 'GSI2' | 'GSI3';
  partitionValue: string;
  /** For `starting_after`: the item to start after (its table key and list sort key parts). */
  startAfter?: { key: { PK: string; SK: string }; createdAt: string; id: string };
}

/**
 * Reads one page of a list with DynamoDB Query on an index (never a Scan),
 * newest first. Offsets are read and dropped, so the read covers
 * `offset + limit + 1` items (the extra one answers `has_more`).
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
  const values: Record<string, unknown> = { ':pk': location.partitionValue };
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
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined = location.startAfter && {
    ...location.startAfter.key,
    [pk]: location.partitionValue,
    [sk]: listSortKey(location.startAfter.createdAt, location.startAfter.id),
  };
  // DynamoDB refuses a start key outside the key condition's range. Newest first, the page
  // after `starting_after` holds the keys below it: none when it sits at or below the lower
  // bound, the whole range when it sits above the upper bound.
  const startSort = startKey?.[sk] as string | undefined;
  if (startSort !== undefined) {
    if (bounds.lower !== undefined && startSort <= bounds.lower) return { items: [], hasMore: false };
    if (bounds.upper !== undefined && startSort > bounds.upper) startKey = undefined;
  }
  do {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: location.indexName,
        KeyConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ScanIndexForward: false,
        Limit: Math.min(wanted - items.length, 1000),
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(out.Items ?? []));
    startKey = out.LastEvaluatedKey;
  } while (startKey && items.length < wanted);
  return { items: items.slice(offset, offset + query.limit), hasMore: items.length > offset + query.limit };
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
