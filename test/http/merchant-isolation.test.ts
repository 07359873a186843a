import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

/** Everything merchant A owns must be exactly as invisible to merchant B as an id that does not exist. */
let api: LocalApi;
let keyB: string;
let paymentA: string;
let refundA: string;
let customerA: string;
let heldA: string;

beforeAll(async () => {
  api = await startLocalApi();
  keyB = await api.newMerchantKey();
  const cus = await api.request('POST', '/customers', { body: { email: 'only-a@example.com', name: 'A' } });
  customerA = cus.body.customer_id;
  const p = await api.request('POST', '/payments', {
    body: { amount: 5000, currency: 'NGN', confirm: true, customer_id: customerA, payment_method_data: card('4242424242424242') },
  });
  paymentA = p.body.payment_id;
  refundA = (await api.request('POST', `/payments/${paymentA}/refund`, { body: { amount: 100 } })).body.refund_id;
  heldA = (
    await api.request('POST', '/payments', {
      body: { amount: 900, currency: 'NGN', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    })
  ).body.payment_id;
});
afterAll(async () => {
  await api.close();
});

describe('merchant isolation', () => {
  test('reads of A’s resources with B’s key are 404, like unknown ids', async () => {
    for (const path of [`/payments/${paymentA}`, `/refunds/${refundA}`, `/customers/${customerA}`, `/payments/${paymentA}/refunds`]) {
      const res = await api.request('GET', path, { key: keyB });
      expectError(res, 404, 'resource_missing');
    }
    const unknown = await api.request('GET', '/payments/pay_00000000000000000000000000000000', { key: keyB });
    const foreign = await api.request('GET', `/payments/${paymentA}`, { key: keyB });
    expect(foreign.body.error.message.replace(paymentA, 'ID')).toBe(
      unknown.body.error.message.replace('pay_00000000000000000000000000000000', 'ID'),
    );
  });

  test('writes with B’s key are 404 and change nothing of A’s', async () => {
    expectError(await api.request('POST', `/payments/${paymentA}/refund`, { key: keyB, body: { amount: 1 } }), 404);
    expectError(await api.request('POST', `/payments/${paymentA}/cancel`, { key: keyB }), 404);
    expectError(await api.request('POST', `/payments/${heldA}/capture`, { key: keyB }), 404);
    expectError(await api.request('POST', `/payments/${heldA}/cancel`, { key: keyB }), 404);
    expectError(await api.request('POST', `/payments/${heldA}/confirm`, { key: keyB, body: {} }), 404);
    expectError(await api.request('PUT', `/customers/${customerA}`, { key: keyB, body: { name: 'hijacked' } }), 404);
    expectError(await api.request('DELETE', `/customers/${customerA}`, { key: keyB }), 404);
    expect((await api.request('GET', `/payments/${paymentA}`)).body).toMatchObject({
      status: 'Succeeded',
      amount_refunded: 100,
      customer_id: customerA,
    });
    expect((await api.request('GET', `/payments/${heldA}`)).body.status).toBe('RequiresCapture');
    expect((await api.request('GET', `/customers/${customerA}`)).body.name).toBe('A');
  });

  test('A’s records never appear in B’s lists or filters, and B cannot page from A’s ids', async () => {
    for (const path of [
      '/payments',
      '/payments?status=Succeeded',
      '/payments?status=RequiresCapture',
      '/customers',
      '/customers?email=only-a@example.com',
    ]) {
      const res = await api.request('GET', path, { key: keyB });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
    expectError(await api.request('GET', `/payments?starting_after=${paymentA}`, { key: keyB }), 400, 'resource_missing');
    expectError(
      await api.request('POST', '/payments', { key: keyB, body: { amount: 1, currency: 'NGN', customer_id: customerA } }),
      400,
      'resource_missing',
    );
  });
});
