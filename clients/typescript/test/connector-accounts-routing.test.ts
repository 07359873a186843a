/**
 * `switchyard.connectorAccounts` and `switchyard.routing` against the local stack (the gateway `npm start`
 * serves, DynamoDB Local from jest's global setup; every exchange checked against docs/openapi.json):
 * the README walk-through "Your own processor accounts and routing" with two sandbox accounts (a volume
 * split, advanced rules, a pin, the default fallback list, the events), and what the SDK sends and retries
 * on these routes, proven through the loopback stand-in (./helpers/api-stand-in.ts).
 * `CONNECTOR_CONFIG_CACHE_MS=0` (the gateway runs in this process): routing reads each change at once, and a
 * delete waits 1 s instead of about 6.
 */
import { card, type LocalApi, startLocalApi } from '../../../test/helpers/local-api';
import { scopedEnv } from '../../../test/helpers/scoped-env';
import {
  type ConnectorAccountCreateParams,
  InvalidRequestError,
  isSwitchyardError,
  type Payment,
  Switchyard,
  type SwitchyardError,
  type SwitchyardOptions,
} from '../src/index';
import { type ApiStandIn, type StandInRequest, startApiStandIn } from './helpers/api-stand-in';

let api: LocalApi;
let standIn: ApiStandIn;
const env = scopedEnv();

