import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** Asserts a 200 and returns the body. */
function ok(res: TestResponse) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  return res.body;
}

async function newCustomer(body: Record<string, unknown> = {}, key?: string) {
  return ok(await api.request('POST', '/customers', { body, key }));
}

describe('POST /customers', () => {
  test('an absent body and an empty object both create a customer with cus_ id and a UTC created_at', async () => {
    const before = Date.now();
    const noBody = await api.request('POST', '/customers');
    const empty = await api.request('POST', '/customers', { body: {} });
    const after = Date.now();
    for (const res of [noBody, empty]) {
      const c = ok(res);
      expect(c.customer_id).toMatch(/^cus_\w+$/);
      expect(c.created_at).toMatch(ISO_UTC);
      const t = Date.parse(c.created_at);
      expect(t).toBeGreaterThanOrEqual(before - 5000);
      expect(t).toBeLessThanOrEqual(after + 5000);
    }
    expect(noBody.body.customer_id).not.toBe(empty.body.customer_id);
    // both are really stored
    expect(ok(await api.request('GET', `/customers/${noBody.body.customer_id}`)).customer_id).toBe(noBody.body.customer_id);
    expect(ok(await api.request('GET', `/customers/${empty.body.customer_id}`)).customer_id).toBe(empty.body.customer_id);
  });

  test('echoes every field given; GET returns the same customer', async () => {
    const fields = {
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      phone: '+2348012345678',
      description: 'VIP since 1843',
      metadata: { tier: 'gold', ref: 'A-1' },
    };
    const c = await newCustomer(fields);
    expect(c).toMatchObject(fields);
    expect(c.metadata).toEqual(fields.metadata);
    expect(c.customer_id).toMatch(/^cus_/);
    expect(c.created_at).toMatch(ISO_UTC);

    const got = ok(await api.request('GET', `/customers/${c.customer_id}`));
    expect(got).toMatchObject({ ...fields, customer_id: c.customer_id, created_at: c.created_at });
    expect(got.metadata).toEqual(fields.metadata);
  });

  test('invalid fields → 400 naming the field, and nothing is created', async () => {
    const other = await api.newMerchantKey();
    const badEmail = await api.request('POST', '/customers', { body: { email: 'not-an-email' }, key: other });
    expectError(badEmail, 400);
    const badPhone = await api.request('POST', '/customers', { body: { phone: '08012345678' }, key: other });
    expectError(badPhone, 400);
    const unknown = await api.request('POST', '/customers', { body: { nickname: 'x' }, key: other });
    expect(expectError(unknown, 400).param).toBe('nickname');
    const list = ok(await api.request('GET', '/customers', { key: other }));
    expect(list.data).toEqual([]);
  });
});

