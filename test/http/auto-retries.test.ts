/**
 * Automatic retries of soft declines through the local gateway against DynamoDB Local, on two Stripe stand-in
 * accounts of one merchant routed by priority [A, B]: the setting's API; a soft decline at A is retried at B in the
 * same confirm with one charge in all (the stand-ins' ledgers are the truth); a hard decline is not retried; an
 * unknown outcome is not retried; with retries off a soft decline is final.
 */
import { card, type LocalApi, type RequestOptions, startLocalApi, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

const env = scopedEnv();
let api: LocalApi;
let stripe: StripeStandIn;
const VISA = '4242424242424242';

beforeAll(async () => {
  stripe = await startStripeStandIn();
  env.set({
    STRIPE_BASE_URL: stripe.url,
    CONNECTOR_CONFIG_CACHE_MS: '0',
    CONNECTOR_TIMEOUT_MS: '1000',
    // A lost answer is a technical failure of the account: the breaker has its own suite, here it never opens.
    CIRCUIT_FAILURE_THRESHOLD: '1000000',
  });
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await stripe?.close();
  env.restore();
});

interface Merchant {
  key: string;
  a: { key: string; mca: string };
  b: { key: string; mca: string };
}

const call = (key: string, method: string, path: string, body?: unknown): Promise<TestResponse> =>
  api.request(method, path, { key, ...(body === undefined ? {} : { body }) } as RequestOptions);

/** A fresh merchant with two Stripe accounts, priority [A, B], and automatic retries as given. */
async function merchant(autoRetries: { enabled: boolean; max_auto_retries?: number }): Promise<Merchant> {
  const key = await api.newMerchantKey();
  const open = async () => {
    const s = stripe.addAccount();
    const res = await call(key, 'POST', '/connector_accounts', {
      connector_name: 'stripe',
      connector_account_details: { api_key: s.secretKey },
      connector_webhook_details: { merchant_secret: s.webhookSecret },
    });
    expect(res.status).toBe(200);
    return { key: s.secretKey, mca: res.body.merchant_connector_id as string };
  };
  const a = await open();
  const b = await open();
  const created = await call(key, 'POST', '/routing', {
    name: 'a then b',
    algorithm: { type: 'priority', data: [{ merchant_connector_id: a.mca }, { merchant_connector_id: b.mca }] },
  });
  expect((await call(key, 'POST', `/routing/${created.body.routing_algorithm_id}/activate`, {})).status).toBe(200);
  const set = await call(key, 'PUT', '/routing/auto_retries', autoRetries);
  expect(set.status).toBe(200);
  return { key, a, b };
}

const pay = (m: Merchant) =>
  call(m.key, 'POST', '/payments', {
    amount: 5_000,
    currency: 'USD',
    confirm: true,
    payment_method: 'card',
    payment_method_data: card(VISA),
  });

/** Successful charges (money held or taken) for a payment at one account, by its ledger; 0 when it has no entry. */
const charges = (accountKey: string, paymentId: string) => stripe.ledgerOf(accountKey)[paymentId]?.charges ?? 0;

test('the setting: off by default, set and read back, bounds checked', async () => {
  const key = await api.newMerchantKey();
  expect((await call(key, 'GET', '/routing/auto_retries')).body).toEqual({ enabled: false, max_auto_retries: 1 });
  expect((await call(key, 'PUT', '/routing/auto_retries', { enabled: true, max_auto_retries: 2 })).body).toEqual({
    enabled: true,
    max_auto_retries: 2,
  });
  expect((await call(key, 'GET', '/routing/auto_retries')).body).toEqual({ enabled: true, max_auto_retries: 2 });
  const bad = await call(key, 'PUT', '/routing/auto_retries', { enabled: true, max_auto_retries: 4 });
  expect(bad.status).toBe(400);
  expect(bad.body.error.param).toBe('max_auto_retries');
});

test('a soft decline is retried on the next account: one charge in all, two attempts with their own references', async () => {
  const m = await merchant({ enabled: true, max_auto_retries: 1 });
  stripe.declineAccount({ declineCode: 'try_again_later', message: 'Try again later.' }, m.a.key);
  const res = await pay(m);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: m.b.mca });
  const [first, second] = res.body.attempts;
  expect(res.body.attempts).toHaveLength(2);
  expect(first).toMatchObject({
    merchant_connector_id: m.a.mca,
    status: 'Failed',
    error_code: 'try_again_later',
    routing_approach: 'priority',
  });
  expect(second).toMatchObject({ merchant_connector_id: m.b.mca, status: 'Succeeded', routing_approach: 'auto_retry' });
  expect(second.connector_transaction_id).not.toBe(first.connector_transaction_id);
  // The processors' truth: declined at A (no money), charged once at B.
  expect(stripe.ledgerOf(m.a.key)[res.body.payment_id]).toMatchObject({ charges: 0 });
  expect(charges(m.a.key, res.body.payment_id) + charges(m.b.key, res.body.payment_id)).toBe(1);
});

test('with retries off, a soft decline is final', async () => {
  const m = await merchant({ enabled: false });
  stripe.declineAccount({ declineCode: 'try_again_later', message: 'Try again later.' }, m.a.key);
  const res = await pay(m);
  expect(res.body).toMatchObject({ status: 'Failed', merchant_connector_id: m.a.mca, error_code: 'try_again_later' });
  expect(stripe.ledgerOf(m.b.key)[res.body.payment_id]).toBeUndefined();
});

test('a hard decline is not retried', async () => {
  const m = await merchant({ enabled: true, max_auto_retries: 3 });
  stripe.declineAccount({ declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' }, m.a.key);
  const res = await pay(m);
  expect(res.body).toMatchObject({ status: 'Failed', merchant_connector_id: m.a.mca, error_code: 'insufficient_funds' });
  expect(res.body.attempts).toHaveLength(1);
  expect(stripe.ledgerOf(m.b.key)[res.body.payment_id]).toBeUndefined();
});

test('an unknown outcome is not retried: the payment stays Processing at A, nothing is sent to B', async () => {
  const m = await merchant({ enabled: true, max_auto_retries: 3 });
  // A does the work but its answer is lost, and the lookup by our reference is lost too: the outcome is unknown.
  stripe.failNext({ method: 'POST', path: '/v1/payment_intents', secretKey: m.a.key }, 'hang_after_work');
  stripe.failNext({ method: 'GET', path: '/v1/payment_intents/search', secretKey: m.a.key }, 'hang_before_work');
  const res = await pay(m);
  const paymentId: string = res.body.payment_id ?? res.body.error?.payment_id;
  const stored = await call(m.key, 'GET', `/payments/${paymentId}`);
  expect(stored.body).toMatchObject({ status: 'Processing', merchant_connector_id: m.a.mca });
  expect(stored.body.attempts.map((a: { routing_approach: string }) => a.routing_approach)).not.toContain('auto_retry');
  expect(stripe.ledgerOf(m.b.key)[paymentId]).toBeUndefined();
  expect(charges(m.a.key, paymentId)).toBe(1);
});
