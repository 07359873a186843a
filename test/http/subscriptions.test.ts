/**
 * Subscriptions (docs/api.md "Subscriptions and invoices") through the local API on the sandbox connector: a card saved
 * off-session first, then a subscription bills its first period with one off-session payment (once, even
 * when the create is retried with its Idempotency-Key); a declining saved card leaves it `incomplete`
 * with an open invoice; a trial charges nothing; the checks of the customer and its method; lists,
 * update, cancel; another merchant's 404.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Switchyard } from '../../clients/typescript/src/index';
import { periodBoundary } from '../../shared/domain/billing-period';
import { containsCardNumber } from '../../shared/domain/card';
import { invoiceIdFor } from '../../shared/domain/subscription';
import * as paymentOperations from '../../shared/operations/payments/create-payment';
import { keyedHash } from '../../shared/security/keyed-hash';
import { putApiKey, raiseListShards } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { primaryKey } from '../../shared/storage/item-keys';
import { tableName } from '../../shared/storage/table-definition';
import { sandboxPageDecision } from '../helpers/checkout-browser';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

// No key cache in this file's handlers: a raised shard count is seen by the next request.
process.env.API_KEY_CACHE_SECONDS = '0';

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

/** A merchant's helpers: a new merchant, or the one of `existingKey`. */
async function merchant(existingKey?: string) {
  const key = existingKey ?? (await api.newMerchantKey());
  const request = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api.request(method, path, { key, ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  const newCustomer = async () => (await request('POST', '/customers', { name: 'Ada' })).body.customer_id as string;
  const customer = await newCustomer();
  const save = async (number: string, customerId = customer, usage: 'on_session' | 'off_session' = 'off_session') => {
    const res = await request('POST', '/payments', {
      amount: 5000,
      currency: 'NGN',
      confirm: true,
      customer_id: customerId,
      payment_method_data: card(number),
      setup_future_usage: usage,
      ...(usage === 'off_session' ? { customer_acceptance: acceptance } : {}),
    });
    expect(res.status).toBe(200);
    expect(res.body.payment_method_id).toMatch(/^pm_/);
    return res.body.payment_method_id as string;
  };
  const subscribe = (body: Record<string, unknown>, idempotencyKey?: string) =>
    request(
      'POST',
      '/subscriptions',
      { customer_id: customer, amount: 150000, currency: 'NGN', interval: 'month', ...body },
      idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
    );
  const subscriptionPayments = async (subscriptionId: string) =>
    ((await request('GET', '/payments?limit=100')).body.data as { metadata: Record<string, string> }[]).filter(
      (p) => p.metadata.subscription_id === subscriptionId,
    );
  return { key, request, customer, newCustomer, save, subscribe, subscriptionPayments };
}

test('a subscription charges its first period once, off-session: payment with its metadata, invoice paid, active', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const res = await m.subscribe({ payment_method_id: pm, metadata: { plan: 'gold' } });
  expect(res.status).toBe(200);
  const sub = res.body;
  expect(sub).toMatchObject({
    subscription_id: expect.stringMatching(/^sub_/),
    customer_id: m.customer,
    payment_method_id: pm,
    amount: 150000,
    currency: 'NGN',
    interval: 'month',
    interval_count: 1,
    trial_period_days: null,
    status: 'active',
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: null,
    latest_invoice_id: expect.stringMatching(/^in_/),
    metadata: { plan: 'gold' },
  });
  expect(sub.current_period_start).toBe(sub.created_at);
  expect(sub.billing_cycle_anchor).toBe(sub.created_at);
  expect(sub.current_period_end).toBe(periodBoundary(sub.created_at, 'month', 1, 1));

  const payments = await m.subscriptionPayments(sub.subscription_id);
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({
    status: 'Succeeded',
    amount: 150000,
    customer_id: m.customer,
    payment_method_id: pm,
    metadata: { subscription_id: sub.subscription_id, invoice_id: sub.latest_invoice_id },
  });

  const invoice = (await m.request('GET', `/invoices/${sub.latest_invoice_id}`)).body;
  expect(invoice).toMatchObject({
    invoice_id: sub.latest_invoice_id,
    subscription_id: sub.subscription_id,
    customer_id: m.customer,
    amount_due: 150000,
    amount_paid: 150000,
    status: 'paid',
    attempt_count: 1,
    payment_ids: [(payments[0] as unknown as { payment_id: string }).payment_id],
    period_start: sub.current_period_start,
    period_end: sub.current_period_end,
  });
  expect((await m.request('GET', `/subscriptions/${sub.subscription_id}`)).body).toEqual(sub);
  const invoices = (await m.request('GET', `/invoices?subscription_id=${sub.subscription_id}`)).body;
  expect(invoices).toEqual({ data: [invoice], has_more: false });

  const types = ((await m.request('GET', '/events?limit=100')).body.data as { type: string }[]).map((e) => e.type);
  for (const t of ['subscription.created', 'invoice.created', 'invoice.paid', 'subscription.updated']) expect(types).toContain(t);
});

test('a retried create with the same Idempotency-Key answers the same subscription and charges once', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const first = await m.subscribe({ payment_method_id: pm, interval: 'week', interval_count: 2 }, 'sub-key-1');
  const again = await m.subscribe({ payment_method_id: pm, interval: 'week', interval_count: 2 }, 'sub-key-1');
  expect(first.status).toBe(200);
  expect(again.body).toEqual(first.body);
  expect(first.body.current_period_end).toBe(periodBoundary(first.body.created_at, 'week', 2, 1));
  expect(await m.subscriptionPayments(first.body.subscription_id)).toHaveLength(1);
  expect((await m.request('GET', '/subscriptions')).body.data).toHaveLength(1);
});

