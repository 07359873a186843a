/**
 * The merchant's daily payout limit per currency as sharded counters, so one busy merchant's sends do not all write
 * one item (one partition), while the day's total still never exceeds the limit.
 *
 * The scheme (docs/api.md "Payouts", limits):
 * - The day's limit `max` is split into {@link PAYOUT_LIMIT_SHARDS} fixed allowances ({@link shardAllowances}: `max / 8`,
 *   the remainder to the first shards), one counter item per shard, each its own partition
 *   (`…#PAYOUT_DAY#<day>#<currency>#<shard>`). A shard's total only grows by a conditional `ADD` that keeps it within
 *   its allowance, so the sum of the shards — the day's total — never exceeds the sum of the allowances, `max`,
 *   whatever runs at the same time. The shards and the payout's claim are one transaction.
 * - A send reserves in its home shard (a hash of the payout id: sends spread evenly over the shards) with no read:
 *   one counter write, as with a single counter.
 * - Rebalancing when a shard runs out: when the home shard has no room for the amount (or the amount is larger than
 *   one allowance), the send reads the 8 shards (one consistent BatchGetItem) and spreads its amount over the shards
 *   that have room, home shard first ({@link planSpread}), each part a conditional `ADD` within that shard's
 *   allowance, in the same one transaction. The payout records its parts (`limit_parts`), and a payout that fails
 *   gives each part back to its shard. When the shards together have no room the send is refused
 *   (`payout_limit_exceeded`). A spread that loses a race (a shard filled meanwhile) is read and planned again, up to
 *   {@link MAX_SPREAD_ATTEMPTS} times, then refused: under contention a send can be refused although room remained,
 *   never accepted past the limit.
 * - Rate: each counter item is written at most about 1,000 times a second (DynamoDB's per-partition write limit), so
 *   one merchant's sends in one currency are bounded by 8 × 1,000 = 8,000 reservations a second by the counters — far
 *   above the per-merchant request rate limit, which binds first.
 */
import { createHash } from 'node:crypto';
import { BatchGetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { primaryKey } from './item-keys';
import { tableName } from './table-definition';

/** How many counter shards a merchant's daily payout limit per currency has. */
export const PAYOUT_LIMIT_SHARDS = 8;

/** How many times a spread reservation that lost a race is read and planned again before the send is refused. */
export const MAX_SPREAD_ATTEMPTS = 3;

/** A reservation: minor units per shard index. */
export type LimitParts = Readonly<Record<number, number>>;

/**
 * The fixed allowance of each shard, in minor units: `floor(max / 8)`, plus one for the first `max % 8` shards; they
 * sum to `max`.
 */
export function shardAllowances(max: number): number[] {
  const base = Math.floor(max / PAYOUT_LIMIT_SHARDS);
  const extra = max - base * PAYOUT_LIMIT_SHARDS;
  return Array.from({ length: PAYOUT_LIMIT_SHARDS }, (_, i) => base + (i < extra ? 1 : 0));
}

/** A payout's home shard: a hash of its id, so a merchant's sends spread evenly. */
export function homeShard(payoutId: string): number {
  return createHash('sha256').update(payoutId).digest().readUInt32BE(0) % PAYOUT_LIMIT_SHARDS;
}

/**
 * Spreads `amount` over the shards with room (allowance − total), home shard first then in index order.
 * @param totals each shard's total now (minor units; a missing shard is 0)
 * @returns the parts, or null when the shards together have less room than `amount`
 */
export function planSpread(amount: number, allowances: readonly number[], totals: readonly number[], home: number): LimitParts | null {
  const parts: Record<number, number> = {};
  let left = amount;
  for (let k = 0; k < PAYOUT_LIMIT_SHARDS && left > 0; k += 1) {
    const shard = (home + k) % PAYOUT_LIMIT_SHARDS;
    const room = Math.max(0, (allowances[shard] ?? 0) - (totals[shard] ?? 0));
    const part = Math.min(room, left);
    if (part > 0) {
      parts[shard] = part;
      left -= part;
    }
  }
  return left === 0 ? parts : null;
}

/** Each shard's total of one merchant, day and currency (minor units), by one consistent BatchGetItem. */
export async function readShardTotals(merchantId: string, day: string, currency: string): Promise<number[]> {
  const keys = Array.from({ length: PAYOUT_LIMIT_SHARDS }, (_, i) => primaryKey.payoutDailyTotal(merchantId, day, currency, i));
  const out = await documentClient().send(
    new BatchGetCommand({
      RequestItems: {
        [tableName()]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'PK, #t', ExpressionAttributeNames: { '#t': 'total' } },
      },
    }),
  );
  const totals = new Array<number>(PAYOUT_LIMIT_SHARDS).fill(0);
  for (const item of out.Responses?.[tableName()] ?? []) {
    const shard = Number(String(item.PK).split('#').at(-1));
    if (Number.isInteger(shard) && shard >= 0 && shard < PAYOUT_LIMIT_SHARDS) totals[shard] = Number(item.total ?? 0);
  }
  // 8 small items are far under BatchGetItem's 16 MB / 100 items: an unprocessed key only under throttling, read as full.
  for (const key of out.UnprocessedKeys?.[tableName()]?.Keys ?? []) {
    const shard = Number(String(key.PK).split('#').at(-1));
    if (Number.isInteger(shard)) totals[shard] = Number.MAX_SAFE_INTEGER;
  }
  return totals;
}

/** The transaction items that add a reservation's parts, each within its shard's allowance. */
export function reservationWrites(merchantId: string, day: string, currency: string, parts: LimitParts, allowances: readonly number[]) {
  // Kept two days past its day (TTL), then DynamoDB deletes it.
  const expires = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + 3 * 86_400;
  return Object.entries(parts).map(([shard, part]) => ({
    Update: {
      TableName: tableName(),
      Key: primaryKey.payoutDailyTotal(merchantId, day, currency, Number(shard)),
      UpdateExpression: 'ADD #total :amount SET entity = :entity, merchant_id = :merchant, expires_at = :expires',
      ConditionExpression: 'attribute_not_exists(#total) OR #total <= :room',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: {
        ':amount': part,
        ':room': (allowances[Number(shard)] ?? 0) - part,
        ':entity': 'payout_daily_total',
        ':merchant': merchantId,
        ':expires': expires,
      },
    },
  }));
}

/**
 * The transaction items that give a failed payout's reservation back: each part to its shard, or — a payout reserved
 * before the counter was sharded (no parts recorded) — its amount to the one old counter.
 */
export function releaseWrites(merchantId: string, day: string, currency: string, parts: LimitParts | null, amount: number) {
  const entries: [number | undefined, number][] = parts ? Object.entries(parts).map(([s, p]) => [Number(s), p]) : [[undefined, amount]];
  return entries.map(([shard, part]) => ({
    Update: {
      TableName: tableName(),
      Key: primaryKey.payoutDailyTotal(merchantId, day, currency, shard),
      UpdateExpression: 'ADD #total :minus',
      ExpressionAttributeNames: { '#total': 'total' },
      ExpressionAttributeValues: { ':minus': -part },
    },
  }));
}
