/**
 * Payout money safety on Flutterwave transfers through HTTP (docs/api.md "Sent once, reconciled by reference"), as
 * test/http/payouts-faults.test.ts does on the sandbox: storage down before and after the processor call, the process
 * dying between the claim and the call or between the call and its write, duplicate webhooks at once, and a fast-check property — whatever the
 * interleaving of confirms, keyed retries, cancels, syncs and reconciler passes, with or without Flutterwave timing
 * out after doing the work, a payout is sent at most once and our status agrees with Flutterwave's ledger.
 *
 * Real parts: the local gateway and handlers, DynamoDB Local (the harness's own table), the Flutterwave adapter
 * against the Flutterwave stand-in (test/helpers/flutterwave-stand-in.ts) on the harness merchant's own Flutterwave
 * account. Sends are counted at the stand-in (`POST /v3/transfers` requests by reference) and compared with its
 * ledger. Time is the harness's clock.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FlutterwaveTransfers } from '../../shared/connectors/flutterwave/transfers';
import { useFaultHarness } from '../helpers/fault-harness';
import { type FlutterwaveStandIn, type FlutterwaveStandInAccount, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';
import { expectError, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const h = useFaultHarness(400);
const env = scopedEnv();
let flw: FlutterwaveStandIn;
let account: FlutterwaveStandInAccount;
let mca: string;

beforeAll(async () => {
  flw = await startFlutterwaveStandIn();
  env.set({ FLUTTERWAVE_BASE_URL: flw.url });
  account = flw.addAccount();
  const connected = await h.api.request('POST', '/connector_accounts', {
    body: {
      connector_name: 'flutterwave',
      connector_account_details: { api_key: account.secretKey, key1: account.encryptionKey },
      connector_webhook_details: { merchant_secret: account.webhookHash },
    },
  });
  expect(connected.status).toBe(200);
  mca = connected.body.merchant_connector_id;
});
afterAll(async () => {
  env.restore();
  await flw.close();
});

async function created(accountNumber = '0690000040'): Promise<string> {
  const res = await h.api.request('POST', '/payouts', {
    body: {
      amount: 120_000,
      currency: 'NGN',
      payout_type: 'bank',
      payout_method_data: { bank: { account_number: accountNumber, bank_code: '044', country: 'NG' } },
      description: 'Vendor payout',
    },
  });
  expect(res.body).toMatchObject({ status: 'RequiresConfirmation', connector: 'flutterwave', merchant_connector_id: mca });
  return res.body.payout_id;
}

const confirm = (id: string, idem?: string): Promise<TestResponse> =>
  h.api.request('POST', `/payouts/${id}/confirm`, { body: {}, ...(idem ? { headers: { 'idempotency-key': idem } } : {}) });
const get = async (id: string) => (await h.api.request('GET', `/payouts/${id}`)).body;
const sends = (id: string) => flw.requests.filter((r) => r.method === 'POST' && r.path === '/v3/transfers' && r.reference === id).length;

/**
 * The ledger invariant of one payout: sent at most once; a transfer at Flutterwave exactly when our status says it
 * left (`Processing`, `Succeeded`, or `Failed` by Flutterwave), never for `RequiresConfirmation` or `Cancelled`.
 */
async function expectConverged(id: string): Promise<Record<string, any>> {
  const p = await get(id);
  const transfer = flw.transfersOf(account.secretKey)[id];
  expect(sends(id)).toBeLessThanOrEqual(1);
  if (['RequiresConfirmation', 'Cancelled'].includes(p.status)) expect(transfer).toBeUndefined();
  if (['Processing', 'Succeeded'].includes(p.status)) expect(transfer).toBeDefined();
  if (p.status === 'Failed') expect(p.error_code === 'payout_not_sent').toBe(transfer === undefined);
  expect(p.pending_operation).toBeNull();
  return p;
}

