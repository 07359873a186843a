/**
 * Counters of a merchant's bounded collections (its connector accounts, its routing algorithms): one item per
 * merchant per kind, holding how many items the collection has (`item_count`), changed in the same
 * TransactWriteItems as the create (incremented, only while below the cap) or the delete (decremented) of an
 * item. So a cap holds under any concurrency: two creates racing for the last place both try to increment the
 * counter in their transaction, and DynamoDB lets only one commit (the other's condition fails, or the two
 * transactions conflict and it is cancelled), where a count read before the write would let both through.
 *
 * A merchant that had items before its counter existed gets it on first use: the caller's consistent Query of the
 * collection (which found no counter) gives the count, written with `attribute_not_exists` (never over a counter
 * that exists). That count is exact: every create and delete needs the counter to exist in its own transaction
 * (`attribute_exists`), and a counter is never removed, so if no counter existed when the Query ran and the
 * initialising put finds none either, no create or delete committed in between; if one did, the put fails and
 * the counter already there is the right one. No Scan: each collection is one partition, Queried whole.
 *
 * A transaction that changes a counter is sent with `conditionalTransaction(…, { retryConflicts: true })`
 * (shared/storage/conditional-write.ts): cancelled only by a conflict with another create for the same counter, it
 * is tried again.
 */
import { conditionalPut } from './conditional-write';
import { tableName } from './table-definition';

/** The attribute holding a counter's value (`count` is a DynamoDB reserved word). */
const COUNT = 'item_count';

/** A counter's primary key. */
export interface CounterKey {
  PK: string;
  SK: string;
}

/** A create refused because the merchant's collection is at its cap. */
export class LimitReachedError extends Error {
  constructor(readonly cap: number) {
    super(`The collection holds ${cap} items already.`);
    this.name = 'LimitReachedError';
  }
}

/**
 * The transaction item that counts one more item, only while fewer than `cap` are counted.
 * @param cap the most items the collection may hold
 * @returns an `Update` for TransactWriteItems; its condition fails when the counter is missing or at `cap`
 */
export function countOneMore(key: CounterKey, cap: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #n = #n + :one',
      ConditionExpression: 'attribute_exists(PK) AND #n < :cap',
      ExpressionAttributeNames: { '#n': COUNT },
      ExpressionAttributeValues: { ':one': 1, ':cap': cap },
    },
  };
}

/**
 * The transaction item that counts one item less.
 * @returns an `Update` for TransactWriteItems; its condition fails when the counter is missing
 */
export function countOneLess(key: CounterKey) {
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET #n = #n - :one',
      ConditionExpression: 'attribute_exists(PK) AND #n > :zero',
      ExpressionAttributeNames: { '#n': COUNT },
      ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
    },
  };
}

/** Whether an item of a collection's partition is its counter. */
export const isCounterItem = (item: Record<string, unknown>): boolean => item.entity === 'limit_counter';

/** A counter item's value. */
export const counterValue = (item: Record<string, unknown>): number => Number(item[COUNT] ?? 0);

/**
 * Writes a counter that a consistent read of its collection found missing, with the count that read saw (see the
 * module comment for why that count is exact). Does nothing when the counter exists by now.
 * @param count how many items the read found
 * @throws storage errors other than the condition
 */
export async function initialiseCounter(key: CounterKey, count: number): Promise<void> {
  await conditionalPut({
    TableName: tableName(),
    Item: { ...key, entity: 'limit_counter', [COUNT]: count },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
}
