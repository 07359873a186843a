/**
 * Where success-rate routing keeps its outcome counters (a port), one implementation in memory (the simulator,
 * unit tests) and the per-container cache routing reads through, whatever the store. The deployed store is
 * DynamoDB's (shared/storage/routing-outcomes-repository.ts), plugged in by ./routing-outcomes.ts.
 */
import {
  bucketStart,
  OUTCOME_BUCKET_MS,
  OUTCOME_LOOKBACK_MS,
  type OutcomeCounter,
  OutcomeSnapshot,
  type RoutingOutcome,
} from './outcome-window';

/** Counters of outcomes per merchant, account, segment and bucket (./outcome-window.ts). */
export interface OutcomeStore {
  /**
   * Counts one outcome in its bucket (`bucketStart(outcome.at_ms)`).
   * @throws whatever the store throws (the caller logs it: an outcome lost is a statistic lost, not money)
   */
  record(merchantId: string, outcome: RoutingOutcome): Promise<void>;
  /**
   * The merchant's counters of buckets starting at or after `sinceBucketMs`, one per account, segment and
   * bucket (write shards summed). Only this merchant's: keys start with the merchant.
   */
  counters(merchantId: string, sinceBucketMs: number): Promise<OutcomeCounter[]>;
}

/** An {@link OutcomeStore} in memory: the simulator's and the unit tests'. */
export class MemoryOutcomeStore implements OutcomeStore {
  private readonly byMerchant = new Map<string, Map<string, OutcomeCounter>>();

  /** See {@link OutcomeStore.record}. */
  async record(merchantId: string, outcome: RoutingOutcome): Promise<void> {
    this.recordNow(merchantId, outcome);
  }

  /** {@link OutcomeStore.record} without a promise (the simulator's loop). */
  recordNow(merchantId: string, outcome: RoutingOutcome): void {
    const counters = this.byMerchant.get(merchantId) ?? new Map<string, OutcomeCounter>();
    this.byMerchant.set(merchantId, counters);
    const bucket = bucketStart(outcome.at_ms);
    const key = `${outcome.merchant_connector_id}#${outcome.segment}#${bucket}`;
    const c = counters.get(key) ?? {
      merchant_connector_id: outcome.merchant_connector_id,
      segment: outcome.segment,
      bucket_start_ms: bucket,
      attempts: 0,
      successes: 0,
      updated_at_ms: outcome.at_ms,
    };
    c.attempts += 1;
    if (outcome.success) c.successes += 1;
    c.updated_at_ms = Math.max(c.updated_at_ms, outcome.at_ms);
    counters.set(key, c);
  }

  /** See {@link OutcomeStore.counters}. */
  async counters(merchantId: string, sinceBucketMs: number): Promise<OutcomeCounter[]> {
    return this.countersNow(merchantId, sinceBucketMs);
  }

  /** {@link OutcomeStore.counters} without a promise. Drops counters older than the lookback as it goes. */
  countersNow(merchantId: string, sinceBucketMs: number): OutcomeCounter[] {
    const counters = this.byMerchant.get(merchantId);
    if (!counters) return [];
    const out: OutcomeCounter[] = [];
    for (const [key, c] of counters) {
      if (c.bucket_start_ms < sinceBucketMs - OUTCOME_LOOKBACK_MS) counters.delete(key);
      else if (c.bucket_start_ms >= sinceBucketMs) out.push({ ...c });
    }
    return out;
  }
}

/** One merchant's entry in an {@link OutcomeWindowCache}. */
interface CacheEntry {
  readAtMs: number;
  counters: Map<string, OutcomeCounter>;
  snapshot: OutcomeSnapshot;
}

/**
 * A per-container cache of merchants' outcome snapshots over an {@link OutcomeStore}: a merchant's snapshot
 * is reused for `periodMs`, then refreshed by reading only the buckets that may have changed since the last
 * read (the last read's bucket and the one before it, for writers' clocks and late writes: a minute of slack),
 * the rest of the lookback being kept from earlier reads; the first read reads the whole lookback. Concurrent
 * requests share one read; a failed read keeps the previous snapshot (routing then decides on it, staler).
 * Staleness: an outcome reaches a container's decisions within `periodMs` of being written (docs/routing.md).
 */
export class OutcomeWindowCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly reading = new Map<string, Promise<OutcomeSnapshot>>();

  /**
   * @param store where the counters are
   * @param periodMs how long a snapshot is reused (0: read on every call)
   * @param maxMerchants most merchants held; the least recently refreshed goes first
   */
  constructor(
    private readonly store: OutcomeStore,
    private readonly periodMs: () => number,
    private readonly maxMerchants = 1_000,
  ) {}

  /**
   * The merchant's snapshot as of at most `periodMs` ago.
   * @throws what the store throws, only when there is no earlier snapshot to fall back on
   */
  async snapshot(merchantId: string, nowMs: number): Promise<OutcomeSnapshot> {
    const entry = this.entries.get(merchantId);
    const period = this.periodMs();
    if (entry && period > 0 && nowMs - entry.readAtMs < period) return entry.snapshot;
    const inFlight = this.reading.get(merchantId);
    if (inFlight) return inFlight;
    const read = this.refresh(merchantId, entry, nowMs).finally(() => this.reading.delete(merchantId));
    this.reading.set(merchantId, read);
    return read;
  }

  /** Drops every merchant's snapshot (tests). */
  clear(): void {
    this.entries.clear();
  }

  private async refresh(merchantId: string, entry: CacheEntry | undefined, nowMs: number): Promise<OutcomeSnapshot> {
    const oldest = bucketStart(nowMs - OUTCOME_LOOKBACK_MS);
    const since = entry ? Math.max(oldest, bucketStart(entry.readAtMs) - OUTCOME_BUCKET_MS) : oldest;
    let fresh: OutcomeCounter[];
    try {
      fresh = await this.store.counters(merchantId, since);
    } catch (err) {
      if (entry) return entry.snapshot;
      throw err;
    }
    const counters = new Map<string, OutcomeCounter>();
    for (const [key, c] of entry?.counters ?? []) {
      if (c.bucket_start_ms >= oldest && c.bucket_start_ms < since) counters.set(key, c);
    }
    // A fresh read holds every write shard of its buckets: summed here, so a bucket is one counter.
    const freshKeys = new Set<string>();
    for (const c of fresh) {
      const key = `${c.merchant_connector_id}#${c.segment}#${c.bucket_start_ms}`;
      const seen = freshKeys.has(key) ? counters.get(key) : undefined;
      freshKeys.add(key);
      counters.set(
        key,
        seen
          ? {
              ...seen,
              attempts: seen.attempts + c.attempts,
              successes: seen.successes + c.successes,
              updated_at_ms: Math.max(seen.updated_at_ms, c.updated_at_ms),
            }
          : { ...c },
      );
    }
    const next: CacheEntry = { readAtMs: nowMs, counters, snapshot: new OutcomeSnapshot(counters.values()) };
    this.entries.delete(merchantId);
    this.entries.set(merchantId, next);
    if (this.entries.size > this.maxMerchants) this.entries.delete(this.entries.keys().next().value as string);
    return next.snapshot;
  }
}
