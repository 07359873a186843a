/**
 * Success-rate routing's outcome counters in the capacity model (docs/capacity.md "Routing outcomes"): the writes
 * of outcome recording and the reads of the per-container window cache on a merchant's counter partitions
 * (shared/storage/routing-outcomes-repository.ts), at a load of one merchant. `npm run capacity` measures the
 * counter item and the units of one outcome write and one refresh Query through the real code
 * ({@link measureOutcomeCalls}) and prints {@link outcomeSection}; the arithmetic ({@link outcomeCapacity}) is pure.
 *
 * Writes: one `UpdateItem … ADD` per counted outcome (an approval or an issuer decline of a try success rate chose;
 * a soft decline retried on another account counts one more, for the account that declined), on the partition
 * `MERCHANT#<m>#ROUTING_OUTCOMES#<k>`, `k = stableHash(payment_id) mod ROUTING_OUTCOME_SHARDS`: the hottest
 * partition takes `outcomes/s ÷ shards` writes (hash spread: even in expectation).
 * Reads: each container routing the merchant's payments refreshes its windows at most every
 * `ROUTING_OUTCOME_CACHE_MS` (5 s): one Query per shard of the buckets that may have changed (the last read's
 * bucket and after: at most 3 one-minute buckets), eventually consistent; a cold container reads the 30-minute
 * lookback once.
 */
import { SUCCESS_RATE_DEFAULTS } from '../../shared/domain/routing-algorithm';
import { bucketStart, OUTCOME_BUCKET_MS } from '../../shared/operations/routing/outcome-window';
import { tableOutcomeStore } from '../../shared/operations/routing/routing-outcomes';
import { segmentKey } from '../../shared/operations/routing/success-rate-segment';
import { ROUTING_OUTCOME_SHARDS } from '../../shared/storage/item-keys';
import { routingOutcomeCounters } from '../../shared/storage/routing-outcomes-repository';
import type { Recorder } from './access-patterns';
import { readUnits } from './item-size';
import { PARTITION_RCU_LIMIT, PARTITION_WCU_LIMIT, TARGET_SHARE } from './model';

/** What the outcome model assumes, for one merchant. */
export interface OutcomeLoad {
  /** The merchant's payments per second, every one routed by success rate. */
  paymentsPerSecond: number;
  /** Share of payments whose first try ends in a soft decline retried on another account (one extra outcome each). */
  retriedShare: number;
  /** Write partitions per merchant (`ROUTING_OUTCOME_SHARDS`). */
  shards: number;
  /** The merchant's connector accounts that get traffic. */
  accounts: number;
  /** Segments (payment method × card network × currency…) with outcomes in a minute. */
  segments: number;
  /** Warm containers routing the merchant's payments (each with its own cache). */
  containers: number;
  /** Seconds a container reuses its windows (`ROUTING_OUTCOME_CACHE_MS` / 1000). */
  cacheSeconds: number;
  /** One-minute buckets a warm refresh reads per shard (the last read's bucket and after). */
  bucketsPerRefresh: number;
  /** Bytes of one counter item as stored (measured: {@link measureOutcomeCalls}). */
  counterBytes: number;
  /** WCU of one outcome write (measured: an UpdateItem of a counter item under 1 KB is 1). */
  writeUnitsPerOutcome: number;
}

/**
 * The defaults `npm run capacity` uses: 2,000 payments/s of one merchant (the load), 5 % of them retried
 * once, 3 accounts × 20 segments with traffic, 100 warm containers (2,000/s at ~50 ms a confirm with headroom),
 * the 5 s cache, 3 buckets a refresh; the item size and write units are replaced by the measured ones.
 */
export const DEFAULT_OUTCOME_LOAD: OutcomeLoad = {
  paymentsPerSecond: 2000,
  retriedShare: 0.05,
  shards: ROUTING_OUTCOME_SHARDS,
  accounts: 3,
  segments: 20,
  containers: 100,
  cacheSeconds: 5,
  bucketsPerRefresh: 3,
  counterBytes: 396,
  writeUnitsPerOutcome: 1,
};

