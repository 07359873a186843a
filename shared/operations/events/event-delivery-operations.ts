/**
 * Webhook delivery, at least once (Standard Webhooks, https://www.standardwebhooks.com):
 * fan-out of a new event to the merchant's subscribed endpoints, the attempts and their
 * retries, and the API's view of them (`GET /events/{id}/deliveries`,
 * `POST /events/{id}/redeliver`).
 *
 * Flow (delivery isolation, docs/api.md "Webhook delivery": no POST on the stream's path or in the reconciler's run):
 * the table's stream brings each inserted event item to the stream handler, which queues a fan-out
 * message for it ({@link queueFanOuts}; shared/webhooks/delivery-queue.ts, in its merchant's fan-out
 * lanes); the queue's worker runs {@link fanOutEvent}, which creates one delivery record per subscribed
 * enabled endpoint (conditional put, so a fan-out handled twice creates it once) and queues each
 * (message groups per endpoint lane, so a slow endpoint holds only its own lanes). The queue's
 * worker calls {@link attemptQueuedDelivery}: it leases the record, attempts it through the
 * endpoint's circuit (shared/webhooks/endpoint-circuits.ts) and records the attempt. A failed
 * attempt schedules the next (`WEBHOOK_RETRY_SCHEDULE_SECONDS`, `Retry-After` honoured,
 * bounded); the record waits in the open-operations index (GSI5) and, when it is due, the
 * reconciler hands it to the queue again ({@link retryDelivery}). A record the queue did not get
 * attempted within {@link HANDOFF_GRACE_SECONDS} (queue unreachable, worker dying mid-attempt: the
 * end of its lease) is found due by the reconciler the same way: no event is lost, some may be sent
 * twice (receivers dedupe on `webhook-id`).
 */
import { ApiError, invalidRequest, resourceNotFound, storageUnavailableAfterPartialWork } from '../../domain/errors';
import type { EventType } from '../../domain/events';
import { isIdOf } from '../../domain/ids';
import type { ListPage } from '../../domain/list-query';
import type { StoredWebhookEndpoint } from '../../domain/webhook-endpoint';
import { logger } from '../../observability/logger';
import { recordWebhookAttempt, recordWebhookEndpointDisabled } from '../../observability/metrics';
import {
  armDelivery,
  claimDelivery,
  createDelivery,
  type DeliverableEvent,
  type DeliveryAttempt,
  type DeliveryNext,
  deliveryId as deliveryIdOf,
  getDeliverableEvent,
  handOffDelivery,
  listDeliveries,
  parseDeliveryId,
  publicDelivery,
  rearmDeliveryForQueue,
  recordAttempt,
  type StoredDelivery,
  type WebhookDelivery,
} from '../../storage/deliveries-repository';
import { isStorageUnavailable } from '../../storage/storage-errors';
import { disableWebhookEndpoint, getStoredWebhookEndpoint, listEndpointsForDelivery } from '../../storage/webhook-endpoints-repository';
import type { SendResult } from '../../webhooks/delivery';
import {
  GONE_DISABLED_REASON,
  isEndpointSlow,
  noteEndpointDelivered,
  noteEndpointFailed,
  noteEndpointPace,
} from '../../webhooks/delivery-endpoint-health';
import { type DeliveryMessage, enqueueDeliveries } from '../../webhooks/delivery-queue';
import {
  DELIVERY_LEASE_SECONDS,
  HANDOFF_GRACE_SECONDS,
  retryScheduleSeconds,
  WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE,
} from '../../webhooks/delivery-settings';
import { signingSecrets } from '../../webhooks/endpoint-secrets';
import { cachedEnabledEndpoint, endpointsForFanOut } from './fan-out-endpoint-cache';

/** How one attempt ended, as counted: `delivered`, `retrying`, `failed` (given up), `gone` (410). */
export type AttemptOutcome = 'delivered' | 'retrying' | 'failed' | 'gone';

/** Most webhook POSTs one event's fan-out (or one redelivery) has in flight at once: 4. */
export const FAN_OUT_CONCURRENCY = 4;

