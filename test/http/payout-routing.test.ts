/**
 * The payout priority list (`PUT/GET /routing/payouts`, docs/api.md "Payouts" routing) through HTTP: payouts try the
 * merchant's list first, then its default fallback list; disabled and deleted accounts and accounts that cannot send
 * the payout's currency and type (Stripe: none; Paystack: no KES bank accounts) are passed over; a merchant's list
 * names only its own accounts and routes only its own payouts. The configuration cache is off (`CONNECTOR_CONFIG_CACHE_MS=0`):
 * every payout reads the accounts as they are. Real parts: the local API, DynamoDB Local, the sandbox,
 * the Paystack transfers stand-in and the Stripe stand-in.
 */
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { type PaystackTransfersStandIn, startPaystackTransfersStandIn } from '../helpers/paystack-transfers-stand-in';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackTransfersStandIn;
let stripe: StripeStandIn;

beforeAll(async () => {
  paystack = await startPaystackTransfersStandIn();
  stripe = await startStripeStandIn();
  env.set({ STRIPE_BASE_URL: stripe.url, PAYSTACK_BASE_URL: paystack.url, SANDBOX_WEBHOOKS: 'off', CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
});
afterAll(async () => {
  env.restore();
  await api.close();
  await paystack.close();
  await stripe.close();
});

const body = (currency = 'NGN') => ({
  amount: 100_000,
  currency,
  payout_type: 'bank',
  payout_method_data: { bank: { account_number: '0123456789', bank_code: '058', country: currency === 'KES' ? 'KE' : 'NG' } },
  description: 'Vendor payout',
});

/** The account a new payout of this merchant is routed to. */
async function routedTo(key: string, currency = 'NGN'): Promise<string> {
  const res = await api.request('POST', '/payouts', { key, body: body(currency) });
  expect(res.status).toBe(200);
  return res.body.merchant_connector_id;
}

async function connect(key: string, account: Record<string, unknown>): Promise<string> {
  const res = await api.request('POST', '/connector_accounts', { key, body: account });
  expect(res.status).toBe(200);
  return res.body.merchant_connector_id;
}

test('the priority list goes first; Stripe, disabled and deleted accounts are passed over; then the default fallback', async () => {
  const key = await api.newMerchantKey();
  const a = await connect(key, { connector_name: 'sandbox', connector_label: 'first' });
  const b = await connect(key, { connector_name: 'sandbox', connector_label: 'second' });
  const s = await connect(key, { connector_name: 'stripe', connector_account_details: { api_key: stripe.addAccount().secretKey } });
  expect(await routedTo(key)).toBe(a);
  expect((await api.request('GET', '/routing/payouts', { key })).body).toEqual({ priority: [], is_custom: false });

  const set = await api.request('PUT', '/routing/payouts', {
    key,
    body: { priority: [{ merchant_connector_id: s }, { merchant_connector_id: b }] },
  });
  expect(set.body).toEqual({
    priority: [
      { merchant_connector_id: s, connector_name: 'stripe' },
      { merchant_connector_id: b, connector_name: 'sandbox' },
    ],
    is_custom: true,
  });
  expect(await routedTo(key)).toBe(b);

  expect((await api.request('PUT', `/connector_accounts/${b}`, { key, body: { disabled: true } })).status).toBe(200);
  expect(await routedTo(key)).toBe(a);

  expect((await api.request('PUT', `/connector_accounts/${b}`, { key, body: { disabled: false } })).status).toBe(200);
  expect((await api.request('DELETE', `/connector_accounts/${b}`, { key })).status).toBe(200);
  expect(await routedTo(key)).toBe(a);
  expect((await api.request('GET', '/routing/payouts', { key })).body.priority).toEqual([
    { merchant_connector_id: s, connector_name: 'stripe' },
  ]);
  expect(stripe.requests.filter((r) => r.path.includes('payout') || r.path.includes('transfer'))).toEqual([]);
});

test('an account that cannot send the currency is passed over for it only (Paystack: no KES bank payouts)', async () => {
  const key = await api.newMerchantKey();
  const sandbox = await connect(key, { connector_name: 'sandbox' });
  const ps = await connect(key, { connector_name: 'paystack', connector_account_details: { api_key: paystack.secretKey } });
  await api.request('PUT', '/routing/payouts', {
    key,
    body: { priority: [{ merchant_connector_id: ps }, { merchant_connector_id: sandbox }] },
  });
  expect(await routedTo(key, 'NGN')).toBe(ps);
  expect(await routedTo(key, 'KES')).toBe(sandbox);
  // [] clears the list: the default fallback (creation order) again.
  expect((await api.request('PUT', '/routing/payouts', { key, body: { priority: [] } })).body).toEqual({ priority: [], is_custom: false });
  expect(await routedTo(key, 'NGN')).toBe(sandbox);
});

test("tenancy: a list names only the merchant's own accounts and routes only its payouts", async () => {
  const k1 = await api.newMerchantKey();
  const k2 = await api.newMerchantKey();
  const first1 = await connect(k1, { connector_name: 'sandbox' });
  const second1 = await connect(k1, { connector_name: 'sandbox' });
  const own2 = await connect(k2, { connector_name: 'sandbox' });
  const foreign = await api.request('PUT', '/routing/payouts', { key: k2, body: { priority: [{ merchant_connector_id: second1 }] } });
  expectError(foreign, 400, 'resource_missing');
  expect(foreign.body.error.param).toBe('priority.0.merchant_connector_id');
  expect((await api.request('GET', '/routing/payouts', { key: k2 })).body).toEqual({ priority: [], is_custom: false });
  await api.request('PUT', '/routing/payouts', { key: k1, body: { priority: [{ merchant_connector_id: second1 }] } });
  expect(await routedTo(k1)).toBe(second1);
  expect(await routedTo(k2)).toBe(own2);
  expect(first1).not.toBe(second1);
});

test('bad input is 400 with one error shape and changes nothing', async () => {
  const key = await api.newMerchantKey();
  const a = await connect(key, { connector_name: 'sandbox' });
  expectError(
    await api.request('PUT', '/routing/payouts', { key, body: { priority: [{ merchant_connector_id: a }, { merchant_connector_id: a }] } }),
    400,
  );
  expectError(await api.request('PUT', '/routing/payouts', { key, body: { priority: [{ merchant_connector_id: 'not-an-id' }] } }), 400);
  expectError(await api.request('PUT', '/routing/payouts', { key, body: {} }), 400);
  expect((await api.request('GET', '/routing/payouts', { key })).body.is_custom).toBe(false);
});
