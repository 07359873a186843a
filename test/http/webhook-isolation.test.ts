/**
 * Delivery isolation end to end on the local stack: the table's stream, the delivery queue's local
 * stand-in (SQS FIFO's group rules) and its worker, loopback receivers. A merchant whose endpoints
 * hang holds at most its lanes of the worker, across all its endpoints; another merchant's events
 * are delivered meanwhile; a slow endpoint's deliveries move to its merchant's slow lane.
 *
 * No verdict here depends on the machine's speed: the hanging receivers hold every request until the
 * test releases them (the attempt timeout, 60 s, never ends one first), so what is asserted is what the
 * code decided — the groups in flight, what was recorded and why — not what a timer let through.
 * Pace marks are driven with explicit clocks. The figure under load is `npm run bench:webhooks`
 * (docs/benchmarks.md).
 */
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, SQSEvent } from 'aws-lambda';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../scripts/local/event-stream';
import { attemptQueuedDelivery } from '../../shared/operations/events/event-delivery-operations';
import { getStoredWebhookEndpoint } from '../../shared/storage/webhook-endpoints-repository';
import { isEndpointSlow, noteEndpointPace } from '../../shared/webhooks/delivery-endpoint-health';
import { type QueuedDeliveryMessage, useDeliveryQueueTransport } from '../../shared/webhooks/delivery-queue';
import { SLOW_ENDPOINT_WINDOW_MS, slowAttemptMs } from '../../shared/webhooks/delivery-settings';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const table = `switchyard-isolation-${randomUUID().slice(0, 8)}`;
const LANES = 2;
const SLOW_LANES = 1;
const saved = {
  TABLE_NAME: process.env.TABLE_NAME,
  WEBHOOK_DELIVERY_LANES: process.env.WEBHOOK_DELIVERY_LANES,
  WEBHOOK_SLOW_DELIVERY_LANES: process.env.WEBHOOK_SLOW_DELIVERY_LANES,
  WEBHOOK_DELIVERY_TIMEOUT_MS: process.env.WEBHOOK_DELIVERY_TIMEOUT_MS,
  WEBHOOK_SLOW_ATTEMPT_MS: process.env.WEBHOOK_SLOW_ATTEMPT_MS,
  WEBHOOK_ENDPOINT_CACHE_MS: process.env.WEBHOOK_ENDPOINT_CACHE_MS,
};
let api: LocalApi;
let stream: EventStream;
let queue: LocalDeliveryQueue;
const receivers: WebhookReceiver[] = [];
const holders: HoldingReceiver[] = [];

