/**
 * The payment links API through the local gateway and DynamoDB Local: create, read, list (filters, paging),
 * deactivate, their events, tenancy (another merchant's link is 404 everywhere) and bad input (400 in the error
 * shape, naming the field). The checkout page that pays a link is tested in test/http/checkout-page.test.ts.
 */
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;
let otherKey: string;
beforeAll(async () => {
  api = await startLocalApi();
  otherKey = await api.newMerchantKey();
});
afterAll(async () => {
  await api.close();
});

/** Asserts a 200 and returns the body. */
function ok(res: TestResponse) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  return res.body;
}

/** Asserts an error answer in the API's shape, with its code (when given) and the field it names. */
function refused(res: TestResponse, status: number, code: string | undefined, param?: string) {
  const error = expectError(res, status, code);
  if (param !== undefined) expect(error.param).toBe(param);
  return error;
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function newLink(body: Record<string, unknown> = {}, key?: string) {
  return ok(await api.request('POST', '/payment_links', { body: { amount: 250000, currency: 'NGN', ...body }, key }));
}

/** The events of one type whose data is this link. */
async function eventsOf(type: string, linkId: string) {
  const page = ok(await api.request('GET', `/events?type=${type}&limit=100`));
  return (page.data as { data: { payment_link_id: string } }[]).filter((e) => e.data.payment_link_id === linkId);
}

describe('POST /payment_links', () => {
  test('a fixed-amount link: active, its checkout url, every field echoed; GET answers the same; payment_link.created', async () => {
    const expires = inAnHour();
    const link = await newLink({
      description: 'Ankara dress, size 12',
      payment_methods: ['card', 'bank_transfer'],
      expires_at: expires,
      max_payments: 3,
      return_url: 'https://shop.example.com/thanks',
      customer_fields: ['email', 'phone'],
      metadata: { sku: 'AD-12' },
    });
    expect(link).toEqual({
      payment_link_id: expect.stringMatching(/^plink_[0-9a-f]{32}$/),
      url: `${api.url}/checkout/${link.payment_link_id}`,
      active: true,
      status: 'active',
      amount: 250000,
      amount_min: null,
      amount_max: null,
      currency: 'NGN',
      description: 'Ankara dress, size 12',
      payment_methods: ['card', 'bank_transfer'],
      expires_at: expires,
      max_payments: 3,
      payments_count: 0,
      return_url: 'https://shop.example.com/thanks',
      customer_fields: ['email', 'phone'],
      metadata: { sku: 'AD-12' },
      created_at: expect.any(String),
      updated_at: link.created_at,
    });
    expect(ok(await api.request('GET', `/payment_links/${link.payment_link_id}`))).toEqual(link);
    const events = await eventsOf('payment_link.created', link.payment_link_id);
    expect(events.map((e) => e.data)).toEqual([link]);
  });

  test('a payer-chosen amount: amount null, amount_min and amount_max kept; optional fields null or empty', async () => {
    const link = ok(await api.request('POST', '/payment_links', { body: { amount_min: 10000, amount_max: 500000, currency: 'KES' } }));
    expect(link).toMatchObject({
      amount: null,
      amount_min: 10000,
      amount_max: 500000,
      currency: 'KES',
      description: null,
      payment_methods: null,
      expires_at: null,
      max_payments: null,
      return_url: null,
      customer_fields: [],
      metadata: {},
    });
  });

  test.each([
    ['a negative amount', { amount: -100, currency: 'NGN' }, 'amount'],
    ['a zero amount', { amount: 0, currency: 'NGN' }, 'amount'],
    ['an amount over the limit', { amount: 100_000_000_000, currency: 'NGN' }, 'amount'],
    ['a fractional amount', { amount: 10.5, currency: 'NGN' }, 'amount'],
    ['no amount at all', { currency: 'NGN' }, 'amount'],
    ['amount with amount_min', { amount: 100, amount_min: 50, amount_max: 500, currency: 'NGN' }, 'amount_min'],
    ['amount_min without amount_max', { amount_min: 50, currency: 'NGN' }, 'amount_max'],
    ['amount_min above amount_max', { amount_min: 5000, amount_max: 500, currency: 'NGN' }, 'amount_max'],
    ['an amount_max over the limit', { amount_min: 1, amount_max: 100_000_000_000, currency: 'NGN' }, 'amount_max'],
    ['an unknown currency', { amount: 100, currency: 'EUR' }, 'currency'],
    ['an unknown method', { amount: 100, currency: 'NGN', payment_methods: ['crypto'] }, 'payment_methods.0'],
    ['a method twice', { amount: 100, currency: 'NGN', payment_methods: ['card', 'card'] }, 'payment_methods'],
    ['an empty method list', { amount: 100, currency: 'NGN', payment_methods: [] }, 'payment_methods'],
    ['a past expires_at', { amount: 100, currency: 'NGN', expires_at: '2020-01-01T00:00:00Z' }, 'expires_at'],
    [
      'an expires_at two years ahead',
      { amount: 100, currency: 'NGN', expires_at: new Date(Date.now() + 2 * 366 * 86_400_000).toISOString() },
      'expires_at',
    ],
    ['an impossible expires_at', { amount: 100, currency: 'NGN', expires_at: '2030-02-30T00:00:00Z' }, 'expires_at'],
    ['max_payments 0', { amount: 100, currency: 'NGN', max_payments: 0 }, 'max_payments'],
    ['max_payments over the limit', { amount: 100, currency: 'NGN', max_payments: 1_000_001 }, 'max_payments'],
    ['an unknown customer field', { amount: 100, currency: 'NGN', customer_fields: ['address'] }, 'customer_fields.0'],
    ['a return_url that is not a URL', { amount: 100, currency: 'NGN', return_url: 'thanks' }, 'return_url'],
    ['an unknown field', { amount: 100, currency: 'NGN', colour: 'red' }, 'colour'],
  ])('%s → 400 naming the field, nothing created', async (_name, body, param) => {
    const before = ok(await api.request('GET', '/payment_links?limit=100')).data.length;
    const res = await api.request('POST', '/payment_links', { body });
    refused(res, 400, undefined, param);
    expect(res.body.error.type).toBe('invalid_request_error');
    expect(ok(await api.request('GET', '/payment_links?limit=100')).data.length).toBe(before);
  });
});

describe('GET /payment_links', () => {
  test('newest first, paged with limit and starting_after; active=true/false after a deactivation', async () => {
    const key = await api.newMerchantKey();
    const a = await newLink({ description: 'a' }, key);
    const b = await newLink({ description: 'b' }, key);
    const c = await newLink({ description: 'c' }, key);
    const first = ok(await api.request('GET', '/payment_links?limit=2', { key }));
    expect(first.data.map((l: { payment_link_id: string }) => l.payment_link_id)).toEqual([c.payment_link_id, b.payment_link_id]);
    expect(first.has_more).toBe(true);
    const second = ok(await api.request('GET', `/payment_links?limit=2&starting_after=${b.payment_link_id}`, { key }));
    expect(second.data.map((l: { payment_link_id: string }) => l.payment_link_id)).toEqual([a.payment_link_id]);
    expect(second.has_more).toBe(false);

    ok(await api.request('POST', `/payment_links/${b.payment_link_id}/deactivate`, { key }));
    const active = ok(await api.request('GET', '/payment_links?active=true', { key }));
    expect(active.data.map((l: { payment_link_id: string }) => l.payment_link_id)).toEqual([c.payment_link_id, a.payment_link_id]);
    const inactive = ok(await api.request('GET', '/payment_links?active=false', { key }));
    expect(inactive.data).toEqual([expect.objectContaining({ payment_link_id: b.payment_link_id, active: false, status: 'inactive' })]);
  });

  test('bad filters and cursors → 400 in the error shape', async () => {
    refused(await api.request('GET', '/payment_links?active=yes'), 400, undefined, 'active');
    refused(await api.request('GET', '/payment_links?limit=0'), 400, undefined, 'limit');
    refused(await api.request('GET', '/payment_links?starting_after=plink_0000'), 400, 'resource_missing', 'starting_after');
  });
});

describe('POST /payment_links/{id}/deactivate', () => {
  test('turns the link off once: active false, status inactive, one payment_link.deactivated; a second call changes nothing', async () => {
    const link = await newLink();
    const off = ok(await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`));
    expect(off).toMatchObject({ payment_link_id: link.payment_link_id, active: false, status: 'inactive' });
    expect(Date.parse(off.updated_at)).toBeGreaterThanOrEqual(Date.parse(link.updated_at));
    const again = ok(await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`));
    expect(again).toEqual(off);
    expect(ok(await api.request('GET', `/payment_links/${link.payment_link_id}`))).toEqual(off);
    const events = await eventsOf('payment_link.deactivated', link.payment_link_id);
    expect(events.map((e) => e.data)).toEqual([off]);
  });

  test('a body with a field → 400', async () => {
    const link = await newLink();
    refused(await api.request('POST', `/payment_links/${link.payment_link_id}/deactivate`, { body: { now: true } }), 400, undefined, 'now');
    expect(ok(await api.request('GET', `/payment_links/${link.payment_link_id}`)).active).toBe(true);
  });
});