/**
 * Runs `fn` over `items` with at most `limit` calls in flight at once (a bounded loop: `limit`
 * workers take the next item as each finishes), results in the items' order. After the first
 * failure no further item is started; the calls already running finish, then that failure is thrown.
 */
export async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await fn(items[index] as T);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}

const iso = (ms: number) => new Date(ms).toISOString();
const leaseFrom = (nowMs: number) => iso(nowMs + DELIVERY_LEASE_SECONDS * 1000);
const handOffFrom = (nowMs: number) => iso(nowMs + HANDOFF_GRACE_SECONDS * 1000);

/**
 * How far ahead of its own clock a worker takes a delivery as due, in ms (1 000): the stream
 * handler that stamps a first attempt due "now" and the worker that takes it run on different
 * hosts whose clocks may differ slightly; without it such a delivery would wait for the reconciler.
 */
const DUE_CLOCK_TOLERANCE_MS = 1_000;

/** `created_at` of an event from its stored body, for the latency metric; undefined when unreadable. */
function createdAtOf(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { created_at?: string }).created_at;
  } catch {
    return undefined;
  }
}

/**
 * Makes one attempt of a leased delivery and records it with what follows: delivered; gone
 * (410: failed, endpoint disabled); or failed, then retried after the schedule's next delay
 * (or the receiver's `Retry-After` when later) until the schedule is used up.
 * Also keeps the endpoint's failing-for-5-days note.
 * @returns the record after the write and the outcome
 * @throws storage errors (the caller's record stays leased and becomes due again after the lease)
 */
async function attempt(
  delivery: StoredDelivery,
  endpoint: StoredWebhookEndpoint,
  event: DeliverableEvent,
  leaseUntil: string,
  options: { circuit?: boolean } = {},
): Promise<{ delivery: StoredDelivery; outcome: AttemptOutcome }> {
  const { circuit = false } = options;
  const nowMs = Date.now();
  let secrets: string[];
  try {
    secrets = await signingSecrets(endpoint, nowMs);
  } catch (err) {
    // A secret that does not open is a fault of ours, not of the receiver: retried like a failed attempt.
    logger.error('webhook secret does not open; delivery retried later', {
      webhook_endpoint_id: endpoint.webhook_endpoint_id,
      error: (err as Error).message,
    });
    secrets = [];
  }
  const notSent = (error: string) => ({
    attempt: { attempted_at: iso(nowMs), http_status: null, error, duration_ms: 0 } as DeliveryAttempt,
    outcome: 'failed' as const,
  });
  // The HTTP client (undici) is loaded for an attempt only: listing deliveries never sends, so it does not pay for it at cold start.
  const { sendWebhook } = await import('../../webhooks/delivery');
  const send = () => sendWebhook({ url: endpoint.url, eventId: event.eventId, body: event.body, secrets });
  let result: SendResult;
  if (secrets.length === 0) result = notSent('signing failed');
  else if (!circuit) result = await send();
  else {
    // The endpoint circuits (cockatiel) only for the queue worker's attempts: a redelivery to one endpoint
    // is sent at once, whatever its circuit says (the redeliver route does not load them).
    const { CIRCUIT_OPEN_ERROR, sendThroughCircuit } = await import('../../webhooks/endpoint-circuits');
    const through = await sendThroughCircuit(endpoint.webhook_endpoint_id, send);
    result = through === 'circuit_open' ? notSent(CIRCUIT_OPEN_ERROR) : through;
  }
  const schedule = retryScheduleSeconds();
  let next: DeliveryNext;
  let outcome: AttemptOutcome;
  if (result.outcome === 'delivered') {
    next = { status: 'delivered' };
    outcome = 'delivered';
  } else if (result.outcome === 'gone') {
    next = { status: 'failed' };
    outcome = 'gone';
  } else if (delivery.retry_step < schedule.length) {
    const delay = Math.max(schedule[delivery.retry_step] ?? 0, result.retryAfterSeconds ?? 0);
    next = { status: 'pending', nextAttemptAt: iso(Date.now() + delay * 1000), retryStep: delivery.retry_step + 1 };
    outcome = 'retrying';
  } else {
    next = { status: 'failed' };
    outcome = 'failed';
  }
  const saved = await recordAttempt(delivery.merchant_id, delivery.delivery_id, leaseUntil, endpoint.url, result.attempt, next);
  recordWebhookAttempt(outcome, result.attempt.duration_ms, outcome === 'delivered' ? createdAtOf(event.body) : undefined);
  if (outcome !== 'delivered') {
    // One line per failed attempt, with the merchant: the per-merchant view of the undelivered
    // backlog is a Logs Insights query on it (a metric per merchant would be unbounded cardinality).
    logger.warn(WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE, {
      merchant_id: delivery.merchant_id,
      webhook_endpoint_id: endpoint.webhook_endpoint_id,
      delivery_id: delivery.delivery_id,
      outcome,
      http_status: result.attempt.http_status ?? null,
      error: result.attempt.error ?? null,
    });
  }
  if (outcome === 'delivered') {
    // Written only when it changes: a busy endpoint's item is not rewritten on every delivery.
    if (endpoint.failing_since) await noteEndpointDelivered(delivery.merchant_id, endpoint.webhook_endpoint_id);
  } else if (outcome === 'gone') {
    await disableWebhookEndpoint(delivery.merchant_id, endpoint.webhook_endpoint_id, GONE_DISABLED_REASON, endpoint.url);
    recordWebhookEndpointDisabled('gone');
  } else if (await noteEndpointFailed(delivery.merchant_id, endpoint, Date.now())) {
    recordWebhookEndpointDisabled('failing');
  }
  if (outcome !== 'gone') await noteEndpointPace(delivery.merchant_id, endpoint, result.attempt.duration_ms, Date.now());
  return { delivery: saved, outcome };
}

