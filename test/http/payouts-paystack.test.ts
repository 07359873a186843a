/**
 * Payouts as Paystack transfers through HTTP (docs/connectors.md "Payouts"), against the loopback transfer
 * stand-in (test/helpers/paystack-transfers-stand-in.ts: request bodies checked against PaystackOSS/openapi, answers
 * from PaystackOSS/doc-code-snippets, a ledger of the transfers it made):
 * - a transfer under our payout id as its reference, its recipient created once per destination and account;
 * - `transfer.success` / `transfer.failed` / `transfer.reversed` webhooks settle it, a redelivery changes nothing;
 * - an account with transfer OTP on: `RequiresAction`, a wrong OTP counted, the right one finalizes it;
 * - a timeout after Paystack made the transfer: the payout keeps its claim and is reconciled by reference
 *   (`GET /transfer/verify/:reference`), never sent again;
 * - `POST /payouts/resolve_account` through `GET /bank/resolve`; a Stripe account answers `payout_not_supported`.
 */
import { randomUUID } from 'node:crypto';
import { CLAIM_LEASE_MS } from '../../shared/domain/pending-operation';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { type PaystackTransfersStandIn, startPaystackTransfersStandIn } from '../helpers/paystack-transfers-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackTransfersStandIn;
let stripe: StripeStandIn;
let offset = 0;
const realNow = Date.now.bind(Date);

beforeAll(async () => {
  paystack = await startPaystackTransfersStandIn();
  stripe = await startStripeStandIn();
  env.set({
    STRIPE_BASE_URL: stripe.url,
    PAYSTACK_SECRET_KEY: paystack.secretKey,
    PAYSTACK_BASE_URL: paystack.url,
    CONNECTOR_TIMEOUT_MS: '500',
    ROUTING_RULES: JSON.stringify([{ currency: 'NGN', connectors: ['paystack'] }, { connectors: ['sandbox'] }]),
  });
  api = await startLocalApi();
});
afterAll(async () => {
  env.restore();
  await api.close();
  await paystack.close();
  await stripe.close();
});
beforeEach(() => {
  offset = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
});
afterEach(() => jest.restoreAllMocks());

function payout(accountNumber: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 500_000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: { bank: { account_number: accountNumber, bank_code: '058', country: 'NG', account_name: 'Tolu Robert' } },
    description: 'Seller payout',
    confirm: true,
    ...extra,
  };
}

/** Stand-in requests of one path, by method. */
const calls = (method: string, path: string) => paystack.requests.filter((r) => r.method === method && r.path === path);

test('a transfer under our reference; one recipient per destination; transfer.success settles it once', async () => {
  const recipientsBefore = calls('POST', '/transferrecipient').length;
  const first = await api.request('POST', '/payouts', { body: payout('0123456789') });
  const second = await api.request('POST', '/payouts', { body: payout('0123456789') });
  for (const res of [first, second]) {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Processing', connector: 'paystack', connector_payout_id: expect.stringMatching(/^TRF_/) });
  }
  expect(calls('POST', '/transferrecipient').length - recipientsBefore).toBe(1);
  expect(paystack.requests.every((r) => r.schemaErrors === null)).toBe(true);
  const transfer = paystack.transfersOf(paystack.secretKey)[first.body.payout_id];
  expect(transfer).toMatchObject({ amount: 500_000, currency: 'NGN', status: 'pending', reason: 'Seller payout' });
  const { rawBody, headers } = paystack.settle(paystack.secretKey, first.body.payout_id, 'success');
  const applied = await api.request('POST', '/webhooks/paystack', { raw: rawBody, headers, key: null });
  expect(applied.body).toMatchObject({ applied: true, status: 'Succeeded' });
  const again = await api.request('POST', '/webhooks/paystack', { raw: rawBody, headers, key: null });
  expect(again.body.applied).toBe(false);
  expect((await api.request('GET', `/payouts/${first.body.payout_id}`)).body).toMatchObject({ status: 'Succeeded', fee: 1000 });
  const reversed = paystack.settle(paystack.secretKey, first.body.payout_id, 'reversed');
  const back = await api.request('POST', '/webhooks/paystack', { raw: reversed.rawBody, headers: reversed.headers, key: null });
  expect(back.body).toMatchObject({ applied: true, status: 'Reversed' });
});

test('a transfer Paystack fails at once is Failed with its reason; transfer.failed on a pending one fails it', async () => {
  const failed = await api.request('POST', '/payouts', { body: payout('0000000001') });
  expect(failed.body).toMatchObject({ status: 'Failed', error_code: 'transfer_failed' });
  const pending = await api.request('POST', '/payouts', { body: payout('0123456780') });
  const { rawBody, headers } = paystack.settle(paystack.secretKey, pending.body.payout_id, 'failed');
  expect((await api.request('POST', '/webhooks/paystack', { raw: rawBody, headers, key: null })).body.status).toBe('Failed');
});