describe('tenancy', () => {
  test("another merchant's link is 404 on GET and deactivate, absent from its lists, and stays active", async () => {
    const link = await newLink();
    const id = link.payment_link_id as string;
    refused(await api.request('GET', `/payment_links/${id}`, { key: otherKey }), 404, 'resource_missing', 'payment_link_id');
    refused(await api.request('POST', `/payment_links/${id}/deactivate`, { key: otherKey }), 404, 'resource_missing', 'payment_link_id');
    const theirs = ok(await api.request('GET', '/payment_links?limit=100', { key: otherKey }));
    expect(theirs.data.some((l: { payment_link_id: string }) => l.payment_link_id === id)).toBe(false);
    refused(await api.request('GET', `/payment_links?starting_after=${id}`, { key: otherKey }), 400, 'resource_missing', 'starting_after');
    expect(ok(await api.request('GET', `/payment_links/${id}`))).toEqual(link);
  });

  test('unknown and malformed ids are 404', async () => {
    refused(await api.request('GET', '/payment_links/plink_00000000000000000000000000000000'), 404, 'resource_missing');
    refused(await api.request('GET', '/payment_links/pay_123'), 404, 'resource_missing');
    refused(await api.request('POST', '/payment_links/nope/deactivate'), 404, 'resource_missing');
  });
});