/** The parts of an inserted event item (stream NewImage) that fan-out needs. */
export interface InsertedEvent {
  merchant_id: string;
  event_id: string;
  type: string;
  /** ISO 8601 UTC: when the event happened. */
  created_at: string;
  /** Unix seconds (TTL). */
  expires_at: number;
}

/**
 * Queues the fan-out of new events (the stream handler's whole work): one message per event, in its
 * merchant's fan-out lanes, so the shared stream does the same small work per event whatever the
 * merchant's endpoints; the worker then runs {@link fanOutEvent} for each.
 * @throws queue errors (the stream records are retried; the queue dedupes a fan-out queued twice within 5 minutes)
 */
export async function queueFanOuts(events: readonly InsertedEvent[]): Promise<void> {
  await enqueueDeliveries(events.map((e) => ({ kind: 'fan_out' as const, ...e })));
}

/** Most delivery records one event's fan-out writes at once: 8 (an event has at most 16 endpoints). */
export const FAN_OUT_WRITE_CONCURRENCY = 8;

/**
 * Fans a new event out (the worker, for a fan-out message) to every enabled endpoint of its merchant that subscribes to its
 * type (as this container last read them, at most `WEBHOOK_ENDPOINT_CACHE_MS` ago:
 * {@link endpointsForFanOut}) and existed when the event happened (an endpoint never receives events from before its
 * creation, however late the stream is read): creates each delivery record (once, however
 * often the stream brings the event), then hands every one of them to the delivery queue
 * (records that already existed too: a stream record retried after the queue refused it; the
 * queue's deduplication and the worker's claim make a second message a no-op). Sends nothing itself.
 * @returns how many delivery records were created now and how many messages were queued
 * @throws storage errors (the fan-out message is retried; records already created are not made twice) and queue
 *   errors (likewise; should the retries run out, the reconciler hands the records made over after {@link HANDOFF_GRACE_SECONDS})
 */
