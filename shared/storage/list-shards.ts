/**
 * Sharded merchant list indexes (docs/sharding.md). A merchant's list partitions that take a
 * write on every payment (GSI1 payments, GSI2 payments by status, GSI1 events, GSI2 events by
 * type, GSI1 customers) are spread over N partitions, "shards": an item's entry goes to shard
 * `k = stableHash(item id) mod N_write`, with N_write as it was when the item was created (kept
 * on the item as `list_shards`), so its entry never moves. Shard 0 is the unsuffixed partition
 * (`MERCHANT#m#PAYMENTS`), shard k ≥ 1 is `…#S<k>`: data written before sharding is shard 0.
 * Lists Query shards 0..N_read−1 in parallel and merge them (shared/storage/list-items.ts).
 */

/**
 * A merchant's list shard counts, as its API-key items carry them (`list_shards_read`,
 * `list_shards_write`): integers in 1..{@link LIST_SHARDS_MAX}, `read ≥ write`. Both only grow;
 * `read` is raised first, `write` only after every container's key cache has seen the new `read`
 * (docs/sharding.md "Raising N"), so every item written lies in a shard every reader queries.
 */
export interface ListShards {
  /** How many shards a list queries (0..read−1). */
  read: number;
  /** How many shards a new item is spread over (its shard is `stableHash(id) mod write`). */
  write: number;
}

/** A merchant that was never sharded: one shard, the unsuffixed partition. */
export const SINGLE_LIST_SHARD: ListShards = Object.freeze({ read: 1, write: 1 });

/**
 * Most shards a merchant may have: a list page makes one Query per shard (in parallel), so N
 * bounds a page's fan-out. 32 shards carry 32 × 1,000 WCU/s (docs/sharding.md "Costs").
 */
export const LIST_SHARDS_MAX = 32;

/**
 * 32-bit FNV-1a of a string's UTF-16 code units: stable across processes, Node versions and
 * deployments (never `Math.random` or a seeded hash), so an id always maps to the same shard.
 * @returns an unsigned integer in 0..2^32−1
 */
export function stableHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i += 1) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A stored shard count, normalised: missing, non-numeric or below 1 → 1; above
 * {@link LIST_SHARDS_MAX} → the maximum; fractions are truncated.
 */
export function shardCount(value: unknown): number {
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n) || n < 1) return 1;
  return Math.min(n, LIST_SHARDS_MAX);
}

/**
 * The shard an item's list entries go to.
 * @param id the item's id (payment, customer or event id)
 * @param writeShards the merchant's `write` count when the item was created
 * @returns 0..writeShards−1
 */
export function shardOf(id: string, writeShards: number): number {
  const n = shardCount(writeShards);
  return n === 1 ? 0 : stableHash(id) % n;
}

/** The partition value of shard `k` of a list partition: the partition itself for 0, `<partition>#S<k>` above. */
export function shardPartition(partition: string, k: number): string {
  return k === 0 ? partition : `${partition}#S${k}`;
}

/** Every shard partition a list reads: shards 0..readShards−1 of `partition`. */
export function shardPartitions(partition: string, readShards: number): string[] {
  return Array.from({ length: shardCount(readShards) }, (_, k) => shardPartition(partition, k));
}

/**
 * Shard counts as a request (or a test) gives them, made safe: each normalised by
 * {@link shardCount}, and `read` never below `write` (an item is never written to a shard no
 * list of the same process reads).
 */
export function listShards(shards: Partial<ListShards> | undefined): ListShards {
  const write = shardCount(shards?.write);
  return { read: Math.max(shardCount(shards?.read), write), write };
}
