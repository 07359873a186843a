/**
 * Limits and truth after partial work: the cap on webhook endpoints per merchant, the
 * bounded concurrency of one event's fan-out and of a redelivery, and the 503 of a customer delete
 * or a redelivery that storage interrupted after it had begun (never "Nothing was changed").
 * Storage faults are injected as in round-trips-and-faults.test.ts: a middleware on the process-wide
 * DynamoDB client the in-process gateway's handlers use. No stream reader runs here: the fan-out is
 * called directly, so only the requests below send webhooks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { FAN_OUT_CONCURRENCY, fanOutEvent } from '../../shared/operations/events/event-delivery-operations';
import { MAX_WEBHOOK_ENDPOINTS } from '../../shared/operations/events/webhook-endpoint-operations';
import { baseClient } from '../../shared/storage/client';
import { getDeliverableEvent } from '../../shared/storage/deliveries-repository';
import {
  deliveryLanes,
  enqueueDeliveries,
  type QueuedDeliveryMessage,
  useDeliveryQueueTransport,
} from '../../shared/webhooks/delivery-queue';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

type CommandInput = { Key?: unknown; ConditionExpression?: string; UpdateExpression?: string };
/** When set, a DynamoDB command it returns true for fails as if storage were unreachable. */
let failWhen: ((command: string, input: CommandInput) => boolean) | undefined;

beforeAll(() => {
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      if (failWhen?.(command, args.input as CommandInput)) {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'hardeningFaults' },
  );
});

/**
 * A loopback receiver that answers every POST 200 after `delayMs`, counting the requests it holds at
 * once (the most of them in `maxInFlight`).
 */