export async function fanOutEvent(event: InsertedEvent): Promise<{ created: number; queued: number }> {
  const endpoints = (await endpointsForFanOut(event.merchant_id, event.type as EventType)).filter(
    (e) => !(e.created_at > event.created_at),
  );
  const nowMs = Date.now();
  const created = await mapBounded(endpoints, FAN_OUT_WRITE_CONCURRENCY, async (endpoint) =>
    createDelivery({
      merchantId: event.merchant_id,
      eventId: event.event_id,
      eventType: event.type,
      endpointId: endpoint.webhook_endpoint_id,
      url: endpoint.url,
      expiresAt: event.expires_at,
      now: iso(nowMs),
      handOffUntil: handOffFrom(nowMs),
    }),
  );
  const messages: DeliveryMessage[] = endpoints.map((endpoint) => ({
    merchant_id: event.merchant_id,
    delivery_id: deliveryIdOf(event.event_id, endpoint.webhook_endpoint_id),
    retry_step: 0,
    ...(isEndpointSlow(endpoint, nowMs) ? { slow: true } : {}),
  }));
  await enqueueDeliveries(messages);
  return { created: created.filter((d) => d !== undefined).length, queued: messages.length };
}

/**
 * Attempts one delivery the queue handed to the worker (functions/webhook-delivery/queue-handler.ts).
 * When the message came through the merchant's ordinary lanes and its endpoint is slow
 * (shared/webhooks/delivery-endpoint-health.ts; as this container last read the merchant's endpoints,
 * at most `WEBHOOK_ENDPOINT_CACHE_MS` ago), the delivery is handed to the merchant's slow lanes instead
 * (`moved`: one queue message; no claim, no POST, no read of its own), so a slow endpoint's backlog never
 * holds more than its slow lane, however it was queued (a fan-out before the endpoint was found slow, a
 * retry, a redelivery). Otherwise it takes the delivery under a lease when it is pending, due and not
 * leased, and makes one attempt through the endpoint's circuit. A delivery whose endpoint was deleted or
 * disabled, or whose event expired, is settled as `failed` with that reason as its last attempt's error.
 * @param message the queue message: `delivery_id` (`<event_id>:<webhook_endpoint_id>`), `retry_step`,
 *   `attempts_made` and `slow` (whether it came through a slow lane)
 * @returns the outcome; `skipped` when it was not due, already settled, or another worker holds it
 *   (a duplicate message, or a retry not yet due); `moved` when it was handed to the slow lanes
 * @throws storage and queue errors (the message is retried by the queue; the record, if leased, is due again after the lease)
 */
export async function attemptQueuedDelivery(
  merchantId: string,
  message: Pick<DeliveryMessage, 'delivery_id' | 'retry_step' | 'attempts_made' | 'slow'>,
): Promise<AttemptOutcome | 'skipped' | 'moved'> {
  const deliveryId = message.delivery_id;
  const nowMs = Date.now();
  const { eventId, endpointId } = parseDeliveryId(deliveryId);
  if (!message.slow) {
    const known = await cachedEnabledEndpoint(merchantId, endpointId, nowMs);
    if (known && isEndpointSlow(known, nowMs)) {
      await enqueueDeliveries([
        {
          merchant_id: merchantId,
          delivery_id: deliveryId,
          retry_step: message.retry_step,
          ...(message.attempts_made ? { attempts_made: message.attempts_made } : {}),
          slow: true,
        },
      ]);
      return 'moved';
    }
  }
  const leaseUntil = leaseFrom(nowMs);
  const claimed = await claimDelivery(merchantId, deliveryId, iso(nowMs + DUE_CLOCK_TOLERANCE_MS), leaseUntil);
  if (!claimed) return 'skipped';
  const giveUp = async (reason: string) => {
    const note: DeliveryAttempt = { attempted_at: iso(nowMs), http_status: null, error: reason, duration_ms: 0 };
    await recordAttempt(merchantId, deliveryId, leaseUntil, claimed.url, note, { status: 'failed' });
    recordWebhookAttempt('failed', 0);
    return 'failed' as const;
  };
  const [endpoint, event] = await Promise.all([getStoredWebhookEndpoint(merchantId, endpointId), getDeliverableEvent(merchantId, eventId)]);
  if (!event) return giveUp('event expired');
  if (!endpoint) return giveUp('endpoint deleted');
  if (endpoint.status !== 'enabled') return giveUp('endpoint disabled');
  return (await attempt(claimed, endpoint, event, leaseUntil, { circuit: true })).outcome;
}