test('transfer OTP on: RequiresAction, a wrong OTP counted, the right one finalizes the transfer', async () => {
  const key = await api.newMerchantKey();
  const connected = await api.request('POST', '/connector_accounts', {
    key,
    body: { connector_name: 'paystack', connector_account_details: { api_key: paystack.otpKey } },
  });
  expect(connected.status).toBe(200);
  const mca = connected.body.merchant_connector_id;
  const res = await api.request('POST', '/payouts', { key, body: payout('0123456781', { merchant_connector_id: mca }) });
  expect(res.body).toMatchObject({ status: 'RequiresAction', merchant_connector_id: mca, next_action: { type: 'submit_otp' } });
  const id = res.body.payout_id;
  const wrong = await api.request('POST', `/payouts/${id}/authenticate`, { key, body: { otp: '654321' } });
  expect(wrong.body).toMatchObject({ status: 'RequiresAction', error_code: 'invalid_otp', next_action: { attempts_remaining: 2 } });
  const right = await api.request('POST', `/payouts/${id}/authenticate`, { key, body: { otp: '123456' } });
  expect(right.body).toMatchObject({ status: 'Processing', next_action: null });
  expect(paystack.transfersOf(paystack.otpKey)[id]?.status).toBe('pending');
  expect(JSON.stringify(paystack.requests)).not.toContain('654321');
  expect(paystack.transfersOf(paystack.secretKey)[id]).toBeUndefined();
});

test('a timeout after Paystack made the transfer: Processing with its claim, reconciled by reference, never sent again', async () => {
  paystack.failNext('/transfer', 'hang_after_work');
  const idem = randomUUID();
  const res = await api.request('POST', '/payouts', { body: payout('0123456782'), headers: { 'idempotency-key': idem } });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'Processing', connector_payout_id: null, pending_operation: { state: 'in_progress' } });
  const id = res.body.payout_id;
  expect(paystack.transfersOf(paystack.secretKey)[id]).toBeDefined();
  offset += CLAIM_LEASE_MS + 1_000;
  const synced = await api.request('GET', `/payouts/${id}?force_sync=true`);
  expect(synced.body).toMatchObject({ status: 'Processing', pending_operation: null, connector_payout_id: expect.stringMatching(/^TRF_/) });
  const retry = await api.request('POST', '/payouts', { body: payout('0123456782'), headers: { 'idempotency-key': idem } });
  expect(retry.body.payout_id).toBe(id);
  expectError(await api.request('POST', `/payouts/${id}/confirm`), 409, 'payout_unexpected_state');
  expect(calls('POST', '/transfer').filter((r) => r.body?.reference === id)).toHaveLength(1);
});

test('a transfer Paystack never made (500 before the work) is Failed payout_not_sent once its window has passed', async () => {
  paystack.failNext('/transfer', 'error_500_before_work');
  const res = await api.request('POST', '/payouts', { body: payout('0123456783') });
  expect(res.body.status).toBe('Processing');
  const id = res.body.payout_id;
  offset += 5 * 60_000;
  const synced = await api.request('GET', `/payouts/${id}?force_sync=true`);
  expect(synced.body).toMatchObject({ status: 'Failed', error_code: 'payout_not_sent' });
  expect(paystack.transfersOf(paystack.secretKey)[id]).toBeUndefined();
});

test('resolve_account through GET /bank/resolve; an unknown account is 400 account_not_resolved', async () => {
  const ok = await api.request('POST', '/payouts/resolve_account', {
    body: { country: 'NG', bank_code: '058', account_number: '0123456789' },
  });
  expect(ok.body).toMatchObject({ account_name: 'STAND-IN HOLDER 6789', connector: 'paystack' });
  const unknown = await api.request('POST', '/payouts/resolve_account', {
    body: { country: 'NG', bank_code: '058', account_number: '0000000001' },
  });
  expectError(unknown, 400, 'account_not_resolved');
});

test('a Stripe account cannot send payouts: pinned, 400 payout_not_supported saying why; routing passes it over', async () => {
  const key = await api.newMerchantKey();
  const account = stripe.addAccount();
  const connected = await api.request('POST', '/connector_accounts', {
    key,
    body: { connector_name: 'stripe', connector_account_details: { api_key: account.secretKey } },
  });
  expect(connected.status).toBe(200);
  const pinned = await api.request('POST', '/payouts', {
    key,
    body: payout('0123456789', { merchant_connector_id: connected.body.merchant_connector_id }),
  });
  const error = expectError(pinned, 400, 'payout_not_supported');
  expect(error.message).toMatch(/Stripe Connect/);
  expectError(await api.request('POST', '/payouts', { key, body: payout('0123456789') }), 400, 'no_payout_connector');
  expect((await api.request('GET', '/payouts', { key })).body.data).toEqual([]);
  expect(stripe.requests.filter((r) => r.path.includes('payout') || r.path.includes('transfer'))).toEqual([]);
});
