/**
 * The per-merchant bound of the delivery worker, as the local stand-in of the SQS FIFO queue
 * (scripts/local/delivery-queue.ts) hands batches out with the groups the code assigns
 * (shared/webhooks/delivery-queue.ts). The worker is a handler whose batches end only when the test
 * releases them, so every verdict is on what the queue decided, never on how fast the machine is.
 */
import type { SQSEvent } from 'aws-lambda';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../scripts/local/delivery-queue';
import { enqueueDeliveries } from '../../shared/webhooks/delivery-queue';

const LANES = 3;
const SLOW_LANES = 1;
const WIDTH = 20;
const saved = { lanes: process.env.WEBHOOK_DELIVERY_LANES, slow: process.env.WEBHOOK_SLOW_DELIVERY_LANES };

interface Batch {
  group: string;
  deliveries: string[];
  release: () => void;
}

let queue: LocalDeliveryQueue;
let batches: Batch[];
let maxInFlight: Map<string, number>;
let inFlight: Map<string, number>;

/** Lets the queue dispatch what it can (its dispatch runs in microtasks and timers of 0). */
const settle = () => new Promise((r) => setImmediate(r));

beforeEach(async () => {
  process.env.WEBHOOK_DELIVERY_LANES = String(LANES);
  process.env.WEBHOOK_SLOW_DELIVERY_LANES = String(SLOW_LANES);
  batches = [];
  inFlight = new Map();
  maxInFlight = new Map();
  queue = await startDeliveryQueue({
    concurrency: WIDTH,
    handler: (event: SQSEvent) =>
      new Promise((resolve) => {
        const group = String(event.Records[0]?.attributes.MessageGroupId);
        const merchant = group.split('.')[0] ?? '';
        for (const r of event.Records) expect(r.attributes.MessageGroupId).toBe(group);
        inFlight.set(merchant, (inFlight.get(merchant) ?? 0) + 1);
        maxInFlight.set(merchant, Math.max(maxInFlight.get(merchant) ?? 0, inFlight.get(merchant) ?? 0));
        batches.push({
          group,
          deliveries: event.Records.map((r) => (JSON.parse(r.body) as { delivery_id: string }).delivery_id),
          release: () => {
            inFlight.set(merchant, (inFlight.get(merchant) ?? 1) - 1);
            resolve({ batchItemFailures: [] });
          },
        });
      }),
  });
});
afterEach(async () => {
  for (const b of batches) b.release();
  await queue.stop();
  if (saved.lanes === undefined) delete process.env.WEBHOOK_DELIVERY_LANES;
  else process.env.WEBHOOK_DELIVERY_LANES = saved.lanes;
  if (saved.slow === undefined) delete process.env.WEBHOOK_SLOW_DELIVERY_LANES;
  else process.env.WEBHOOK_SLOW_DELIVERY_LANES = saved.slow;
});

/** `events` events of a merchant fanned out to `endpoints` endpoints: one delivery message each. */
const deliveries = (merchant: string, endpoints: number, events: number, slow = false) =>
  Array.from({ length: events * endpoints }, (_, i) => ({
    merchant_id: merchant,
    delivery_id: `evt_${merchant}_${Math.floor(i / endpoints)}:we_${merchant}_${i % endpoints}`,
    retry_step: 0,
    ...(slow ? { slow: true } : {}),
  }));

test(`a merchant with 16 endpoints and 480 deliveries holds at most its ${LANES} lanes of the ${WIDTH}; another merchant's delivery is handed out at once`, async () => {
  await enqueueDeliveries(deliveries('mer_noisy', 16, 30));
  await settle();
  // Nothing ends (the noisy batches are held): the noisy merchant has exactly its lanes in flight, no more.
  expect(queue.inFlightGroups().sort()).toEqual(['mer_noisy.0', 'mer_noisy.1', 'mer_noisy.2']);
  expect(queue.waitingGroups()).toHaveLength(480 - batches.reduce((n, b) => n + b.deliveries.length, 0));
  await enqueueDeliveries(deliveries('mer_quiet', 1, 1));
  await settle();
  const quiet = batches.find((b) => b.group.startsWith('mer_quiet.'));
  expect(quiet?.deliveries).toEqual(['evt_mer_quiet_0:we_mer_quiet_0']);
  // Its slow endpoints take one more lane of their own, and no more, however many.
  await enqueueDeliveries(deliveries('mer_noisy', 16, 5, true));
  await settle();
  expect(queue.inFlightGroups().filter((g) => g.startsWith('mer_noisy.'))).toHaveLength(LANES + SLOW_LANES);
  expect(maxInFlight.get('mer_noisy')).toBe(LANES + SLOW_LANES);
});

test('as held batches end, the merchant’s next batches take their places, never more at once; every message is handed out once', async () => {
  const all = [...deliveries('mer_noisy', 16, 20), ...deliveries('mer_noisy', 4, 10, true), ...deliveries('mer_quiet', 1, 5)];
  await enqueueDeliveries(all);
  await settle();
  const seen: string[] = [];
  for (let round = 0; round < 200 && queue.size() > 0; round += 1) {
    // End the oldest batch still held (one at a time, in a fixed order: no timing involved).
    const held = batches.find((b) => !seen.includes(b.deliveries.join()));
    if (!held) break;
    seen.push(held.deliveries.join());
    held.release();
    await settle();
    expect(queue.inFlightGroups().filter((g) => g.startsWith('mer_noisy.')).length).toBeLessThanOrEqual(LANES + SLOW_LANES);
  }
  await queue.drained(1_000);
  expect(maxInFlight.get('mer_noisy')).toBe(LANES + SLOW_LANES);
  const handed = batches.flatMap((b) => b.deliveries).sort();
  expect(handed).toEqual(all.map((d) => d.delivery_id).sort());
});
