/**
 * Webhook delivery end to end (Standard Webhooks): the local API, the table's stream read by
 * the local stream reader (the same handler as on AWS), loopback receivers only. A table of
 * this file's own, so the reconciler passes here see only this file's open items.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { ensureTable } from '../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../scripts/local/event-stream';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver';

const table = `switchyard-deliveries-${randomUUID().slice(0, 8)}`;
const saved = { TABLE_NAME: process.env.TABLE_NAME, WEBHOOK_RETRY_SCHEDULE_SECONDS: process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS };
let api: LocalApi;
let stream: EventStream;
let queue: LocalDeliveryQueue;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS = '0,1';
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table, { stream: true });
  api = await startLocalApi();
  queue = await startDeliveryQueue();
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
});
afterAll(async () => {
  await stream?.stop();
  await queue?.stop();
  await Promise.all(receivers.map((r) => r.close()));
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

/** A fresh merchant (its own endpoints and events) and a request function bound to its key. */
async function merchant() {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
  const endpoint = async (url: string, extra: Record<string, unknown> = {}) => {
    const res = await request('POST', '/webhook_endpoints', { url, ...extra });
    expect(res.status).toBe(200);
    return res.body as { webhook_endpoint_id: string; secret: string };
  };
  return { key, request, endpoint };
}

const typeOf = (w: ReceivedWebhook) => (JSON.parse(w.body) as { type: string }).type;
const has = (type: string) => (received: ReceivedWebhook[]) => received.some((w) => typeOf(w) === type);

/** Verifies a received webhook with the endpoint's secret (the standardwebhooks package); returns the event. */
function verified(w: ReceivedWebhook, secret: string): { event_id: string; type: string; data: Record<string, unknown> } {
  const event = new Webhook(secret).verify(w.body, w.headers) as { event_id: string; type: string; data: Record<string, unknown> };
  expect(w.headers['webhook-id']).toBe(event.event_id);
  expect(w.headers['content-type']).toBe('application/json');
  return event;
}