describe('GET /payments?payment_link_id=', () => {
  test('one filter at a time; an id of no link lists nothing', async () => {
    refused(
      await api.request('GET', '/payments?status=Succeeded&payment_link_id=plink_00000000000000000000000000000000'),
      400,
      'parameter_invalid',
      'payment_link_id',
    );
    expect(ok(await api.request('GET', '/payments?payment_link_id=plink_00000000000000000000000000000000'))).toEqual({
      data: [],
      has_more: false,
    });
    expect(ok(await api.request('GET', '/payments?payment_link_id=junk'))).toEqual({ data: [], has_more: false });
  });
});

describe('GET /merchant_profile', () => {
  test('the return signing secret: one per merchant, the same on every read, not another merchant’s', async () => {
    const mine = ok(await api.request('GET', '/merchant_profile'));
    expect(mine).toEqual({
      display_name: null,
      logo_url: null,
      brand_color: null,
      allowed_domains: [],
      return_signing_secret: expect.stringMatching(/^plsec_[0-9a-f]{64}$/),
    });
    expect(ok(await api.request('GET', '/merchant_profile'))).toEqual(mine);
    const theirs = ok(await api.request('GET', '/merchant_profile', { key: otherKey }));
    expect(theirs.return_signing_secret).not.toBe(mine.return_signing_secret);
    refused(await api.request('GET', '/merchant_profile', { key: 'sk_test_nope' }), 401, 'invalid_api_key');
  });
});
