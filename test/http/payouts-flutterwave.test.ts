/**
 * Payouts as Flutterwave transfers through HTTP (docs/connectors.md "Payouts"), against the Flutterwave stand-in's
 * transfers (test/helpers/flutterwave-stand-in.ts: request bodies checked with flutterwave-node-v3 1.4.1's own joi
 * `transferSchema` / `resolveSchema`, answers in the SDK's documented shapes, a ledger of transfers per account):
 * - every status path: `NEW` → Processing, `transfer.completed` SUCCESSFUL / FAILED webhooks (re-read by id) settle
 *   it, a redelivery changes nothing, a transfer Flutterwave fails at once is Failed with its reason;
 * - mobile money (Ghana MTN, Kenyan M-Pesa) with the wallet in international form;
 * - the faults: storage down before the send (nothing sent), storage down after the send (reconciled by id), a
 *   timeout after Flutterwave made the transfer (reconciled by reference, never sent again), the process dying
 *   between the call and its write, a 500 before the work (payout_not_sent after the window);
 * - a merchant's own Flutterwave account, its webhook on its own route; another merchant cannot settle it;
 * - `POST /payouts/resolve_account` through `POST /v3/accounts/resolve`.
 * Time is driven by a mocked `Date.now` (leases and the not-found window pass by moving it).
 */
import { randomUUID } from 'node:crypto';
import { FLUTTERWAVE_TRANSFER_WINDOW_MS } from '../../shared/connectors/flutterwave/transfers';
import { CLAIM_LEASE_MS } from '../../shared/domain/pending-operation';
import { type FlutterwaveStandIn, flutterwaveEnv, startFlutterwaveStandIn } from '../helpers/flutterwave-stand-in';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

const env = scopedEnv();
let api: LocalApi;
let flw: FlutterwaveStandIn;
let offset = 0;
const realNow = Date.now.bind(Date);

beforeAll(async () => {
  flw = await startFlutterwaveStandIn();
  env.set({
    ...flutterwaveEnv(flw, { timeoutMs: 500 }),
    ROUTING_RULES: JSON.stringify([
      { currency: 'NGN', connectors: ['flutterwave'] },
      { currency: 'GHS', connectors: ['flutterwave'] },
      { currency: 'KES', connectors: ['flutterwave'] },
      { connectors: ['sandbox'] },
    ]),
  });
  api = await startLocalApi();
});
afterAll(async () => {
  env.restore();
  await api.close();
  await flw.close();
});
beforeEach(() => {
  offset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());

function payout(accountNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 550_000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: { bank: { account_number: accountNumber, bank_code: '044', country: 'NG', account_name: 'Tolu Robert' } },
    description: 'Rider payout',
    confirm: true,
    ...extra,
  };
}

/** The stand-in's `POST /v3/transfers` requests carrying this reference. */
const sendsOf = (reference: string) =>
  flw.requests.filter((r) => r.method === 'POST' && r.path === '/v3/transfers' && r.reference === reference);
const webhook = (raw: { rawBody: string; headers: Record<string, string> }, path = '/webhooks/flutterwave', key?: string | null) =>
  api.request('POST', path, { raw: raw.rawBody, headers: raw.headers, key: key === undefined ? null : key });

