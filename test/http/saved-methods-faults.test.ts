/**
 * Saved payment methods under faults, through the local API against the Stripe stand-in with its
 * ledger and Customers (test/helpers/fault-harness.ts: a table of this file's own, storage faults injected on
 * the process-wide DynamoDB client, processor faults at the stand-in):
 * 1. `DELETE /payment_methods/{id}` whose write fails after Stripe detached the PaymentMethod: the answer never
 *    says "nothing was changed"; a retried DELETE converges (detached here, detached once at Stripe, one
 *    `payment_method.detached`). Also when the write was applied but its answer lost.
 * 2. The attach transaction failing after a payment with `setup_future_usage` succeeded: the payment's outcome
 *    equals Stripe's, it names no method, and nothing half-saved is left; no later path (a keyed retry, a sync, the
 *    reconciler) saves it afterwards (the documented decision: a failed save leaves `payment_method_id` null).
 *    Stripe keeps the card attached to the Customer made for the payment (asserted, see 3.).
 * 3. The Stripe Customer made for (customer, account) under faults around it: a keyed retry of the same payment
 *    never makes a second Customer; a lost Customer answer falls back (nothing charged at Stripe). Documented
 *    limitation: after a failed save, the customer's next saving payment makes a second Stripe Customer (the
 *    first one's id was only to be kept on the method).
 * 4. Stripe detaching, then its answer lost (timeout, reset, a 500 Stripe saves under the key): the adapter reads
 *    the PaymentMethod and answers it detached; when that read fails too, the DELETE answers "still attached,
 *    retry", and a retry converges without detaching twice (also for a customer delete).
 *
 * No Stripe PaymentMethod id (the reusable token) appears in any answer of this file.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { paymentMethodIdFor } from '../../shared/operations/payment-methods/saved-methods';
import { baseClient, documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { cardFreeKey } from '../helpers/card-free-key';
import { useFaultHarness } from '../helpers/fault-harness';
import { card, expectError, type TestResponse } from '../helpers/local-api';

type Json = Record<string, any>;

// 1.5 s: a Customer create and a PaymentIntent in a row stay inside it on a loaded CI machine (at 400 ms one was cut
// short there, and the payment fell back elsewhere).
const h = useFaultHarness(1500);

/**
 * A storage write that DynamoDB applies but whose answer never reaches us (the connection drops after the commit):
 * the next `TransactWriteItems` naming an item whose `PK` contains `pk` is sent, then fails as a network error.
 */
let loseAnswerOf: string | undefined;
beforeAll(() => {
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      const pk = loseAnswerOf;
      const input = args.input as { TransactItems?: Record<string, { Key?: { PK?: string }; Item?: { PK?: string } }>[] };
      const names = (input.TransactItems ?? []).flatMap((t) => Object.values(t).map((x) => String(x.Key?.PK ?? x.Item?.PK ?? '')));
      if (pk && context.commandName === 'TransactWriteItemsCommand' && names.some((n) => n.includes(pk))) {
        loseAnswerOf = undefined;
        throw Object.assign(new Error('socket hang up (injected after the commit)'), { code: 'ECONNRESET', $metadata: {} });
      }
      return out;
    },
    { step: 'initialize', name: 'lostAnswerHook' },
  );
});
afterEach(() => {
  loseAnswerOf = undefined;
});

const acceptance = {
  acceptance_type: 'online',
  accepted_at: '2026-11-20T10:00:00Z',
  online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
};

/** Every answer body of this file (no Stripe PaymentMethod id may appear in any). */
const answers: string[] = [];

async function call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<TestResponse> {
  const res = await h.api.request(method, path, { ...(body !== undefined ? { body } : {}), ...(headers ? { headers } : {}) });
  answers.push(res.text);
  return res;
}

async function newCustomer(): Promise<string> {
  const res = await call('POST', '/customers', { name: 'Ada Obi', email: 'ada@example.com' });
  expect(res.status).toBe(200);
  return res.body.customer_id;
}