describe('storage faults around the send', () => {
  test('storage down before the call: 503, nothing changed, nothing sent; a confirm after it sends once', async () => {
    const id = await created();
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 1, mode: 'outage' });
    const res = await confirm(id);
    expectError(res, 503);
    expect(res.body.error.message).toMatch(/Nothing was changed/);
    h.failStorage(undefined);
    expect((await get(id)).status).toBe('RequiresConfirmation');
    expect(sends(id)).toBe(0);
    expect((await confirm(id)).body.status).toBe('Processing');
    await h.reconcileLater();
    expect(await expectConverged(id)).toMatchObject({ status: 'Processing', connector_payout_id: expect.stringMatching(/^\d+$/) });
  });

  test('storage down after the call: 503 outcome_unknown; the reconciler records the transfer by reference, never sending again', async () => {
    const id = await created();
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 2, times: Number.POSITIVE_INFINITY, mode: 'outage', wholeTable: true });
    expectError(await confirm(id), 503, 'outcome_unknown');
    expect(sends(id)).toBe(1);
    h.storageReturns();
    expect(await get(id)).toMatchObject({ status: 'Processing', pending_operation: { operation: 'payout', reference: id } });
    await h.reconcileLater();
    const p = await expectConverged(id);
    expect(p.connector_payout_id).toBe(String(flw.transfersOf(account.secretKey)[id]!.id));
    expectError(await confirm(id), 409, 'payout_unexpected_state');
    expect(sends(id)).toBe(1);
  });

  test('the process dies between the call and its write: the reconciler settles it once the lease has ended', async () => {
    const id = await created('0000000001');
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 2, mode: 'killed' });
    expect((await confirm(id)).status).toBeGreaterThanOrEqual(500);
    h.failStorage(undefined);
    expect((await get(id)).pending_operation).not.toBeNull();
    await h.reconcileLater();
    expect(await expectConverged(id)).toMatchObject({ status: 'Failed', error_code: 'transfer_failed' });
    expect(sends(id)).toBe(1);
  });
});

test('the process dies between the claim and the call: nothing at Flutterwave; after the window the payout fails payout_not_sent, never sent', async () => {
  const id = await created();
  jest.spyOn(FlutterwaveTransfers.prototype, 'sendPayout').mockImplementationOnce(async () => {
    throw new Error('the process died here (injected)');
  });
  expect((await confirm(id)).status).toBeGreaterThanOrEqual(500);
  jest.restoreAllMocks();
  // The reconciler looks the transfer up by reference (none) once the lease and Flutterwave's window have passed.
  await h.reconcileLater();
  expect(await expectConverged(id)).toMatchObject({ status: 'Failed', error_code: 'payout_not_sent' });
  expect(flw.requests.some((r) => r.method === 'GET' && r.path === '/v3/transfers' && r.query === `?reference=${id}`)).toBe(true);
  expect(sends(id)).toBe(0);
});

describe('webhooks', () => {
  test('duplicate deliveries of one transfer.completed, at once: applied once, one payout.succeeded', async () => {
    const id = await created();
    expect((await confirm(id)).body.status).toBe('Processing');
    const { rawBody, headers } = flw.settleTransfer(account.secretKey, id, 'SUCCESSFUL');
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => h.api.request('POST', `/webhooks/flutterwave/${mca}`, { raw: rawBody, headers, key: null })),
    );
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(answers.filter((a) => a.body.applied === true)).toHaveLength(1);
    const events = (await h.api.request('GET', '/events?type=payout.succeeded&limit=100')).body.data as { data: { payout_id: string } }[];
    expect(events.filter((e) => e.data.payout_id === id)).toHaveLength(1);
    expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded' });
  });
});

describe('property: one send per payout', () => {
  type Step = 'confirm' | 'keyed' | 'cancel' | 'sync' | 'reconcile';
  const step = fc.constantFrom<Step>('confirm', 'keyed', 'cancel', 'sync', 'reconcile');

  test('racing confirms, keyed retries, cancels, syncs and reconciler passes send each payout at most once', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('0690000040', '0000000001'),
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (accountNumber, rounds, timeout) => {
          flw.reset();
          if (timeout) flw.failNext({ method: 'POST', path: '/v3/transfers', secretKey: account.secretKey }, 'hang_after_work');
          const id = await created(accountNumber);
          const idem = randomUUID();
          for (const round of rounds) {
            // One round's requests race each other.
            await Promise.all(
              round.map(async (s) => {
                if (s === 'confirm') return confirm(id);
                if (s === 'keyed') return confirm(id, idem);
                if (s === 'cancel') return h.api.request('POST', `/payouts/${id}/cancel`);
                if (s === 'sync') return h.api.request('GET', `/payouts/${id}?force_sync=true`);
                return h.reconcileLater(60_000);
              }),
            );
            expect(sends(id)).toBeLessThanOrEqual(1);
          }
          await h.reconcileLater();
          const p = await expectConverged(id);
          if (!rounds.flat().some((s) => s === 'confirm' || s === 'keyed')) expect(p.status).toMatch(/RequiresConfirmation|Cancelled/);
          h.clock.reset();
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});
