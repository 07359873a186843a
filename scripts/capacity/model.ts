/**
 * The load model: measured capacity units per operation (scripts/capacity/access-patterns.ts records
 * them from the real code paths) × operations per second → WCU/s and RCU/s on the hottest partition
 * of each partition key pattern, and the list shard count that keeps merchant lists under a target
 * share. Pure arithmetic, no DynamoDB.
 *
 * Per-partition limits: 1,000 WCU/s and 3,000 RCU/s per partition, "or a combination of both"
 * (AWS "Burst and adaptive capacity",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/burst-adaptive-capacity.html, and
 * "Understanding DynamoDB warm throughput in different scenarios",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput-scenarios.html);
 * a GSI partition that throttles throttles the base-table write feeding it (AWS "Global secondary
 * indexes", section "Provisioned throughput considerations for global secondary indexes",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations).
 */
import {
  HASHED_IDEMPOTENCY_PATTERN,
  isIdempotencyPattern,
  listBase,
  OPEN_INDEX_SHARD_COUNT,
  type PartitionScope,
  patternScope,
} from './key-patterns';

/** Per-partition write limit: 1,000 WCU/s (AWS "Burst and adaptive capacity"). */
export const PARTITION_WCU_LIMIT = 1000;
/** Per-partition read limit: 3,000 RCU/s (AWS "Burst and adaptive capacity"). */
export const PARTITION_RCU_LIMIT = 3000;
/** The capacity goal: no partition above 50 % of its limits, to leave room for bursts (docs/capacity.md). */
export const TARGET_SHARE = 0.5;

/** Where capacity is consumed: the base table or a GSI (by name). */
export type Target = 'table' | string;

/** Capacity units one occurrence of an operation consumes on one partition pattern. */
export interface UnitRecord {
  /** The operation (phase) it belongs to, e.g. `create`, `confirm (card)`. */
  operation: string;
  /** DynamoDB command and action, e.g. `TransactWriteItems/Put`, `Query`. */
  command: string;
  target: Target;
  /** Partition key pattern (scripts/capacity/key-patterns.ts). */
  pattern: string;
  kind: 'write' | 'read';
  /** Units (WCU for writes, RCU for reads) with today's projections (ALL). */
  units: number;
  /** Units if every GSI projected KEYS_ONLY (writes: keys-only item size, none when no key changes; reads: keys-only items). */
  unitsKeysOnly: number;
  /** What the units cover, e.g. `put 1843 B`, `delete+put 1843/1901 B`. */
  detail: string;
}

/** The load the model is evaluated at. Rates are per second across the platform unless noted. */
export interface LoadSpec {
  /** Payments created per second, all merchants together. */
  paymentsPerSecond: number;
  /** Merchants sharing that load evenly (1: one merchant takes it all). */
  merchants: number;
  /** Share of payments confirmed (0..1). */
  confirmRatio: number;
  /** Share of confirmed payments that complete later by a connector webhook (async methods) instead of at once (0..1). */
  webhookRatio: number;
  /** Refunds per payment (0..1). */
  refundRatio: number;
  /** Retrieves (GET /payments/{id}) per payment. */
  retrieveRatio: number;
  /** Share of POSTs carrying an Idempotency-Key (0..1). */
  idempotencyRatio: number;
  /** Payment list pages per second per merchant. */
  listPerSecond: number;
  /** Event list pages per second per merchant. */
  eventListPerSecond: number;
  /** Warm Lambda containers per API key reading it (each reads the key once per cache period). */
  containersPerKey: number;
  /** The API key cache period (seconds; `API_KEY_CACHE_SECONDS`, default 10). */
  apiKeyCacheSeconds: number;
  /**
   * Warm delivery (stream) containers fanning one merchant's events out: each reads the merchant's
   * webhook endpoints once per {@link LoadSpec.endpointCacheSeconds}. Default 100 (a stream of tens of
   * shards at 2,000 payments/s, a few batches in parallel per shard).
   */
  deliveryContainers?: number;
  /** The delivery worker's endpoint cache period (seconds; `WEBHOOK_ENDPOINT_CACHE_MS` ÷ 1,000, default 1; 0: no cache). */
  endpointCacheSeconds?: number;
}

/** A layout the model is evaluated for. */
export interface Layout {
  /** Name printed in the report. */
  name: string;
  /** List shards per merchant (1 = today's single partition). */
  shards: number;
  /** GSI projection. */
  projection: 'ALL' | 'KEYS_ONLY';
  /** Idempotency records: one partition per function (today) or one per record hash (planned). */
  idempotency: 'per-function' | 'per-record';
  /**
   * Partitions of the open-operations index (GSI5, `OPEN#<k>`/`OPENWH#<k>`): the stage's
   * `OPEN_INDEX_SHARDS` (default {@link OPEN_INDEX_SHARD_COUNT}, the code's default).
   */
  openShards?: number;
}