/** The body of a USD card payment (Stripe, the platform's account) that saves its card on `customer`. */
const savingBody = (customer: string, extra: Json = {}): Json => ({
  amount: 5000,
  currency: 'USD',
  confirm: true,
  customer_id: customer,
  email: 'ada@example.com',
  payment_method_data: card('4242424242424242'),
  setup_future_usage: 'off_session',
  customer_acceptance: acceptance,
  ...extra,
});

/** A payment that saved its card: the payment, our method id, and the Stripe PaymentMethod (the token). */
async function savedMethod(): Promise<{ payment: Json; pmId: string; token: string; customer: string }> {
  const customer = await newCustomer();
  const res = await call('POST', '/payments', savingBody(customer));
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ status: 'Succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
  const [stripeCustomer] = stripeCustomersOf(customer);
  expect(stripeCustomer?.paymentMethodIds).toHaveLength(1);
  return { payment: res.body, pmId: res.body.payment_method_id, token: stripeCustomer!.paymentMethodIds[0]!, customer };
}

/** The stand-in's Customers (platform account) made for our customer (`metadata[customer_id]`). */
const stripeCustomersOf = (customer: string) => h.stripe.customersOf().filter((c) => c.metadata.customer_id === customer);

/** The detach requests Stripe received for a PaymentMethod, with what each did. */
const detachCalls = (token: string) =>
  h.stripe.requests.filter((r) => r.method === 'POST' && r.path === `/v1/payment_methods/${token}/detach`).map((r) => r.outcome);

/** The detach requests that did the work at Stripe: neither a replay of a saved answer nor failed before the work. */
const detachesDone = (token: string) =>
  h.stripe.requests.filter(
    (r) =>
      r.method === 'POST' &&
      r.path === `/v1/payment_methods/${token}/detach` &&
      r.outcome !== 'replayed' &&
      !String(r.fault).endsWith('_before_work') &&
      r.fault !== 'down',
  );

/** Stripe's view: whether the PaymentMethod is detached from its Customer (and unusable). */
const detachedAtStripe = (token: string) => h.stripe.customersOf().some((c) => c.detachedPaymentMethodIds.includes(token));

/** The `payment_method.*` events of one method. */
async function eventsOf(type: string, pmId: string): Promise<Json[]> {
  const res = await call('GET', `/events?type=${type}&limit=100`);
  expect(res.status).toBe(200);
  return (res.body.data as Json[]).filter((e) => e.data.payment_method_id === pmId);
}