test('a subscription whose id holds a card-number-shaped digit run is charged like any other (our ids are not card data)', async () => {
  // The subscription id is derived from the Idempotency-Key (shared/operations/billing/subscription-operations.ts):
  // find a key whose id reads as a card number to the detector, as random hex does about once in 10,000.
  // A merchant of its own, whose id the test knows.
  const merchantId = `mer_${randomUUID().replace(/-/g, '')}`;
  const apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(apiKey, merchantId, 'test');
  let key = '';
  let subscriptionId = '';
  for (let i = 0; !containsCardNumber(subscriptionId); i += 1) {
    key = `card-shaped-${i}`;
    subscriptionId = `sub_${(await keyedHash(`id:sub:${merchantId}:subscriptions:${key}`)).slice(0, 32)}`;
  }
  const m = await merchant(apiKey);
  const res = await m.subscribe({ payment_method_id: await m.save('4242424242424242') }, key);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ subscription_id: subscriptionId, status: 'active' });
  expect(res.body.latest_invoice_id).toBe(invoiceIdFor(subscriptionId, res.body.created_at));
  expect(await m.subscriptionPayments(subscriptionId)).toEqual([
    expect.objectContaining({ status: 'Succeeded', metadata: { subscription_id: subscriptionId, invoice_id: res.body.latest_invoice_id } }),
  ]);
});

test('a declining saved card: incomplete, its invoice open with one failed attempt', async () => {
  const m = await merchant();
  const pm = await m.save('4000000000000341');
  const res = await m.subscribe({ payment_method_id: pm });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('incomplete');
  const payments = await m.subscriptionPayments(res.body.subscription_id);
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ status: 'Failed' });
  const invoice = (await m.request('GET', `/invoices/${res.body.latest_invoice_id}`)).body;
  expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 });
  const failed = (await m.request('GET', '/events?type=invoice.payment_failed')).body.data;
  expect(failed).toHaveLength(1);
});

test('a saved card whose off-session charge needs the payer: incomplete, the invoice open with the attempt', async () => {
  const m = await merchant();
  const pm = await m.save('4000002760003184');
  const res = await m.subscribe({ payment_method_id: pm });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('incomplete');
  const payments = await m.subscriptionPayments(res.body.subscription_id);
  expect(payments).toHaveLength(1);
  expect(payments[0]).toMatchObject({ status: 'RequiresAction' });
  const invoice = (await m.request('GET', `/invoices/${res.body.latest_invoice_id}`)).body;
  expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 });
  expect((await m.request('GET', '/events?type=invoice.payment_failed')).body.data).toHaveLength(0);
});

test('a trial: trialing, no payment, a paid invoice of 0 for the trial', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const res = await m.subscribe({ payment_method_id: pm, trial_period_days: 14 });
  expect(res.status).toBe(200);
  const sub = res.body;
  expect(sub).toMatchObject({ status: 'trialing', trial_period_days: 14 });
  expect(Date.parse(sub.current_period_end) - Date.parse(sub.current_period_start)).toBe(14 * 86_400_000);
  expect(sub.billing_cycle_anchor).toBe(sub.current_period_end);
  expect(await m.subscriptionPayments(sub.subscription_id)).toHaveLength(0);
  const invoice = (await m.request('GET', `/invoices/${sub.latest_invoice_id}`)).body;
  expect(invoice).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: 0, attempt_count: 0, payment_ids: [] });
});

