/**
 * Success-rate routing through the local gateway against DynamoDB Local, on two Stripe stand-in accounts of one
 * merchant: routing learns which account approves (an account whose issuer starts declining loses the traffic),
 * recovers after a change back, records `routing_approach` and the segment on each attempt, shows the windows in
 * `GET /routing/success_rates`, and one merchant's outcomes never move another's scores or routing.
 * Outcome windows are read on every payment here (`ROUTING_OUTCOME_CACHE_MS=0`): the cache period has its own
 * unit test with a controlled clock.
 */
import { card, type LocalApi, type RequestOptions, startLocalApi, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { type StripeStandIn, startStripeStandIn } from '../helpers/stripe-stand-in';

const env = scopedEnv();
let api: LocalApi;
let stripe: StripeStandIn;
const VISA = '4242424242424242';
const DECLINE = { declineCode: 'generic_decline', message: 'Your card was declined.' };

beforeAll(async () => {
  stripe = await startStripeStandIn();
  env.set({ STRIPE_BASE_URL: stripe.url, CONNECTOR_CONFIG_CACHE_MS: '0', ROUTING_OUTCOME_CACHE_MS: '0' });
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await stripe?.close();
  env.restore();
});

/** A merchant: its key, and its two Stripe accounts (stand-in key, `mca_…`). */
interface Merchant {
  key: string;
  a: { key: string; mca: string };
  b: { key: string; mca: string };
}

const call = (key: string, method: string, path: string, body?: unknown): Promise<TestResponse> =>
  api.request(method, path, { key, ...(body === undefined ? {} : { body }) } as RequestOptions);

/** A merchant with two Stripe accounts and an active success_rate algorithm over them (no exploration). */
async function merchantWithSuccessRate(key: string): Promise<Merchant> {
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
    name: 'learn',
    algorithm: {
      type: 'success_rate',
      data: {
        connectors: [{ merchant_connector_id: a.mca }, { merchant_connector_id: b.mca }],
        window_size: 10,
        exploration_percent: 0,
        min_observations: 3,
        elimination_threshold: 0.35,
        dimensions: ['payment_method', 'currency'],
      },
    },
  });
  expect(created.status).toBe(200);
  const activated = await call(key, 'POST', `/routing/${created.body.routing_algorithm_id}/activate`, {});
  expect(activated.status).toBe(200);
  return { key, a, b };
}

/** Confirms a USD card payment; returns its account and the last attempt's approach and segment. */
async function pay(m: Merchant) {
  const res = await call(m.key, 'POST', '/payments', {
    amount: 2_000,
    currency: 'USD',
    confirm: true,
    payment_method: 'card',
    payment_method_data: card(VISA),
  });
  expect(res.status).toBe(200);
  const last = res.body.attempts.at(-1);
  return {
    account: res.body.merchant_connector_id as string,
    status: res.body.status as string,
    approach: last.routing_approach as string,
    segment: last.routing_segment as string | null,
  };
}

const SEGMENT = 'payment_method=card|currency=USD';

test('routing learns that an account declines, moves its traffic, and moves back after a change', async () => {
  const m = await merchantWithSuccessRate(api.apiKey);
  // Both unknown: each is explored until it has min_observations (3) outcomes.
  const first = [];
  for (let i = 0; i < 6; i++) first.push(await pay(m));
  expect(first.map((p) => p.approach)).toEqual(Array(6).fill('success_rate_explore'));
  expect(first.filter((p) => p.account === m.a.mca)).toHaveLength(3);
  expect(first.every((p) => p.status === 'Succeeded' && p.segment === SEGMENT)).toBe(true);
  // Both approve everything: the first listed wins ties.
  expect(await pay(m)).toMatchObject({ account: m.a.mca, approach: 'success_rate_exploit', status: 'Succeeded' });

  // A's issuer starts declining: A's rate falls under B's, and the traffic moves to B.
  stripe.declineAccount(DECLINE, m.a.key);
  const during = [];
  for (let i = 0; i < 6; i++) during.push(await pay(m));
  const firstToB = during.findIndex((p) => p.account === m.b.mca);
  expect(firstToB).toBeGreaterThan(0);
  expect(firstToB).toBeLessThanOrEqual(2);
  expect(during.slice(0, firstToB).every((p) => p.status === 'Failed')).toBe(true);
  expect(
    during.slice(firstToB).every((p) => p.account === m.b.mca && p.status === 'Succeeded' && p.approach === 'success_rate_exploit'),
  ).toBe(true);
  const rates = await call(m.key, 'GET', '/routing/success_rates');
  expect(rates.status).toBe(200);
  expect(rates.body.window_size).toBe(10);
  const rateOf = (mca: string) => rates.body.data.find((e: { merchant_connector_id: string }) => e.merchant_connector_id === mca);
  expect(rateOf(m.b.mca)).toMatchObject({ segment: SEGMENT, dimensions: { payment_method: 'card', currency: 'USD' }, success_rate: 1 });
  expect(rateOf(m.a.mca).success_rate).toBeLessThan(1);

  // A recovers and B's issuer starts declining: the traffic goes back to A.
  stripe.declineAccount(null, m.a.key);
  stripe.declineAccount(DECLINE, m.b.key);
  const after = [];
  for (let i = 0; i < 12; i++) after.push(await pay(m));
  const backToA = after.findIndex((p) => p.account === m.a.mca);
  expect(backToA).toBeGreaterThan(0);
  expect(after.slice(backToA).every((p) => p.account === m.a.mca && p.status === 'Succeeded')).toBe(true);
});

test('one merchant’s outcomes never move another merchant’s scores or routing', async () => {
  const quiet = await merchantWithSuccessRate(await api.newMerchantKey());
  const busy = await merchantWithSuccessRate(await api.newMerchantKey());
  for (let i = 0; i < 6; i++) await pay(quiet);
  const before = await call(quiet.key, 'GET', '/routing/success_rates');
  // The busy merchant's first account declines everything, many times over.
  stripe.declineAccount(DECLINE, busy.a.key);
  for (let i = 0; i < 8; i++) await pay(busy);
  const busyRates = await call(busy.key, 'GET', '/routing/success_rates');
  expect(busyRates.body.data.map((e: { merchant_connector_id: string }) => e.merchant_connector_id).sort()).toEqual(
    [busy.a.mca, busy.b.mca].sort(),
  );
  const after = await call(quiet.key, 'GET', '/routing/success_rates');
  expect(after.body.data.map(({ updated_at, ...rest }: Record<string, unknown>) => rest)).toEqual(
    before.body.data.map(({ updated_at, ...rest }: Record<string, unknown>) => rest),
  );
  expect(after.body.data).toHaveLength(2);
  // The quiet merchant still exploits its first account.
  expect(await pay(quiet)).toMatchObject({ account: quiet.a.mca, approach: 'success_rate_exploit', status: 'Succeeded' });
});
