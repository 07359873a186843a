/**
 * The delivery queue's messages (shared/webhooks/delivery-queue.ts: every group one merchant's —
 * its delivery lanes, its slow lanes, its fan-out lanes —, deduplication ids, parsing) and the circuit per endpoint
 * (shared/webhooks/endpoint-circuits.ts).
 */

import fc from 'fast-check';
import type { SendResult } from '../../shared/webhooks/delivery';
import {
  deliveryLanes,
  deliveryQueueMessage,
  FAN_OUT_LANES,
  parseQueueMessage,
  slowDeliveryLanes,
} from '../../shared/webhooks/delivery-queue';
import {
  ENDPOINT_CIRCUIT_HALF_OPEN_AFTER_MS,
  ENDPOINT_CIRCUIT_THRESHOLD,
  resetEndpointCircuits,
  sendThroughCircuit,
} from '../../shared/webhooks/endpoint-circuits';

const delivery = (eventId: string, endpointId: string, step = 0) => ({
  merchant_id: 'mer_1',
  delivery_id: `${eventId}:${endpointId}`,
  retry_step: step,
});

describe('delivery queue messages', () => {
  test('a merchant’s deliveries, to any of its endpoints, spread over exactly its lanes; another merchant never shares its groups', () => {
    const groupsOf = (merchant: string) =>
      new Set(
        Array.from(
          { length: 400 },
          (_, i) => deliveryQueueMessage({ ...delivery(`evt_${i}`, `we_${i % 16}`), merchant_id: merchant }, 3).groupId,
        ),
      );
    const a = groupsOf('mer_a');
    const b = groupsOf('mer_b');
    expect([...a].sort()).toEqual(['mer_a.0', 'mer_a.1', 'mer_a.2']);
    expect([...a].some((g) => b.has(g))).toBe(false);
    // The same delivery always lands in the same lane.
    expect(deliveryQueueMessage(delivery('evt_9', 'we_a'), 4).groupId).toBe(deliveryQueueMessage(delivery('evt_9', 'we_a'), 4).groupId);
  });

  test('a slow endpoint’s deliveries all go to one of its merchant’s slow lanes; the merchant’s slow endpoints share those lanes', () => {
    const slow = (eventId: string, endpointId: string) => deliveryQueueMessage({ ...delivery(eventId, endpointId), slow: true }, 3, 2);
    const one = new Set(Array.from({ length: 100 }, (_, i) => slow(`evt_${i}`, 'we_slow').groupId));
    expect(one.size).toBe(1);
    expect([...one][0]).toMatch(/^mer_1\.slow\.[01]$/);
    const all = new Set(Array.from({ length: 100 }, (_, i) => slow('evt_1', `we_${i}`).groupId));
    expect([...all].sort()).toEqual(['mer_1.slow.0', 'mer_1.slow.1']);
    // The body says it came through a slow lane (the worker attempts it there, never moves it again).
    expect(parseQueueMessage(slow('evt_1', 'we_slow').body)).toEqual({ kind: 'delivery', ...delivery('evt_1', 'we_slow'), slow: true });
  });

  test('property: whatever its endpoints, events and their pace, a merchant uses at most fan-out + lanes + slow lanes groups, all its own', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            merchant: fc.constantFrom('mer_a', 'mer_b', 'mer_c'),
            endpoint: fc.integer({ min: 0, max: 15 }),
            event: fc.integer({ min: 0, max: 10_000 }),
            slow: fc.boolean(),
            fanOut: fc.boolean(),
          }),
          { maxLength: 300 },
        ),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (messages, lanes, slowLanes) => {
          const groups = new Map<string, Set<string>>();
          for (const m of messages) {
            const queued = m.fanOut
              ? deliveryQueueMessage(
                  { kind: 'fan_out', merchant_id: m.merchant, event_id: `evt_${m.event}`, type: 't', created_at: 'c', expires_at: 1 },
                  lanes,
                  slowLanes,
                )
              : deliveryQueueMessage(
                  { merchant_id: m.merchant, delivery_id: `evt_${m.event}:${m.merchant}_we_${m.endpoint}`, retry_step: 0, slow: m.slow },
                  lanes,
                  slowLanes,
                );
            expect(queued.groupId.startsWith(`${m.merchant}.`)).toBe(true);
            const set = groups.get(m.merchant) ?? new Set<string>();
            set.add(queued.groupId);
            groups.set(m.merchant, set);
          }
          for (const set of groups.values()) expect(set.size).toBeLessThanOrEqual(FAN_OUT_LANES + lanes + slowLanes);
        },
      ),
    );
  });

  test('the deduplication id names the delivery and its retry step: a step handed over twice is one message, the next step another', () => {
    const first = deliveryQueueMessage(delivery('evt_1', 'we_a', 0));
    expect(deliveryQueueMessage(delivery('evt_1', 'we_a', 0)).deduplicationId).toBe(first.deduplicationId);
    expect(deliveryQueueMessage(delivery('evt_1', 'we_a', 1)).deduplicationId).not.toBe(first.deduplicationId);
    // A redelivery restarts the schedule (step 0) after attempts were made: a new message, not the first one again.
    expect(deliveryQueueMessage({ ...delivery('evt_1', 'we_a', 0), attempts_made: 3 }).deduplicationId).not.toBe(first.deduplicationId);
    for (const m of [
      first,
      deliveryQueueMessage({ kind: 'fan_out', merchant_id: 'mer_1', event_id: 'evt_1', type: 't', created_at: 'c', expires_at: 1 }),
    ]) {
      expect(m.groupId.length).toBeLessThanOrEqual(128);
      expect(m.deduplicationId.length).toBeLessThanOrEqual(128);
    }
  });

  test(`a merchant's fan-outs use its own ${FAN_OUT_LANES} groups, apart from its endpoints' and other merchants'`, () => {
    const fanOut = (merchant: string, i: number) =>
      deliveryQueueMessage({
        kind: 'fan_out',
        merchant_id: merchant,
        event_id: `evt_${i}`,
        type: 'customer.created',
        created_at: '2026-11-26T00:00:00.000Z',
        expires_at: 1,
      });
    const groups = new Set(Array.from({ length: 100 }, (_, i) => fanOut('mer_a', i).groupId));
    expect(groups.size).toBe(FAN_OUT_LANES);
    expect([...groups].every((g) => g.startsWith('mer_a.fan-out.'))).toBe(true);
    expect(groups.has(fanOut('mer_b', 1).groupId)).toBe(false);
    expect(fanOut('mer_a', 1).deduplicationId).toBe('evt_1.fan-out');
  });

  test('messages read back; anything else is refused (a poison message)', () => {
    const d = delivery('evt_1', 'we_a', 2);
    expect(parseQueueMessage(deliveryQueueMessage(d).body)).toEqual({ kind: 'delivery', ...d });
    // attempts_made survives the round trip: a message moved to a slow lane keeps its deduplication id.
    const again = { ...d, attempts_made: 3 };
    expect(parseQueueMessage(deliveryQueueMessage(again).body)).toEqual({ kind: 'delivery', ...again });
    const f = {
      kind: 'fan_out' as const,
      merchant_id: 'mer_1',
      event_id: 'evt_1',
      type: 'payment.succeeded',
      created_at: '2026-11-26T00:00:00.000Z',
      expires_at: 1_800_000_000,
    };
    expect(parseQueueMessage(deliveryQueueMessage(f).body)).toEqual(f);
    for (const bad of ['{}', '{"kind":"fan_out","merchant_id":"m"}', '{"merchant_id":"m","delivery_id":"d","retry_step":"1"}', 'not json'])
      expect(() => parseQueueMessage(bad)).toThrow();
  });

  test('lanes per merchant: WEBHOOK_DELIVERY_LANES (1–64), else 4; slow lanes: WEBHOOK_SLOW_DELIVERY_LANES (1–16), else 1', () => {
    expect(deliveryLanes({})).toBe(4);
    expect(deliveryLanes({ WEBHOOK_DELIVERY_LANES: '2' })).toBe(2);
    expect(deliveryLanes({ WEBHOOK_DELIVERY_LANES: '0' })).toBe(4);
    expect(deliveryLanes({ WEBHOOK_DELIVERY_LANES: '65' })).toBe(4);
    expect(slowDeliveryLanes({})).toBe(1);
    expect(slowDeliveryLanes({ WEBHOOK_SLOW_DELIVERY_LANES: '2' })).toBe(2);
    expect(slowDeliveryLanes({ WEBHOOK_SLOW_DELIVERY_LANES: '17' })).toBe(1);
  });
});