beforeAll(async () => {
  env.set({ CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
  standIn = await startApiStandIn(api.url);
});
afterAll(async () => {
  await standIn?.close();
  await api?.close();
  env.restore();
});

/** A client through the stand-in, for a merchant of its own, with short backoff so retries cost milliseconds. */
async function client(options: Partial<SwitchyardOptions> = {}): Promise<Switchyard> {
  return new Switchyard({
    apiKey: await api.newMerchantKey(),
    baseUrl: standIn.url,
    retryDelay: { initialMs: 10, maxMs: 40 },
    ...options,
  });
}

/** The requests the stand-in got since `from` (an index into its log). */
const since = (from: number): StandInRequest[] => standIn.requests.slice(from);

/** Catches what `promise` rejects with, failing the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<SwitchyardError> {
  try {
    await promise;
  } catch (err) {
    if (isSwitchyardError(err)) return err;
    throw err;
  }
  throw new Error('expected the call to throw');
}

const sandboxCard = () =>
  card('4242424242424242') as { card: { card_number: string; card_exp_month: string; card_exp_year: string; card_cvc: string } };

/** A confirmed NGN card payment (sandbox card: Succeeded). */
const pay = (switchyard: Switchyard, extra: { metadata?: Record<string, string>; merchant_connector_id?: string } = {}) =>
  switchyard.payments.create({ amount: 150000, currency: 'NGN', confirm: true, payment_method_data: sandboxCard(), ...extra });

test('two sandbox accounts: connect, list, update; a volume split, advanced rules, a pin, the default list; delete', async () => {
  const switchyard = await client();

  // Connect: the sandbox takes no credentials; the answer is masked and names the account's webhook URL.
  const a = await switchyard.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'sandbox-a' });
  const b = await switchyard.connectorAccounts.create({
    connector_name: 'sandbox',
    connector_label: 'sandbox-b',
    payment_methods_enabled: [{ payment_method: 'card', currencies: ['NGN', 'USD'] }],
  });
  expect(a).toMatchObject({ connector_name: 'sandbox', connector_label: 'sandbox-a', disabled: false, status: 'active', test_mode: true });
  expect(a.merchant_connector_id).toMatch(/^mca_/);
  expect(a.webhook_url).toMatch(new RegExp(`/webhooks/sandbox/${a.merchant_connector_id}$`));
  expect(a.payment_methods_enabled.map((m) => m.payment_method)).toEqual(['card', 'bank_transfer', 'ussd', 'mobile_money']);
  expect(b.payment_methods_enabled).toEqual([{ payment_method: 'card', currencies: ['NGN', 'USD'] }]);
  const A = a.merchant_connector_id;
  const B = b.merchant_connector_id;

  // Read back: newest first, filters, paging.
  expect((await switchyard.connectorAccounts.list()).data.map((x) => x.merchant_connector_id)).toEqual([B, A]);
  expect((await switchyard.connectorAccounts.list({ connector_name: 'stripe' })).data).toEqual([]);
  const first = await switchyard.connectorAccounts.list({ limit: 1 });
  expect([first.data.map((x) => x.merchant_connector_id), first.has_more]).toEqual([[B], true]);
  const next = await switchyard.connectorAccounts.list({ limit: 1, starting_after: B });
  expect([next.data.map((x) => x.merchant_connector_id), next.has_more]).toEqual([[A], false]);
  expect((await switchyard.connectorAccounts.retrieve(A)).connector_label).toBe('sandbox-a');
  const renamed = await switchyard.connectorAccounts.update(B, { connector_label: 'sandbox-b2', metadata: { team: 'ng' } });
  expect(renamed).toMatchObject({ merchant_connector_id: B, connector_label: 'sandbox-b2', metadata: { team: 'ng' } });

  // The default fallback list: the accounts in connection order until one is set.
  expect(await switchyard.routing.getDefault()).toEqual({
    default_fallback: [
      { merchant_connector_id: A, connector_name: 'sandbox' },
      { merchant_connector_id: B, connector_name: 'sandbox' },
    ],
    is_custom: false,
  });
  const reordered = await switchyard.routing.setDefault({ default_fallback: [{ merchant_connector_id: B }, { merchant_connector_id: A }] });
  expect([reordered.is_custom, reordered.default_fallback.map((x) => x.merchant_connector_id)]).toEqual([true, [B, A]]);
  // No algorithm active: the first account of the default list takes the payment.
  expect((await switchyard.routing.active()).active).toBe(false);
  expect((await pay(switchyard)).merchant_connector_id).toBe(B);

  // A volume split: each payment on one of the two accounts, the same one on every read and in its attempt.
  const split = await switchyard.routing.create({
    name: 'Half and half',
    description: '50/50 between the two sandbox accounts',
    algorithm: {
      type: 'volume_split',
      data: [
        { split: 50, merchant_connector_id: A },
        { split: 50, merchant_connector_id: B },
      ],
    },
  });
  expect(split).toMatchObject({ name: 'Half and half', is_active: false, algorithm: { type: 'volume_split' } });
  expect(split.routing_algorithm_id).toMatch(/^routing_/);
  expect((await switchyard.routing.activate(split.routing_algorithm_id)).is_active).toBe(true);
  expect(await switchyard.routing.active()).toMatchObject({
    active: true,
    routing_algorithm_id: split.routing_algorithm_id,
    name: 'Half and half',
    algorithm_type: 'volume_split',
  });
  const splitPayments: Payment[] = [];
  for (let i = 0; i < 6; i++) splitPayments.push(await pay(switchyard));
  for (const p of splitPayments) {
    expect(p.status).toBe('Succeeded');
    expect([A, B]).toContain(p.merchant_connector_id);
    expect(p.attempts.map((t) => t.merchant_connector_id)).toEqual([p.merchant_connector_id]);
    expect((await switchyard.payments.retrieve(p.payment_id)).merchant_connector_id).toBe(p.merchant_connector_id);
  }

  // Advanced rules: `metadata.tier` gold → A, everything else → B; a pin overrides them.
  const rules = await switchyard.routing.create({
    name: 'Gold to A',
    algorithm: {
      type: 'advanced',
      data: {
        default_selection: { type: 'priority', data: [{ merchant_connector_id: B }] },
        rules: [
          {
            name: 'gold',
            connector_selection: { type: 'priority', data: [{ merchant_connector_id: A }] },
            statements: [{ condition: [{ lhs: 'metadata.tier', comparison: 'equal', value: { type: 'str_value', value: 'gold' } }] }],
          },
        ],
      },
    },
  });
  await switchyard.routing.activate(rules.routing_algorithm_id);
  expect((await switchyard.routing.retrieve(split.routing_algorithm_id)).is_active).toBe(false);
  expect((await pay(switchyard, { metadata: { tier: 'gold' } })).merchant_connector_id).toBe(A);
  expect((await pay(switchyard, { metadata: { tier: 'silver' } })).merchant_connector_id).toBe(B);
  expect((await pay(switchyard, { merchant_connector_id: A })).merchant_connector_id).toBe(A);
  // A pinned account that cannot take the payment (B enables NGN and USD cards only) is refused, naming the pin.
  const refused = await rejection(
    switchyard.payments.create({
      amount: 5000,
      currency: 'GHS',
      confirm: true,
      payment_method_data: sandboxCard(),
      merchant_connector_id: B,
    }),
  );
  expect(refused).toBeInstanceOf(InvalidRequestError);
  expect(refused).toMatchObject({ status: 400, code: 'no_connector_available', param: 'merchant_connector_id', attempts: 1 });

  const listed = await switchyard.routing.list();
  expect(listed.data.map((x) => [x.routing_algorithm_id, x.is_active])).toEqual([
    [rules.routing_algorithm_id, true],
    [split.routing_algorithm_id, false],
  ]);

  // Deactivate: the default list routes again (B first).
  expect(await switchyard.routing.deactivate()).toMatchObject({ active: false, routing_algorithm_id: null });
  expect((await pay(switchyard, { metadata: { tier: 'gold' } })).merchant_connector_id).toBe(B);

  // Disable A: it takes no new payment (a pin to it is refused), but it is still listed.
  const disabled = await switchyard.connectorAccounts.update(A, { disabled: true });
  expect(disabled).toMatchObject({ disabled: true, status: 'inactive' });
  expect((await switchyard.connectorAccounts.list({ disabled: 'true' })).data.map((x) => x.merchant_connector_id)).toEqual([A]);
  expect(await rejection(pay(switchyard, { merchant_connector_id: A }))).toMatchObject({ code: 'no_connector_available' });

  // Delete B (no open operations, no active algorithm): then it is 404 and gone from the lists.
  expect(await switchyard.connectorAccounts.delete(B)).toEqual({ merchant_connector_id: B, deleted: true });
  expect(await rejection(switchyard.connectorAccounts.retrieve(B))).toMatchObject({ status: 404, code: 'resource_missing' });
  expect((await switchyard.connectorAccounts.list()).data.map((x) => x.merchant_connector_id)).toEqual([A]);
  expect((await switchyard.routing.getDefault()).default_fallback.map((x) => x.merchant_connector_id)).toEqual([A]);

  // Every change is an event, typed by its `type`.
  const created = await switchyard.events.list({ type: 'connector_account.created' });
  expect(created.data.map((e) => (e.type === 'connector_account.created' ? e.data.merchant_connector_id : null))).toEqual([B, A]);
  const activations = await switchyard.events.list({ type: 'routing.activated' });
  expect(activations.data.map((e) => (e.type === 'routing.activated' ? [e.data.active, e.data.algorithm_type] : null))).toEqual([
    [false, null],
    [true, 'advanced'],
    [true, 'volume_split'],
  ]);
  const disabledEvents = await switchyard.events.list({ type: 'connector_account.disabled' });
  expect(disabledEvents.data.map((e) => (e.type === 'connector_account.disabled' ? e.data.merchant_connector_id : null))).toEqual([B, A]);
}, 120_000);