interface SlowReceiver {
  url: (path: string) => string;
  received: string[];
  maxInFlight: number;
  /** Starts counting `maxInFlight` again. */
  reset(): void;
  close(): Promise<void>;
}
async function slowReceiver(delayMs: number): Promise<SlowReceiver> {
  let inFlight = 0;
  const state = { received: [] as string[], maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    state.maxInFlight = Math.max(state.maxInFlight, inFlight);
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        state.received.push(req.url ?? '');
        inFlight -= 1;
        res.writeHead(200).end();
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    get received() {
      return state.received;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    reset: () => {
      state.maxInFlight = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: LocalApi;
let receiver: SlowReceiver;
beforeAll(async () => {
  api = await startLocalApi();
  receiver = await slowReceiver(150);
});
afterAll(async () => {
  failWhen = undefined;
  await receiver.close();
  await api.close();
});
afterEach(() => {
  failWhen = undefined;
});

/** A fresh merchant and a request function bound to its key. */
async function merchant() {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
  return { key, request };
}

/** The id of the merchant's newest event of a type. */
async function newestEventId(request: (m: string, p: string) => Promise<{ status: number; body: any }>, type: string) {
  const res = await request('GET', `/events?type=${type}&limit=1`);
  expect(res.status).toBe(200);
  return res.body.data[0].event_id as string;
}

describe('webhook endpoints per merchant', () => {
  test(`at most ${MAX_WEBHOOK_ENDPOINTS}: the next create is 400 webhook_endpoint_limit; a delete frees a place`, async () => {
    expect(MAX_WEBHOOK_ENDPOINTS).toBe(16);
    const m = await merchant();
    const created: string[] = [];
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i += 1) {
      const res = await m.request('POST', '/webhook_endpoints', { url: receiver.url(`/cap/${i}`) });
      expect(res.status).toBe(200);
      created.push(res.body.webhook_endpoint_id);
    }
    const url = receiver.url('/cap/over-the-limit');
    const refused = await m.request('POST', '/webhook_endpoints', { url });
    expectError(refused, 400, 'webhook_endpoint_limit');
    expect(refused.body.error.type).toBe('invalid_request_error');
    expect(refused.body.error.message).toContain('16 webhook endpoints');
    expect(refused.text).not.toContain('over-the-limit');
    const list = await m.request('GET', '/webhook_endpoints?limit=100');
    expect(list.body.data).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
    // Another merchant is not affected.
    const other = await merchant();
    expect((await other.request('POST', '/webhook_endpoints', { url })).status).toBe(200);
    // A delete frees a place.
    expect((await m.request('DELETE', `/webhook_endpoints/${created[0]}`)).status).toBe(200);
    expect((await m.request('POST', '/webhook_endpoints', { url })).status).toBe(200);
    expectError(await m.request('POST', '/webhook_endpoints', { url }), 400, 'webhook_endpoint_limit');
  });
});

describe('fan-out with bounded concurrency', () => {
  test(`one event to 10 endpoints: the fan-out writes records and queues them (in the merchant's own delivery lanes, however many endpoints) without sending, the worker sends; a redelivery re-arms ${FAN_OUT_CONCURRENCY} at a time and the worker sends`, async () => {
    expect(FAN_OUT_CONCURRENCY).toBe(4);
    // The file's own merchant (its id is known): no other test here gives it endpoints.
    for (let i = 0; i < 10; i += 1)
      expect((await api.request('POST', '/webhook_endpoints', { body: { url: receiver.url(`/fan/${i}`) } })).status).toBe(200);
    const request = (method: string, path: string, body?: unknown) => api.request(method, path, body === undefined ? {} : { body });
    const customer = await request('POST', '/customers', { name: 'Ada' });
    const eventId = await newestEventId(request, 'customer.created');
    const stored = await getDeliverableEvent(api.merchantId, eventId);
    expect(stored).toBeDefined();
    const before = receiver.received.length;
    receiver.reset();
    const queued: QueuedDeliveryMessage[] = [];
    const release = useDeliveryQueueTransport({ send: async (messages) => void queued.push(...messages) });
    const inserted = {
      merchant_id: api.merchantId,
      event_id: eventId,
      type: 'customer.created',
      created_at: customer.body.created_at,
      expires_at: stored?.expiresAt ?? 0,
    };
    try {
      expect(await fanOutEvent(inserted)).toEqual({ created: 10, queued: 10 });
      // A stream record handled again: no record made twice, the same messages again (the queue dedupes them).
      expect(await fanOutEvent(inserted)).toEqual({ created: 0, queued: 10 });
    } finally {
      release();
    }
    expect(receiver.received.length - before).toBe(0); // nothing sent on the stream's path
    // Every message is in one of this merchant's ordinary delivery lanes: ten endpoints take no more of the
    // worker than one would (the per-merchant bound), and no other merchant's group is touched.
    const groups = new Set(queued.slice(0, 10).map((m) => m.groupId));
    for (const group of groups) expect(group).toMatch(new RegExp(`^${api.merchantId}\\.\\d+$`));
    expect(groups.size).toBeLessThanOrEqual(deliveryLanes());
    expect(new Set(queued.map((m) => m.deduplicationId)).size).toBe(10);
    // The worker (through the local queue, at most 4 batches at once here) sends each once.
    const queue = await startDeliveryQueue({ concurrency: 4 });
    try {
      await enqueueDeliveries(queued.map((m) => JSON.parse(m.body)));
      await queue.drained();
    } finally {
      await queue.stop();
    }
    expect(receiver.received.length - before).toBe(10);

    // A redelivery to every endpoint hands the 10 deliveries to the queue (answered pending, due now): the
    // request sends nothing itself; the worker sends them, as many at once as the queue lets it.
    receiver.reset();
    const redeliveryQueue = await startDeliveryQueue({ concurrency: FAN_OUT_CONCURRENCY });
    try {
      const again = await request('POST', `/events/${eventId}/redeliver`, {});
      expect(again.status).toBe(200);
      expect(again.body.data).toHaveLength(10);
      for (const d of again.body.data) expect(d).toMatchObject({ status: 'pending', attempts: [expect.anything()] });
      await redeliveryQueue.drained();
    } finally {
      await redeliveryQueue.stop();
    }
    expect(receiver.received.length - before).toBe(20);
  });
});

describe('truth after partial work', () => {
  test('a customer delete that storage interrupts after it began says so; a retry finishes it', async () => {
    const customer = (await api.request('POST', '/customers', { body: { name: 'Ada' } })).body;
    const payments: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const p = await api.request('POST', '/payments', {
        body: { amount: 1000, currency: 'NGN', customer_id: customer.customer_id },
      });
      expect({ status: p.status, body: p.body }).toMatchObject({ status: 200 });
      payments.push(p.body.payment_id);
    }
    // The mark lands; the first unlink of a payment fails.
    failWhen = (command, input) =>
      command === 'UpdateItem' &&
      JSON.stringify(input.Key).includes('#PAYMENT#') &&
      String(input.UpdateExpression).includes('customer_id = :null');
    const interrupted = await api.request('DELETE', `/customers/${customer.customer_id}`);
    failWhen = undefined;
    expectError(interrupted, 503, 'service_unavailable');
    expect(interrupted.body.error.message).not.toMatch(/nothing was changed/i);
    expect(interrupted.body.error.message).toMatch(/delete of this customer began/);
    expect(interrupted.body.error.message).toMatch(/Retry the DELETE/);
    expect(interrupted.body.error.message).toMatch(/reconciler/);
    // Already gone for the API.
    expectError(await api.request('GET', `/customers/${customer.customer_id}`), 404, 'resource_missing');
    // A retry finishes it and answers as the first DELETE would have.
    const retried = await api.request('DELETE', `/customers/${customer.customer_id}`);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ customer_id: customer.customer_id, deleted: true });
    for (const id of payments) expect((await api.request('GET', `/payments/${id}`)).body.customer_id).toBeNull();
  });

  test('a storage failure before the delete began still answers that nothing was changed', async () => {
    const customer = (await api.request('POST', '/customers', { body: { name: 'Ada' } })).body;
    failWhen = (command) => command === 'TransactWriteItems';
    const res = await api.request('DELETE', `/customers/${customer.customer_id}`);
    failWhen = undefined;
    expectError(res, 503, 'service_unavailable');
    expect(res.body.error.message).toMatch(/Nothing was changed/);
    expect((await api.request('GET', `/customers/${customer.customer_id}`)).status).toBe(200);
  });

  test('a redelivery that storage interrupts after it began says what happened; a retry with its key finishes it', async () => {
    const m = await merchant();
    const endpoints: string[] = [];
    for (let i = 0; i < 3; i += 1)
      endpoints.push((await m.request('POST', '/webhook_endpoints', { url: receiver.url(`/partial/${i}`) })).body.webhook_endpoint_id);
    await m.request('POST', '/customers', { name: 'Ada' });
    const eventId = await newestEventId(m.request, 'customer.created');
    const before = receiver.received.length;
    const queue = await startDeliveryQueue({ concurrency: 4 });
    // (No stream reader in this file: the event's first deliveries are never made; the redelivery makes them.)
    // Two deliveries are re-armed; re-arming the third fails.
    const third = `DELIVERY#${endpoints[2]}`;
    failWhen = (command, input) =>
      command === 'UpdateItem' &&
      JSON.stringify(input.Key).includes(third) &&
      String(input.ConditionExpression).startsWith('attribute_not_exists(lease_until)');
    const headers = { 'idempotency-key': `redeliver-${eventId}` };
    const interrupted = await api.request('POST', `/events/${eventId}/redeliver`, { key: m.key, body: {}, headers });
    failWhen = undefined;
    expectError(interrupted, 503, 'service_unavailable');
    const message: string = interrupted.body.error.message;
    expect(message).not.toMatch(/nothing was changed/i);
    expect(message).toContain('The redelivery began: 2 of the 3 deliveries concerned were re-armed.');
    expect(message).toMatch(
      /Re-armed deliveries are sent within \d+ s even if nothing more is done; retry the request to finish the others now/,
    );
    // The same key runs again (the 503 is not replayed) and hands all three to the queue, which sends them.
    try {
      const retried = await api.request('POST', `/events/${eventId}/redeliver`, { key: m.key, body: {}, headers });
      expect(retried.status).toBe(200);
      expect(retried.body.data.map((d: any) => d.webhook_endpoint_id).sort()).toEqual([...endpoints].sort());
      expect(retried.body.data.every((d: any) => d.status === 'pending')).toBe(true);
      await queue.drained();
    } finally {
      await queue.stop();
    }
    const sent = receiver.received.slice(before);
    for (let i = 0; i < 3; i += 1) expect(sent.filter((path) => path === `/partial/${i}`)).toHaveLength(1);
  });
});