describe('status paths', () => {
  test('NEW → Processing under our reference in major units; SUCCESSFUL by webhook, once; the fee in minor units', async () => {
    const res = await api.request('POST', '/payouts', { body: payout('0690000040') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Processing', connector: 'flutterwave', connector_payout_id: expect.stringMatching(/^\d+$/) });
    const id = res.body.payout_id;
    const sent = sendsOf(id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.schemaErrors).toEqual([]);
    expect(flw.transfersOf(flw.secretKey)[id]).toMatchObject({
      amount: 5500,
      currency: 'NGN',
      accountBank: '044',
      status: 'NEW',
      narration: 'Rider payout',
    });
    const done = flw.settleTransfer(flw.secretKey, id, 'SUCCESSFUL');
    expect((await webhook(done)).body).toMatchObject({ applied: true, status: 'Succeeded' });
    expect((await webhook(done)).body.applied).toBe(false);
    expect((await api.request('GET', `/payouts/${id}`)).body).toMatchObject({ status: 'Succeeded', fee: 2688 });
  });

  test('a transfer Flutterwave fails at once is Failed with its reason; FAILED by webhook fails a queued one', async () => {
    const failed = await api.request('POST', '/payouts', { body: payout('0000000001') });
    expect(failed.body).toMatchObject({
      status: 'Failed',
      error_code: 'transfer_failed',
      error_message: expect.stringMatching(/Insufficient wallet balance/),
    });
    const queued = await api.request('POST', '/payouts', { body: payout('0690000041') });
    const back = flw.settleTransfer(flw.secretKey, queued.body.payout_id, 'FAILED');
    expect((await webhook(back)).body).toMatchObject({ applied: true, status: 'Failed' });
  });

  test('a webhook with a wrong verif-hash is 401 and changes nothing; one naming no payout of ours is ignored', async () => {
    const res = await api.request('POST', '/payouts', { body: payout('0690000042') });
    const done = flw.settleTransfer(flw.secretKey, res.body.payout_id, 'SUCCESSFUL');
    expectError(await webhook({ rawBody: done.rawBody, headers: { ...done.headers, 'verif-hash': 'wrong' } }), 401);
    expect((await api.request('GET', `/payouts/${res.body.payout_id}`)).body.status).toBe('Processing');
    const foreign = JSON.parse(done.rawBody);
    foreign.data.reference = 'their-own-transfer-1';
    const ignored = await webhook({ rawBody: JSON.stringify(foreign), headers: done.headers });
    expect(ignored.body).toMatchObject({ applied: false });
  });

  test('a webhook whose status the transfer does not have at Flutterwave applies what Flutterwave says', async () => {
    const res = await api.request('POST', '/payouts', { body: payout('0690000043') });
    const id = res.body.payout_id;
    const forged = flw.settleTransfer(flw.secretKey, id, 'SUCCESSFUL');
    // Flutterwave's own record says FAILED: the re-read wins over the body.
    flw.settleTransfer(flw.secretKey, id, 'FAILED');
    expect((await webhook(forged)).body).toMatchObject({ applied: true, status: 'Failed' });
  });

  test.each([
    ['GHS', { phone: '+233542773934', network: 'mtn' }, 'MTN', '233542773934'],
    ['KES', { phone: '+254712345678', network: 'mpesa' }, 'MPS', '254712345678'],
  ])('%s mobile money: account_bank %s, the wallet in international form', async (currency, mobile_money, bank, number) => {
    const res = await api.request('POST', '/payouts', {
      body: { ...payout('x'), currency, payout_type: 'mobile_money', payout_method_data: { mobile_money } },
    });
    expect(res.body).toMatchObject({ status: 'Processing', connector: 'flutterwave' });
    expect(sendsOf(res.body.payout_id)[0]!.schemaErrors).toEqual([]);
    expect(flw.transfersOf(flw.secretKey)[res.body.payout_id]).toMatchObject({ accountBank: bank, accountNumber: number, currency });
  });

  test('resolve_account through POST /v3/accounts/resolve; an unknown account is 400 account_not_resolved', async () => {
    const ok = await api.request('POST', '/payouts/resolve_account', {
      body: { country: 'NG', bank_code: '044', account_number: '0690000032' },
    });
    expect(ok.body).toMatchObject({ account_name: 'STAND-IN HOLDER 0032', connector: 'flutterwave' });
    expect(flw.requests.at(-1)).toMatchObject({ path: '/v3/accounts/resolve', schemaErrors: [] });
    const unknown = await api.request('POST', '/payouts/resolve_account', {
      body: { country: 'NG', bank_code: '044', account_number: '0000000001' },
    });
    expectError(unknown, 400, 'account_not_resolved');
  });
});

describe('faults', () => {
  test('a timeout after Flutterwave made the transfer: Processing with its claim, found by reference, never sent again', async () => {
    flw.failNext({ method: 'POST', path: '/v3/transfers' }, 'hang_after_work');
    const idem = randomUUID();
    const res = await api.request('POST', '/payouts', { body: payout('0690000044'), headers: { 'idempotency-key': idem } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Processing', connector_payout_id: null, pending_operation: { state: 'in_progress' } });
    const id = res.body.payout_id;
    expect(flw.transfersOf(flw.secretKey)[id]).toBeDefined();
    offset += CLAIM_LEASE_MS + 1_000;
    const synced = await api.request('GET', `/payouts/${id}?force_sync=true`);
    expect(synced.body).toMatchObject({
      status: 'Processing',
      pending_operation: null,
      connector_payout_id: expect.stringMatching(/^\d+$/),
    });
    expect(flw.requests.some((r) => r.path === '/v3/transfers' && r.method === 'GET' && r.query === `?reference=${id}`)).toBe(true);
    const retry = await api.request('POST', '/payouts', { body: payout('0690000044'), headers: { 'idempotency-key': idem } });
    expect(retry.body.payout_id).toBe(id);
    expectError(await api.request('POST', `/payouts/${id}/confirm`), 409, 'payout_unexpected_state');
    // Settled later: by id now that it is known.
    flw.settleTransfer(flw.secretKey, id, 'SUCCESSFUL');
    expect((await api.request('GET', `/payouts/${id}?force_sync=true`)).body.status).toBe('Succeeded');
    expect(sendsOf(id)).toHaveLength(1);
  });

  test('a 500 before the work: Processing until the window has passed, then Failed payout_not_sent; nothing at Flutterwave', async () => {
    flw.failNext({ method: 'POST', path: '/v3/transfers' }, 'error_500_before_work');
    const res = await api.request('POST', '/payouts', { body: payout('0690000045') });
    expect(res.body.status).toBe('Processing');
    const id = res.body.payout_id;
    offset += CLAIM_LEASE_MS + 1_000;
    // Not visible yet within the window: the processor cannot say, the payout stays as it is.
    expectError(await api.request('GET', `/payouts/${id}?force_sync=true`), 502);
    expect((await api.request('GET', `/payouts/${id}`)).body.status).toBe('Processing');
    offset += FLUTTERWAVE_TRANSFER_WINDOW_MS;
    const synced = await api.request('GET', `/payouts/${id}?force_sync=true`);
    expect(synced.body).toMatchObject({ status: 'Failed', error_code: 'payout_not_sent' });
    expect(flw.transfersOf(flw.secretKey)[id]).toBeUndefined();
  });

  test('a Flutterwave refusal (4xx) fails the payout with nothing sent and gives the day its amount back', async () => {
    const res = await api.request('POST', '/payouts', {
      body: {
        ...payout('x'),
        currency: 'GHS',
        payout_type: 'mobile_money',
        payout_method_data: { mobile_money: { phone: '+233542773935', network: 'mpesa' } },
      },
    });
    expect(res.body).toMatchObject({ status: 'Failed', error_code: 'payout_not_supported' });
    expect(flw.transfersOf(flw.secretKey)[res.body.payout_id]).toBeUndefined();
  });
});

describe("a merchant's own Flutterwave account", () => {
  test('routing picks it; its webhook on its own route settles it; another merchant cannot see or settle it', async () => {
    const account = flw.addAccount();
    const key = await api.newMerchantKey();
    const connected = await api.request('POST', '/connector_accounts', {
      key,
      body: {
        connector_name: 'flutterwave',
        connector_account_details: { api_key: account.secretKey, key1: account.encryptionKey },
        connector_webhook_details: { merchant_secret: account.webhookHash },
      },
    });
    expect(connected.body).toMatchObject({ connector_name: 'flutterwave' });
    const mca = connected.body.merchant_connector_id;
    const res = await api.request('POST', '/payouts', { key, body: payout('0690000046') });
    expect(res.body).toMatchObject({ status: 'Processing', connector: 'flutterwave', merchant_connector_id: mca });
    const id = res.body.payout_id;
    expect(flw.transfersOf(account.secretKey)[id]).toBeDefined();
    expect(flw.transfersOf(flw.secretKey)[id]).toBeUndefined();
    const other = await api.newMerchantKey();
    expectError(await api.request('GET', `/payouts/${id}`, { key: other }), 404);
    const done = flw.settleTransfer(account.secretKey, id, 'SUCCESSFUL');
    // The stage's route (the platform's hash) refuses the account's hash.
    expectError(await webhook(done), 401);
    expect((await webhook(done, `/webhooks/flutterwave/${mca}`)).body).toMatchObject({ applied: true, status: 'Succeeded' });
    expect((await api.request('GET', `/payouts/${id}`, { key })).body.status).toBe('Succeeded');
  });
});
