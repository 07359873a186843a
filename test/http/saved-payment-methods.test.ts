/**
 * Saved payment methods through the payment flow on the sandbox connector: a payment with
 * `setup_future_usage` saves its card on the customer; `payment_method_id` charges it again, with the
 * payer present or not (`off_session`); the rules of the fields; the token never in clear.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/storage/client';
import { getStoredPaymentMethod } from '../../shared/storage/payment-methods-repository';
import { tableName } from '../../shared/storage/table-definition';
import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

/** The error answer, its code and the parameter it names. */
function expectRefused(res: TestResponse, status: number, code: string, param: string): void {
  expect(expectError(res, status, code).param).toBe(param);
}

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

const acceptance = {
  acceptance_type: 'online',
  accepted_at: '2026-11-20T10:00:00Z',
  online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
};

async function merchant() {
  const key = await api.newMerchantKey();
  const request = (method: string, path: string, body?: unknown) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
  const customer = (await request('POST', '/customers', { name: 'Ada', email: 'ada@example.com' })).body.customer_id as string;
  const save = async (number: string, usage: 'on_session' | 'off_session' = 'off_session') => {
    const res = await request('POST', '/payments', {
      amount: 5000,
      currency: 'NGN',
      confirm: true,
      customer_id: customer,
      payment_method_data: card(number),
      setup_future_usage: usage,
      ...(usage === 'off_session' ? { customer_acceptance: acceptance } : {}),
    });
    expect(res.status).toBe(200);
    return res.body;
  };
  const charge = (paymentMethodId: string, extra: Record<string, unknown> = {}) =>
    request('POST', '/payments', { amount: 2500, currency: 'NGN', confirm: true, payment_method_id: paymentMethodId, ...extra });
  return { key, request, customer, save, charge };
}

test('a payment with setup_future_usage saves its card on the customer; an off-session charge of it succeeds', async () => {
  const m = await merchant();
  const first = await m.save('4242424242424242');
  expect(first).toMatchObject({
    status: 'Succeeded',
    customer_id: m.customer,
    setup_future_usage: 'off_session',
    customer_acceptance: acceptance,
    payment_method_id: expect.stringMatching(/^pm_/),
  });
  const pmId = first.payment_method_id as string;
  // Stored for this merchant only, with its token encrypted.
  expect(await getStoredPaymentMethod('mer_someoneelse', pmId)).toBeUndefined();
  const events = (await m.request('GET', '/events?type=payment_method.attached')).body.data;
  expect(events).toHaveLength(1);
  expect(events[0].data).toMatchObject({
    payment_method_id: pmId,
    customer_id: m.customer,
    type: 'card',
    card: { brand: 'visa', last4: '4242', exp_month: 12, bin: '424242' },
    connector: 'sandbox',
    merchant_connector_id: null,
    recurring_enabled: true,
    status: 'active',
    default: true,
    payment_id: first.payment_id,
  });

  const again = await m.charge(pmId, { off_session: true });
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({
    status: 'Succeeded',
    amount_captured: 2500,
    customer_id: m.customer,
    payment_method_id: pmId,
    payment_method: 'card',
    connector: 'sandbox',
    setup_future_usage: null,
  });
  // No token anywhere in what the API answered or announced.
  expect(JSON.stringify([first, again.body, events])).not.toContain('sbxtok_');
});

test('the same card saved twice on a customer is one method; its later charges follow the card (declines, authentication)', async () => {
  const m = await merchant();
  const a = await m.save('4242424242424242');
  const b = await m.save('4242424242424242');
  expect(b.payment_method_id).toBe(a.payment_method_id);

  const declining = (await m.save('4000000000000341')).payment_method_id as string;
  expect(declining).not.toBe(a.payment_method_id);
  const declined = await m.charge(declining, { off_session: true });
  expect(declined.body).toMatchObject({ status: 'Failed', error_code: 'card_declined' });

  const needsPayer = (await m.save('4000002760003184')).payment_method_id as string;
  const offSession = await m.charge(needsPayer, { off_session: true });
  expect(offSession.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'redirect_to_url' } });
  const onSession = await m.charge(needsPayer);
  expect(onSession.body.status).toBe('Succeeded');
});

