/**
 * A payment without its own `email` whose customer has one, confirmed through a connector that refuses a charge without
 * the payer's e-mail (Paystack, Flutterwave: `requiresPayerEmail`), takes the customer's e-mail: stored as the payment's
 * `email` and sent to the processor. Against DynamoDB Local and the Paystack stand-in (a ledger per account), whose
 * ledger is the truth compared with our table. A connector that needs none (the sandbox) reads no customer for it.
 */
import { paystackReference } from '../../shared/connectors/paystack/references';
import { baseClient } from '../../shared/storage/client';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';
import { PAYSTACK_TEST_CARDS, type PaystackStandIn, startPaystackStandIn } from '../helpers/paystack-stand-in';
import { scopedEnv } from '../helpers/scoped-env';

const env = scopedEnv();
let api: LocalApi;
let paystack: PaystackStandIn;

/** The DynamoDB reads of customer items the handlers make (counted by a middleware on the process-wide client). */
let customerReads = 0;
/** When set, reads of customer items fail as storage does when unreachable. */
let failCustomerReads = false;

beforeAll(async () => {
  paystack = await startPaystackStandIn();
  env.set({ PAYSTACK_BASE_URL: paystack.url, CONNECTOR_CONFIG_CACHE_MS: '0' });
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const key = JSON.stringify((args.input as { Key?: unknown }).Key ?? {});
      if (context.commandName === 'GetItemCommand' && key.includes('CUSTOMER#')) {
        customerReads += 1;
        if (failCustomerReads) {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
        }
      }
      return next(args);
    },
    { step: 'initialize', name: 'customerReadCounter' },
  );
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
  await paystack?.close();
  env.restore();
});

/** A merchant with one account of `connector` (its stand-in key, '' for the sandbox) and a customer with `email`. */
async function merchant(connector: 'paystack' | 'sandbox', email: string | null) {
  const key = await api.newMerchantKey();
  const secret = connector === 'paystack' ? paystack.addAccount().secretKey : '';
  const account = await api.request('POST', '/connector_accounts', {
    key,
    body: { connector_name: connector, ...(secret ? { connector_account_details: { api_key: secret } } : {}) },
  });
  expect(account.status).toBe(200);
  const customer = await api.request('POST', '/customers', { key, body: { name: 'Ada', ...(email ? { email } : {}) } });
  expect(customer.status).toBe(200);
  return { key, secret, customerId: customer.body.customer_id as string };
}

const paystackCard = () => card(PAYSTACK_TEST_CARDS.noValidation.number);

describe("a payment without an e-mail takes its customer's where the processor needs one", () => {
  test('create with confirm at Paystack: Succeeded, the payment shows the e-mail and the ledger charged under it', async () => {
    const m = await merchant('paystack', 'ada@example.com');
    const res = await api.request('POST', '/payments', {
      key: m.key,
      body: { amount: 150000, currency: 'NGN', customer_id: m.customerId, confirm: true, payment_method_data: paystackCard() },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Succeeded', connector: 'paystack', email: 'ada@example.com' });
    expect(paystack.entryOf(m.secret, paystackReference(res.body.payment_id))).toMatchObject({
      status: 'success',
      amount: 150000,
      email: 'ada@example.com',
    });
  });

  test('create, then confirm at Paystack: the confirm takes the e-mail', async () => {
    const m = await merchant('paystack', 'kofi@example.com');
    const created = await api.request('POST', '/payments', {
      key: m.key,
      body: { amount: 9900, currency: 'NGN', customer_id: m.customerId, payment_method: 'card' },
    });
    expect(created.body).toMatchObject({ status: 'RequiresConfirmation', email: null });
    const confirmed = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      key: m.key,
      body: { payment_method_data: paystackCard() },
    });
    expect(confirmed.body).toMatchObject({ status: 'Succeeded', email: 'kofi@example.com' });
    expect(paystack.entryOf(m.secret, paystackReference(created.body.payment_id))).toMatchObject({ email: 'kofi@example.com' });
  });

  test("the payment's own e-mail wins over the customer's", async () => {
    const m = await merchant('paystack', 'ada@example.com');
    const res = await api.request('POST', '/payments', {
      key: m.key,
      body: {
        amount: 5000,
        currency: 'NGN',
        customer_id: m.customerId,
        email: 'orders@example.com',
        confirm: true,
        payment_method_data: paystackCard(),
      },
    });
    expect(res.body).toMatchObject({ status: 'Succeeded', email: 'orders@example.com' });
    expect(paystack.entryOf(m.secret, paystackReference(res.body.payment_id))).toMatchObject({ email: 'orders@example.com' });
  });

  test('a customer without an e-mail: Paystack refuses as before (email_required), and nothing is charged', async () => {
    const m = await merchant('paystack', null);
    const res = await api.request('POST', '/payments', {
      key: m.key,
      body: { amount: 5000, currency: 'NGN', customer_id: m.customerId, confirm: true, payment_method_data: paystackCard() },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.error).toMatchObject({ type: 'connector_error', code: 'email_required' });
    const listed = await api.request('GET', `/payments?customer_id=${m.customerId}`, { key: m.key });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.data[0]).toMatchObject({ status: 'Failed', email: null, error_code: 'email_required' });
    expect(paystack.entryOf(m.secret, paystackReference(listed.body.data[0].payment_id))).toBeUndefined();
  });

  test('routed to the sandbox (no e-mail needed): no customer read, and the payment keeps no e-mail', async () => {
    const m = await merchant('sandbox', 'ada@example.com');
    const before = customerReads;
    const res = await api.request('POST', '/payments', {
      key: m.key,
      body: { amount: 5000, currency: 'NGN', customer_id: m.customerId, confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(res.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox', email: null });
    expect(customerReads - before).toBe(0);
  });

  test('storage failing on the customer read (before any processor call): 503, nothing charged, nothing changed; the retry pays', async () => {
    const m = await merchant('paystack', 'ama@example.com');
    const created = await api.request('POST', '/payments', {
      key: m.key,
      body: { amount: 7000, currency: 'NGN', customer_id: m.customerId, payment_method: 'card' },
    });
    failCustomerReads = true;
    let confirm: Awaited<ReturnType<typeof api.request>>;
    try {
      confirm = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
        key: m.key,
        body: { payment_method_data: paystackCard() },
      });
    } finally {
      failCustomerReads = false;
    }
    expect(confirm.status).toBe(503);
    expect(confirm.body.error).toMatchObject({ code: 'service_unavailable' });
    const unchanged = await api.request('GET', `/payments/${created.body.payment_id}`, { key: m.key });
    expect(unchanged.body).toMatchObject({ status: 'RequiresConfirmation', email: null, pending_operation: null });
    expect(paystack.entryOf(m.secret, paystackReference(created.body.payment_id))).toBeUndefined();
    const again = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      key: m.key,
      body: { payment_method_data: paystackCard() },
    });
    expect(again.body).toMatchObject({ status: 'Succeeded', email: 'ama@example.com' });
    expect(paystack.entryOf(m.secret, paystackReference(created.body.payment_id))).toMatchObject({
      status: 'success',
      email: 'ama@example.com',
    });
  });
});