describe('PUT /customers/{id}', () => {
  test('sets only the fields given and returns the customer', async () => {
    const c = await newCustomer({
      email: 'old@example.com',
      name: 'Old Name',
      phone: '+254712345678',
      description: 'first',
      metadata: { a: '1' },
    });

    const renamed = ok(await api.request('PUT', `/customers/${c.customer_id}`, { body: { name: 'New Name' } }));
    expect(renamed).toMatchObject({
      customer_id: c.customer_id,
      created_at: c.created_at,
      name: 'New Name',
      email: 'old@example.com',
      phone: '+254712345678',
      description: 'first',
      metadata: { a: '1' },
    });

    const more = ok(
      await api.request('PUT', `/customers/${c.customer_id}`, {
        body: { email: 'new@example.com', phone: '+233201234567', description: 'second' },
      }),
    );
    expect(more).toMatchObject({
      name: 'New Name',
      email: 'new@example.com',
      phone: '+233201234567',
      description: 'second',
      metadata: { a: '1' },
    });

    const got = ok(await api.request('GET', `/customers/${c.customer_id}`));
    expect(got).toMatchObject({
      customer_id: c.customer_id,
      created_at: c.created_at,
      name: 'New Name',
      email: 'new@example.com',
      phone: '+233201234567',
      description: 'second',
    });
    expect(got.metadata).toEqual({ a: '1' });
  });

  test('metadata replaces the whole map', async () => {
    const c = await newCustomer({ name: 'Meta', metadata: { a: '1', b: '2', c: '3' } });
    const updated = ok(await api.request('PUT', `/customers/${c.customer_id}`, { body: { metadata: { b: 'two', d: '4' } } }));
    expect(updated.metadata).toEqual({ b: 'two', d: '4' });
    expect(updated.name).toBe('Meta');
    const got = ok(await api.request('GET', `/customers/${c.customer_id}`));
    expect(got.metadata).toEqual({ b: 'two', d: '4' });
  });

  test('an empty body changes nothing and still returns the customer', async () => {
    const c = await newCustomer({ email: 'same@example.com', name: 'Same', metadata: { k: 'v' } });
    const res = ok(await api.request('PUT', `/customers/${c.customer_id}`, { body: {} }));
    expect(res).toMatchObject({
      customer_id: c.customer_id,
      email: 'same@example.com',
      name: 'Same',
      metadata: { k: 'v' },
      created_at: c.created_at,
    });
  });

  test('invalid fields → 400 and the customer is unchanged', async () => {
    const c = await newCustomer({ email: 'keep@example.com', name: 'Keep' });
    const bad = await api.request('PUT', `/customers/${c.customer_id}`, { body: { name: 'Changed', email: 'nope' } });
    expectError(bad, 400);
    const unknown = await api.request('PUT', `/customers/${c.customer_id}`, { body: { customer_id: 'cus_other' } });
    expectError(unknown, 400);
    const got = ok(await api.request('GET', `/customers/${c.customer_id}`));
    expect(got).toMatchObject({ email: 'keep@example.com', name: 'Keep', customer_id: c.customer_id });
  });
});

describe('unknown customers', () => {
  test.each(['cus_doesnotexist000000000000000000', 'not-a-customer-id'])('GET, PUT and DELETE of %s → 404', async (id) => {
    expectError(await api.request('GET', `/customers/${id}`), 404);
    expectError(await api.request('PUT', `/customers/${id}`, { body: { name: 'x' } }), 404);
    expectError(await api.request('DELETE', `/customers/${id}`), 404);
  });

  test('PUT of an unknown id does not create it', async () => {
    const id = 'cus_neverexisted00000000000000000';
    expectError(await api.request('PUT', `/customers/${id}`, { body: { name: 'ghost' } }), 404);
    expectError(await api.request('GET', `/customers/${id}`), 404);
  });
});

