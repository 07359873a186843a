/**
 * The per-merchant rate limit counters (docs/rate-limits.md): one small item per (merchant,
 * operation class, 1-second window, shard), to which containers add the tokens they lease. This file
 * is the only code that knows their keys; shared/http/rate-limit.ts decides how many tokens to lease
 * and from which shard.
 *
 * Item: `PK = RATELIMIT#<merchant>#<class>#<window epoch second>#<shard>`, `SK = RATELIMIT`,
 * `used` (tokens leased so far, a Number), `expires_at` (the table's TTL attribute,
 * shared/storage/table-definition.ts, so DynamoDB deletes the item after it: a window is useless
 * once it has passed). No index key is set, so a lease writes the base table only: 1 write unit.
 *
 * A lease is one conditional UpdateItem (`ADD used :n` if `used + n <= cap`), which DynamoDB applies
 * atomically per item, so however many containers lease at once a shard never hands out more than its
 * cap. One partition takes at most 1,000 write units per second (Amazon DynamoDB Developer Guide,
 * "Understanding DynamoDB warm throughput in different scenarios",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html),
 * which is why a window's limit is spread over shards (shared/http/rate-limit.ts `shardCount`).
 * On a failed condition DynamoDB returns the item as it was
 * (`ReturnValuesOnConditionCheckFailure: ALL_OLD`, Amazon DynamoDB API Reference, UpdateItem,
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html), so the caller
 * learns what is left of the shard without a second read.
 */
import { conditionalUpdate } from './conditional-write';
import { tableName } from './table-definition';

/** The highest limit a merchant can be given, requests per second per class (200 counter shards of 500). */
export const RATE_LIMIT_MAX = 100_000;

/**
 * A merchant's own limits, requests per second per operation class (`read`, `write`), as its API-key
 * items carry them (`rate_limit_read`, `rate_limit_write`, shared/storage/api-keys-repository.ts);
 * an absent class uses the stage default (shared/http/rate-limit.ts `defaultRateLimit`).
 */
export type MerchantRateLimits = { read?: number; write?: number };

/** Whether a value is a usable limit: an integer from 1 to {@link RATE_LIMIT_MAX}. */
export function isValidRateLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= RATE_LIMIT_MAX;
}

/** Sort key of every counter item. */
const COUNTER_SK = 'RATELIMIT';

/** How long after its window a counter item may be deleted by TTL, in seconds (any value past the window works). */
export const RATE_LIMIT_COUNTER_TTL_SECONDS = 120;

/** Which counter a lease draws from. */
export interface CounterRef {
  merchantId: string;
  /** The operation class, e.g. `read` or `write`. */
  operationClass: string;
  /** The window: Unix epoch second at its start. */
  window: number;
  /** The shard, 0-based. */
  shard: number;
}

/** The outcome of {@link leaseTokens}. */
export type LeaseResult =
  /** `granted` tokens were added to the shard; `used` is its count after the lease. */
  | { granted: number; used: number }
  /** The shard could not give `n`: it had `used` tokens out already (its cap minus `used` is what is left). */
  | { granted: 0; used: number; refused: true };

/** The primary key of a counter item. */
function counterKey(ref: CounterRef): { PK: string; SK: string } {
  return { PK: `RATELIMIT#${ref.merchantId}#${ref.operationClass}#${ref.window}#${ref.shard}`, SK: COUNTER_SK };
}

/**
 * Whether a DynamoDB item key (its `PK`) is a rate limit counter's: for tests and tools that tell
 * lease writes apart from a request's own calls (test/http/round-trips-and-faults.test.ts).
 */
export function isRateLimitCounterKey(pk: unknown): boolean {
  return typeof pk === 'string' && pk.startsWith('RATELIMIT#');
}

/**
 * Leases `n` tokens from one counter shard: one conditional UpdateItem (`ADD used :n`, condition
 * `attribute_not_exists(used) OR used <= :cap - n`), which creates the item on first use.
 * @param ref the counter (merchant, class, window, shard)
 * @param n tokens wanted, an integer ≥ 1 and ≤ `cap`
 * @param cap the shard's share of the limit for this window (integer ≥ 1)
 * @param options `abortSignal`: gives up the call (the caller fails open)
 * @returns `{granted: n, used}` or, when the shard cannot give `n`, `{granted: 0, used, refused: true}`
 *   with `used` as DynamoDB returned it (ALL_OLD; 0 when no item came back)
 * @throws the SDK's error for anything but a failed condition (network, throttling, timeout)
 */
export async function leaseTokens(
  ref: CounterRef,
  n: number,
  cap: number,
  options: { abortSignal?: AbortSignal } = {},
): Promise<LeaseResult> {
  const out = await conditionalUpdate(
    {
      TableName: tableName(),
      Key: counterKey(ref),
      UpdateExpression: 'ADD used :n SET expires_at = if_not_exists(expires_at, :expires)',
      ConditionExpression: 'attribute_not_exists(used) OR used <= :room',
      ExpressionAttributeValues: { ':n': n, ':room': cap - n, ':expires': ref.window + RATE_LIMIT_COUNTER_TTL_SECONDS },
      ReturnValues: 'UPDATED_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    options,
  );
  if (out.written) return { granted: n, used: Number(out.attributes?.used ?? n) };
  return { granted: 0, used: Number(out.current?.used ?? cap), refused: true };
}
