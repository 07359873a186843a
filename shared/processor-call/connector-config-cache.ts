import { wholeNumberSetting } from '../settings/whole-number-setting';
import { type ConnectorConfig, readConnectorConfig } from '../storage/connector-accounts-repository';
import { containerCache } from '../storage/container-cache';

/**
 * Per-container cache of merchants' connector configurations (accounts and routing profile), so
 * routing a payment costs no DynamoDB read of its own: a merchant's configuration is read at most
 * once per {@link connectorConfigCacheMs} per container (one Query).
 *
 * Staleness, bounded by the period (docs/api.md "Connector accounts"): an account created, changed,
 * disabled or deleted, or an algorithm activated, reaches containers that cached the merchant's
 * configuration within the period; the container that made the change sees it at once (its entry
 * is dropped). A delete waits out the period after marking the account (`deleting_since`) before it
 * looks for open operations, so no container can still route a new payment to it when it decides
 * (shared/operations/connector-accounts/connector-account-operations.ts). No claim re-reads the account item:
 * that item would be read on every authorization of a busy account (a hot key).
 */

/** Default cache period: 5,000 ms. */
export const DEFAULT_CONNECTOR_CONFIG_CACHE_MS = 5_000;

/** Most merchants held at once per container; the oldest entry is dropped beyond it. */
const MAX_ENTRIES = 1_000;

/**
 * The cache period in ms from `CONNECTOR_CONFIG_CACHE_MS` (read at each use; 0 turns caching off), else
 * {@link DEFAULT_CONNECTOR_CONFIG_CACHE_MS}.
 */
export function connectorConfigCacheMs(): number {
  return wholeNumberSetting(process.env.CONNECTOR_CONFIG_CACHE_MS, { min: 0, max: 300_000 }, DEFAULT_CONNECTOR_CONFIG_CACHE_MS);
}

const cache = containerCache<ConnectorConfig>(MAX_ENTRIES);

/**
 * The merchant's connector configuration, from this container's cache when read less than the period
 * ago, else read (one Query) and cached. Concurrent requests of one container share one read.
 * @throws whatever the read throws (nothing is cached then)
 */
export async function merchantConnectorConfig(merchantId: string, nowMs = Date.now()): Promise<ConnectorConfig> {
  return cache.get(merchantId, connectorConfigCacheMs(), () => readConnectorConfig(merchantId), nowMs);
}

/** Drops a merchant's cached configuration (after this container changed it). */
export function forgetConnectorConfig(merchantId: string): void {
  cache.forget(merchantId);
}
