/**
 * Local webhook retries follow the retry schedule (scripts/local/delivery-retry-timer.ts), not the
 * reconciler's timer: with `WEBHOOK_RETRY_SCHEDULE_SECONDS=1,2` a failing receiver is tried again
 * after 1 s and then 2 s. No reconciler runs in this file, so every retry here was handed over by the
 * retry timer. The verdict is on the recorded attempts (what came back, and that no retry came before
 * its due time), never on an upper bound of wall-clock time.
 */
import { randomUUID } from 'node:crypto';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { type DeliveryRetryTimer, startDeliveryRetryTimer } from '../../scripts/local/delivery-retry-timer';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../scripts/local/event-stream';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const table = `switchyard-local-retries-${randomUUID().slice(0, 8)}`;
const saved = { TABLE_NAME: process.env.TABLE_NAME, WEBHOOK_RETRY_SCHEDULE_SECONDS: process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS };
let api: LocalApi;
let stream: EventStream;
let queue: LocalDeliveryQueue;
let retries: DeliveryRetryTimer;
let receiver: WebhookReceiver;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS = '1,2';
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table, { stream: true });
  api = await startLocalApi();
  queue = await startDeliveryQueue();
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
  retries = startDeliveryRetryTimer();
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await retries?.stop();
  await stream?.stop();
  await queue?.stop();
  await receiver?.close();
  await api?.close();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

test('WEBHOOK_RETRY_SCHEDULE_SECONDS=1,2: a receiver answering 500, 500, 200 gets the retries 1 s and 2 s after the failures, without the reconciler', async () => {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
  receiver.answer([{ status: 500 }, { status: 500 }], { status: 200 });
  const endpoint = await request('POST', '/webhook_endpoints', { url: receiver.url, enabled_events: ['customer.created'] });
  expect(endpoint.status).toBe(200);
  expect((await request('POST', '/customers', { name: 'Retried' })).status).toBe(200);
  await receiver.waitFor((r) => r.length >= 3, 20_000);

  const eventId = (JSON.parse(receiver.received[0]!.body) as { event_id: string }).event_id;
  expect(receiver.received.map((w) => w.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
  let delivery: { status: string; attempts: { attempted_at: string; http_status: number | null; duration_ms: number }[] } | undefined;
  for (let i = 0; i < 100 && delivery?.status !== 'delivered'; i += 1) {
    delivery = (await request('GET', `/events/${eventId}/deliveries`)).body.data[0];
    if (delivery?.status !== 'delivered') await new Promise((r) => setTimeout(r, 50));
  }
  expect(delivery?.status).toBe('delivered');
  const attempts = delivery!.attempts;
  expect(attempts.map((a) => a.http_status)).toEqual([500, 500, 200]);
  const started = attempts.map((a) => Date.parse(a.attempted_at));
  const ended = attempts.map((a, i) => started[i]! + a.duration_ms);
  // Each retry came no sooner than its step of the schedule after the failure it follows.
  expect(started[1]! - ended[0]!).toBeGreaterThanOrEqual(1_000 - 5);
  expect(started[2]! - ended[1]!).toBeGreaterThanOrEqual(2_000 - 5);
});