/** Every table item whose key names the method or its card's fingerprint guard (a scan of this file's table). */
async function itemsNaming(pmId: string, customer: string): Promise<Json[]> {
  const items: Json[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items.filter(
    (i) => String(i.PK).includes(`#PAYMENT_METHOD#${pmId}`) || String(i.PK).includes(`#CUSTOMER#${customer}#PM_FINGERPRINT#`),
  );
}

/** Asserts that one DELETE retry converges: detached here, once at Stripe, one event; a further DELETE is 409. */
async function expectDetachConverged(pmId: string, token: string, customer: string): Promise<void> {
  const method = (await call('GET', `/payment_methods/${pmId}`)).body;
  expect(method).toMatchObject({ payment_method_id: pmId, status: 'detached', default: false });
  expect(detachedAtStripe(token)).toBe(true);
  // Exactly one detach did the work at Stripe; any other request replayed its saved answer or failed before working.
  expect(detachesDone(token)).toHaveLength(1);
  expect(await eventsOf('payment_method.detached', pmId)).toHaveLength(1);
  expect((await call('GET', `/customers/${customer}/payment_methods`)).body.data).toEqual([]);
  expectError(await call('DELETE', `/payment_methods/${pmId}`), 409, 'payment_method_unexpected_state');
  // The token is destroyed here and the fingerprint guard removed: only the detached method's item is left.
  const items = await itemsNaming(pmId, customer);
  expect(items.map((i) => [i.entity, i.status ?? null, 'token_ciphertext' in i])).toEqual([['payment_method', 'detached', false]]);
}

afterAll(() => {
  // No Stripe PaymentMethod id (the reusable token) in any answer of this file.
  const tokens = h.stripe.paymentMethodsOf(h.stripe.secretKey).map((pm) => pm.id);
  expect(tokens.length).toBeGreaterThan(0);
  const all = answers.join('\n');
  expect(tokens.filter((t) => all.includes(t))).toEqual([]);
});

describe('1. DELETE: storage fails after Stripe detached the method', () => {
  test.each([
    ['a storage outage', 'outage' as const, 503, 'service_unavailable'],
    ['the process dying at the write', 'killed' as const, 500, 'internal_error'],
  ])('%s → never "nothing was changed"; a retried DELETE finishes it, detached once at Stripe, one event', async (_what, mode, status, code) => {
    const { pmId, token, customer } = await savedMethod();
    h.failStorage({ command: 'TransactWriteItems', pk: '#PAYMENT_METHOD#', nth: 1, mode });
    const res = await call('DELETE', `/payment_methods/${pmId}`);
    const error = expectError(res, status, code);
    expect(error.message).not.toMatch(/nothing was changed/i);
    if (mode === 'outage') expect(error.message).toMatch(/stripe detached this payment method/i);
    h.storageReturns();
    // Stripe holds it detached; here it is still attached (the write failed as a whole: no event either).
    expect(detachedAtStripe(token)).toBe(true);
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('active');
    expect(await eventsOf('payment_method.detached', pmId)).toEqual([]);

    const retry = await call('DELETE', `/payment_methods/${pmId}`);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ payment_method_id: pmId, status: 'detached' });
    await expectDetachConverged(pmId, token, customer);
  });

  test('the detach write applied but its answer lost → never "nothing was changed"; a retried DELETE answers it detached', async () => {
    const { pmId, token, customer } = await savedMethod();
    loseAnswerOf = '#PAYMENT_METHOD#';
    const res = await call('DELETE', `/payment_methods/${pmId}`);
    const error = expectError(res, 503, 'service_unavailable');
    expect(error.message).not.toMatch(/nothing was changed/i);
    expect(loseAnswerOf).toBeUndefined(); // the hook fired
    expect(detachedAtStripe(token)).toBe(true);
    // The write did land: the method is detached here already, and its event was written once.
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('detached');
    await expectDetachConverged(pmId, token, customer);
  });

  test('storage down before Stripe is called → 503 "nothing was changed", and Stripe was not asked', async () => {
    const { pmId, token } = await savedMethod();
    h.failStorage({ command: 'GetItem', pk: '#PAYMENT_METHOD#', nth: 1, mode: 'outage' });
    const res = await call('DELETE', `/payment_methods/${pmId}`);
    expect(expectError(res, 503, 'service_unavailable').message).toMatch(/nothing was changed/i);
    h.storageReturns();
    expect(detachCalls(token)).toEqual([]);
    expect(detachedAtStripe(token)).toBe(false);
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('active');
  });
});