/**
 * Hands one due delivery to the queue again (the reconciler's `webhook_delivery` kind: a retry
 * that fell due, or a record the queue did not get attempted in time): moves its due time
 * {@link HANDOFF_GRACE_SECONDS} ahead ({@link handOffDelivery}), then queues it. Sends nothing itself,
 * so one merchant's failing endpoints cannot hold the reconciler's run.
 * @param deliveryId `<event_id>:<webhook_endpoint_id>`
 * @returns `queued`; `skipped` when it was not due, already settled, or leased
 * @throws storage and queue errors (it is due again at the next run, or after the grace when the queue failed)
 */
export async function retryDelivery(merchantId: string, deliveryId: string): Promise<'queued' | 'skipped'> {
  const nowMs = Date.now();
  const handed = await handOffDelivery(merchantId, deliveryId, iso(nowMs), handOffFrom(nowMs));
  if (handed === undefined) return 'skipped';
  await enqueueDeliveries([
    { merchant_id: merchantId, delivery_id: deliveryId, retry_step: handed.retryStep, attempts_made: handed.attemptsMade },
  ]);
  return 'queued';
}

/**
 * Lists an event's deliveries (`GET /events/{event_id}/deliveries`): one per endpoint it was
 * sent to, each with every attempt.
 * @throws ApiError 404 when the event is unknown, another merchant's, or expired
 */
export async function listEventDeliveries(merchantId: string, eventId: string): Promise<ListPage<WebhookDelivery>> {
  await requireEvent(merchantId, eventId);
  const deliveries = await listDeliveries(merchantId, eventId);
  return { data: deliveries.map(publicDelivery), has_more: false };
}

async function requireEvent(merchantId: string, eventId: string): Promise<DeliverableEvent> {
  const event = isIdOf('event', eventId) ? await getDeliverableEvent(merchantId, eventId) : undefined;
  if (!event) throw resourceNotFound('event', 'event_id');
  return event;
}

/**
 * Delivers an event again (`POST /events/{event_id}/redeliver`). Each delivery concerned is re-armed
 * (`pending`, retry schedule restarted, earlier attempts kept); a failed attempt is retried on the
 * schedule like a first delivery.
 * - To one endpoint (`endpointId`): attempted once now, before answering (one POST, at most the
 *   15 s delivery timeout: well inside the API's 29 s).
 * - To every enabled endpoint that subscribes to its type (at most 16): handed to the delivery
 *   queue, whose worker sends them within seconds, as it sends first attempts (one merchant's
 *   redelivery to hanging endpoints never holds this request, nor anyone else's deliveries); the answer
 *   shows them `pending`, due now. Re-armed {@link FAN_OUT_CONCURRENCY} at a time.
 * @param endpointId when given, only this endpoint (it must be enabled; it need not subscribe to the type)
 * @returns the deliveries concerned: after the attempt (one endpoint), or as handed over (all)
 * @throws ApiError 404 for an unknown event or endpoint; 400 `endpoint_disabled` for a disabled endpoint;
 *   503 `service_unavailable` saying how many deliveries were re-armed when storage or the queue failed after
 *   the first re-arm (transient: a retry with the same Idempotency-Key runs again and finishes it)
 */