test('the fields’ rules: a customer to save on, the payer’s acceptance for off-session, a saved method of this merchant and customer', async () => {
  const m = await merchant();
  const base = { amount: 5000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') };
  expectRefused(
    await m.request('POST', '/payments', { ...base, setup_future_usage: 'on_session' }),
    400,
    'parameter_missing',
    'customer_id',
  );
  expectRefused(
    await m.request('POST', '/payments', { ...base, customer_id: m.customer, setup_future_usage: 'off_session' }),
    400,
    'parameter_missing',
    'customer_acceptance',
  );
  const onSessionOnly = (await m.save('4242424242424242', 'on_session')).payment_method_id as string;
  expectRefused(await m.charge(onSessionOnly, { off_session: true }), 400, 'payment_method_unusable', 'off_session');
  expect((await m.charge(onSessionOnly)).body.status).toBe('Succeeded');
  expectRefused(await m.request('POST', '/payments', { ...base, off_session: true }), 400, 'parameter_invalid', 'off_session');
  expectRefused(
    await m.request('POST', '/payments', { ...base, payment_method_id: onSessionOnly }),
    400,
    'parameter_invalid',
    'payment_method_data',
  );
  // Another merchant's method, or an unknown one, does not exist here; another customer's is refused.
  const other = await merchant();
  const theirs = (await other.save('4242424242424242')).payment_method_id as string;
  expectRefused(await m.charge(theirs), 400, 'resource_missing', 'payment_method_id');
  expectRefused(await m.charge('pm_doesnotexist'), 400, 'resource_missing', 'payment_method_id');
  const second = (await m.request('POST', '/customers', { name: 'Bola' })).body.customer_id as string;
  expectRefused(await m.charge(onSessionOnly, { customer_id: second }), 400, 'payment_method_unusable', 'payment_method_id');
});

test('the token is stored encrypted: no sandbox token in clear in any table item', async () => {
  const m = await merchant();
  await m.save('4242424242424242');
  const out = await documentClient().send(new ScanCommand({ TableName: tableName() }));
  const dump = JSON.stringify(out.Items);
  expect(dump).toContain('payment_method');
  expect(dump).not.toMatch(/sbxtok_[a-z_]+_[0-9a-f]{32}/);
});

test('storage failing while the card is saved: the payment still answers its outcome, names no method, and nothing half-saved is left', async () => {
  const repository = await import('../../shared/storage/payment-methods-repository');
  const m = await merchant();
  // DynamoDB's answer when the table cannot take the write (the SDK's error name).
  const unavailable = Object.assign(new Error('The service is unavailable.'), { name: 'InternalServerError' });
  const failing = jest.spyOn(repository, 'attachPaymentMethod').mockRejectedValueOnce(unavailable);
  try {
    const paid = await m.save('4242424242424242');
    expect(paid).toMatchObject({ status: 'Succeeded', amount_captured: 5000, payment_method_id: null, setup_future_usage: 'off_session' });
    expect(failing).toHaveBeenCalledTimes(1);
  } finally {
    failing.mockRestore();
  }
  expect((await m.request('GET', `/customers/${m.customer}/payment_methods`)).body.data).toEqual([]);
  expect((await m.request('GET', '/events?type=payment_method.attached')).body.data).toEqual([]);
  // A later payment with setup_future_usage saves the card.
  expect((await m.save('4242424242424242')).payment_method_id).toMatch(/^pm_/);
});

test('a charge of a saved method shows the saved card (brand, last4, expiry, fingerprint) like a card payment: answers, GET, list, events', async () => {
  const m = await merchant();
  const saved = await m.save('4242424242424242');
  const pmId = saved.payment_method_id as string;
  const method = (await m.request('GET', `/payment_methods/${pmId}`)).body;
  const { brand, last4, exp_month, exp_year, fingerprint } = method.card;
  const shown = { card: { brand, last4, exp_month, exp_year, fingerprint } };
  expect(shown.card).toEqual({
    brand: 'visa',
    last4: '4242',
    exp_month: 12,
    exp_year: expect.any(Number),
    fingerprint: expect.any(String),
  });

  // Merchant-initiated (off-session), created and confirmed at once.
  const offSession = await m.charge(pmId, { off_session: true });
  expect(offSession.body).toMatchObject({ status: 'Succeeded', payment_method_id: pmId, payment_method_data: shown });
  // Customer-present: created without confirm (the method named), then confirmed.
  const created = await m.request('POST', '/payments', { amount: 1200, currency: 'NGN', customer_id: m.customer, payment_method_id: pmId });
  expect(created.body).toMatchObject({ status: 'RequiresConfirmation', payment_method_data: shown });
  const confirmed = await m.request('POST', `/payments/${created.body.payment_id}/confirm`, {});
  expect(confirmed.body).toMatchObject({ status: 'Succeeded', payment_method_id: pmId, payment_method_data: shown });
  // A payment created without a method and confirmed with the saved one.
  const later = await m.request('POST', '/payments', { amount: 1300, currency: 'NGN', customer_id: m.customer });
  const laterConfirmed = await m.request('POST', `/payments/${later.body.payment_id}/confirm`, { payment_method_id: pmId });
  expect(laterConfirmed.body).toMatchObject({ status: 'Succeeded', payment_method_data: shown });

  const charges = [offSession.body.payment_id, created.body.payment_id, later.body.payment_id] as string[];
  for (const id of charges) expect((await m.request('GET', `/payments/${id}`)).body.payment_method_data).toEqual(shown);
  const listed = (await m.request('GET', '/payments?limit=100')).body.data.filter((p: { payment_id: string }) =>
    charges.includes(p.payment_id),
  );
  expect(listed.map((p: { payment_method_data: unknown }) => p.payment_method_data)).toEqual(charges.map(() => shown));
  const events = (await m.request('GET', '/events?type=payment.succeeded&limit=100')).body.data.filter(
    (e: { data: { payment_id: string } }) => charges.includes(e.data.payment_id),
  );
  expect(events).toHaveLength(charges.length);
  for (const e of events) expect(e.data.payment_method_data).toEqual(shown);
});