describe('2. the attach transaction fails after the payment succeeded', () => {
  test.each([
    ['a storage outage', 'outage' as const],
    ['the process dying at the write', 'killed' as const],
  ])('%s → the payment answers Stripe’s outcome with payment_method_id null; nothing half-saved; no later path saves it', async (_what, mode) => {
    const customer = await newCustomer();
    h.failStorage({ command: 'TransactWriteItems', pk: '#PAYMENT_METHOD#', nth: 1, mode });
    const res = await call('POST', '/payments', savingBody(customer));
    h.storageReturns();
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'Succeeded',
      amount_captured: 5000,
      payment_method_id: null,
      setup_future_usage: 'off_session',
    });
    const paymentId = res.body.payment_id as string;
    const pmId = paymentMethodIdFor(paymentId);
    // The payment equals Stripe's ledger (one charge, captured). Stripe saved the card on the one Customer made for
    // the payment: that PaymentMethod is known nowhere here, so no DELETE can reach it (a known gap; see 3.).
    await h.expectConverged(paymentId);
    const [stripeCustomer, ...more] = stripeCustomersOf(customer);
    expect(more).toEqual([]);
    expect(stripeCustomer?.paymentMethodIds).toHaveLength(1);
    // Nothing here: no method, no guard, no event, an empty list.
    const nothingSaved = async () => {
      expect(await itemsNaming(pmId, customer)).toEqual([]);
      expectError(await call('GET', `/payment_methods/${pmId}`), 404, 'resource_missing');
      expect((await call('GET', `/customers/${customer}/payment_methods`)).body.data).toEqual([]);
      expect(await eventsOf('payment_method.attached', pmId)).toEqual([]);
    };
    await nothingSaved();
    // A forced sync and a reconciler pass leave it so: the outcome is settled, the save is not retried.
    const synced = await call('GET', `/payments/${paymentId}?force_sync=true`);
    expect(synced.body).toMatchObject({ status: 'Succeeded', payment_method_id: null });
    await h.reconcileLater();
    expect((await call('GET', `/payments/${paymentId}`)).body).toMatchObject({ status: 'Succeeded', payment_method_id: null });
    await nothingSaved();
    await h.expectConverged(paymentId);
  });

  test('a keyed retry of the payment answers the same outcome and does not save (nor charge) again', async () => {
    const customer = await newCustomer();
    const key = randomUUID();
    h.failStorage({ command: 'TransactWriteItems', pk: '#PAYMENT_METHOD#', nth: 1, mode: 'outage' });
    const first = await call('POST', '/payments', savingBody(customer), { 'Idempotency-Key': key });
    h.storageReturns();
    expect(first.body).toMatchObject({ status: 'Succeeded', payment_method_id: null });
    const retry = await call('POST', '/payments', savingBody(customer), { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ payment_id: first.body.payment_id, status: 'Succeeded', payment_method_id: null });
    expect(h.ledger()[first.body.payment_id]?.charges).toBe(1);
    expect((await call('GET', `/customers/${customer}/payment_methods`)).body.data).toEqual([]);
    await h.expectConverged(first.body.payment_id);
  });

  test('the attach write applied but its answer lost → the payment still answers; a method saved is named once, never twice', async () => {
    const customer = await newCustomer();
    loseAnswerOf = '#PAYMENT_METHOD#';
    const res = await call('POST', '/payments', savingBody(customer));
    expect(loseAnswerOf).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Succeeded');
    const paymentId = res.body.payment_id as string;
    const pmId = paymentMethodIdFor(paymentId);
    await h.expectConverged(paymentId);
    // The method is in the table (the transaction landed) with its one event; the payment's answer named none.
    expect(res.body.payment_method_id).toBeNull();
    const listed = (await call('GET', `/customers/${customer}/payment_methods`)).body.data as Json[];
    expect(listed.map((m) => m.payment_method_id)).toEqual([pmId]);
    expect(await eventsOf('payment_method.attached', pmId)).toHaveLength(1);
    // Saving the same card again for the customer finds that method (the fingerprint guard): no second one.
    const again = await call('POST', '/payments', savingBody(customer));
    expect(again.body).toMatchObject({ status: 'Succeeded', payment_method_id: pmId });
    expect(((await call('GET', `/customers/${customer}/payment_methods`)).body.data as Json[]).map((m) => m.payment_method_id)).toEqual([
      pmId,
    ]);
    // … and reuses the Stripe Customer it was saved with.
    expect(stripeCustomersOf(customer)).toHaveLength(1);
  });
});