export async function redeliverEvent(merchantId: string, eventId: string, endpointId?: string): Promise<ListPage<WebhookDelivery>> {
  const event = await requireEvent(merchantId, eventId);
  if (endpointId !== undefined) {
    const endpoint = isIdOf('webhookEndpoint', endpointId) ? await getStoredWebhookEndpoint(merchantId, endpointId) : undefined;
    if (!endpoint) throw resourceNotFound('webhook endpoint', 'webhook_endpoint_id');
    if (endpoint.status !== 'enabled') {
      throw invalidRequest(
        'endpoint_disabled',
        'This webhook endpoint is disabled: enable it (PUT status enabled) before redelivering to it.',
        'webhook_endpoint_id',
      );
    }
    return redeliverNow(merchantId, event, endpoint);
  }
  const endpoints = await listEndpointsForDelivery(merchantId, event.type as EventType);
  const nowMs = Date.now();
  let armedCount = 0;
  try {
    const armed = await mapBounded(endpoints, FAN_OUT_CONCURRENCY, async (endpoint) => {
      const rearmed = await rearmDeliveryForQueue({
        merchantId,
        eventId,
        eventType: event.type,
        endpointId: endpoint.webhook_endpoint_id,
        url: endpoint.url,
        expiresAt: event.expiresAt,
        now: iso(nowMs),
        handOffUntil: handOffFrom(nowMs),
      });
      if (rearmed) armedCount += 1;
      return rearmed; // undefined: a worker is attempting it right now
    });
    const handed = armed.filter((d): d is StoredDelivery => d !== undefined);
    await enqueueDeliveries(
      handed.map((d) => ({ merchant_id: merchantId, delivery_id: d.delivery_id, retry_step: 0, attempts_made: d.attempts.length })),
    );
    const byEndpoint = new Map(handed.map((d) => [d.webhook_endpoint_id, d]));
    if (byEndpoint.size < endpoints.length) {
      const touched = new Set(endpoints.map((e) => e.webhook_endpoint_id));
      for (const d of await listDeliveries(merchantId, eventId))
        if (touched.has(d.webhook_endpoint_id) && !byEndpoint.has(d.webhook_endpoint_id)) byEndpoint.set(d.webhook_endpoint_id, d);
    }
    return { data: [...byEndpoint.values()].map(publicDelivery), has_more: false };
  } catch (err) {
    // Deliveries were re-armed before storage or the queue failed: never "nothing was changed".
    // Storage or the queue failing (an SDK error, not an answer of ours) after the first re-arm.
    const transient = isStorageUnavailable(err) || !(err instanceof ApiError);
    if (armedCount === 0 || !transient) throw err;
    throw storageUnavailableAfterPartialWork(
      `The redelivery began: ${armedCount} of the ${endpoints.length} deliveries concerned were re-armed.`,
      `Re-armed deliveries are sent within ${HANDOFF_GRACE_SECONDS + 60} s even if nothing more is done; retry the request to ` +
        'finish the others now (endpoints may receive the event twice; receivers dedupe on webhook-id).',
    );
  }
}

/** Re-arms one endpoint's delivery under a lease and attempts it now (a redelivery to that endpoint). */
async function redeliverNow(
  merchantId: string,
  event: DeliverableEvent,
  endpoint: StoredWebhookEndpoint,
): Promise<ListPage<WebhookDelivery>> {
  const nowMs = Date.now();
  const leaseUntil = leaseFrom(nowMs);
  let armed: StoredDelivery | undefined;
  try {
    armed = await armDelivery({
      merchantId,
      eventId: event.eventId,
      eventType: event.type,
      endpointId: endpoint.webhook_endpoint_id,
      url: endpoint.url,
      expiresAt: event.expiresAt,
      now: iso(nowMs),
      leaseUntil,
    });
    const delivery = armed
      ? (await attempt(armed, endpoint, event, leaseUntil)).delivery
      : (await listDeliveries(merchantId, event.eventId)).find((d) => d.webhook_endpoint_id === endpoint.webhook_endpoint_id);
    return { data: delivery ? [publicDelivery(delivery)] : [], has_more: false };
  } catch (err) {
    if (armed === undefined || !isStorageUnavailable(err)) throw err;
    throw storageUnavailableAfterPartialWork(
      'The redelivery began: the delivery was re-armed and may have been sent, but its attempt could not be recorded.',
      `Its attempt is made again within ${DELIVERY_LEASE_SECONDS + 60} s even if nothing more is done (the receiver may get the event twice; ` +
        'receivers dedupe on webhook-id); a retry of the request with its Idempotency-Key answers its state.',
    );
  }
}
