import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Item {
  id: string;
  created_at: string;
}

/** Asserts a 200 list body `{data, has_more}` and returns it. */
function page(res: TestResponse): { data: Record<string, unknown>[]; has_more: boolean } {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 200,
    body: expect.objectContaining({ data: expect.any(Array), has_more: expect.any(Boolean) }),
  });
  return res.body;
}

const customerIds = (res: TestResponse) => page(res).data.map((c) => c.customer_id as string);
const paymentIds = (res: TestResponse) => page(res).data.map((p) => p.payment_id as string);

/** Asserts `created_at` strictly descends along the list (newest first). */
function expectNewestFirst(data: Record<string, unknown>[]): void {
  const times = data.map((x) => Date.parse(x.created_at as string));
  for (let i = 1; i < times.length; i += 1) expect(times[i - 1]).toBeGreaterThan(times[i] as number);
}

/** The items of `all` (newest first) whose created_at satisfies `keep`. */
const where = (all: Item[], keep: (t: number) => boolean) => all.filter((x) => keep(Date.parse(x.created_at))).map((x) => x.id);

// ---------------------------------------------------------------- customers

/** 23 customers of the main merchant, newest first. */
let customers: Item[] = [];
const CUSTOMER_COUNT = 23;

beforeAll(async () => {
  api = await startLocalApi();
  const created: Item[] = [];
  for (let i = 0; i < CUSTOMER_COUNT; i += 1) {
    const res = await api.request('POST', '/customers', { body: { name: `Customer ${i}` } });
    expect(res.status).toBe(200);
    created.push({ id: res.body.customer_id, created_at: res.body.created_at });
    await sleep(3);
  }
  customers = created.reverse();
});
afterAll(async () => {
  await api.close();
});

describe('GET /customers paging', () => {
  test('default limit is 20, newest first, has_more true when more exist', async () => {
    const res = await api.request('GET', '/customers');
    const body = page(res);
    expect(body.data).toHaveLength(20);
    expect(body.has_more).toBe(true);
    expect(customerIds(res)).toEqual(customers.slice(0, 20).map((c) => c.id));
    expectNewestFirst(body.data);
    for (const c of body.data) expect(Object.keys(c)).toEqual(expect.arrayContaining(['customer_id', 'created_at']));
  });

  test('limit=N returns N; has_more false once everything fits', async () => {
    const five = await api.request('GET', '/customers?limit=5');
    expect(customerIds(five)).toEqual(customers.slice(0, 5).map((c) => c.id));
    expect(five.body.has_more).toBe(true);

    const one = await api.request('GET', '/customers?limit=1');
    expect(customerIds(one)).toEqual([customers[0]?.id]);
    expect(one.body.has_more).toBe(true);

    const exact = await api.request('GET', `/customers?limit=${CUSTOMER_COUNT}`);
    expect(customerIds(exact)).toEqual(customers.map((c) => c.id));
    expect(exact.body.has_more).toBe(false);

    const max = await api.request('GET', '/customers?limit=100');
    expect(customerIds(max)).toEqual(customers.map((c) => c.id));
    expect(max.body.has_more).toBe(false);
    expectNewestFirst(max.body.data);
  });

  test('offset skips items', async () => {
    const mid = await api.request('GET', '/customers?offset=5&limit=5');
    expect(customerIds(mid)).toEqual(customers.slice(5, 10).map((c) => c.id));
    expect(mid.body.has_more).toBe(true);

    const tail = await api.request('GET', '/customers?offset=20');
    expect(customerIds(tail)).toEqual(customers.slice(20).map((c) => c.id));
    expect(tail.body.has_more).toBe(false);

    const edge = await api.request('GET', `/customers?offset=${CUSTOMER_COUNT - 2}&limit=2`);
    expect(customerIds(edge)).toEqual(customers.slice(CUSTOMER_COUNT - 2).map((c) => c.id));
    expect(edge.body.has_more).toBe(false);

    const past = await api.request('GET', `/customers?offset=${CUSTOMER_COUNT}`);
    expect(page(past).data).toEqual([]);
    expect(past.body.has_more).toBe(false);

    const zero = await api.request('GET', '/customers?offset=0&limit=3');
    expect(customerIds(zero)).toEqual(customers.slice(0, 3).map((c) => c.id));
  });

  test('starting_after walks every page with no duplicates or gaps', async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i += 1) {
      const res = await api.request('GET', `/customers?limit=7${after ? `&starting_after=${after}` : ''}`);
      const ids = customerIds(res);
      seen.push(...ids);
      hasMore.push(res.body.has_more);
      if (!res.body.has_more) break;
      after = ids.at(-1);
    }
    expect(hasMore).toEqual([true, true, true, false]);
    expect(seen).toEqual(customers.map((c) => c.id));
    expect(new Set(seen).size).toBe(CUSTOMER_COUNT);

    const afterLast = await api.request('GET', `/customers?starting_after=${customers.at(-1)?.id}`);
    expect(page(afterLast).data).toEqual([]);
    expect(afterLast.body.has_more).toBe(false);

    const afterFirst = await api.request('GET', `/customers?limit=2&starting_after=${customers[0]?.id}`);
    expect(customerIds(afterFirst)).toEqual([customers[1]?.id, customers[2]?.id]);
  });
});