describe('3. the Stripe Customer of (customer, account) under storage faults', () => {
  test('the outcome write fails after Stripe made the Customer and charged → a keyed retry makes no second Customer and saves the card once', async () => {
    const customer = await newCustomer();
    const key = cardFreeKey(); // sent as metadata too: no digit run in it may read as a card number
    const body = savingBody(customer, { metadata: { test_key: key } });
    // The payment's writes: 1 the create with its claim, 2 the outcome; the table stays down until the request gave up.
    h.failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'outage', times: Infinity, wholeTable: true });
    const res = await call('POST', '/payments', body, { 'Idempotency-Key': key });
    expect(expectError(res, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
    const back = h.storageReturns();
    const stripeCustomers = stripeCustomersOf(customer);
    expect(stripeCustomers).toHaveLength(1);
    h.clock.set(back + 60_000);
    const retry = await call('POST', '/payments', body, { 'Idempotency-Key': key });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'Succeeded' });
    const paymentId = retry.body.payment_id as string;
    await h.expectConverged(paymentId);
    // One Customer for (customer, account), the card attached to it once; saved here once, named by the payment.
    expect(stripeCustomersOf(customer).map((c) => [c.id, c.paymentMethodIds.length])).toEqual([[stripeCustomers[0]!.id, 1]]);
    const pmId = paymentMethodIdFor(paymentId);
    expect((await call('GET', `/payments/${paymentId}`)).body.payment_method_id).toBe(pmId);
    expect(((await call('GET', `/customers/${customer}/payment_methods`)).body.data as Json[]).map((m) => m.payment_method_id)).toEqual([
      pmId,
    ]);
    expect(await eventsOf('payment_method.attached', pmId)).toHaveLength(1);
    // A later saving payment of the customer reuses that Customer.
    const next = await call('POST', '/payments', savingBody(customer));
    expect(next.body).toMatchObject({ status: 'Succeeded', payment_method_id: pmId });
    expect(stripeCustomersOf(customer)).toHaveLength(1);
    expect(
      h.stripe.requests.filter(
        (r) => r.path === '/v1/customers' && r.form['metadata[customer_id]'] === customer && r.outcome !== 'replayed',
      ),
    ).toHaveLength(1);
  });

  test('Stripe made the Customer, then its answer was lost → no PaymentIntent at Stripe, the payment falls back; one Customer, holding nothing', async () => {
    const customer = await newCustomer();
    h.failProcessor({ method: 'POST', path: '/v1/customers' }, 'hang_after_work');
    const res = await call('POST', '/payments', savingBody(customer));
    expect(res.status).toBe(200);
    const paymentId = res.body.payment_id as string;
    // A lost Customer answer means no PaymentIntent was requested (nothing charged at Stripe): routing's next
    // connector took the payment and saved its card there.
    expect(res.body).toMatchObject({ status: 'Succeeded', connector: 'sandbox', payment_method_id: paymentMethodIdFor(paymentId) });
    expect(h.ledger()[paymentId]).toBeUndefined();
    expect(h.stripe.paymentIntentsOf(h.stripe.secretKey).filter((pi) => pi.paymentId === paymentId)).toEqual([]);
    // Stripe holds the one Customer made for this payment, with no card on it.
    expect(stripeCustomersOf(customer).map((c) => c.paymentMethodIds)).toEqual([[]]);
    await h.reconcileLater();
    expect((await call('GET', `/payments/${paymentId}`)).body).toMatchObject({ status: 'Succeeded', connector: 'sandbox' });
    expect(stripeCustomersOf(customer)).toHaveLength(1);
  });

  test('the attach failed after Stripe saved the card → a later saving payment of the customer makes a second Stripe Customer (documented)', async () => {
    // Known limitation (see the report of this file's change): the Stripe Customer's id is only kept on a saved
    // method here, so when the save failed the next saving payment cannot find it and Stripe makes another one.
    const customer = await newCustomer();
    h.failStorage({ command: 'TransactWriteItems', pk: '#PAYMENT_METHOD#', nth: 1, mode: 'outage' });
    const first = await call('POST', '/payments', savingBody(customer));
    h.storageReturns();
    expect(first.body).toMatchObject({ status: 'Succeeded', payment_method_id: null });
    const second = await call('POST', '/payments', savingBody(customer));
    expect(second.body).toMatchObject({ status: 'Succeeded', payment_method_id: paymentMethodIdFor(second.body.payment_id) });
    const stored = ((await call('GET', `/customers/${customer}/payment_methods`)).body.data as Json[]).map((m) => m.payment_method_id);
    expect(stored).toEqual([second.body.payment_method_id]);
    const customers = stripeCustomersOf(customer);
    expect(customers.map((c) => c.paymentMethodIds.length)).toEqual([1, 1]);
    // Each Customer was made once (by its own payment's key), never twice for one payment.
    expect(customers.map((c) => c.idempotencyKey)).toEqual([`${first.body.payment_id}:customer`, `${second.body.payment_id}:customer`]);
    await h.expectConverged(first.body.payment_id);
    await h.expectConverged(second.body.payment_id);
  });
});