/** Operations the model knows a rate for (the phases access-patterns.ts drives). */
export const OPERATIONS = {
  auth: 'api key read (cache miss)',
  authTouch: 'api key touch',
  create: 'create',
  idempotencyCreate: 'idempotency record (create)',
  idempotencyConfirm: 'idempotency record (confirm)',
  idempotencyRefund: 'idempotency record (refund)',
  confirmCard: 'confirm (card, succeeds)',
  confirmAsync: 'confirm (async, Processing)',
  webhook: 'connector webhook',
  refund: 'refund',
  retrieve: 'retrieve',
  listPayments: 'list payments',
  listEvents: 'list events',
  reconciler: 'reconciler run',
  fanOutEndpoints: 'webhook endpoints read for fan-out (cache miss)',
  rateLimitLeaseWrite: 'rate-limit lease (write class)',
  rateLimitLeaseRead: 'rate-limit lease (read class)',
} as const;

/**
 * Occurrences per second of each operation, across the platform.
 * - create P; confirms P·c split into card (1−w) and async (w), each async one followed by a webhook;
 *   refunds P·r; retrieves P·retrieveRatio; idempotency records on every keyed POST × idempotencyRatio
 *   (creates, confirms and refunds separately: today each function has its partition); lists per merchant × merchants; the reconciler once a minute
 *   (EventBridge Scheduler); each API key is read once per container per cache period and touched at
 *   most once a minute.
 */
export function operationRates(load: LoadSpec): Record<string, number> {
  const P = load.paymentsPerSecond;
  const confirms = P * load.confirmRatio;
  const refunds = P * load.refundRatio;
  return {
    [OPERATIONS.auth]: load.merchants * (load.containersPerKey / Math.max(1, load.apiKeyCacheSeconds)),
    [OPERATIONS.authTouch]: load.merchants / 60,
    [OPERATIONS.create]: P,
    [OPERATIONS.idempotencyCreate]: P * load.idempotencyRatio,
    [OPERATIONS.idempotencyConfirm]: confirms * load.idempotencyRatio,
    [OPERATIONS.idempotencyRefund]: refunds * load.idempotencyRatio,
    [OPERATIONS.confirmCard]: confirms * (1 - load.webhookRatio),
    [OPERATIONS.confirmAsync]: confirms * load.webhookRatio,
    [OPERATIONS.webhook]: confirms * load.webhookRatio,
    [OPERATIONS.refund]: refunds,
    [OPERATIONS.retrieve]: P * load.retrieveRatio,
    [OPERATIONS.listPayments]: load.listPerSecond * load.merchants,
    [OPERATIONS.listEvents]: load.eventListPerSecond * load.merchants,
    [OPERATIONS.reconciler]: 1 / 60,
    [OPERATIONS.fanOutEndpoints]: fanOutEndpointReads(load, P),
    [OPERATIONS.rateLimitLeaseWrite]: load.merchants * hottestCounterLeases(load, writeRequestsPerMerchant(load)),
    [OPERATIONS.rateLimitLeaseRead]: load.merchants * hottestCounterLeases(load, readRequestsPerMerchant(load)),
  };
}

/**
 * Reads of a merchant's webhook endpoints for fan-out per second, platform-wide: with the delivery
 * worker's cache (shared/operations/events/fan-out-endpoint-cache.ts) one per container per cache period
 * per merchant, never more than one per event; without it (period 0) one per event (about 4 events
 * a payment: created, processing, succeeded, and a refund's).
 */
export function fanOutEndpointReads(load: LoadSpec, paymentsPerSecond: number): number {
  const perEvent = paymentsPerSecond * 4;
  const period = load.endpointCacheSeconds ?? 1;
  if (period <= 0) return perEvent;
  return Math.min(perEvent, (load.merchants * (load.deliveryContainers ?? 100)) / period);
}

/** Writes (create, confirm, refund) one merchant sends per second: its `write` rate-limit class. */
export function writeRequestsPerMerchant(load: LoadSpec): number {
  return (load.paymentsPerSecond / load.merchants) * (1 + load.confirmRatio + load.refundRatio);
}

/** Reads (retrieves, list pages) one merchant sends per second: its `read` rate-limit class. */
export function readRequestsPerMerchant(load: LoadSpec): number {
  return (load.paymentsPerSecond / load.merchants) * load.retrieveRatio + load.listPerSecond + load.eventListPerSecond;
}

