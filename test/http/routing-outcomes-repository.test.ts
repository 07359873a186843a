/**
 * The outcome counters in DynamoDB Local: one ADD per outcome, spread over write shards, read back per merchant
 * since a bucket, summed per bucket by the snapshot; another merchant's counters are never read. What a settled
 * payment counts (its routed try at its account, approved or declined) and what it does not.
 */
import type { Attempt, Payment } from '../../shared/domain/payment';
import { OutcomeSnapshot } from '../../shared/operations/routing/outcome-window';
import { countPaymentOutcome, tableOutcomeStore } from '../../shared/operations/routing/routing-outcomes';

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

describe('countPaymentOutcome: what a settled payment counts', () => {
  const A = 'mca_0000000000000000000000000000000a';
  const B = 'mca_0000000000000000000000000000000b';
  const attempt = (
    id: string,
    status: Payment['status'],
    segment: string | null,
    approach: Attempt['routing_approach'] = 'success_rate_exploit',
  ): Attempt => ({
    attempt_id: `att_${Math.random().toString(16).slice(2)}`,
    connector: 'stripe',
    merchant_connector_id: id,
    status,
    connector_transaction_id: null,
    error_code: null,
    error_message: null,
    routing_approach: segment ? approach : null,
    routing_segment: segment,
    created_at: new Date(T0).toISOString(),
  });
  const payment = (status: Payment['status'], mca: string, attempts: Attempt[]) =>
    ({ payment_id: `pay_${Math.random().toString(16).slice(2)}`, status, merchant_connector_id: mca, attempts }) as unknown as Payment;
  const total = async (merchant: string) => {
    const snap = new OutcomeSnapshot(await tableOutcomeStore.counters(merchant, T0 - 60_000));
    return { a: snap.window(A, seg, 1_000, T0), b: snap.window(B, seg, 1_000, T0) };
  };

  test('the routed try at the payment’s account counts once settled; a sync’s own attempt after it does not hide it', async () => {
    const merchant = `mer_${Date.now().toString(16)}c`;
    await countPaymentOutcome(merchant, payment('Succeeded', A, [attempt(A, 'Processing', seg), attempt(A, 'Succeeded', null)]), T0);
    await countPaymentOutcome(merchant, payment('Failed', B, [attempt(A, 'Failed', seg), attempt(B, 'Failed', seg, 'auto_retry')]), T0);
    expect(await total(merchant)).toMatchObject({ a: { attempts: 1, successes: 1 }, b: { attempts: 1, successes: 0 } });
  });

  test('nothing counts for a payment not settled, a try success rate did not choose, or a refused request', async () => {
    const merchant = `mer_${Date.now().toString(16)}d`;
    await countPaymentOutcome(merchant, payment('Processing', A, [attempt(A, 'Processing', seg)]), T0);
    await countPaymentOutcome(merchant, payment('RequiresAction', A, [attempt(A, 'RequiresAction', seg)]), T0);
    await countPaymentOutcome(merchant, payment('Succeeded', A, [attempt(A, 'Succeeded', null)]), T0);
    await countPaymentOutcome(merchant, payment('Failed', A, [attempt(A, 'Failed', null)]), T0);
    expect(await total(merchant)).toMatchObject({ a: { attempts: 0 }, b: { attempts: 0 } });
  });
});
