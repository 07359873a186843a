/**
 * Payout money safety through HTTP, on the sandbox (docs/api.md "Payouts", "Sent once, reconciled by reference"):
 * the fault harness's scenarios — storage down before and after the processor call, the process dying between the
 * claim and the call or between the call and its write, the processor timing out after doing the work, duplicate
 * webhooks — and a fast-check property: whatever the interleaving of confirms, keyed retries, cancels, syncs and
 * reconciler passes, a payout is sent at most once, and our status agrees with the sandbox's ledger.
 *
 * Real parts: the local gateway and handlers, DynamoDB Local (the harness's own table, so the reconciler sees only
 * this file's payouts), the sandbox adapter with its ledger in that table. Sends are counted at the adapter
 * (`SandboxPayouts.prototype.sendPayout`) and compared with the ledger (one record per sent reference). Time is the
 * harness's clock: leases and the sandbox's delay pass by moving it.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ConnectorTechnicalError } from '../../shared/connectors/connector';
import { SandboxPayouts, sandboxSendKey } from '../../shared/connectors/sandbox/sandbox-payouts';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { KEYED_RETRY_BOUND_MS } from '../../shared/settings/reconcile-settings';
import { getSandboxDecision } from '../../shared/storage/sandbox-decisions-repository';
import { useFaultHarness } from '../helpers/fault-harness';
import { expectError, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const DELAY_MS = 30_000;
const h = useFaultHarness(400);
const env = scopedEnv();
/** Calls of the sandbox's send, by our reference. */
const sends = new Map<string, number>();
const realSend = SandboxPayouts.prototype.sendPayout;

beforeAll(() => {
  env.set({ SANDBOX_WEBHOOKS: 'off', SANDBOX_WEBHOOK_DELAY_MS: String(DELAY_MS) });
});
afterAll(() => env.restore());
beforeEach(() => {
  sends.clear();
  jest.spyOn(SandboxPayouts.prototype, 'sendPayout').mockImplementation(async function (this: SandboxPayouts, request) {
    sends.set(request.reference, (sends.get(request.reference) ?? 0) + 1);
    return realSend.call(this, request);
  });
});
afterEach(() => jest.restoreAllMocks());

function payoutBody(accountNumber = '0000000000', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 120_000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: { bank: { account_number: accountNumber, bank_code: '058', country: 'NG' } },
    description: 'Vendor payout',
    ...extra,
  };
}

async function created(accountNumber = '0000000000'): Promise<string> {
  const res = await h.api.request('POST', '/payouts', { body: payoutBody(accountNumber) });
  expect(res.status).toBe(200);
  return res.body.payout_id;
}

const confirm = (id: string, idem?: string): Promise<TestResponse> =>
  h.api.request('POST', `/payouts/${id}/confirm`, { body: {}, ...(idem ? { headers: { 'idempotency-key': idem } } : {}) });
const get = async (id: string) => (await h.api.request('GET', `/payouts/${id}`)).body;

/**
 * The ledger invariant of one payout: sent at most once; sent (a ledger record) exactly when our status says it
 * left (`Processing`, `RequiresAction`, `Succeeded`, `Reversed`, or `Failed` by the processor), never for
 * `RequiresConfirmation` or `Cancelled`; nothing left open once reconciled.
 */
async function expectConverged(id: string, options: { open?: boolean } = {}): Promise<Record<string, any>> {
  const p = await get(id);
  const ledger = await getSandboxDecision(sandboxSendKey(id));
  expect(sends.get(id) ?? 0).toBeLessThanOrEqual(1);
  expect(Boolean(ledger)).toBe((sends.get(id) ?? 0) === 1);
  if (['RequiresConfirmation', 'Cancelled'].includes(p.status)) expect(ledger).toBeUndefined();
  if (['Processing', 'RequiresAction', 'Succeeded', 'Reversed'].includes(p.status)) expect(ledger).toBeDefined();
  if (p.status === 'Failed') expect(p.error_code === 'payout_not_sent').toBe(ledger === undefined);
  if (!options.open) expect(p.pending_operation).toBeNull();
  return p;
}