describe('circuit per endpoint', () => {
  const answer = (status: number): SendResult => ({
    attempt: { attempted_at: '2026-11-26T00:00:00.000Z', http_status: status, error: null, duration_ms: 5 },
    outcome: status < 300 ? 'delivered' : 'failed',
  });
  const noAnswer: SendResult = {
    attempt: {
      attempted_at: '2026-11-26T00:00:00.000Z',
      http_status: null,
      error: 'timeout: no answer within 15000 ms',
      duration_ms: 15_000,
    },
    outcome: 'failed',
  };
  beforeEach(() => resetEndpointCircuits());
  afterEach(() => jest.useRealTimers());

  test(`${ENDPOINT_CIRCUIT_THRESHOLD} attempts without an answer open it: the next attempt is not made; after the pause one probe goes through`, async () => {
    jest.useFakeTimers({ now: Date.parse('2026-11-26T00:00:00Z') });
    const send = jest.fn(async () => noAnswer);
    for (let i = 0; i < ENDPOINT_CIRCUIT_THRESHOLD; i += 1) expect(await sendThroughCircuit('we_slow', send)).toBe(noAnswer);
    expect(await sendThroughCircuit('we_slow', send)).toBe('circuit_open');
    expect(send).toHaveBeenCalledTimes(ENDPOINT_CIRCUIT_THRESHOLD);
    // Another endpoint is not affected.
    expect(await sendThroughCircuit('we_fast', async () => answer(200))).toEqual(answer(200));
    jest.setSystemTime(Date.now() + ENDPOINT_CIRCUIT_HALF_OPEN_AFTER_MS + 1);
    const probe = jest.fn(async () => answer(200));
    expect(await sendThroughCircuit('we_slow', probe)).toEqual(answer(200));
    expect(await sendThroughCircuit('we_slow', probe)).toEqual(answer(200)); // closed again
    expect(probe).toHaveBeenCalledTimes(2);
  });

  test('any HTTP answer, even a 5xx, counts as an answer: a failing but answering endpoint is never skipped', async () => {
    const send = jest.fn(async () => answer(500));
    for (let i = 0; i < ENDPOINT_CIRCUIT_THRESHOLD * 3; i += 1) expect(await sendThroughCircuit('we_500', send)).toEqual(answer(500));
    expect(send).toHaveBeenCalledTimes(ENDPOINT_CIRCUIT_THRESHOLD * 3);
  });

  test('an answer between failures resets the count', async () => {
    const results = [noAnswer, noAnswer, answer(503), noAnswer, noAnswer];
    for (const r of results) expect(await sendThroughCircuit('we_flaky', async () => r)).toBe(r);
    expect(await sendThroughCircuit('we_flaky', async () => answer(200))).toEqual(answer(200));
  });
});
