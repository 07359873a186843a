/**
 * Delivery isolation (issue 23) end to end on the local stack: the table's stream, the delivery
 * queue's local stand-in (SQS FIFO's group rules) and its worker, loopback receivers. A merchant
 * whose endpoints hang holds at most its endpoints' lanes of the worker; another merchant's events
 * are delivered meanwhile. The figure under load is `npm run bench:webhooks` (docs/benchmarks.md);
 * here the behaviour, without timing thresholds.
 */
import { randomUUID } from 'node:crypto';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../scripts/local/event-stream';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const table = `switchyard-isolation-${randomUUID().slice(0, 8)}`;
const LANES = 2;
const saved = {
  TABLE_NAME: process.env.TABLE_NAME,
  WEBHOOK_DELIVERY_LANES: process.env.WEBHOOK_DELIVERY_LANES,
  WEBHOOK_DELIVERY_TIMEOUT_MS: process.env.WEBHOOK_DELIVERY_TIMEOUT_MS,
};
let api: LocalApi;
let stream: EventStream;
let queue: LocalDeliveryQueue;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  process.env.WEBHOOK_DELIVERY_LANES = String(LANES);
  // Long enough that the hanging endpoints are still hanging when the other merchant's events are delivered.
  process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '6000';
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
  api = await startLocalApi();
  queue = await startDeliveryQueue({ concurrency: 16 });
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await stream?.stop();
  await queue?.stop();
  await api?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver();
  receivers.push(r);
  return r;
}

async function merchant() {
  const key = await api.newMerchantKey();
  return (method: string, path: string, body?: unknown) => api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
}

test(`a merchant's hanging endpoints hold at most ${LANES} lanes each; another merchant's events are delivered while they hang`, async () => {
  const noisy = await merchant();
  const quiet = await merchant();
  const hanging = [await receiver(), await receiver(), await receiver()];
  for (const r of hanging) {
    r.answer([], 'hang');
    expect((await noisy('POST', '/webhook_endpoints', { url: r.url, enabled_events: ['customer.created'] })).status).toBe(200);
  }
  const healthy = await receiver();
  expect((await quiet('POST', '/webhook_endpoints', { url: healthy.url, enabled_events: ['customer.created'] })).status).toBe(200);

  // 12 events × 3 hanging endpoints = 36 deliveries of the noisy merchant, made first.
  for (let i = 0; i < 12; i += 1) expect((await noisy('POST', '/customers', { name: `Noisy ${i}` })).status).toBe(200);
  await Promise.all(hanging.map((r) => r.waitFor((x) => x.length >= 1)));
  for (let i = 0; i < 3; i += 1) expect((await quiet('POST', '/customers', { name: `Quiet ${i}` })).status).toBe(200);
  await healthy.waitFor((x) => x.length === 3);

  // The quiet merchant's three events arrived while the noisy merchant's first attempts were still
  // hanging: none of them has been recorded yet (each is recorded when its timeout ends).
  const events = (await noisy('GET', '/events?type=customer.created&limit=100')).body.data as { event_id: string }[];
  expect(events).toHaveLength(12);
  for (const e of events) {
    const deliveries = (await noisy('GET', `/events/${e.event_id}/deliveries`)).body.data as { attempts: unknown[] }[];
    for (const d of deliveries) expect(d.attempts).toHaveLength(0);
  }
  // Each hanging endpoint got at most its lanes' batches (≤ 10 POSTs each), not all 12 of its deliveries.
  for (const r of hanging) {
    expect(r.received.length).toBeGreaterThanOrEqual(1);
    expect(r.received.length).toBeLessThanOrEqual(LANES * 10);
  }
  const heldLanes = hanging.reduce((n, r) => n + r.received.length, 0);
  expect(heldLanes).toBeLessThan(36);
});