/** Delivery batches as the worker got them: group, merchant, delivery ids; and in flight per merchant. */
const batches: { group: string; merchant: string; deliveries: string[] }[] = [];
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  process.env.WEBHOOK_DELIVERY_LANES = String(LANES);
  process.env.WEBHOOK_SLOW_DELIVERY_LANES = String(SLOW_LANES);
  // No attempt ends by timing out while the test runs: held requests end when the test releases them.
  process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '60000';
  // No attempt counts as slow until a test says so (0: every attempt does).
  process.env.WEBHOOK_SLOW_ATTEMPT_MS = '60000';
  // The worker sees a slow mark as soon as it is written.
  process.env.WEBHOOK_ENDPOINT_CACHE_MS = '0';
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table, { stream: true });
  api = await startLocalApi();
  const { handler } = await import('../../functions/webhook-delivery/queue-handler');
  queue = await startDeliveryQueue({
    concurrency: 8,
    handler: async (event: SQSEvent, context: Context) => {
      const group = String(event.Records[0]?.attributes.MessageGroupId);
      const bodies = event.Records.map((r) => JSON.parse(r.body) as { kind?: string; merchant_id: string; delivery_id?: string });
      const merchant = bodies[0]?.merchant_id ?? '';
      const delivery = bodies[0]?.kind !== 'fan_out';
      if (delivery) {
        batches.push({ group, merchant, deliveries: bodies.map((b) => String(b.delivery_id)) });
        inFlight.set(merchant, (inFlight.get(merchant) ?? 0) + 1);
        maxInFlight.set(merchant, Math.max(maxInFlight.get(merchant) ?? 0, inFlight.get(merchant) ?? 0));
      }
      try {
        return await handler(event, context);
      } finally {
        if (delivery) inFlight.set(merchant, (inFlight.get(merchant) ?? 1) - 1);
      }
    },
  });
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
});
afterAll(async () => {
  for (const h of holders) h.close();
  await Promise.all(receivers.map((r) => r.close()));
  await stream?.stop();
  await queue?.stop();
  await api?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** A receiver that holds every request until {@link HoldingReceiver.release}, then answers 200 at once. */
interface HoldingReceiver {
  url: string;
  /** Requests received so far. */
  received: number;
  release(): void;
  close(): void;
}

async function holdingReceiver(): Promise<HoldingReceiver> {
  const held: ServerResponse[] = [];
  const state = { received: 0, holding: true };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.received += 1;
      if (state.holding) held.push(res);
      else res.writeHead(200).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const h: HoldingReceiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get received() {
      return state.received;
    },
    release() {
      state.holding = false;
      for (const res of held.splice(0)) res.writeHead(200).end();
    },
    close() {
      h.release();
      server.closeAllConnections();
      server.close();
    },
  };
  holders.push(h);
  return h;
}

async function merchant() {
  const key = await api.newMerchantKey();
  return (method: string, path: string, body?: unknown) => api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
}

/** Polls `check` every 20 ms until it holds (no verdict on how long it took; jest's timeout is the bound). */
async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

test(`a merchant's hanging endpoints hold at most its ${LANES} lanes; another merchant is served meanwhile; a slow endpoint moves to its merchant's slow lane`, async () => {
  const noisy = await merchant();
  const quiet = await merchant();
  const hanging = [await holdingReceiver(), await holdingReceiver(), await holdingReceiver()];
  const noisyEndpoints: string[] = [];
  for (const r of hanging) {
    const res = await noisy('POST', '/webhook_endpoints', { url: r.url, enabled_events: ['customer.created'] });
    expect(res.status).toBe(200);
    noisyEndpoints.push(res.body.webhook_endpoint_id);
  }
  const healthy = await startWebhookReceiver();
  receivers.push(healthy);
  expect((await quiet('POST', '/webhook_endpoints', { url: healthy.url, enabled_events: ['customer.created'] })).status).toBe(200);

  // 12 events × 3 hanging endpoints = 36 deliveries of the noisy merchant.
  for (let i = 0; i < 12; i += 1) expect((await noisy('POST', '/customers', { name: `Noisy ${i}` })).status).toBe(200);
  const events = (await noisy('GET', '/events?type=customer.created&limit=100')).body.data as { event_id: string }[];
  expect(events).toHaveLength(12);
  const noisyIds = new Set(events.flatMap((e) => noisyEndpoints.map((we) => `${e.event_id}:${we}`)));
  const noisyMerchant = await (async () => {
    await until(() => batches.some((b) => noisyIds.has(b.deliveries[0] ?? '')));
    return batches.find((b) => noisyIds.has(b.deliveries[0] ?? ''))?.merchant ?? '';
  })();
  const noisyGroups = () => queue.inFlightGroups().filter((g) => g.startsWith(`${noisyMerchant}.`));
  const queuedNoisy = () => queue.waitingGroups().filter((g) => g.startsWith(`${noisyMerchant}.`)).length;
  const heldBatches = () => batches.filter((b) => b.merchant === noisyMerchant);
  // Every noisy delivery is queued or held, and every POST of the held batches has reached its receiver.
  await until(() => {
    const held = heldBatches().reduce((n, b) => n + b.deliveries.length, 0);
    return held + queuedNoisy() === 36 && hanging.reduce((n, r) => n + r.received, 0) === held;
  });
  // What the queue decided: the noisy merchant holds exactly its two lanes, whatever its endpoints.
  expect(noisyGroups().sort()).toEqual([`${noisyMerchant}.0`, `${noisyMerchant}.1`]);
  expect(
    heldBatches()
      .map((b) => b.group)
      .sort(),
  ).toEqual([`${noisyMerchant}.0`, `${noisyMerchant}.1`]);

  // The other merchant's events are delivered while the noisy merchant's requests are held.
  for (let i = 0; i < 3; i += 1) expect((await quiet('POST', '/customers', { name: `Quiet ${i}` })).status).toBe(200);
  await healthy.waitFor((x) => x.length === 3);
  expect(noisyGroups().sort()).toEqual([`${noisyMerchant}.0`, `${noisyMerchant}.1`]);
  // Nothing of the noisy merchant was recorded: its held attempts have not ended, the rest wait in its lanes.
  const held = heldBatches().reduce((n, b) => n + b.deliveries.length, 0);
  expect(held).toBeLessThanOrEqual(LANES * 10);
  expect(queuedNoisy()).toBe(36 - held);
  for (const e of events) {
    const deliveries = (await noisy('GET', `/events/${e.event_id}/deliveries`)).body.data as { status: string; attempts: unknown[] }[];
    expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual([
      ['pending', 0],
      ['pending', 0],
      ['pending', 0],
    ]);
  }

  // From now on every attempt counts as slow; the held requests end with 200.
  process.env.WEBHOOK_SLOW_ATTEMPT_MS = '0';
  for (const r of hanging) r.release();
  await until(async () => {
    for (const e of events) {
      const deliveries = (await noisy('GET', `/events/${e.event_id}/deliveries`)).body.data as { status: string }[];
      if (deliveries.some((d) => d.status !== 'delivered')) return false;
    }
    return true;
  });
  await queue.drained(60_000);
  process.env.WEBHOOK_SLOW_ATTEMPT_MS = '60000';
  // Each delivery was attempted once, answered 200 (the recorded cause), none lost or sent twice.
  for (const e of events) {
    const deliveries = (await noisy('GET', `/events/${e.event_id}/deliveries`)).body.data as {
      attempts: { http_status: number | null; error: string | null }[];
    }[];
    for (const d of deliveries) expect(d.attempts.map((a) => [a.http_status, a.error])).toEqual([[200, null]]);
  }
  // Every endpoint was marked slow by its attempts; the noisy merchant never held more than its lanes and its slow lane.
  for (const we of noisyEndpoints) expect(isEndpointSlow((await getStoredWebhookEndpoint(noisyMerchant, we))!, Date.now())).toBe(true);
  expect(maxInFlight.get(noisyMerchant)).toBeLessThanOrEqual(LANES + SLOW_LANES);
  const used = new Set(heldBatches().map((b) => b.group));
  for (const g of used) expect([`${noisyMerchant}.0`, `${noisyMerchant}.1`, `${noisyMerchant}.slow.0`]).toContain(g);
});

test('the worker moves a delivery of a slow endpoint to its merchant’s slow lane (same deduplication id), and attempts it there; the mark lapses on its clock', async () => {
  const r = await startWebhookReceiver();
  receivers.push(r);
  const res = await api.request('POST', '/webhook_endpoints', { body: { url: r.url, enabled_events: ['customer.created'] } });
  expect(res.status).toBe(200);
  const we = res.body.webhook_endpoint_id as string;
  const m = api.merchantId;
  const t0 = Date.now();
  const stored = async () => (await getStoredWebhookEndpoint(m, we))!;
  // A quick attempt marks nothing; a slow one (at the threshold) marks it for the window.
  const threshold = slowAttemptMs();
  expect(await noteEndpointPace(m, await stored(), threshold - 1, t0)).toBe(false);
  expect((await stored()).slow_until).toBeNull();
  expect(await noteEndpointPace(m, await stored(), threshold, t0)).toBe(true);
  expect((await stored()).slow_until).toBe(new Date(t0 + SLOW_ENDPOINT_WINDOW_MS).toISOString());
  // Another slow attempt a minute later writes nothing (the mark has most of its window left); six minutes later it extends it.
  expect(await noteEndpointPace(m, await stored(), threshold, t0 + 60_000)).toBe(false);
  expect(await noteEndpointPace(m, await stored(), threshold, t0 + 6 * 60_000)).toBe(true);
  expect((await stored()).slow_until).toBe(new Date(t0 + 6 * 60_000 + SLOW_ENDPOINT_WINDOW_MS).toISOString());
  expect(isEndpointSlow(await stored(), t0 + 6 * 60_000 + SLOW_ENDPOINT_WINDOW_MS - 1)).toBe(true);
  expect(isEndpointSlow(await stored(), t0 + 6 * 60_000 + SLOW_ENDPOINT_WINDOW_MS)).toBe(false);

  // The move: the message of an ordinary lane goes to the slow lane, with the same deduplication id.
  const sent: QueuedDeliveryMessage[] = [];
  const restore = useDeliveryQueueTransport({ send: async (messages) => void sent.push(...messages) });
  try {
    const deliveryId = `evt_${randomUUID().replace(/-/g, '')}:${we}`;
    expect(await attemptQueuedDelivery(m, { delivery_id: deliveryId, retry_step: 1, attempts_made: 1 })).toBe('moved');
    expect(sent).toEqual([{ body: expect.any(String), groupId: `${m}.slow.0`, deduplicationId: `${deliveryId}.1.1` }]);
    expect(JSON.parse(sent[0]!.body)).toEqual({
      kind: 'delivery',
      merchant_id: m,
      delivery_id: deliveryId,
      retry_step: 1,
      attempts_made: 1,
      slow: true,
    });
    // A slow-lane message is never moved again: it is attempted there (here no record exists: skipped).
    expect(await attemptQueuedDelivery(m, { delivery_id: deliveryId, retry_step: 1, attempts_made: 1, slow: true })).toBe('skipped');
    expect(sent).toHaveLength(1);
  } finally {
    restore();
  }
});