describe('GET /customers created range', () => {
  const q = (params: string) => api.request('GET', `/customers?limit=100&${params}`);

  test.each([
    ['bracket', (op: string, v: string) => `created%5B${op}%5D=${encodeURIComponent(v)}`],
    ['dot', (op: string, v: string) => `created.${op}=${encodeURIComponent(v)}`],
  ])('gt/gte/lt/lte with an ISO boundary equal to an item (%s spelling)', async (_name, param) => {
    const boundary = customers[10] as Item;
    const t = Date.parse(boundary.created_at);

    const gte = customerIds(await q(param('gte', boundary.created_at)));
    expect(gte).toEqual(where(customers, (x) => x >= t));
    expect(gte).toContain(boundary.id);
    expect(gte).toEqual(customers.slice(0, 11).map((c) => c.id));

    const gt = customerIds(await q(param('gt', boundary.created_at)));
    expect(gt).toEqual(where(customers, (x) => x > t));
    expect(gt).not.toContain(boundary.id);
    expect(gt).toEqual(customers.slice(0, 10).map((c) => c.id));

    const lte = customerIds(await q(param('lte', boundary.created_at)));
    expect(lte).toEqual(where(customers, (x) => x <= t));
    expect(lte).toContain(boundary.id);
    expect(lte).toEqual(customers.slice(10).map((c) => c.id));

    const lt = customerIds(await q(param('lt', boundary.created_at)));
    expect(lt).toEqual(where(customers, (x) => x < t));
    expect(lt).not.toContain(boundary.id);
    expect(lt).toEqual(customers.slice(11).map((c) => c.id));
  });

  test('a closed range (gte + lte) includes both ends; (gt + lt) excludes both', async () => {
    const newer = customers[5] as Item;
    const older = customers[15] as Item;
    const closed = customerIds(await q(`created%5Bgte%5D=${older.created_at}&created%5Blte%5D=${newer.created_at}`));
    expect(closed).toEqual(customers.slice(5, 16).map((c) => c.id));
    const open = customerIds(await q(`created.gt=${older.created_at}&created.lt=${newer.created_at}`));
    expect(open).toEqual(customers.slice(6, 15).map((c) => c.id));
    const mixed = customerIds(await q(`created%5Bgt%5D=${older.created_at}&created.lte=${newer.created_at}`));
    expect(mixed).toEqual(customers.slice(5, 15).map((c) => c.id));
    const emptyRange = await q(`created.gte=${newer.created_at}&created.lte=${older.created_at}`);
    expect(page(emptyRange).data).toEqual([]);
    expect(emptyRange.body.has_more).toBe(false);
  });

  test('an ISO boundary with a UTC offset means the same instant', async () => {
    const boundary = customers[8] as Item;
    const d = new Date(Date.parse(boundary.created_at) + 60 * 60 * 1000); // local time at +01:00
    const withOffset = `${d.toISOString().slice(0, -1)}+01:00`;
    const res = customerIds(await q(`created%5Bgte%5D=${encodeURIComponent(withOffset)}`));
    expect(res).toEqual(customers.slice(0, 9).map((c) => c.id));
  });

  test('Unix-seconds boundaries', async () => {
    const newestMs = Date.parse((customers[0] as Item).created_at);
    const oldestMs = Date.parse((customers.at(-1) as Item).created_at);
    const floorOldest = Math.floor(oldestMs / 1000);
    const ceilNewest = Math.ceil(newestMs / 1000) + 1;
    const all = customers.map((c) => c.id);

    expect(customerIds(await q(`created%5Bgte%5D=${floorOldest}`))).toEqual(all);
    expect(customerIds(await q(`created.lt=${floorOldest}`))).toEqual([]);
    expect(customerIds(await q(`created.lte=${ceilNewest}`))).toEqual(all);
    expect(customerIds(await q(`created%5Bgt%5D=${ceilNewest}`))).toEqual([]);
    expect(customerIds(await q(`created.lt=${floorOldest - 3600}`))).toEqual([]);

    // a split inside the data: same answer as the ISO form of the same second
    const splitSec = Math.floor(Date.parse((customers[11] as Item).created_at) / 1000);
    const iso = new Date(splitSec * 1000).toISOString();
    const bySeconds = customerIds(await q(`created.gte=${splitSec}`));
    expect(bySeconds).toEqual(where(customers, (x) => x >= splitSec * 1000));
    expect(customerIds(await q(`created.gte=${encodeURIComponent(iso)}`))).toEqual(bySeconds);
    expect(customerIds(await q(`created.lt=${splitSec}`))).toEqual(where(customers, (x) => x < splitSec * 1000));
  });

  test('created combined with limit, starting_after and offset', async () => {
    // customers[3..15] inclusive: 13 items
    const range = `created%5Bgte%5D=${customers[15]?.created_at}&created%5Blte%5D=${customers[3]?.created_at}`;
    const expected = customers.slice(3, 16).map((c) => c.id);
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let after: string | undefined;
    for (let i = 0; i < 6; i += 1) {
      const res = await api.request('GET', `/customers?limit=5&${range}${after ? `&starting_after=${after}` : ''}`);
      const ids = customerIds(res);
      seen.push(...ids);
      hasMore.push(res.body.has_more);
      if (!res.body.has_more) break;
      after = ids.at(-1);
    }
    expect(hasMore).toEqual([true, true, false]);
    expect(seen).toEqual(expected);

    const withOffset = await api.request('GET', `/customers?limit=5&offset=10&${range}`);
    expect(customerIds(withOffset)).toEqual(expected.slice(10));
    expect(withOffset.body.has_more).toBe(false);
  });
});

