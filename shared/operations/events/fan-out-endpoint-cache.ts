import type { EventType } from '../../domain/events';
import { endpointReceives, type StoredWebhookEndpoint } from '../../domain/webhook-endpoint';
import { wholeNumberSetting } from '../../settings/whole-number-setting';
import { containerCache } from '../../storage/container-cache';
import { listEndpointsForDelivery } from '../../storage/webhook-endpoints-repository';

/**
 * How long (ms) one delivery container reuses a merchant's enabled webhook endpoints when fanning
 * events out: `WEBHOOK_ENDPOINT_CACHE_MS`, default 1,000; `0` reads them for every event.
 *
 * Why: without it every event of a merchant Queries the merchant's endpoint partition on GSI1 and
 * reads each endpoint item, so one merchant at 2,000 payments/s (about 4 events a payment) puts
 * ~3,200 RCU/s on one partition, above its 3,000 RCU/s limit (docs/capacity.md). With it the
 * partition is read at most once a second per delivery container, whatever the event rate.
 *
 * What it costs (docs/api.md, "Webhook delivery"): a change to an endpoint reaches fan-out within this bound — an
 * endpoint created, disabled, re-subscribed or pointed at a new URL in the last second may get (or
 * miss) that second's new events as before the change, and a rotated secret signs for up to one
 * more second (the previous secret stays valid 24 h after a rotation, so receivers still verify).
 * Retries, redeliveries and the reconciler read the endpoint strongly consistently, never from here.
 * Read at each use (the environment of a container does not change; tests change it).
 * @param raw the setting (default: the environment's)
 * @returns milliseconds, 0 to 60,000
 */
export function fanOutEndpointCacheMs(raw = process.env.WEBHOOK_ENDPOINT_CACHE_MS): number {
  return wholeNumberSetting(raw, { min: 0, max: 60_000 }, DEFAULT_FAN_OUT_ENDPOINT_CACHE_MS);
}

/** {@link fanOutEndpointCacheMs} when `WEBHOOK_ENDPOINT_CACHE_MS` is absent or not a whole number of ms from 0 to 60,000. */
export const DEFAULT_FAN_OUT_ENDPOINT_CACHE_MS = 1_000;

/** Most merchants remembered per container; the oldest entry goes first beyond it. */
const MAX_MERCHANTS = 1_000;

const cache = containerCache<StoredWebhookEndpoint[]>(MAX_MERCHANTS);

/**
 * The merchant's enabled endpoints that subscribe to `eventType`, for fanning one new event out:
 * from this container's cache when read less than {@link fanOutEndpointCacheMs} ago, else one
 * read of all of them (`listEndpointsForDelivery`: a Query on GSI1 and a strongly consistent
 * BatchGetItem). Concurrent events of one merchant share one read. A failed read is not remembered.
 * @param nowMs current time, Unix ms (tests pass their own)
 * @returns the endpoints, newest first (the caller filters by creation time)
 * @throws whatever the storage read throws (the stream record is then retried)
 */
export async function endpointsForFanOut(merchantId: string, eventType: EventType, nowMs = Date.now()): Promise<StoredWebhookEndpoint[]> {
  const periodMs = fanOutEndpointCacheMs();
  if (periodMs === 0) return listEndpointsForDelivery(merchantId, eventType);
  const endpoints = await cache.get(merchantId, periodMs, () => listEndpointsForDelivery(merchantId), nowMs);
  return endpoints.filter((e) => endpointReceives(e, eventType));
}

/**
 * The merchant's enabled endpoint `endpointId` as this container last read the merchant's endpoints (the
 * same cache and bound as {@link endpointsForFanOut}): the delivery worker decides from it whether a
 * delivery goes to the merchant's slow lanes, without a read per delivery. The attempt itself reads the
 * endpoint strongly consistently.
 * @param nowMs current time, Unix ms
 * @returns the endpoint, or undefined when it is not among the merchant's enabled endpoints
 * @throws whatever the storage read throws
 */
export async function cachedEnabledEndpoint(
  merchantId: string,
  endpointId: string,
  nowMs = Date.now(),
): Promise<StoredWebhookEndpoint | undefined> {
  const periodMs = fanOutEndpointCacheMs();
  const endpoints =
    periodMs === 0
      ? await listEndpointsForDelivery(merchantId)
      : await cache.get(merchantId, periodMs, () => listEndpointsForDelivery(merchantId), nowMs);
  return endpoints.find((e) => e.webhook_endpoint_id === endpointId);
}

/** Forgets every cached endpoint list (tests; a container never needs it). */
export function clearFanOutEndpointCache(): void {
  cache.clear();
}