/** Lease writes a busy container makes per second (shared/http/rate-limit.ts `leaseSize`: a quarter of its last window's requests per lease, plus the window's first lease). */
export const LEASES_PER_CONTAINER_PER_SECOND = 5;

/**
 * Lease writes per second on the busiest rate-limit counter item of one merchant and class
 * (shared/http/rate-limit.ts): the merchant's limit is at least its traffic, so its window is spread
 * over `ceil(requests / 500)` counter shards; each of the merchant's containers (`containersPerKey`)
 * leases about {@link LEASES_PER_CONTAINER_PER_SECOND} times a second, never more often than it has
 * requests. Every window is a new item, so the load never accumulates on one partition beyond a second.
 */
export function hottestCounterLeases(load: LoadSpec, requestsPerSecond: number): number {
  if (requestsPerSecond <= 0) return 0;
  const shards = Math.max(1, Math.ceil(requestsPerSecond / 500));
  return Math.min(requestsPerSecond, load.containersPerKey * LEASES_PER_CONTAINER_PER_SECOND) / shards;
}

/** One row of the report: a partition key pattern on the table or a GSI. */
export interface PartitionRow {
  target: Target;
  /** The pattern (shard suffix folded in for merchant lists: see {@link listBase}). */
  pattern: string;
  scope: PartitionScope;
  /** WCU/s on the hottest partition of the pattern. */
  wcu: number;
  /** RCU/s on the hottest partition of the pattern. */
  rcu: number;
  /** WCU/s of writes that divide over list shards (merchant lists only; the rest of `wcu` does not). */
  shardableWcu: number;
  /** RCU/s that do not shrink with more shards (every list call queries every shard). */
  fixedRcu: number;
  /** WCU/1000 + RCU/3000: the partition's share of its limits (a combination of both counts). */
  share: number;
  /** Operations contributing, largest first: `create 2.0 WCU×2000/s`. */
  contributors: string[];
}

/**
 * How many occurrences per second of an operation reach the hottest partition of a pattern:
 * `item` partitions see one occurrence (a single entity's lifecycle, taken as within one second — an
 * upper bound); `merchant`/`merchant-list`/`api-key` partitions a merchant's share; `global-sharded`
 * writes 1/`openShards` of the platform's, its reads (a reconciler run reads every shard) all of them;
 * `global` all of them. List shards divide writes, never reads (each list call queries every shard).
 */
function hottestShare(
  scope: PartitionScope,
  kind: 'write' | 'read',
  rate: number,
  load: LoadSpec,
  shards: number,
  openShards: number,
): number {
  switch (scope) {
    case 'item':
      return rate > 0 ? 1 : 0;
    case 'merchant':
    case 'api-key':
      return rate / load.merchants;
    case 'merchant-list':
      return kind === 'write' ? rate / load.merchants / shards : rate / load.merchants;
    case 'global-sharded':
      return kind === 'write' ? rate / openShards : rate;
    case 'global':
      return rate;
  }
}

/** The record as the layout sees it: idempotency records moved to their own partition when hashed. */
function relayout(r: UnitRecord, layout: Layout): { pattern: string; scope: PartitionScope } {
  if (layout.idempotency === 'per-record' && isIdempotencyPattern(r.pattern)) return { pattern: HASHED_IDEMPOTENCY_PATTERN, scope: 'item' };
  const scope = patternScope(r.pattern);
  return { pattern: scope === 'merchant-list' ? listBase(r.pattern) : r.pattern, scope };
}

/**
 * Applies the load to the measured records: per (target, pattern), WCU/s and RCU/s on its hottest
 * partition under the layout, sorted by share of the per-partition limits, largest first.
 * @param records per-occurrence units of each operation (an operation's records are summed per pattern)
 */