describe('GET /customers?email=', () => {
  test('exact, case-insensitive match, newest first; follows a changed e-mail', async () => {
    const key = await api.newMerchantKey();
    const make = async (body: Record<string, unknown>) => {
      const res = await api.request('POST', '/customers', { body, key });
      expect(res.status).toBe(200);
      await sleep(3);
      return res.body.customer_id as string;
    };
    const mixed = await make({ email: 'Mixed@Example.com', name: 'first' });
    const other = await make({ email: 'other@example.com' });
    const lower = await make({ email: 'mixed@example.com', name: 'second' });
    await make({ email: 'mixed@example.co' });
    await make({ email: 'xmixed@example.com' });
    const noEmail = await make({ name: 'no email yet' });
    const byEmail = (email: string, extra = '') => api.request('GET', `/customers?email=${encodeURIComponent(email)}${extra}`, { key });

    expect(customerIds(await byEmail('mixed@example.com'))).toEqual([lower, mixed]);
    expect(customerIds(await byEmail('MIXED@EXAMPLE.COM'))).toEqual([lower, mixed]);
    expect(customerIds(await byEmail('Mixed@Example.com'))).toEqual([lower, mixed]);
    expect(customerIds(await byEmail('other@example.com'))).toEqual([other]);
    expect(customerIds(await byEmail('nobody@example.com'))).toEqual([]);

    const first = await byEmail('mixed@example.com', '&limit=1');
    expect(customerIds(first)).toEqual([lower]);
    expect(first.body.has_more).toBe(true);
    const second = await byEmail('mixed@example.com', `&limit=1&starting_after=${lower}`);
    expect(customerIds(second)).toEqual([mixed]);
    expect(second.body.has_more).toBe(false);

    const moved = await api.request('PUT', `/customers/${mixed}`, { body: { email: 'moved@example.com' }, key });
    expect(moved.status).toBe(200);
    expect(customerIds(await byEmail('mixed@example.com'))).toEqual([lower]);
    expect(customerIds(await byEmail('moved@example.com'))).toEqual([mixed]);

    const added = await api.request('PUT', `/customers/${noEmail}`, { body: { email: 'Moved@Example.com' }, key });
    expect(added.status).toBe(200);
    expect(customerIds(await byEmail('moved@example.com'))).toEqual([noEmail, mixed]);

    // a PUT of other fields keeps the customer under its e-mail
    await api.request('PUT', `/customers/${lower}`, { body: { name: 'renamed' }, key });
    expect(customerIds(await byEmail('mixed@example.com'))).toEqual([lower]);

    await api.request('DELETE', `/customers/${lower}`, { key });
    expect(customerIds(await byEmail('mixed@example.com'))).toEqual([]);
  });
});