describe('DELETE /customers/{id}', () => {
  test('answers {customer_id, deleted: true}; afterwards GET, PUT and DELETE → 404 and it leaves the list', async () => {
    const c = await newCustomer({ email: 'gone@example.com' });
    const keep = await newCustomer({ email: 'kept@example.com' });
    const del = await api.request('DELETE', `/customers/${c.customer_id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ customer_id: c.customer_id, deleted: true });

    expectError(await api.request('GET', `/customers/${c.customer_id}`), 404);
    expectError(await api.request('PUT', `/customers/${c.customer_id}`, { body: { name: 'back' } }), 404);
    expectError(await api.request('DELETE', `/customers/${c.customer_id}`), 404);
    // the PUT did not bring it back
    expectError(await api.request('GET', `/customers/${c.customer_id}`), 404);

    const list = ok(await api.request('GET', '/customers?limit=100'));
    const ids = list.data.map((x: { customer_id: string }) => x.customer_id);
    expect(ids).not.toContain(c.customer_id);
    expect(ids).toContain(keep.customer_id);
    const byEmail = ok(await api.request('GET', `/customers?email=${encodeURIComponent('gone@example.com')}`));
    expect(byEmail.data).toEqual([]);
    // the other customer is untouched
    expect(ok(await api.request('GET', `/customers/${keep.customer_id}`)).email).toBe('kept@example.com');
  });

  test('unlinks the payments of the deleted customer; the payments stay', async () => {
    const key = await api.newMerchantKey();
    const c = await newCustomer({ name: 'Leaving' }, key);
    const other = await newCustomer({ name: 'Staying' }, key);

    const create = async (body: Record<string, unknown>) => ok(await api.request('POST', '/payments', { body, key }));
    const pending = await create({ amount: 1000, currency: 'NGN', payment_method: 'card', customer_id: c.customer_id });
    const paid = await create({
      amount: 2000,
      currency: 'USD',
      customer_id: c.customer_id,
      confirm: true,
      payment_method_data: card('4242424242424242'),
    });
    const declined = await create({
      amount: 3000,
      currency: 'KES',
      customer_id: c.customer_id,
      confirm: true,
      payment_method_data: card('4000000000000002'),
    });
    const others = await create({ amount: 4000, currency: 'GHS', customer_id: other.customer_id });
    const linked = [pending, paid, declined];
    for (const p of linked) expect(p.customer_id).toBe(c.customer_id);
    expect(pending.status).toBe('RequiresConfirmation');
    expect(paid.status).toBe('Succeeded');
    expect(declined.status).toBe('Failed');
    expect(others.customer_id).toBe(other.customer_id);

    const del = await api.request('DELETE', `/customers/${c.customer_id}`, { key });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ customer_id: c.customer_id, deleted: true });

    for (const p of linked) {
      const got = ok(await api.request('GET', `/payments/${p.payment_id}`, { key }));
      expect(got).toMatchObject({ payment_id: p.payment_id, customer_id: null, status: p.status, amount: p.amount, currency: p.currency });
    }
    // a payment of another customer keeps its link
    expect(ok(await api.request('GET', `/payments/${others.payment_id}`, { key })).customer_id).toBe(other.customer_id);

    const list = ok(await api.request('GET', '/payments?limit=100', { key }));
    const byId = new Map<string, { customer_id: string | null }>(list.data.map((p: { payment_id: string }) => [p.payment_id, p]));
    for (const p of linked) {
      expect(byId.has(p.payment_id)).toBe(true);
      expect(byId.get(p.payment_id)?.customer_id).toBeNull();
    }
    expect(byId.get(others.payment_id)?.customer_id).toBe(other.customer_id);
    expect(list.data).toHaveLength(4);

    // later changes to an unlinked payment do not bring the link back
    const confirmed = ok(
      await api.request('POST', `/payments/${pending.payment_id}/confirm`, {
        body: { payment_method_data: card('4242424242424242') },
        key,
      }),
    );
    expect(confirmed).toMatchObject({ status: 'Succeeded', customer_id: null });
    const refund = await api.request('POST', `/payments/${paid.payment_id}/refund`, { body: { amount: 500 }, key });
    expect(refund.status).toBe(200);
    expect(ok(await api.request('GET', `/payments/${paid.payment_id}`, { key }))).toMatchObject({
      customer_id: null,
      amount_refunded: 500,
    });

    // the deleted customer cannot be linked to a new payment
    const relink = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', customer_id: c.customer_id }, key });
    expectError(relink, 400, 'resource_missing');
    expect(ok(await api.request('GET', '/payments?limit=100', { key })).data).toHaveLength(4);
  });
});

describe('customers are scoped to their merchant', () => {
  test("merchant B gets 404 for merchant A's customer and cannot link it to a payment", async () => {
    const a = await newCustomer({ email: 'a-only@example.com', name: 'A' });
    const b = await api.newMerchantKey();

    expectError(await api.request('GET', `/customers/${a.customer_id}`, { key: b }), 404);
    expectError(await api.request('PUT', `/customers/${a.customer_id}`, { body: { name: 'hijacked' }, key: b }), 404);
    expectError(await api.request('DELETE', `/customers/${a.customer_id}`, { key: b }), 404);

    const pay = await api.request('POST', '/payments', { body: { amount: 500, currency: 'NGN', customer_id: a.customer_id }, key: b });
    expectError(pay, 400, 'resource_missing');
    expect(ok(await api.request('GET', '/payments', { key: b })).data).toEqual([]);

    expect(ok(await api.request('GET', '/customers', { key: b })).data).toEqual([]);
    expect(ok(await api.request('GET', `/customers?email=${encodeURIComponent('a-only@example.com')}`, { key: b })).data).toEqual([]);

    // A's customer is untouched and still linkable by A
    const still = ok(await api.request('GET', `/customers/${a.customer_id}`));
    expect(still).toMatchObject({ name: 'A', email: 'a-only@example.com' });
    const mine = ok(await api.request('POST', '/payments', { body: { amount: 500, currency: 'NGN', customer_id: a.customer_id } }));
    expect(mine.customer_id).toBe(a.customer_id);
  });
});