describe('4. Stripe detaches, then its answer is lost', () => {
  /** Stripe's read of the PaymentMethod (how the adapter checks a detach whose answer was lost). */
  const readOf = (token: string) => h.stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/payment_methods/${token}`);

  test.each([
    ['times out', 'hang_after_work' as const],
    ['resets the connection', 'reset_after_work' as const],
    ['answers 500 (saved under the key: a retry would replay it)', 'error_500_after_work' as const],
  ])('Stripe %s after detaching → the adapter reads the PaymentMethod, finds it detached: 200 at once, detached once', async (_what, fault) => {
    const { pmId, token, customer } = await savedMethod();
    h.failProcessor({ method: 'POST', path: `/v1/payment_methods/${token}/detach` }, fault);
    const res = await call('DELETE', `/payment_methods/${pmId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ payment_method_id: pmId, status: 'detached' });
    expect(readOf(token).map((r) => r.status)).toEqual([200]);
    await expectDetachConverged(pmId, token, customer);
  });

  test.each([
    ['times out', 'hang_after_work' as const],
    ['answers 500 (saved under the key: every retry replays it)', 'error_500_after_work' as const],
  ])('Stripe %s after detaching and the read fails too → 503 connector_unreachable (still attached here); a retry converges', async (_what, fault) => {
    const { pmId, token, customer } = await savedMethod();
    h.failProcessor({ method: 'POST', path: `/v1/payment_methods/${token}/detach` }, fault);
    h.failProcessor({ method: 'GET', path: `/v1/payment_methods/${token}` }, 'reset_before_work');
    const res = await call('DELETE', `/payment_methods/${pmId}`);
    const error = expectError(res, 503, 'connector_unreachable');
    expect(error.message).not.toMatch(/nothing was changed/i);
    expect(detachedAtStripe(token)).toBe(true);
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('active');
    expect(await eventsOf('payment_method.detached', pmId)).toEqual([]);
    // The retry: Stripe replays the detach's saved answer (for a 500, the 500 again: the read settles it).
    const retry = await call('DELETE', `/payment_methods/${pmId}`);
    expect(retry.status).toBe(200);
    expect(retry.body.status).toBe('detached');
    expect(detachCalls(token)).toEqual([fault === 'hang_after_work' ? 'hung' : 'answered', 'replayed']);
    await expectDetachConverged(pmId, token, customer);
  });

  test('Stripe fails before detaching (500, nothing saved) → the read shows it attached: 503, still attached; a retry detaches it', async () => {
    const { pmId, token, customer } = await savedMethod();
    h.failProcessor({ method: 'POST', path: `/v1/payment_methods/${token}/detach` }, 'error_500_before_work');
    expectError(await call('DELETE', `/payment_methods/${pmId}`), 503, 'connector_unreachable');
    expect(readOf(token).map((r) => r.status)).toEqual([200]);
    expect(detachedAtStripe(token)).toBe(false);
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('active');
    expect((await call('DELETE', `/payment_methods/${pmId}`)).body.status).toBe('detached');
    await expectDetachConverged(pmId, token, customer);
  });

  test('a customer delete whose method detach is lost (and the read too): the delete answers, a retried DELETE finishes it, detached once', async () => {
    const { pmId, token, customer } = await savedMethod();
    h.failProcessor({ method: 'POST', path: `/v1/payment_methods/${token}/detach` }, 'hang_after_work');
    h.failProcessor({ method: 'GET', path: `/v1/payment_methods/${token}` }, 'reset_before_work');
    const first = await call('DELETE', `/customers/${customer}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ customer_id: customer, deleted: true });
    // Stripe detached it; here it stays attached until the delete's next pass.
    expect(detachedAtStripe(token)).toBe(true);
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('active');
    const retry = await call('DELETE', `/customers/${customer}`);
    expect(retry.body).toEqual({ customer_id: customer, deleted: true });
    expect((await call('GET', `/payment_methods/${pmId}`)).body.status).toBe('detached');
    expect(detachesDone(token)).toHaveLength(1);
    expect(await eventsOf('payment_method.detached', pmId)).toHaveLength(1);
    expectError(await call('DELETE', `/payment_methods/${pmId}`), 409, 'payment_method_unexpected_state');
  });
});