test('creates carry an Idempotency-Key, activations none; 409 routing_changed is retried, connector_account_in_use thrown at once', async () => {
  const switchyard = await client();
  let from = standIn.requests.length;
  const account = await switchyard.connectorAccounts.create({ connector_name: 'sandbox' });
  expect(account.connector_label).toBe('sandbox_1');
  const algorithm = await switchyard.routing.create({
    name: 'Only this one',
    algorithm: { type: 'single', data: { merchant_connector_id: account.merchant_connector_id } },
  });
  const keys = since(from).map((r) => r.headers['idempotency-key']);
  expect(keys).toHaveLength(2);
  for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{36}$/);

  // A 409 routing_changed says nothing was changed: the activation is sent again (without a key either time).
  from = standIn.requests.length;
  standIn.next([
    {
      status: 409,
      body: { error: { type: 'invalid_request_error', code: 'routing_changed', message: 'Your routing changed; retry.' } },
    },
  ]);
  expect((await switchyard.routing.activate(algorithm.routing_algorithm_id)).is_active).toBe(true);
  const activations = since(from);
  expect(activations.map((r) => [r.method, r.headers['idempotency-key']])).toEqual([
    ['POST', undefined],
    ['POST', undefined],
  ]);
  expect(activations[1]?.upstream?.status).toBe(200);

  // The active algorithm names the account: deleting it is a decision, thrown at once.
  from = standIn.requests.length;
  const inUse = await rejection(switchyard.connectorAccounts.delete(account.merchant_connector_id));
  expect(inUse).toBeInstanceOf(InvalidRequestError);
  expect(inUse).toMatchObject({ status: 409, code: 'connector_account_in_use', param: 'merchant_connector_id', attempts: 1 });
  expect(since(from)).toHaveLength(1);

  from = standIn.requests.length;
  expect((await switchyard.routing.deactivate()).active).toBe(false);
  const again = await rejection(switchyard.routing.deactivate());
  expect(again).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'routing_not_active', attempts: 1 });
  expect(since(from).map((r) => r.headers['idempotency-key'])).toEqual([undefined, undefined]);
});

