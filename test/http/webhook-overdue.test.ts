/**
 * The reconciler's overdue gauge for webhook deliveries (docs/operations.md: "undelivered webhooks older than
 * 1 hour"): measured from when a delivery fell due, not from when it opened. A table of this file's
 * own, so the reconciler sees only the deliveries written here.
 */
import { randomUUID } from 'node:crypto';
import { ensureTable } from '../../scripts/local/ensure-table';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { createDelivery } from '../../shared/storage/deliveries-repository';

const table = `switchyard-overdue-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table);
});
afterAll(() => {
  if (savedTable === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = savedTable;
});

/** A delivery record opened `openedAgoMs` ago whose hand-off grace (its due time) ended `dueAgoMs` ago (negative: in the future). */
async function delivery(openedAgoMs: number, dueAgoMs: number): Promise<void> {
  const now = Date.now();
  const created = await createDelivery({
    merchantId: 'mer_overdue',
    eventId: `evt_${randomUUID().replace(/-/g, '')}`,
    eventType: 'payment.created',
    endpointId: `we_${randomUUID().replace(/-/g, '')}`,
    url: 'https://merchant.example/hooks',
    expiresAt: Math.floor(now / 1000) + 86_400,
    now: new Date(now - openedAgoMs).toISOString(),
    handOffUntil: new Date(now - dueAgoMs).toISOString(),
  });
  expect(created).toBeDefined();
}

/** One reconciler run that reads the index and handles nothing (its deadline has passed). */
const readOnlyPass = () => reconcileOpenOperations({ deadlineMs: Date.now() - 1 });

test('nothing due: 0; a delivery open for days but due in the future is not overdue', async () => {
  expect((await readOnlyPass()).oldestOverdueDeliverySeconds).toBe(0);
  await delivery(3 * 86_400_000, -60_000);
  const report = await readOnlyPass();
  expect(report.open.webhook_delivery).toBe(1);
  expect(report.oldestAgeSeconds.webhook_delivery).toBeGreaterThanOrEqual(3 * 86_400 - 5);
  expect(report.oldestOverdueDeliverySeconds).toBe(0);
});

test('a delivery due two hours ago and not attempted: about 7,200 s overdue, the most overdue one counts', async () => {
  await delivery(3 * 3_600_000, 2 * 3_600_000);
  await delivery(3_600_000, 600_000);
  const report = await readOnlyPass();
  expect(report.oldestOverdueDeliverySeconds).toBeGreaterThanOrEqual(7_200 - 5);
  expect(report.oldestOverdueDeliverySeconds).toBeLessThanOrEqual(7_200 + 60);
});
