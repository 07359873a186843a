/**
 * Authorization outcomes of a merchant's accounts, counted per (account, segment, minute), and the sliding
 * window success-rate routing scores an account on (docs/routing.md "Outcomes").
 *
 * Outcomes are counted in time buckets of {@link OUTCOME_BUCKET_MS} (one counter per account, segment and
 * bucket, added to with DynamoDB's `ADD`: one write per outcome, whatever the volume; Hyperswitch's success-based
 * routing keeps its windows as buckets of aggregates too, `SuccessBasedRoutingConfig.max_aggregates_size`).
 * An account's window in a segment is its most recent `window_size` outcomes: its buckets summed from the
 * newest back, the last bucket that does not fit taken in proportion (outcomes assumed spread evenly in it),
 * and none older than {@link OUTCOME_LOOKBACK_MS}. So a change of behaviour shows as soon as the outcomes
 * after it are read (the per-container period, ≤ 5 s), and outweighs the older ones within about
 * `window_size / 2` outcomes; an account with few payments is judged on what the lookback holds, and one that
 * stopped getting payments (eliminated, or after an outage) is explored again once its old outcomes
 * leave the lookback.
 *
 * Pure: no I/O, no clock (times are arguments).
 */

/** Length of one counting bucket: 60,000 ms (a minute). */
export const OUTCOME_BUCKET_MS = 60_000;

/** How far back outcomes count: 30 minutes. Counters older than this are neither read nor kept (TTL). */
export const OUTCOME_LOOKBACK_MS = 30 * 60_000;

/** The start of the bucket a time falls in (epoch ms, a multiple of {@link OUTCOME_BUCKET_MS}). */
export function bucketStart(atMs: number): number {
  return Math.floor(atMs / OUTCOME_BUCKET_MS) * OUTCOME_BUCKET_MS;
}

/** The outcomes of one account in one segment in one bucket. */
export interface OutcomeCounter {
  merchant_connector_id: string;
  /** shared/operations/routing/success-rate-segment.ts `segmentKey`. */
  segment: string;
  /** Epoch ms, a multiple of {@link OUTCOME_BUCKET_MS}. */
  bucket_start_ms: number;
  /** Outcomes counted: approvals and issuer declines. */
  attempts: number;
  /** Approvals among them. */
  successes: number;
  /** Epoch ms of the last outcome counted. */
  updated_at_ms: number;
}

/** One final authorization outcome, to count. */
export interface RoutingOutcome {
  merchant_connector_id: string;
  segment: string;
  /** True: approved; false: declined by the issuer. */
  success: boolean;
  /** Epoch ms when it became known. */
  at_ms: number;
  /** The payment's id (spreads a busy merchant's counters over write shards). */
  payment_id: string;
}

/** The window of one account in one segment: outcomes and approvals (fractional when a bucket was taken in part). */
export interface OutcomeWindow {
  attempts: number;
  successes: number;
  /** Epoch ms of the newest outcome in it, or null when it is empty. */
  updated_at_ms: number | null;
}

/** An empty window. */
export const EMPTY_WINDOW: OutcomeWindow = Object.freeze({ attempts: 0, successes: 0, updated_at_ms: null });

/**
 * A merchant's counters as read at one time, indexed for the decision: per account and segment, the buckets
 * newest first. Immutable once built.
 */
export class OutcomeSnapshot {
  private readonly series = new Map<string, OutcomeCounter[]>();

  /**
   * @param counters the merchant's counters (any order; several for one bucket are summed, as write shards are)
   */
  constructor(counters: Iterable<OutcomeCounter>) {
    const byBucket = new Map<string, OutcomeCounter>();
    for (const c of counters) {
      const key = `${seriesKey(c.merchant_connector_id, c.segment)}#${c.bucket_start_ms}`;
      const seen = byBucket.get(key);
      byBucket.set(
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
    for (const c of byBucket.values()) {
      const key = seriesKey(c.merchant_connector_id, c.segment);
      const list = this.series.get(key) ?? [];
      list.push(c);
      this.series.set(key, list);
    }
    for (const list of this.series.values()) list.sort((a, b) => b.bucket_start_ms - a.bucket_start_ms);
  }

  /**
   * The window of an account in a segment at `nowMs`: its most recent `windowSize` outcomes within
   * {@link OUTCOME_LOOKBACK_MS} (see the module comment).
   */
  window(merchantConnectorId: string, segment: string, windowSize: number, nowMs: number): OutcomeWindow {
    const list = this.series.get(seriesKey(merchantConnectorId, segment));
    if (!list) return EMPTY_WINDOW;
    return windowOf(list, windowSize, nowMs);
  }

  /** Every (account, segment) with outcomes, and its buckets newest first. */
  entries(): IterableIterator<[string, OutcomeCounter[]]> {
    return this.series.entries();
  }
}

/** The key of one account's series in one segment. */
function seriesKey(merchantConnectorId: string, segment: string): string {
  return `${merchantConnectorId}#${segment}`;
}

/**
 * The window over one series (buckets newest first): see the module comment.
 * @param windowSize outcomes (≥ 1)
 */
export function windowOf(bucketsNewestFirst: readonly OutcomeCounter[], windowSize: number, nowMs: number): OutcomeWindow {
  const oldest = bucketStart(nowMs - OUTCOME_LOOKBACK_MS);
  let attempts = 0;
  let successes = 0;
  let updated: number | null = null;
  for (const b of bucketsNewestFirst) {
    if (b.bucket_start_ms < oldest) break;
    if (b.bucket_start_ms > nowMs || b.attempts <= 0) continue;
    updated ??= b.updated_at_ms;
    const room = windowSize - attempts;
    if (b.attempts <= room) {
      attempts += b.attempts;
      successes += b.successes;
    } else {
      attempts += room;
      successes += (b.successes * room) / b.attempts;
    }
    if (attempts >= windowSize) break;
  }
  return { attempts, successes, updated_at_ms: updated };
}