describe('storage faults around the send', () => {
  test('storage down before the processor call: 503, nothing changed, nothing sent; a confirm after it sends once', async () => {
    const id = await created();
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 1, mode: 'outage' });
    const res = await confirm(id);
    expectError(res, 503);
    expect(res.body.error.message).toMatch(/Nothing was changed/);
    h.failStorage(undefined);
    expect((await get(id)).status).toBe('RequiresConfirmation');
    expect(sends.get(id)).toBeUndefined();
    expect((await confirm(id)).body.status).toBe('Processing');
    await h.reconcileLater();
    expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded' });
  });

  test('storage down after the processor call: 503 outcome_unknown; the reconciler records what the sandbox did, never sending again', async () => {
    const id = await created();
    const started = h.clock.now();
    // Write 1 is the claim, write 2 the answer: the table goes down from the answer on.
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 2, times: Number.POSITIVE_INFINITY, mode: 'outage', wholeTable: true });
    const res = await confirm(id);
    expectError(res, 503, 'outcome_unknown');
    expect(sends.get(id)).toBe(1);
    h.storageReturns();
    const pending = await get(id);
    expect(pending).toMatchObject({ status: 'Processing', pending_operation: { operation: 'payout', reference: id } });
    await h.reconcileWithinBound(started);
    const p = await expectConverged(id);
    expect(['Processing', 'Succeeded']).toContain(p.status);
    await h.reconcileLater();
    expect(await expectConverged(id)).toMatchObject({ status: 'Succeeded' });
    expectError(await confirm(id), 409, 'payout_unexpected_state');
    expect(sends.get(id)).toBe(1);
  });

  test('a keyed confirm whose answer was lost: its retry gets the reconciled payout, not a second send', async () => {
    const id = await created('0000000001');
    const idem = randomUUID();
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 2, times: 3, mode: 'outage', wholeTable: true });
    const first = await confirm(id, idem);
    // Storage came back while the request still waited: its claim was handed over, or its answer written after all.
    expect([200, 503]).toContain(first.status);
    const back = h.storageReturns();
    // The retry its answer invites comes within the keyed-retry bound after storage returned.
    h.clock.set(back + KEYED_RETRY_BOUND_MS);
    const retry = await confirm(id, idem);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'Failed', error_code: 'account_closed', pending_operation: null });
    expect(sends.get(id)).toBe(1);
    await expectConverged(id);
  });

  test('the process dies between the call and its write: the reconciler settles it once the lease has ended', async () => {
    const id = await created('0000000003');
    h.failStorage({ command: 'write', pk: '#PAYOUT#', nth: 2, mode: 'killed' });
    const res = await confirm(id);
    expect(res.status).toBeGreaterThanOrEqual(500);
    h.failStorage(undefined);
    expect((await get(id)).pending_operation).not.toBeNull();
    await h.reconcileLater();
    expect(await expectConverged(id)).toMatchObject({ status: 'Reversed' });
  });

  test('the process dies between the claim and the call: nothing was sent, the payout fails payout_not_sent, never sent', async () => {
    const id = await created();
    jest.spyOn(SandboxPayouts.prototype, 'sendPayout').mockImplementation(async () => {
      throw new Error('the process died here (injected)');
    });
    const res = await confirm(id);
    expect(res.status).toBeGreaterThanOrEqual(500);
    await h.reconcileLater();
    const p = await expectConverged(id);
    expect(p).toMatchObject({ status: 'Failed', error_code: 'payout_not_sent' });
  });
});

describe('processor faults', () => {
  test('the processor times out after doing the work: Processing with its claim; the reconciler records the transfer', async () => {
    const id = await created('0000000002');
    jest.spyOn(SandboxPayouts.prototype, 'sendPayout').mockImplementation(async function (this: SandboxPayouts, request) {
      sends.set(request.reference, (sends.get(request.reference) ?? 0) + 1);
      await realSend.call(this, request);
      throw new ConnectorTechnicalError('sandbox', 'The sandbox did not answer in time.');
    });
    const res = await confirm(id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Processing', pending_operation: { state: 'in_progress', operation: 'payout' } });
    // While the lease runs nothing takes it over.
    expect((await h.api.request('GET', `/payouts/${id}?force_sync=true`)).body.pending_operation).not.toBeNull();
    await h.reconcileLater();
    const p = await expectConverged(id);
    expect(p).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp', attempts_remaining: 3 } });
    expect((await h.api.request('POST', `/payouts/${id}/authenticate`, { body: { otp: '123456' } })).body.status).toBe('Succeeded');
    expect(sends.get(id)).toBe(1);
  });
});

describe('webhooks', () => {
  test('duplicate deliveries of one event, at once: applied once, one payout.succeeded', async () => {
    const id = await created();
    const sent = await confirm(id);
    const rawBody = JSON.stringify({
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      type: 'payout.succeeded',
      data: { payout_id: id, transfer_id: sent.body.connector_payout_id },
    });
    const headers = { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) };
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => h.api.request('POST', '/webhooks/sandbox', { raw: rawBody, headers, key: null })),
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
        fc.constantFrom('0000000000', '0000000001', '0000000002', '0000000003'),
        fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (account, rounds, timeout) => {
          sends.clear();
          jest.restoreAllMocks();
          jest.spyOn(SandboxPayouts.prototype, 'sendPayout').mockImplementation(async function (this: SandboxPayouts, request) {
            sends.set(request.reference, (sends.get(request.reference) ?? 0) + 1);
            const answer = await realSend.call(this, request);
            if (timeout) throw new ConnectorTechnicalError('sandbox', 'The sandbox did not answer in time.');
            return answer;
          });
          const id = await created(account);
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
            expect(sends.get(id) ?? 0).toBeLessThanOrEqual(1);
          }
          await h.reconcileLater();
          const p = await expectConverged(id);
          const confirmedFirst = rounds.flat().some((s) => s === 'confirm' || s === 'keyed');
          if (!confirmedFirst) expect(p.status).toMatch(/RequiresConfirmation|Cancelled/);
          h.clock.reset();
        },
      ),
      { numRuns: 20 },
    );
    // 20 runs of up to 4 racing rounds each against DynamoDB Local: about 10 s alone, more on a loaded machine.
  }, 240_000);
});