test("validation: another customer's method, an on-session-only method, an unknown customer, a period over a year", async () => {
  const m = await merchant();
  const other = await m.newCustomer();
  const othersPm = await m.save('4242424242424242', other);
  expect(expectError(await m.subscribe({ payment_method_id: othersPm }), 400, 'payment_method_unusable').param).toBe('payment_method_id');
  const onSession = await m.save('5555555555554444', m.customer, 'on_session');
  expect(expectError(await m.subscribe({ payment_method_id: onSession }), 400, 'payment_method_unusable').param).toBe('payment_method_id');
  const pm = await m.save('4242424242424242');
  expect(expectError(await m.subscribe({ payment_method_id: pm, customer_id: 'cus_nosuch' }), 400, 'resource_missing').param).toBe(
    'customer_id',
  );
  expect(expectError(await m.subscribe({ payment_method_id: 'pm_nosuch' }), 400, 'resource_missing').param).toBe('payment_method_id');
  expect(expectError(await m.subscribe({ payment_method_id: pm, interval_count: 13 }), 400, 'parameter_invalid').param).toBe(
    'interval_count',
  );
  expect(await m.subscriptionPayments('')).toHaveLength(0);
  expect((await m.request('GET', '/subscriptions')).body.data).toHaveLength(0);
});

test('lists by customer and status; update; cancel; another merchant gets 404', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const other = await m.newCustomer();
  const otherPm = await m.save('4242424242424242', other);
  const a = (await m.subscribe({ payment_method_id: pm })).body;
  const b = (await m.subscribe({ payment_method_id: pm, trial_period_days: 7 })).body;
  const c = (await m.subscribe({ payment_method_id: otherPm, customer_id: other })).body;
  const ids = (path: string) =>
    m.request('GET', path).then((r) => (r.body.data as { subscription_id: string }[]).map((s) => s.subscription_id));
  expect(await ids('/subscriptions')).toEqual([c.subscription_id, b.subscription_id, a.subscription_id]);
  expect(await ids(`/subscriptions?customer_id=${m.customer}`)).toEqual([b.subscription_id, a.subscription_id]);
  expect(await ids('/subscriptions?status=active')).toEqual([c.subscription_id, a.subscription_id]);
  expect(await ids('/subscriptions?status=trialing')).toEqual([b.subscription_id]);
  expect(await ids('/subscriptions?limit=1')).toEqual([c.subscription_id]);
  expect(await ids(`/subscriptions?starting_after=${c.subscription_id}&limit=1`)).toEqual([b.subscription_id]);
  expectError(await m.request('GET', `/subscriptions?status=active&customer_id=${m.customer}`), 400, 'parameter_invalid');

  const pm2 = await m.save('4242424242424242');
  const updated = await m.request('PUT', `/subscriptions/${a.subscription_id}`, {
    payment_method_id: pm2,
    cancel_at_period_end: true,
    metadata: { k: 'v' },
  });
  expect(updated.status).toBe(200);
  expect(updated.body).toMatchObject({ payment_method_id: pm2, cancel_at_period_end: true, metadata: { k: 'v' }, status: 'active' });
  expectError(
    await m.request('PUT', `/subscriptions/${a.subscription_id}`, { payment_method_id: otherPm }),
    400,
    'payment_method_unusable',
  );

  const canceled = await m.request('POST', `/subscriptions/${a.subscription_id}/cancel`);
  expect(canceled.status).toBe(200);
  expect(canceled.body).toMatchObject({
    status: 'canceled',
    canceled_at: expect.any(String),
    cancellation_details: { reason: 'cancellation_requested' },
  });
  expect(await ids('/subscriptions?status=active')).toEqual([c.subscription_id]);
  expect(await ids('/subscriptions?status=canceled')).toEqual([a.subscription_id]);
  expectError(await m.request('POST', `/subscriptions/${a.subscription_id}/cancel`), 409, 'subscription_unexpected_state');
  expectError(await m.request('PUT', `/subscriptions/${a.subscription_id}`, { metadata: {} }), 409, 'subscription_unexpected_state');
  const canceledEvents = (await m.request('GET', '/events?type=subscription.canceled')).body.data;
  expect(canceledEvents.map((e: { data: { subscription_id: string } }) => e.data.subscription_id)).toEqual([a.subscription_id]);

  const stranger = await api.newMerchantKey();
  for (const [method, path] of [
    ['GET', `/subscriptions/${a.subscription_id}`],
    ['PUT', `/subscriptions/${a.subscription_id}`],
    ['POST', `/subscriptions/${a.subscription_id}/cancel`],
    ['GET', `/invoices/${a.latest_invoice_id}`],
    ['GET', '/subscriptions/sub_nosuch'],
    ['GET', '/invoices/in_nosuch'],
  ] as const) {
    expectError(await api.request(method, path, { key: stranger, ...(method === 'PUT' ? { body: {} } : {}) }), 404, 'resource_missing');
  }
  const strangers = await api.request('GET', `/invoices?subscription_id=${a.subscription_id}`, { key: stranger });
  expect(strangers.body).toEqual({ data: [], has_more: false });
  expectError(await m.request('GET', '/invoices'), 400, 'parameter_missing');
});