/** Waits until the delivery of an event to an endpoint satisfies `predicate` (up to 30 s: a loaded machine is slow, the verdict is the state reached). */
async function deliveryOf(
  request: (m: string, p: string) => Promise<{ status: number; body: any }>,
  eventId: string,
  endpointId: string,
  predicate: (d: any) => boolean,
) {
  const until = Date.now() + 30_000;
  for (;;) {
    const res = await request('GET', `/events/${eventId}/deliveries`);
    expect(res.status).toBe(200);
    const d = (res.body.data as any[]).find((x) => x.webhook_endpoint_id === endpointId);
    if (d && predicate(d)) return d;
    if (Date.now() > until) throw new Error(`delivery not as expected: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const reconcilePass = () => reconcileOpenOperations({ deadlineMs: Date.now() + 20_000 });

test('a sandbox card payment reaches the receiver as payment.created and payment.succeeded, signed and verifiable', async () => {
  const m = await merchant();
  const r = await receiver();
  const { webhook_endpoint_id, secret } = await m.endpoint(r.url);
  const pay = await m.request('POST', '/payments', {
    amount: 1000,
    currency: 'NGN',
    confirm: true,
    payment_method_data: card('4242424242424242'),
  });
  expect(pay.body.status).toBe('Succeeded');
  await r.waitFor(has('payment.succeeded'));
  await r.waitFor(has('payment.created'));
  const events = r.received.map((w) => verified(w, secret));
  for (const e of events) expect(e.data.payment_id).toBe(pay.body.payment_id);
  const succeeded = events.find((e) => e.type === 'payment.succeeded')!;
  // The body is the stored event, byte for byte: GET /events/{id} answers the same JSON.
  const stored = await m.request('GET', `/events/${succeeded.event_id}`);
  expect(JSON.parse(r.received.find((w) => typeOf(w) === 'payment.succeeded')!.body)).toEqual(stored.body);
  const d = await deliveryOf(m.request, succeeded.event_id, webhook_endpoint_id, (x) => x.status === 'delivered');
  expect(d).toEqual({
    webhook_endpoint_id,
    event_id: succeeded.event_id,
    url: r.url,
    status: 'delivered',
    attempts: [{ attempted_at: expect.stringMatching(/Z$/), http_status: 200, error: null, duration_ms: expect.any(Number) }],
    next_attempt_at: null,
    created_at: expect.any(String),
    updated_at: expect.any(String),
  });
  // Another merchant sees neither the event nor its deliveries.
  const other = await api.newMerchantKey();
  expectError(await api.request('GET', `/events/${succeeded.event_id}/deliveries`, { key: other }), 404, 'resource_missing');
  expectError(await api.request('POST', `/events/${succeeded.event_id}/redeliver`, { key: other, body: {} }), 404, 'resource_missing');
  expectError(await m.request('GET', '/events/evt_nope/deliveries'), 404, 'resource_missing');
});

test('enabled_events filters, and a disabled endpoint receives nothing', async () => {
  const m = await merchant();
  const [all, onlySucceeded, disabled] = [await receiver(), await receiver(), await receiver()];
  await m.endpoint(all.url);
  await m.endpoint(onlySucceeded.url, { enabled_events: ['payment.succeeded'] });
  const off = await m.endpoint(disabled.url);
  expect((await m.request('PUT', `/webhook_endpoints/${off.webhook_endpoint_id}`, { status: 'disabled' })).status).toBe(200);
  await m.request('POST', '/payments', { amount: 1500, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') });
  // Each event is delivered on its own: payment.created may arrive after payment.succeeded.
  await all.waitFor((x) => has('payment.created')(x) && has('payment.succeeded')(x));
  await onlySucceeded.waitFor(has('payment.succeeded'));
  // Both events were fanned out (the first endpoint got both); every delivery they queued has been handled once drained.
  await queue.drained();
  expect(all.received.map(typeOf)).toEqual(expect.arrayContaining(['payment.created', 'payment.succeeded']));
  expect(onlySucceeded.received.map(typeOf)).toEqual(['payment.succeeded']);
  expect(disabled.received).toEqual([]);
});

test('a receiver answering 500 then 200 gets the same webhook-id twice; the deliveries show both attempts', async () => {
  const m = await merchant();
  const r = await receiver();
  r.answer([{ status: 500 }], { status: 200 });
  const { webhook_endpoint_id, secret } = await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Ada Obi' });
  await r.waitFor((x) => x.length === 1);
  const event = verified(r.received[0]!, secret);
  const pending = await deliveryOf(
    m.request,
    event.event_id,
    webhook_endpoint_id,
    (d) => d.attempts.length === 1 && d.status === 'pending',
  );
  expect(pending.attempts[0]).toMatchObject({ http_status: 500, error: null });
  expect(pending.next_attempt_at).toEqual(expect.any(String));
  const report = await reconcilePass();
  expect(report.outcomes['webhook_delivery:queued']).toBe(1); // the reconciler hands the retry to the queue
  await r.waitFor((x) => x.length === 2);
  expect(r.received[1]!.headers['webhook-id']).toBe(r.received[0]!.headers['webhook-id']);
  verified(r.received[1]!, secret);
  const d = await deliveryOf(m.request, event.event_id, webhook_endpoint_id, (x) => x.status === 'delivered');
  expect(d.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([500, 200]);
  expect(d.next_attempt_at).toBeNull();
});

test('a receiver that never answers 2xx is retried on the (shortened) schedule, then the delivery is failed', async () => {
  const m = await merchant();
  const r = await receiver();
  r.answer([], { status: 503 });
  const { webhook_endpoint_id } = await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Never OK' });
  await r.waitFor((x) => x.length === 1);
  const eventId = JSON.parse(r.received[0]!.body).event_id as string;
  await deliveryOf(m.request, eventId, webhook_endpoint_id, (d) => d.attempts.length === 1);
  await reconcilePass(); // schedule "0,1": the first retry is due at once
  const second = await deliveryOf(m.request, eventId, webhook_endpoint_id, (d) => d.attempts.length === 2);
  expect(second.status).toBe('pending');
  // The second retry is due 1 s after the second attempt. A pass 1 ms before that hands nothing over: the pass's clock
  // is set there, since on a loaded machine more than a second of real time can pass before it runs.
  const dueMs = Date.parse(second.next_attempt_at);
  jest.spyOn(Date, 'now').mockReturnValue(dueMs - 1);
  try {
    expect((await reconcilePass()).outcomes['webhook_delivery:queued']).toBeUndefined();
    await queue.drained();
  } finally {
    jest.restoreAllMocks();
  }
  expect(r.received).toHaveLength(2);
  while (Date.now() < dueMs) await new Promise((res) => setTimeout(res, 50)); // the worker claims only what is due
  await reconcilePass();
  const d = await deliveryOf(m.request, eventId, webhook_endpoint_id, (x) => x.status === 'failed');
  expect(d.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([503, 503, 503]);
  expect(d.next_attempt_at).toBeNull();
  expect(r.received).toHaveLength(3);
  expect(new Set(r.received.map((w) => w.headers['webhook-id'])).size).toBe(1);
  await reconcilePass(); // failed deliveries are out of the open index
  expect(r.received).toHaveLength(3);
});

test('redeliver delivers again: to one endpoint now, to every subscribed one through the queue', async () => {
  const m = await merchant();
  const [a, b] = [await receiver(), await receiver()];
  const ea = await m.endpoint(a.url, { enabled_events: ['customer.created'] });
  const eb = await m.endpoint(b.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Again' });
  await a.waitFor((x) => x.length === 1);
  await b.waitFor((x) => x.length === 1);
  const eventId = JSON.parse(a.received[0]!.body).event_id as string;
  await deliveryOf(m.request, eventId, ea.webhook_endpoint_id, (d) => d.status === 'delivered');
  await deliveryOf(m.request, eventId, eb.webhook_endpoint_id, (d) => d.status === 'delivered');

  const one = await m.request('POST', `/events/${eventId}/redeliver`, { webhook_endpoint_id: ea.webhook_endpoint_id });
  expect(one.status).toBe(200);
  expect(one.body.data).toHaveLength(1);
  expect(one.body.data[0]).toMatchObject({ webhook_endpoint_id: ea.webhook_endpoint_id, status: 'delivered' });
  expect(one.body.data[0].attempts).toHaveLength(2);
  expect(a.received).toHaveLength(2);
  expect(b.received).toHaveLength(1);
  expect(a.received[1]!.headers['webhook-id']).toBe(eventId);
  verified(a.received[1]!, ea.secret);

  // To every subscribed endpoint: handed to the delivery queue (answered pending, due now), sent by its worker.
  const all = await m.request('POST', `/events/${eventId}/redeliver`);
  expect(all.status).toBe(200);
  expect(all.body.data.map((d: { webhook_endpoint_id: string }) => d.webhook_endpoint_id).sort()).toEqual(
    [ea.webhook_endpoint_id, eb.webhook_endpoint_id].sort(),
  );
  for (const d of all.body.data) expect(d.status).toBe('pending');
  await a.waitFor((x) => x.length === 3);
  await b.waitFor((x) => x.length === 2);
  await deliveryOf(m.request, eventId, eb.webhook_endpoint_id, (d) => d.status === 'delivered' && d.attempts.length === 2);

  expectError(await m.request('POST', `/events/${eventId}/redeliver`, { webhook_endpoint_id: 'we_unknown' }), 404, 'resource_missing');
  await m.request('PUT', `/webhook_endpoints/${eb.webhook_endpoint_id}`, { status: 'disabled' });
  expectError(
    await m.request('POST', `/events/${eventId}/redeliver`, { webhook_endpoint_id: eb.webhook_endpoint_id }),
    400,
    'endpoint_disabled',
  );
});

test('secret rotation: during the overlap a delivery verifies with the old and with the new secret', async () => {
  const m = await merchant();
  const r = await receiver();
  const { webhook_endpoint_id, secret: oldSecret } = await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  const rotated = await m.request('POST', `/webhook_endpoints/${webhook_endpoint_id}/rotate_secret`, {});
  expect(rotated.status).toBe(200);
  const newSecret = rotated.body.secret as string;
  expect(newSecret).not.toBe(oldSecret);
  await m.request('POST', '/customers', { name: 'Rotating' });
  const [w] = await r.waitFor((x) => x.length === 1);
  expect(w!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
  expect(verified(w!, oldSecret).type).toBe('customer.created');
  expect(verified(w!, newSecret).type).toBe('customer.created');
});

test('410 Gone fails the delivery and disables the endpoint; Retry-After postpones the retry', async () => {
  const m = await merchant();
  const gone = await receiver();
  gone.answer([], { status: 410 });
  const busy = await receiver();
  busy.answer([], { status: 503, headers: { 'retry-after': '120' } });
  const eg = await m.endpoint(gone.url, { enabled_events: ['customer.created'] });
  const eb = await m.endpoint(busy.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Gone' });
  await gone.waitFor((x) => x.length === 1);
  const eventId = JSON.parse(gone.received[0]!.body).event_id as string;
  const d = await deliveryOf(m.request, eventId, eg.webhook_endpoint_id, (x) => x.status === 'failed');
  expect(d.attempts.map((a: { http_status: number }) => a.http_status)).toEqual([410]);
  // The worker records the attempt, then disables the endpoint (a second write): wait for the second, up to 30 s.
  let endpoint = await m.request('GET', `/webhook_endpoints/${eg.webhook_endpoint_id}`);
  for (const until = Date.now() + 30_000; endpoint.body.status !== 'disabled' && Date.now() < until; ) {
    await new Promise((r) => setTimeout(r, 50));
    endpoint = await m.request('GET', `/webhook_endpoints/${eg.webhook_endpoint_id}`);
  }
  expect(endpoint.body).toMatchObject({ status: 'disabled', disabled_reason: expect.stringContaining('410') });
  const later = await deliveryOf(m.request, eventId, eb.webhook_endpoint_id, (x) => x.attempts.length === 1);
  expect(later.status).toBe('pending');
  const waitSeconds = (Date.parse(later.next_attempt_at) - Date.parse(later.attempts[0].attempted_at)) / 1000;
  expect(waitSeconds).toBeGreaterThanOrEqual(119);
  expect(waitSeconds).toBeLessThan(130);
});

test('sending refuses a URL the stage forbids and times out a receiver that never answers, recording why without the URL', async () => {
  const { sendWebhook } = await import('../../shared/webhooks/delivery');
  const r = await receiver();
  const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  const refused = await sendWebhook({ url: r.url, eventId: 'evt_x', body: '{}', secrets: [secret] }, { rules: { allowLoopback: false } });
  expect(refused).toMatchObject({ outcome: 'failed', attempt: { http_status: null, error: 'url refused: scheme_not_allowed' } });
  expect(r.received).toHaveLength(0);
  r.answer(['hang']);
  process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '300';
  try {
    const timedOut = await sendWebhook({ url: `${r.url}?token=s3cret`, eventId: 'evt_y', body: '{"a":1}', secrets: [secret] });
    expect(timedOut).toMatchObject({ outcome: 'failed', attempt: { http_status: null, error: 'timeout: no answer within 300 ms' } });
    expect(timedOut.attempt.duration_ms).toBeGreaterThanOrEqual(250);
    expect(JSON.stringify(timedOut)).not.toContain('s3cret');
  } finally {
    delete process.env.WEBHOOK_DELIVERY_TIMEOUT_MS;
  }
});

test('the stream handler reports queue failures per record, the worker storage failures per message, and an event handled again delivers once', async () => {
  const { handler } = await import('../../functions/webhook-delivery/stream-handler');
  const { marshall } = await import('@aws-sdk/util-dynamodb');
  const { GetCommand, ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient } = await import('../../shared/storage/client');
  const m = await merchant();
  const r = await receiver();
  await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  const endpointsBefore = await m.request('GET', '/webhook_endpoints');
  expect(endpointsBefore.body.data).toHaveLength(1);
  await m.request('POST', '/customers', { name: 'Stream' });
  await r.waitFor((x) => x.length === 1);
  const event = JSON.parse(r.received[0]!.body) as { event_id: string };
  // The merchant id is only in the key: read the stored event item back through the table.
  const all = await documentClient().send(
    new ScanCommand({
      TableName: table,
      FilterExpression: 'event_id = :e AND entity = :t',
      ExpressionAttributeValues: { ':e': event.event_id, ':t': 'event' },
    }),
  );
  const item = all.Items![0]!;
  const stored = await documentClient().send(new GetCommand({ TableName: table, Key: { PK: item.PK, SK: item.SK } }));
  const record = (seq: string) => ({
    eventID: seq,
    eventName: 'INSERT' as const,
    eventSource: 'aws:dynamodb',
    dynamodb: { SequenceNumber: seq, NewImage: marshall(stored.Item!) as never, StreamViewType: 'NEW_IMAGE' as const },
  });
  const context = { functionName: 'WebhookDelivery', awsRequestId: 'test', getRemainingTimeInMillis: () => 60_000 } as never;
  // The same record again (a retried batch): queued again, but the queue dedupes it and the record exists: nothing is sent twice.
  expect(await handler({ Records: [record('1')] }, context)).toEqual({ batchItemFailures: [] });
  await queue.drained();
  // The queue refusing: the record is reported for retry.
  const { useDeliveryQueueTransport } = await import('../../shared/webhooks/delivery-queue');
  const release = useDeliveryQueueTransport({
    send: async () => {
      throw new Error('queue unavailable');
    },
  });
  try {
    expect(await handler({ Records: [record('2')] }, context)).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
  } finally {
    release();
  }
  // The worker's fan-out with storage failing (a table that does not exist): the message is reported for retry.
  const { handler: worker } = await import('../../functions/webhook-delivery/queue-handler');
  const fanOut = {
    kind: 'fan_out',
    merchant_id: String(stored.Item!.merchant_id),
    event_id: event.event_id,
    type: 'customer.created',
    created_at: String(stored.Item!.created_at),
    expires_at: Number(stored.Item!.expires_at),
  };
  const sqsRecord = (id: string, body: unknown) =>
    ({ messageId: id, body: JSON.stringify(body), attributes: {}, messageAttributes: {} }) as never;
  process.env.TABLE_NAME = 'switchyard-no-such-table';
  try {
    expect(await worker({ Records: [sqsRecord('m1', fanOut)] }, context)).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  } finally {
    process.env.TABLE_NAME = table;
  }
  // An unreadable message is reported too (after 5 receives it lands in the dead-letter queue).
  expect(await worker({ Records: [sqsRecord('m2', { kind: 'fan_out' })] }, context)).toEqual({
    batchItemFailures: [{ itemIdentifier: 'm2' }],
  });
  // The fan-out handled once more (storage back): the record exists, nothing more is sent.
  expect(await worker({ Records: [sqsRecord('m3', fanOut)] }, context)).toEqual({ batchItemFailures: [] });
  await queue.drained();
  await new Promise((res) => setTimeout(res, 300));
  expect(r.received).toHaveLength(1);
  // No secret, API key or card number in any delivery record.
  const deliveries = await documentClient().send(
    new ScanCommand({ TableName: table, FilterExpression: 'entity = :d', ExpressionAttributeValues: { ':d': 'webhook_delivery' } }),
  );
  expect(deliveries.Items!.length).toBeGreaterThan(0);
  const dump = JSON.stringify(deliveries.Items);
  expect(dump).not.toMatch(/whsec_|sk_test_|4242424242424242/);
});

test('a delivery the queue never got, or whose worker died mid-attempt, is handed over again by the reconciler when due', async () => {
  const { claimDelivery, createDelivery, deliveryId } = await import('../../shared/storage/deliveries-repository');
  const { HANDOFF_GRACE_SECONDS, DELIVERY_LEASE_SECONDS } = await import('../../shared/webhooks/delivery-settings');
  const { ScanCommand } = await import('@aws-sdk/lib-dynamodb');
  const { documentClient } = await import('../../shared/storage/client');
  const m = await merchant();
  const r = await receiver();
  await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Crash' });
  await r.waitFor((x) => x.length === 1);
  const eventId = JSON.parse(r.received[0]!.body).event_id as string;
  const found = await documentClient().send(
    new ScanCommand({
      TableName: table,
      FilterExpression: 'event_id = :e AND entity = :t',
      ExpressionAttributeValues: { ':e': eventId, ':t': 'event' },
    }),
  );
  const eventItem = found.Items![0]!;
  const merchantId = String(eventItem.merchant_id);
  // Two more endpoints whose deliveries of this event were created as fan-out creates them, but:
  // (lost) the hand-off to the queue never happened (the stream handler died after the put);
  // (died) a worker leased it and died before recording its attempt.
  const [lost, died] = [await receiver(), await receiver()];
  const lostEndpoint = await m.endpoint(lost.url, { enabled_events: ['customer.created'] });
  const diedEndpoint = await m.endpoint(died.url, { enabled_events: ['customer.created'] });
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString();
  for (const [endpoint, url] of [
    [lostEndpoint, lost.url],
    [diedEndpoint, died.url],
  ] as const) {
    const created = await createDelivery({
      merchantId,
      eventId,
      eventType: 'customer.created',
      endpointId: endpoint.webhook_endpoint_id,
      url,
      expiresAt: Number(eventItem.expires_at),
      now: iso(now),
      handOffUntil: iso(now + HANDOFF_GRACE_SECONDS * 1000),
    });
    expect(created).toBeDefined();
  }
  const leased = await claimDelivery(
    merchantId,
    deliveryId(eventId, diedEndpoint.webhook_endpoint_id),
    iso(now),
    iso(now + DELIVERY_LEASE_SECONDS * 1000),
  );
  expect(leased?.lease_until).toBe(iso(now + DELIVERY_LEASE_SECONDS * 1000));
  const passAt = async (ms: number) => {
    const clock = jest.spyOn(Date, 'now').mockReturnValue(ms);
    try {
      await reconcileOpenOperations({ deadlineMs: ms + 20_000 });
    } finally {
      clock.mockRestore();
    }
    await queue.drained();
  };
  await passAt(now + 1_000); // neither is due: the hand-off's grace and the lease still run
  expect(lost.received).toHaveLength(0);
  expect(died.received).toHaveLength(0);
  await passAt(now + (DELIVERY_LEASE_SECONDS + 1) * 1000); // the lease has ended, the grace has not
  await died.waitFor((x) => x.length === 1);
  expect(lost.received).toHaveLength(0);
  await passAt(now + (HANDOFF_GRACE_SECONDS + 1) * 1000); // the grace has ended too
  await lost.waitFor((x) => x.length === 1);
  expect(verified(lost.received[0]!, lostEndpoint.secret).event_id).toBe(eventId);
  expect(verified(died.received[0]!, diedEndpoint.secret).event_id).toBe(eventId);
  for (const endpoint of [lostEndpoint, diedEndpoint]) {
    const d = await deliveryOf(m.request, eventId, endpoint.webhook_endpoint_id, (x) => x.status === 'delivered');
    expect(d.attempts).toHaveLength(1);
  }
});

test('the retry schedule is a setting; Retry-After is parsed and bounded; signatures cover every live secret', async () => {
  const { retryScheduleSeconds, DEFAULT_RETRY_SCHEDULE_SECONDS, MAX_RETRY_AFTER_SECONDS } = await import(
    '../../shared/webhooks/delivery-settings'
  );
  const { parseRetryAfter, signedHeaders } = await import('../../shared/webhooks/delivery');
  expect(retryScheduleSeconds({}).slice(0, 7)).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  expect(DEFAULT_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 86400).toBeCloseTo(3, 0); // about 3 days
  expect(retryScheduleSeconds({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '0, 1,2' })).toEqual([0, 1, 2]);
  expect(retryScheduleSeconds({ WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,-1' })).toEqual([...DEFAULT_RETRY_SCHEDULE_SECONDS]);
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(parseRetryAfter('120', now)).toBe(120);
  expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
  expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_SECONDS);
  expect(parseRetryAfter('soon', now)).toBeUndefined();
  expect(parseRetryAfter(null, now)).toBeUndefined();
  const [a, b] = [`whsec_${Buffer.alloc(32, 1).toString('base64')}`, `whsec_${Buffer.alloc(32, 2).toString('base64')}`];
  const body = '{"event_id":"evt_1","type":"customer.created"}';
  const headers = signedHeaders('evt_1', body, [a, b], new Date());
  expect(headers['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
  expect(new Webhook(a).verify(body, headers)).toEqual(JSON.parse(body));
  expect(new Webhook(b).verify(body, headers)).toEqual(JSON.parse(body));
  expect(() => new Webhook(a).verify(`${body} `, headers)).toThrow(); // a re-serialised body does not verify
});

test('sending connects only to the addresses the URL rules verified (no DNS rebinding between check and connect)', async () => {
  const { sendWebhook } = await import('../../shared/webhooks/delivery');
  const r = await receiver();
  const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
  // A name the system resolver does not know: it reaches the receiver only through the verified address.
  const url = r.url.replace('127.0.0.1', 'rebind-check.invalid');
  const checkedAt: string[] = [];
  const resolve = async (host: string) => {
    checkedAt.push(host);
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const sent = await sendWebhook(
    { url, eventId: 'evt_pin', body: '{"pinned":true}', secrets: [secret] },
    { rules: { allowLoopback: true, resolve } },
  );
  expect(checkedAt).toEqual(['rebind-check.invalid']);
  expect(sent).toMatchObject({ outcome: 'delivered', attempt: { http_status: 200 } });
  expect(r.received).toHaveLength(1);
  // And a verified address the rules refuse is never connected to, whatever the name resolves to later.
  const refused = await sendWebhook(
    { url, eventId: 'evt_pin2', body: '{}', secrets: [secret] },
    { rules: { allowLoopback: false, allowHttp: true, resolve: async () => [{ address: '169.254.169.254', family: 4 }] } },
  );
  expect(refused).toMatchObject({ outcome: 'failed', attempt: { error: 'url refused: address_not_allowed' } });
  expect(r.received).toHaveLength(1);
});

test('an endpoint whose deliveries have all failed for 5 days is disabled, unless the merchant changed it meanwhile', async () => {
  const m = await merchant();
  const r = await receiver();
  r.answer([], { status: 500 });
  const { webhook_endpoint_id } = await m.endpoint(r.url, { enabled_events: ['customer.created'] });
  await m.request('POST', '/customers', { name: 'Failing' });
  await r.waitFor((x) => x.length === 1);
  const eventId = JSON.parse(r.received[0]!.body).event_id as string;
  await deliveryOf(m.request, eventId, webhook_endpoint_id, (d) => d.attempts.length === 1);
  // Five days and an hour later, the next failed retry disables the endpoint.
  const now = Date.now();
  jest.spyOn(Date, 'now').mockReturnValue(now + 5 * 24 * 3600_000 + 3600_000);
  try {
    await reconcilePass(); // hands the retry to the queue, whose worker attempts it, still five days on
    await queue.drained();
  } finally {
    jest.restoreAllMocks();
  }
  await deliveryOf(m.request, eventId, webhook_endpoint_id, (d) => d.attempts.length === 2);
  const disabled = (await m.request('GET', `/webhook_endpoints/${webhook_endpoint_id}`)).body;
  expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: expect.any(String) });
  // A merchant who re-enables it restarts the clock: the next failure does not disable it again at once.
  expect((await m.request('PUT', `/webhook_endpoints/${webhook_endpoint_id}`, { status: 'enabled' })).body.status).toBe('enabled');
  await m.request('POST', '/customers', { name: 'Failing again' });
  await r.waitFor((x) => x.length === 3);
  await queue.drained(); // the worker has recorded the failed attempt and judged the endpoint's health
  expect((await m.request('GET', `/webhook_endpoints/${webhook_endpoint_id}`)).body.status).toBe('enabled');
});