/** The load on the hottest counter partition, and the verdicts. */
export interface OutcomeCapacity {
  /** Outcome writes per payment (1 + the retried share). */
  writesPerPayment: number;
  /** Outcome writes per second on the hottest partition. */
  writesPerPartition: number;
  /** WCU/s on the hottest partition. */
  wcuPerPartition: number;
  /** Share of the partition's 1,000 WCU/s. */
  wcuShare: number;
  /** Counter items one refresh Query of one shard returns. */
  itemsPerQuery: number;
  /** RCU of one refresh Query (eventually consistent). */
  rcuPerQuery: number;
  /** Refresh Queries per second on each partition (containers ÷ cache period). */
  queriesPerPartition: number;
  /** RCU/s on the hottest partition. */
  rcuPerPartition: number;
  /** Share of the partition's 3,000 RCU/s. */
  rcuShare: number;
  /** Every counter partition at or under 50 % of both limits. */
  met: boolean;
  /** The fewest shards that keep writes at or under 50 % at this load. */
  leastShards: number;
}

/**
 * The counter partitions' load (see the module comment). Every shard holds every (account, segment) of a minute
 * once the merchant's volume reaches the shard count, so a refresh Query returns `accounts × segments × buckets`
 * items whatever the shard count: more shards spread the writes, not the reads.
 */
export function outcomeCapacity(load: OutcomeLoad): OutcomeCapacity {
  const writesPerPayment = 1 + load.retriedShare;
  const writesPerPartition = (load.paymentsPerSecond * writesPerPayment) / load.shards;
  const wcuPerPartition = writesPerPartition * load.writeUnitsPerOutcome;
  const itemsPerQuery = load.accounts * load.segments * load.bucketsPerRefresh;
  const rcuPerQuery = readUnits(itemsPerQuery * load.counterBytes, 'eventual');
  const queriesPerPartition = load.containers / load.cacheSeconds;
  const rcuPerPartition = queriesPerPartition * rcuPerQuery;
  const wcuShare = wcuPerPartition / PARTITION_WCU_LIMIT;
  const rcuShare = rcuPerPartition / PARTITION_RCU_LIMIT;
  const leastShards = Math.ceil(
    (load.paymentsPerSecond * writesPerPayment * load.writeUnitsPerOutcome) / (PARTITION_WCU_LIMIT * TARGET_SHARE),
  );
  return {
    writesPerPayment,
    writesPerPartition,
    wcuPerPartition,
    wcuShare,
    itemsPerQuery,
    rcuPerQuery,
    queriesPerPartition,
    rcuPerPartition,
    rcuShare,
    met: wcuShare <= TARGET_SHARE && rcuShare <= TARGET_SHARE,
    leastShards,
  };
}

/** The counter partitions' key pattern (scripts/capacity/key-patterns.ts `keyPattern` of `routingOutcomeKeys.partition`). */
export const OUTCOME_PARTITION_PATTERN = 'MERCHANT#<m>#ROUTING_OUTCOMES#<k>';

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;
const verdict = (share: number) => (share <= TARGET_SHARE ? 'met' : 'not met');

