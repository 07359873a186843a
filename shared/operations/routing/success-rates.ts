/**
 * `GET /routing/success_rates`: the merchant's outcome windows as success-rate routing scores them, read fresh
 * from the table (not this container's cache), only the merchant's own counters (their keys start with it).
 */
import { type RoutingAlgorithm, SUCCESS_RATE_DEFAULTS } from '../../domain/routing-algorithm';
import { readConnectorConfig } from '../../storage/connector-accounts-repository';
import { bucketStart, OUTCOME_LOOKBACK_MS, OutcomeSnapshot } from './outcome-window';
import { tableOutcomeStore } from './routing-outcomes';
import { segmentOfKey } from './success-rate-segment';

/** The window size of an algorithm's first success-rate selection, else the default. */
function windowSizeOf(algorithm: RoutingAlgorithm | undefined): number {
  if (algorithm?.type === 'success_rate') return algorithm.data.window_size ?? SUCCESS_RATE_DEFAULTS.window_size;
  if (algorithm?.type === 'advanced') {
    for (const s of [...algorithm.data.rules.map((r) => r.connector_selection), algorithm.data.default_selection]) {
      if (s.type === 'success_rate') return s.data.window_size ?? SUCCESS_RATE_DEFAULTS.window_size;
    }
  }
  return SUCCESS_RATE_DEFAULTS.window_size;
}

/**
 * The merchant's success rates per account and segment, sorted by account then segment.
 * @param nowMs the current time, epoch ms
 * @throws the storage's errors (a 5xx: nothing changed)
 */
export async function successRates(merchantId: string, nowMs = Date.now()) {
  const [config, counters] = await Promise.all([
    readConnectorConfig(merchantId),
    tableOutcomeStore.counters(merchantId, bucketStart(nowMs - OUTCOME_LOOKBACK_MS)),
  ]);
  const windowSize = windowSizeOf(config.profile?.active_algorithm?.algorithm as RoutingAlgorithm | undefined);
  const snapshot = new OutcomeSnapshot(counters);
  const data = [...snapshot.entries()]
    .map(([, buckets]) => {
      const { merchant_connector_id, segment } = buckets[0]!;
      const w = snapshot.window(merchant_connector_id, segment, windowSize, nowMs);
      return {
        merchant_connector_id,
        segment,
        dimensions: segmentOfKey(segment),
        attempts: w.attempts,
        successes: w.successes,
        success_rate: w.attempts > 0 ? w.successes / w.attempts : null,
        updated_at: w.updated_at_ms === null ? null : new Date(w.updated_at_ms).toISOString(),
      };
    })
    .filter((e) => e.attempts > 0)
    .sort((a, b) => a.merchant_connector_id.localeCompare(b.merchant_connector_id) || a.segment.localeCompare(b.segment));
  return { window_size: windowSize, lookback_seconds: OUTCOME_LOOKBACK_MS / 1000, data };
}
