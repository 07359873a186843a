/**
 * The outcome counters in DynamoDB Local: one ADD per outcome, spread over write shards, read back per merchant
 * since a bucket, summed per bucket by the snapshot; another merchant's counters are never read.
 */
import { OutcomeSnapshot } from '../../shared/operations/routing/outcome-window';
import { tableOutcomeStore } from '../../shared/operations/routing/routing-outcomes';

const T0 = Date.parse('2026-12-01T10:00:30.000Z');
const seg = 'payment_method=card|currency=NGN';
const mca = 'mca_00000000000000000000000000000001';

test('outcomes are counted per bucket over shards, read back per merchant only', async () => {
  const merchant = `mer_${Date.now().toString(16)}a`;
  const other = `mer_${Date.now().toString(16)}b`;
  for (let i = 0; i < 20; i++) {
    await tableOutcomeStore.record(merchant, {
      merchant_connector_id: mca,
      segment: seg,
      success: i % 4 !== 0,
      at_ms: T0 + i,
      payment_id: `pay_${i}`,
    });
  }
  await tableOutcomeStore.record(merchant, {
    merchant_connector_id: mca,
    segment: seg,
    success: true,
    at_ms: T0 + 60_000,
    payment_id: 'pay_next',
  });
  await tableOutcomeStore.record(other, { merchant_connector_id: mca, segment: seg, success: false, at_ms: T0, payment_id: 'pay_o' });
  const counters = await tableOutcomeStore.counters(merchant, T0 - 60_000);
  expect(new Set(counters.map((c) => c.bucket_start_ms)).size).toBe(2);
  expect(counters.length).toBeGreaterThan(2); // several shards of the first bucket
  const snap = new OutcomeSnapshot(counters);
  expect(snap.window(mca, seg, 1_000, T0 + 60_000)).toMatchObject({ attempts: 21, successes: 16 });
  // since the second bucket only
  expect((await tableOutcomeStore.counters(merchant, T0 + 30_000)).map((c) => c.attempts)).toEqual([1]);
  const others = await tableOutcomeStore.counters(other, T0 - 60_000);
  expect(others.reduce((n, c) => n + c.attempts, 0)).toBe(1);
});