test("another merchant's account is 404 and cannot be pinned; a Stripe account without credentials is refused before any call", async () => {
  const owner = await client();
  const other = await client();
  const account = await owner.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'mine' });
  expect(await rejection(other.connectorAccounts.retrieve(account.merchant_connector_id))).toMatchObject({
    status: 404,
    code: 'resource_missing',
  });
  expect(await rejection(pay(other, { merchant_connector_id: account.merchant_connector_id }))).toMatchObject({
    status: 400,
    code: 'resource_missing',
    param: 'merchant_connector_id',
  });
  // Labels are unique per merchant only.
  expect((await other.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'mine' })).connector_label).toBe('mine');
  expect(await rejection(owner.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'MINE' }))).toMatchObject({
    status: 409,
    code: 'connector_label_taken',
    param: 'connector_label',
  });

  // The types already refuse it (credentials are required but for the sandbox); the API does too.
  const missing = await rejection(owner.connectorAccounts.create({ connector_name: 'stripe' } as unknown as ConnectorAccountCreateParams));
  expect(missing).toBeInstanceOf(InvalidRequestError);
  expect(missing).toMatchObject({ status: 400, code: 'parameter_missing', param: 'connector_account_details' });
  expect((await owner.connectorAccounts.list()).data).toHaveLength(1);
});

test('client.routing: a success_rate algorithm, its scores, automatic retries', async () => {
  const switchyard = await client();
  const a = await switchyard.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'sr a' });
  const b = await switchyard.connectorAccounts.create({ connector_name: 'sandbox', connector_label: 'sr b' });
  const algorithm = await switchyard.routing.create({
    name: 'Learn',
    algorithm: {
      type: 'success_rate',
      data: {
        connectors: [{ merchant_connector_id: a.merchant_connector_id }, { merchant_connector_id: b.merchant_connector_id }],
        dimensions: ['payment_method', 'currency'],
      },
    },
  });
  await switchyard.routing.activate(algorithm.routing_algorithm_id);
  const payment = await switchyard.payments.create({
    amount: 1_000,
    currency: 'NGN',
    confirm: true,
    payment_method: 'card',
    payment_method_data: {
      card: { card_number: '4242424242424242', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' },
    },
  });
  expect(payment.attempts.at(-1)).toMatchObject({
    merchant_connector_id: a.merchant_connector_id,
    routing_approach: 'success_rate_explore',
    routing_segment: 'payment_method=card|currency=NGN',
  });
  const rates = await switchyard.routing.successRates();
  expect(rates.window_size).toBe(500);
  expect(rates.data).toEqual([
    expect.objectContaining({
      merchant_connector_id: a.merchant_connector_id,
      attempts: 1,
      successes: payment.status === 'Succeeded' ? 1 : 0,
    }),
  ]);
  expect(await switchyard.routing.getAutoRetries()).toEqual({ enabled: false, max_auto_retries: 1 });
  expect(await switchyard.routing.setAutoRetries({ enabled: true, max_auto_retries: 2 })).toEqual({ enabled: true, max_auto_retries: 2 });
  expect(await switchyard.routing.getAutoRetries()).toEqual({ enabled: true, max_auto_retries: 2 });
});
