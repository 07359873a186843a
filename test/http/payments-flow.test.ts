import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

describe('payment lifecycle over HTTP', () => {
  test('create → confirm → partial refund → refund list', async () => {
    const created = await api.request('POST', '/payments', {
      body: {
        amount: 150000,
        currency: 'NGN',
        payment_method: 'card',
        description: 'Order 42',
        email: 'ada@example.com',
        metadata: { order: '42' },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'RequiresConfirmation',
      amount: 150000,
      currency: 'NGN',
      connector: 'sandbox',
      connector_transaction_id: null,
      amount_refunded: 0,
      description: 'Order 42',
      email: 'ada@example.com',
      metadata: { order: '42' },
    });
    expect(created.body.payment_id).toMatch(/^pay_/);
    expect(created.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const id = created.body.payment_id;
    const confirmed = await api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ payment_id: id, status: 'Succeeded', amount_captured: 150000 });
    expect(confirmed.body.connector_transaction_id).toEqual(expect.any(String));
    expect(confirmed.body.payment_method_data).toEqual({
      card: {
        last4: '4242',
        brand: 'visa',
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        fingerprint: expect.stringMatching(/^fp_[0-9a-f]{32}$/),
      },
    });
    expect(confirmed.text).not.toContain('4242424242424242');

    const refund = await api.request('POST', `/payments/${id}/refund`, { body: { amount: 50000, reason: 'damaged' } });
    expect(refund.status).toBe(200);
    expect(refund.body).toMatchObject({
      payment_id: id,
      amount: 50000,
      currency: 'NGN',
      status: 'Succeeded',
      reason: 'damaged',
      connector: 'sandbox',
    });
    expect(refund.body.refund_id).toMatch(/^ref_/);

    const after = await api.request('GET', `/payments/${id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_refunded: 50000 });

    const rest = await api.request('POST', `/payments/${id}/refund`);
    expect(rest.status).toBe(200);
    expect(rest.body.amount).toBe(100000);

    const none = await api.request('POST', `/payments/${id}/refund`, { body: { amount: 1 } });
    expectError(none, 400, 'refund_exceeds_amount');

    const list = await api.request('GET', `/payments/${id}/refunds`);
    expect(list.status).toBe(200);
    expect(list.body.has_more).toBe(false);
    expect(list.body.data.map((r: { refund_id: string }) => r.refund_id)).toEqual([rest.body.refund_id, refund.body.refund_id]);

    const one = await api.request('GET', `/refunds/${refund.body.refund_id}`);
    expect(one.body).toEqual(expect.objectContaining({ refund_id: refund.body.refund_id, amount: 50000 }));
  });

  test('a refund above what is left is refused and changes nothing', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'USD', confirm: true, payment_method_data: card('4111111111111111') },
    });
    expect(p.body.status).toBe('Succeeded');
    const tooMuch = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 1001 } });
    const err = expectError(tooMuch, 400, 'refund_exceeds_amount');
    expect(err.param).toBe('amount');
    const after = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(after.body.amount_refunded).toBe(0);
  });

  test('confirm twice → 409 naming the status', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 500, currency: 'KES', confirm: true, payment_method_data: card('5555555555554444') },
    });
    const again = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: {} });
    const err = expectError(again, 409, 'payment_unexpected_state');
    expect(err.message).toContain('Succeeded');
  });

  test('manual capture: RequiresCapture → capture part → refunds bounded by amount_captured', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 10000, currency: 'ZAR', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    });
    expect(p.body).toMatchObject({ status: 'RequiresCapture', amount_captured: 0, capture_method: 'manual' });
    const refundEarly = await api.request('POST', `/payments/${p.body.payment_id}/refund`);
    expectError(refundEarly, 409, 'payment_unexpected_state');
    const tooMuch = await api.request('POST', `/payments/${p.body.payment_id}/capture`, { body: { amount_to_capture: 10001 } });
    expect(expectError(tooMuch, 400).param).toBe('amount_to_capture');
    const captured = await api.request('POST', `/payments/${p.body.payment_id}/capture`, { body: { amount_to_capture: 6000 } });
    expect(captured.body).toMatchObject({ status: 'Succeeded', amount_captured: 6000 });
    const refund = await api.request('POST', `/payments/${p.body.payment_id}/refund`);
    expect(refund.body.amount).toBe(6000);
    const captureAgain = await api.request('POST', `/payments/${p.body.payment_id}/capture`);
    expectError(captureAgain, 409, 'payment_unexpected_state');
  });

  test('cancel from RequiresConfirmation echoes the reason; cancel again → 409', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 700, currency: 'GHS' } });
    const cancelled = await api.request('POST', `/payments/${p.body.payment_id}/cancel`, {
      body: { cancellation_reason: 'requested_by_customer' },
    });
    expect(cancelled.body).toMatchObject({ status: 'Cancelled', cancellation_reason: 'requested_by_customer' });
    const again = await api.request('POST', `/payments/${p.body.payment_id}/cancel`);
    expectError(again, 409, 'payment_unexpected_state');
    const confirm = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: { payment_method: 'card' } });
    expectError(confirm, 409, 'payment_unexpected_state');
  });

  test('cancel without a body, from RequiresCapture and from Processing', async () => {
    const held = await api.request('POST', '/payments', {
      body: { amount: 900, currency: 'NGN', capture_method: 'manual', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const c1 = await api.request('POST', `/payments/${held.body.payment_id}/cancel`, { key: undefined });
    expect(c1.status).toBe(200);
    expect(c1.body).toMatchObject({ status: 'Cancelled', cancellation_reason: null });
    const momo = await api.request('POST', '/payments', {
      body: { amount: 900, currency: 'KES', payment_method: 'mobile_money', confirm: true },
    });
    expect(momo.body.status).toBe('Processing');
    const c2 = await api.request('POST', `/payments/${momo.body.payment_id}/cancel`, { body: {} });
    expect(c2.body.status).toBe('Cancelled');
  });

  test('unknown payment, refund and route → 404 with the error body', async () => {
    const missing = await api.request('GET', '/payments/pay_doesnotexist');
    expectError(missing, 404, 'resource_missing');
    expect(missing.headers.get('request-id')).toMatch(/\S+/);
    expectError(await api.request('GET', '/payments/not-an-id'), 404, 'resource_missing');
    expectError(await api.request('POST', '/payments/pay_nope/confirm', { body: {} }), 404, 'resource_missing');
    expectError(await api.request('GET', '/refunds/ref_nope'), 404, 'resource_missing');
    expectError(await api.request('GET', '/payments/pay_nope/refunds'), 404, 'resource_missing');
    expectError(await api.request('GET', '/nowhere'), 404, 'route_not_found');
    expectError(await api.request('PATCH', '/payments'), 404, 'route_not_found');
  });

  test('a payment of one merchant is invisible to another merchant', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'USD' } });
    const other = await api.newMerchantKey();
    expectError(await api.request('GET', `/payments/${p.body.payment_id}`, { key: other }), 404, 'resource_missing');
    const list = await api.request('GET', '/payments', { key: other });
    expect(list.body.data).toEqual([]);
  });
});