test('the SDK: subscriptions.create/retrieve/list/update/cancel and invoices.retrieve/list', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const switchyard = new Switchyard({ apiKey: m.key, baseUrl: api.url, maxRetries: 0 });
  const sub = await switchyard.subscriptions.create({
    customer_id: m.customer,
    payment_method_id: pm,
    amount: 9900,
    currency: 'NGN',
    interval: 'year',
  });
  expect(sub).toMatchObject({ status: 'active', interval: 'year', current_period_end: periodBoundary(sub.created_at, 'year', 1, 1) });
  expect(await switchyard.subscriptions.retrieve(sub.subscription_id)).toEqual(sub);
  expect((await switchyard.subscriptions.list({ customer_id: m.customer })).data.map((s) => s.subscription_id)).toEqual([
    sub.subscription_id,
  ]);
  expect((await switchyard.subscriptions.update(sub.subscription_id, { metadata: { a: 'b' } })).metadata).toEqual({ a: 'b' });
  const invoice = await switchyard.invoices.retrieve(sub.latest_invoice_id ?? '');
  expect(invoice.status).toBe('paid');
  expect((await switchyard.invoices.list({ subscription_id: sub.subscription_id })).data).toEqual([invoice]);
  expect((await switchyard.subscriptions.cancel(sub.subscription_id)).status).toBe('canceled');
});

test('a merchant with list shards: subscriptions spread over them, lists merged newest first, status entries move', async () => {
  await raiseListShards(api.merchantId, 'read', 4);
  await raiseListShards(api.merchantId, 'write', 4);
  const request = (method: string, path: string, body?: unknown) => api.request(method, path, body !== undefined ? { body } : {});
  const customer = (await request('POST', '/customers', { name: 'Sharded' })).body.customer_id as string;
  const saved = await request('POST', '/payments', {
    amount: 5000,
    currency: 'NGN',
    confirm: true,
    customer_id: customer,
    payment_method_data: card('4242424242424242'),
    setup_future_usage: 'off_session',
    customer_acceptance: acceptance,
  });
  const pm = saved.body.payment_method_id as string;
  const ids: string[] = [];
  for (let i = 0; i < 8; i += 1) {
    const res = await request('POST', '/subscriptions', {
      customer_id: customer,
      payment_method_id: pm,
      amount: 1000 + i,
      currency: 'NGN',
      interval: 'day',
      interval_count: 30,
      trial_period_days: 3,
    });
    expect(res.status).toBe(200);
    ids.unshift(res.body.subscription_id);
  }
  const shards = new Set<string>();
  for (const id of ids) {
    const item = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.subscription(api.merchantId, id) })))
      .Item;
    expect(item?.list_shards).toBe(4);
    shards.add(String(item?.GSI1PK));
  }
  expect(shards.size).toBeGreaterThan(1);
  const listed = async (path: string) =>
    ((await request('GET', path)).body.data as { subscription_id: string }[]).map((s) => s.subscription_id);
  expect(await listed('/subscriptions?limit=100')).toEqual(ids);
  expect(await listed('/subscriptions?status=trialing&limit=100')).toEqual(ids);
  expect([...(await listed('/subscriptions?limit=3')), ...(await listed(`/subscriptions?limit=100&starting_after=${ids[2]}`))]).toEqual(
    ids,
  );
  await request('POST', `/subscriptions/${ids[3]}/cancel`);
  expect(await listed('/subscriptions?status=canceled')).toEqual([ids[3]]);
  expect(await listed('/subscriptions?status=trialing&limit=100')).toEqual(ids.filter((_, i) => i !== 3));
});