export function partitionLoad(records: readonly UnitRecord[], load: LoadSpec, layout: Layout): PartitionRow[] {
  const rates = operationRates(load);
  const rows = new Map<string, PartitionRow & { parts: Map<string, number> }>();
  for (const r of records) {
    const rate = rates[r.operation];
    if (rate === undefined) throw new Error(`no rate for operation "${r.operation}"`);
    const { pattern, scope } = relayout(r, layout);
    const units = layout.projection === 'KEYS_ONLY' ? r.unitsKeysOnly : r.units;
    const perSecond = units * hottestShare(scope, r.kind, rate, load, layout.shards, layout.openShards ?? OPEN_INDEX_SHARD_COUNT);
    if (perSecond === 0) continue;
    const key = `${r.target}\u0000${pattern}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        target: r.target,
        pattern,
        scope,
        wcu: 0,
        rcu: 0,
        shardableWcu: 0,
        fixedRcu: 0,
        share: 0,
        contributors: [],
        parts: new Map(),
      };
      rows.set(key, row);
    }
    if (r.kind === 'write') {
      row.wcu += perSecond;
      if (scope === 'merchant-list') row.shardableWcu += perSecond;
    } else {
      row.rcu += perSecond;
      if (scope === 'merchant-list') row.fixedRcu += perSecond;
    }
    const label = `${r.operation} ${r.kind === 'write' ? 'W' : 'R'}`;
    row.parts.set(label, (row.parts.get(label) ?? 0) + perSecond);
  }
  return [...rows.values()]
    .map(({ parts, ...rest }) => {
      const row = {
        ...rest,
        contributors: [...parts.entries()].sort((a, b) => b[1] - a[1]).map(([label, v]) => `${label} ${formatUnits(v)}`),
      };
      if (row.scope === 'item') {
        // An item partition holds one entity: the busiest single operation on it, not the sum over
        // operations (which touch different payments, events, refunds of the same pattern).
        const max = (kind: 'W' | 'R') => Math.max(0, ...[...parts.entries()].filter(([l]) => l.endsWith(` ${kind}`)).map(([, v]) => v));
        return { ...row, wcu: max('W'), rcu: max('R') };
      }
      return row;
    })
    .map((row) => ({
      ...row,
      share: row.wcu / PARTITION_WCU_LIMIT + row.rcu / PARTITION_RCU_LIMIT,
    }))
    .sort((a, b) => b.share - a.share || a.pattern.localeCompare(b.pattern));
}

/** A number of units/s for the report: 0 decimals from 100, 1 from 10, else 2. */
export function formatUnits(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
}

/**
 * The least list shard count N that keeps every merchant-list partition at or under `target` of its
 * limits: with per-shard writes W/N and reads R (reads do not shrink: every list call queries every
 * shard), W/(1000·N) + R/3000 ≤ target ⇔ N ≥ (W/1000) / (target − R/3000).
 * @param rows {@link partitionLoad} evaluated with 1 shard (so `shardableWcu` is the whole list's)
 * @returns the least N ≥ 1, or `Infinity` when the reads alone exceed the target (no N helps)
 */
export function minimumShards(rows: readonly PartitionRow[], target = TARGET_SHARE): number {
  let n = 1;
  for (const row of rows) {
    if (row.scope !== 'merchant-list') continue;
    const fixed = (row.wcu - row.shardableWcu) / PARTITION_WCU_LIMIT + row.rcu / PARTITION_RCU_LIMIT;
    const room = target - fixed;
    const w = row.shardableWcu / PARTITION_WCU_LIMIT;
    if (w === 0) {
      if (room < 0) return Number.POSITIVE_INFINITY;
      continue;
    }
    if (room <= 0) return Number.POSITIVE_INFINITY;
    // A tiny epsilon so that exact fits (e.g. 1.0000000002 from float noise) do not add a shard.
    n = Math.max(n, Math.ceil(w / room - 1e-9));
  }
  return n;
}

/**
 * WCU/s and RCU/s the whole table (base table and every GSI together) consumes at the load: Σ units ×
 * operation rate, all partitions — what on-demand billing counts, unlike {@link partitionLoad}'s hottest partition.
 */
export function totalUnits(records: readonly UnitRecord[], load: LoadSpec, layout: Layout): { wcu: number; rcu: number } {
  const rates = operationRates(load);
  let wcu = 0;
  let rcu = 0;
  for (const r of records) {
    const v = (layout.projection === 'KEYS_ONLY' ? r.unitsKeysOnly : r.units) * (rates[r.operation] ?? 0);
    if (r.kind === 'write') wcu += v;
    else rcu += v;
  }
  return { wcu, rcu };
}

/**
 * The least number of open-operations index shards (`OPEN#<k>` and `OPENWH#<k>`) that keeps each
 * at or under `target`: writes divide over the shards, the reconciler's reads (every shard each
 * run) do not.
 * @param rows {@link partitionLoad} rows computed with `openShards` shards
 * @param openShards the shard count the rows were computed at (default {@link OPEN_INDEX_SHARD_COUNT})
 * @returns the least shard count ≥ 1, or `Infinity` when reads alone exceed the target
 */
export function minimumOpenShards(rows: readonly PartitionRow[], target = TARGET_SHARE, openShards = OPEN_INDEX_SHARD_COUNT): number {
  let n = 1;
  for (const row of rows) {
    if (row.scope !== 'global-sharded') continue;
    const room = target - row.rcu / PARTITION_RCU_LIMIT;
    if (room <= 0) return Number.POSITIVE_INFINITY;
    n = Math.max(n, Math.ceil((row.wcu * openShards) / PARTITION_WCU_LIMIT / room - 1e-9));
  }
  return n;
}