/** The report section of `npm run capacity` (markdown). */
export function outcomeSection(load: OutcomeLoad): string {
  const c = outcomeCapacity(load);
  return [
    '### Routing outcomes (success-rate routing, one merchant)',
    '',
    `Pattern \`${OUTCOME_PARTITION_PATTERN}\`, ${load.shards} per merchant (shared/storage/item-keys.ts \`ROUTING_OUTCOME_SHARDS\`).`,
    '',
    `${load.paymentsPerSecond} payments/s of one merchant, all routed by success rate; ${pct(load.retriedShare)} retried once ` +
      `after a soft decline (${c.writesPerPayment.toFixed(2)} outcome writes per payment); counter item ${load.counterBytes} B, ${load.writeUnitsPerOutcome} WCU per outcome ` +
      `(measured); ${load.accounts} accounts × ${load.segments} segments; ${load.containers} containers refreshing every ` +
      `${load.cacheSeconds} s, ${load.bucketsPerRefresh} one-minute buckets per refresh.`,
    '',
    '| Partition | Load | Units/s | Share of the partition | ≤ 50 % |',
    '|---|---|---|---|---|',
    `| \`${OUTCOME_PARTITION_PATTERN}\` writes | ${c.writesPerPartition.toFixed(1)} UpdateItem/s | ${c.wcuPerPartition.toFixed(1)} WCU | ${pct(c.wcuShare)} of 1,000 WCU | ${verdict(c.wcuShare)} |`,
    `| \`${OUTCOME_PARTITION_PATTERN}\` reads | ${c.queriesPerPartition.toFixed(1)} Query/s × ${c.itemsPerQuery} items | ${c.rcuPerPartition.toFixed(1)} RCU | ${pct(c.rcuShare)} of 3,000 RCU | ${verdict(c.rcuShare)} |`,
    '',
    `Verdict: ${c.met ? 'met' : 'not met'}: every counter partition ${c.met ? 'at or under' : 'not at or under'} 50 % at ` +
      `${load.paymentsPerSecond} payments/s for one merchant; ${c.leastShards} shard(s) would be the least for the writes.`,
    '',
  ].join('\n');
}

/** What {@link measureOutcomeCalls} measured through the real code. */
export interface MeasuredOutcomeCalls {
  /** The largest counter item written, bytes (DynamoDB's size rules). */
  counterBytes: number;
  /** The most WCU one outcome write took. */
  writeUnitsPerOutcome: number;
  /** The RCU one refresh (one Query per shard) took, as recorded, and the counters it returned. */
  refresh: { rcu: number; items: number };
}

/**
 * Writes a few outcomes of one merchant through the real repository (the longest segment key of the default
 * dimensions, a real-length account id, an expiry) in a recorder phase, and reads them back as a refresh does,
 * then returns the counter item's size and the units the recorder measured. Calls go to the run's scratch table.
 * @throws the document client's errors
 */
export async function measureOutcomeCalls(recorder: Recorder, merchantId: string): Promise<MeasuredOutcomeCalls> {
  const from = recorder.records.length;
  const segment = segmentKey(SUCCESS_RATE_DEFAULTS.dimensions, { payment_method: 'card', card_network: 'mastercard', currency: 'NGN' });
  const now = Date.now();
  const outcomes = 12;
  await recorder.phase(OUTCOME_WRITE, async () => {
    for (let i = 0; i < outcomes; i++) {
      await tableOutcomeStore.record(merchantId, {
        merchant_connector_id: `mca_${'0'.repeat(20)}${i % 3}`,
        segment,
        success: i % 5 !== 0,
        at_ms: now,
        payment_id: `pay_capacity${String(i).padStart(16, '0')}`,
      });
    }
  });
  let items = 0;
  await recorder.phase(OUTCOME_REFRESH, async () => {
    items = (await routingOutcomeCounters(merchantId, bucketStart(now) - OUTCOME_BUCKET_MS)).length;
  });
  const mine = recorder.records.slice(from);
  const writes = mine.filter((r) => r.operation === OUTCOME_WRITE && r.kind === 'write' && r.target === 'table');
  const reads = mine.filter((r) => r.operation === OUTCOME_REFRESH && r.kind === 'read');
  const counters = recorder.samples().filter((s) => s.label === 'routing_outcome');
  return {
    counterBytes: Math.max(0, ...counters.map((s) => s.bytes)),
    writeUnitsPerOutcome: Math.max(0, ...writes.map((r) => r.units)),
    refresh: { rcu: reads.reduce((a, r) => a + r.units, 0), items },
  };
}

/** The recorder phases of {@link measureOutcomeCalls} (kept out of the payment lifecycle's model). */
const OUTCOME_WRITE = 'routing outcome (write)';
const OUTCOME_REFRESH = 'routing outcome (refresh)';