test('a create that stopped after writing the subscription, before its charge: the retry with its key charges once', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const spy = jest.spyOn(paymentOperations, 'createPayment').mockRejectedValueOnce(new Error('the Lambda stopped here'));
  const first = await m.subscribe({ payment_method_id: pm }, 'resume-key');
  expect(first.status).toBe(500);
  spy.mockRestore();
  const listed = (await m.request('GET', '/subscriptions')).body.data;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ status: 'incomplete' });
  expect(await m.subscriptionPayments(listed[0].subscription_id)).toHaveLength(0);

  const retry = await m.subscribe({ payment_method_id: pm }, 'resume-key');
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ subscription_id: listed[0].subscription_id, status: 'active' });
  const again = await m.subscribe({ payment_method_id: pm }, 'resume-key');
  expect(again.body).toEqual(retry.body);
  expect(await m.subscriptionPayments(listed[0].subscription_id)).toHaveLength(1);
  expect((await m.request('GET', `/invoices/${listed[0].latest_invoice_id}`)).body).toMatchObject({ status: 'paid', attempt_count: 1 });
  // Another body with the same key is refused.
  expectError(await m.subscribe({ payment_method_id: pm, amount: 1 }, 'resume-key'), 422, 'idempotency_key_reused');
});

test('a first charge that needs the payer leaves the subscription incomplete; once the payer completes 3-D Secure the invoice is paid and the subscription active', async () => {
  const m = await merchant();
  const pm = await m.save('4000002760003184'); // off-session charges of this sandbox card ask for 3-D Secure
  const res = await m.subscribe({ payment_method_id: pm });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('incomplete');
  const invoiceId = res.body.latest_invoice_id as string;
  const open = (await m.request('GET', `/invoices/${invoiceId}`)).body;
  expect(open).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 });
  const [payment] = await m.subscriptionPayments(res.body.subscription_id);
  const paymentBody = (await m.request('GET', `/payments/${(payment as unknown as { payment_id: string }).payment_id}`)).body;
  expect(paymentBody).toMatchObject({ status: 'RequiresAction', next_action: { type: 'redirect_to_url' } });
  // The payer approves on the sandbox's 3-D Secure page: its webhook settles the payment, which settles the invoice.
  const approved = await fetch(paymentBody.next_action.redirect_to_url, {
    ...(await sandboxPageDecision(paymentBody.next_action.redirect_to_url, 'approve')),
    redirect: 'manual',
  });
  expect(approved.status).toBe(303);
  expect((await m.request('GET', `/payments/${paymentBody.payment_id}`)).body.status).toBe('Succeeded');
  expect((await m.request('GET', `/invoices/${invoiceId}`)).body).toMatchObject({ status: 'paid', amount_paid: 150000, attempt_count: 1 });
  expect((await m.request('GET', `/subscriptions/${res.body.subscription_id}`)).body.status).toBe('active');
  const paidEvents = (await m.request('GET', '/events?type=invoice.paid')).body.data as { data: { invoice_id: string } }[];
  expect(paidEvents.map((e) => e.data.invoice_id)).toEqual([invoiceId]);
});

test('deleting a customer cancels its subscriptions (customer_deleted) and unlinks them; they are no longer listed under it', async () => {
  const m = await merchant();
  const pm = await m.save('4242424242424242');
  const active = (await m.subscribe({ payment_method_id: pm })).body;
  const canceledBefore = (await m.subscribe({ payment_method_id: pm })).body;
  expect((await m.request('POST', `/subscriptions/${canceledBefore.subscription_id}/cancel`, {})).body.status).toBe('canceled');
  expect((await m.request('DELETE', `/customers/${m.customer}`)).body).toEqual({ customer_id: m.customer, deleted: true });
  const after = (await m.request('GET', `/subscriptions/${active.subscription_id}`)).body;
  expect(after).toMatchObject({
    customer_id: null,
    status: 'canceled',
    cancellation_details: { reason: 'customer_deleted' },
    canceled_at: expect.any(String),
  });
  // One canceled before keeps its own reason; it is unlinked too.
  expect((await m.request('GET', `/subscriptions/${canceledBefore.subscription_id}`)).body).toMatchObject({
    customer_id: null,
    cancellation_details: { reason: 'cancellation_requested' },
  });
  const canceledEvents = (await m.request('GET', '/events?type=subscription.canceled')).body.data as {
    data: { subscription_id: string; cancellation_details: { reason: string } };
  }[];
  expect(
    canceledEvents.filter((e) => e.data.cancellation_details.reason === 'customer_deleted').map((e) => e.data.subscription_id),
  ).toEqual([active.subscription_id]);
  // Its invoices stay; its subscriptions are no longer its.
  expect((await m.request('GET', `/invoices?subscription_id=${active.subscription_id}`)).body.data).toHaveLength(1);
});
