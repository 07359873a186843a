/**
 * The sharded daily payout limit (shared/storage/payout-daily-limit.ts, docs/api.md "Payouts" limits) through HTTP,
 * against DynamoDB Local and the sandbox: a fast-check property over racing confirms of payouts of random amounts —
 * most larger than one shard's allowance, so they spread over several shards — and processor failures that give
 * their parts back:
 * - the day's total (the sum of the shards) never exceeds the limit, each shard stays within its allowance, and the
 *   shards hold exactly the amounts of the payouts that were sent and did not fail;
 * - a refusal is always `payout_limit_exceeded` with nothing sent;
 * - once the racing is over, a payout is accepted exactly when it fits in the room left (rebalancing over the shards
 *   loses no room to fragmentation).
 * Plus the plan itself (`planSpread`) as a pure property. Each run uses a merchant of its own (its own day totals).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { storageRetryTimer } from '../../shared/operations/storage-retry';
import { putApiKey } from '../../shared/storage/api-keys-repository';
import { PAYOUT_LIMIT_SHARDS, planSpread, readShardTotals, shardAllowances } from '../../shared/storage/payout-daily-limit';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const LIMIT = 1_000;
const env = scopedEnv();
let api: LocalApi;

beforeAll(async () => {
  env.set({ PAYOUT_DAILY_LIMITS: JSON.stringify({ NGN: LIMIT }), SANDBOX_WEBHOOKS: 'off' });
  api = await startLocalApi();
});
afterAll(async () => {
  env.restore();
  await api.close();
});

const utcDay = () => new Date().toISOString().slice(0, 10);

async function newMerchant(): Promise<{ id: string; key: string }> {
  const id = `mer_${randomUUID().replace(/-/g, '')}`;
  const key = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(key, id, 'test');
  return { id, key };
}

async function created(key: string, amount: number, fails: boolean): Promise<string> {
  const res = await api.request('POST', '/payouts', {
    key,
    body: {
      amount,
      currency: 'NGN',
      payout_type: 'bank',
      // The sandbox fails 0000000001 at once (its reservation given back); 0000000000 stays Processing here.
      payout_method_data: { bank: { account_number: fails ? '0000000001' : '0000000000', bank_code: '058', country: 'NG' } },
      description: 'Vendor payout',
    },
  });
  expect(res.status).toBe(200);
  return res.body.payout_id;
}

/** The amounts the day holds: payouts that left RequiresConfirmation and did not fail. */
async function held(key: string, ids: readonly string[], amounts: readonly number[]): Promise<number> {
  let sum = 0;
  for (const [i, id] of ids.entries()) {
    const p = (await api.request('GET', `/payouts/${id}`, { key })).body;
    if (p.status !== 'RequiresConfirmation' && p.status !== 'Failed') sum += amounts[i]!;
  }
  return sum;
}

test('plan: a spread takes exactly the amount, never past a shard allowance, and exists exactly when the room is enough', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 5_000 }),
      fc.array(fc.integer({ min: 0, max: 900 }), { minLength: PAYOUT_LIMIT_SHARDS, maxLength: PAYOUT_LIMIT_SHARDS }),
      fc.integer({ min: 1, max: 2_000 }),
      fc.integer({ min: 0, max: PAYOUT_LIMIT_SHARDS - 1 }),
      (max, rawTotals, amount, home) => {
        const allowances = shardAllowances(max);
        expect(allowances.reduce((a, b) => a + b, 0)).toBe(max);
        const totals = rawTotals.map((t, i) => Math.min(t, allowances[i]!));
        const room = allowances.reduce((a, b, i) => a + b - totals[i]!, 0);
        const parts = planSpread(amount, allowances, totals, home);
        expect(parts !== null).toBe(amount <= room);
        if (parts) {
          expect(Object.values(parts).reduce((a, b) => a + b, 0)).toBe(amount);
          for (const [shard, part] of Object.entries(parts))
            expect(totals[Number(shard)]! + part).toBeLessThanOrEqual(allowances[Number(shard)]!);
        }
      },
    ),
  );
});

test('racing confirms never take the day past its limit; the shards hold exactly what was sent; afterwards every fitting payout is accepted', async () => {
  // A confirm refused for the limit never waits on storage; keep any storage retry from sleeping for real.
  jest.spyOn(storageRetryTimer, 'wait').mockResolvedValue(undefined);
  const allowances = shardAllowances(LIMIT);
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ amount: fc.integer({ min: 1, max: 450 }), fails: fc.boolean() }), { minLength: 2, maxLength: 7 }),
      async (sends) => {
        const merchant = await newMerchant();
        const ids = await Promise.all(sends.map((s) => created(merchant.key, s.amount, s.fails)));
        const amounts = sends.map((s) => s.amount);
        const answers = await Promise.all(ids.map((id) => api.request('POST', `/payouts/${id}/confirm`, { key: merchant.key, body: {} })));
        for (const a of answers) {
          if (a.status !== 200) expectError(a, 400, 'payout_limit_exceeded');
        }
        const totals = await readShardTotals(merchant.id, utcDay(), 'NGN');
        const sum = totals.reduce((a, b) => a + b, 0);
        for (const [i, t] of totals.entries()) expect(t).toBeLessThanOrEqual(allowances[i]!);
        expect(sum).toBeLessThanOrEqual(LIMIT);
        expect(sum).toBe(await held(merchant.key, ids, amounts));
        // Sequentially now: a refused payout is accepted exactly when it fits in the room left.
        for (const [i, id] of ids.entries()) {
          if (answers[i]!.status === 200) continue;
          const before = (await readShardTotals(merchant.id, utcDay(), 'NGN')).reduce((a, b) => a + b, 0);
          const again = await api.request('POST', `/payouts/${id}/confirm`, { key: merchant.key, body: {} });
          expect(again.status === 200).toBe(amounts[i]! <= LIMIT - before);
        }
        const after = await readShardTotals(merchant.id, utcDay(), 'NGN');
        expect(after.reduce((a, b) => a + b, 0)).toBe(await held(merchant.key, ids, amounts));
      },
    ),
    { numRuns: 10 },
  );
}, 240_000);