// ---------------------------------------------------------------- payments

describe('GET /payments', () => {
  let key: string;
  /** newest first */
  let payments: (Item & { status: string })[] = [];

  beforeAll(async () => {
    key = await api.newMerchantKey();
    const bodies: Record<string, unknown>[] = [
      { amount: 1000, currency: 'NGN', payment_method: 'card' },
      { amount: 1100, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
      { amount: 1200, currency: 'KES', confirm: true, payment_method_data: card('4000000000000002') },
      { amount: 1300, currency: 'GHS', payment_method: 'card' },
      { amount: 1400, currency: 'ZAR', confirm: true, payment_method_data: card('5555555555554444') },
      { amount: 1500, currency: 'NGN', confirm: true, payment_method_data: card('4000000000000002') },
      { amount: 1600, currency: 'USD', confirm: true, payment_method_data: card('4111111111111111') },
      { amount: 1700, currency: 'NGN' },
    ];
    const created: (Item & { status: string })[] = [];
    for (const body of bodies) {
      const res = await api.request('POST', '/payments', { body, key });
      expect(res.status).toBe(200);
      created.push({ id: res.body.payment_id, created_at: res.body.created_at, status: res.body.status });
      await sleep(3);
    }
    payments = created.reverse();
    expect(payments.map((p) => p.status)).toEqual([
      'RequiresConfirmation',
      'Succeeded',
      'Failed',
      'Succeeded',
      'RequiresConfirmation',
      'Failed',
      'Succeeded',
      'RequiresConfirmation',
    ]);
  });

  const get = (params = '') => api.request('GET', `/payments${params}`, { key });

  test('newest first with has_more; limit, offset', async () => {
    const all = await get();
    expect(paymentIds(all)).toEqual(payments.map((p) => p.id));
    expect(all.body.has_more).toBe(false);
    expectNewestFirst(all.body.data);

    const three = await get('?limit=3');
    expect(paymentIds(three)).toEqual(payments.slice(0, 3).map((p) => p.id));
    expect(three.body.has_more).toBe(true);

    const offset = await get('?limit=3&offset=3');
    expect(paymentIds(offset)).toEqual(payments.slice(3, 6).map((p) => p.id));
    expect(offset.body.has_more).toBe(true);

    const last = await get('?limit=3&offset=6');
    expect(paymentIds(last)).toEqual(payments.slice(6).map((p) => p.id));
    expect(last.body.has_more).toBe(false);
  });

  test('starting_after walks pages with no duplicates or gaps', async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let after: string | undefined;
    for (let i = 0; i < 6; i += 1) {
      const res = await get(`?limit=3${after ? `&starting_after=${after}` : ''}`);
      const ids = paymentIds(res);
      seen.push(...ids);
      hasMore.push(res.body.has_more);
      if (!res.body.has_more) break;
      after = ids.at(-1);
    }
    expect(hasMore).toEqual([true, true, false]);
    expect(seen).toEqual(payments.map((p) => p.id));
  });

  test('created range, both spellings, ISO and Unix seconds', async () => {
    const b = payments[3] as Item;
    const t = Date.parse(b.created_at);
    expect(paymentIds(await get(`?created%5Bgte%5D=${b.created_at}`))).toEqual(where(payments, (x) => x >= t));
    expect(paymentIds(await get(`?created.gt=${b.created_at}`))).toEqual(payments.slice(0, 3).map((p) => p.id));
    expect(paymentIds(await get(`?created%5Blte%5D=${b.created_at}`))).toEqual(payments.slice(3).map((p) => p.id));
    expect(paymentIds(await get(`?created.lt=${b.created_at}`))).toEqual(payments.slice(4).map((p) => p.id));
    const floorOldest = Math.floor(Date.parse((payments.at(-1) as Item).created_at) / 1000);
    expect(paymentIds(await get(`?created.gte=${floorOldest}`))).toEqual(payments.map((p) => p.id));
    expect(paymentIds(await get(`?created%5Blt%5D=${floorOldest}`))).toEqual([]);

    const withAfter = await get(`?created.lte=${b.created_at}&limit=2&starting_after=${payments[4]?.id}`);
    expect(paymentIds(withAfter)).toEqual(payments.slice(5, 7).map((p) => p.id));
    expect(withAfter.body.has_more).toBe(true);
  });

  test.each(['Succeeded', 'Failed', 'RequiresConfirmation'])('status=%s returns only that status, newest first', async (status) => {
    const res = await get(`?status=${status}`);
    const expected = payments.filter((p) => p.status === status).map((p) => p.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(paymentIds(res)).toEqual(expected);
    expect(res.body.has_more).toBe(false);
    for (const p of res.body.data) expect(p.status).toBe(status);

    const first = await get(`?status=${status}&limit=1`);
    expect(paymentIds(first)).toEqual([expected[0]]);
    expect(first.body.has_more).toBe(true);
    const next = await get(`?status=${status}&limit=1&starting_after=${expected[0]}`);
    expect(paymentIds(next)).toEqual([expected[1]]);
  });

  test('status with no payment in it → empty list', async () => {
    const res = await get('?status=Cancelled');
    expect(page(res).data).toEqual([]);
    expect(res.body.has_more).toBe(false);
    expect(paymentIds(await get('?status=RequiresCapture'))).toEqual([]);
  });

  test('status combined with created', async () => {
    const b = payments[3] as Item;
    const res = await get(`?status=Succeeded&created.gte=${b.created_at}`);
    expect(paymentIds(res)).toEqual(
      payments
        .slice(0, 4)
        .filter((p) => p.status === 'Succeeded')
        .map((p) => p.id),
    );
  });

  test('a payment moves between status lists when its status changes', async () => {
    const k = await api.newMerchantKey();
    const list = async (status: string) => paymentIds(await api.request('GET', `/payments?status=${status}`, { key: k }));
    const make = async () => {
      const res = await api.request('POST', '/payments', { body: { amount: 2500, currency: 'NGN', payment_method: 'card' }, key: k });
      await sleep(3);
      return res.body.payment_id as string;
    };
    const toSucceed = await make();
    const toFail = await make();
    const toCancel = await make();
    expect(await list('RequiresConfirmation')).toEqual([toCancel, toFail, toSucceed]);
    expect(await list('Succeeded')).toEqual([]);

    const ok1 = await api.request('POST', `/payments/${toSucceed}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
      key: k,
    });
    expect(ok1.body.status).toBe('Succeeded');
    expect(await list('RequiresConfirmation')).toEqual([toCancel, toFail]);
    expect(await list('Succeeded')).toEqual([toSucceed]);

    const ko = await api.request('POST', `/payments/${toFail}/confirm`, {
      body: { payment_method_data: card('4000000000000002') },
      key: k,
    });
    expect(ko.body.status).toBe('Failed');
    expect(await list('RequiresConfirmation')).toEqual([toCancel]);
    expect(await list('Failed')).toEqual([toFail]);

    const cancelled = await api.request('POST', `/payments/${toCancel}/cancel`, { key: k });
    expect(cancelled.body.status).toBe('Cancelled');
    expect(await list('RequiresConfirmation')).toEqual([]);
    expect(await list('Cancelled')).toEqual([toCancel]);

    // a refund keeps the payment Succeeded
    await api.request('POST', `/payments/${toSucceed}/refund`, { body: { amount: 100 }, key: k });
    expect(await list('Succeeded')).toEqual([toSucceed]);
    // the unfiltered list still holds all three, newest first
    expect(paymentIds(await api.request('GET', '/payments', { key: k }))).toEqual([toCancel, toFail, toSucceed]);
  });
});

describe('GET /payments/{id}/refunds', () => {
  test('limit, has_more and starting_after, newest first', async () => {
    const k = await api.newMerchantKey();
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
      key: k,
    });
    expect(p.body.status).toBe('Succeeded');
    const refunds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 100 + i }, key: k });
      expect(r.status).toBe(200);
      refunds.unshift(r.body.refund_id);
      await sleep(3);
    }
    const path = `/payments/${p.body.payment_id}/refunds`;
    const ids = (res: TestResponse) => page(res).data.map((r) => r.refund_id as string);

    const all = await api.request('GET', path, { key: k });
    expect(ids(all)).toEqual(refunds);
    expect(all.body.has_more).toBe(false);
    expectNewestFirst(all.body.data);

    const two = await api.request('GET', `${path}?limit=2`, { key: k });
    expect(ids(two)).toEqual(refunds.slice(0, 2));
    expect(two.body.has_more).toBe(true);

    const rest = await api.request('GET', `${path}?limit=2&starting_after=${refunds[1]}`, { key: k });
    expect(ids(rest)).toEqual(refunds.slice(2));
    expect(rest.body.has_more).toBe(false);

    const exact = await api.request('GET', `${path}?limit=3`, { key: k });
    expect(ids(exact)).toEqual(refunds);
    expect(exact.body.has_more).toBe(false);

    const offset = await api.request('GET', `${path}?offset=1&limit=1`, { key: k });
    expect(ids(offset)).toEqual([refunds[1]]);
    expect(offset.body.has_more).toBe(true);
  });
});

// ---------------------------------------------------------------- bad list queries

describe('bad list parameters → 400', () => {
  test.each([
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'limit=-1',
    'offset=-1',
    'offset=x',
  ])('GET /customers and /payments ?%s → 400', async (qs) => {
    expectError(await api.request('GET', `/customers?${qs}`), 400);
    expectError(await api.request('GET', `/payments?${qs}`), 400);
  });

  test('unknown starting_after, and offset together with starting_after', async () => {
    expectError(await api.request('GET', '/customers?starting_after=cus_doesnotexist0000000000000000'), 400);
    expectError(await api.request('GET', '/payments?starting_after=pay_doesnotexist0000000000000000'), 400);
    expectError(await api.request('GET', `/customers?offset=1&starting_after=${customers[0]?.id}`), 400);
  });

  test('a customer id of another merchant is an unknown starting_after', async () => {
    const other = await api.newMerchantKey();
    expectError(await api.request('GET', `/customers?starting_after=${customers[0]?.id}`, { key: other }), 400);
  });

  test.each(['yesterday', '2026-13-45T00:00:00Z', '12abc', ''])('created value %p → 400 (both spellings)', async (v) => {
    expectError(await api.request('GET', `/customers?created%5Bgte%5D=${encodeURIComponent(v)}`), 400);
    expectError(await api.request('GET', `/payments?created.lt=${encodeURIComponent(v)}`), 400);
  });

  test('unknown payment status → 400', async () => {
    expectError(await api.request('GET', '/payments?status=Bogus'), 400);
    expectError(await api.request('GET', '/payments?status=succeeded'), 400);
  });
});
