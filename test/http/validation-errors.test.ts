import { randomUUID } from 'node:crypto';
import { isWellFormedText } from '../../shared/schemas/common';
import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

/**
 * Every error status of the contract (issue "Errors", "Validation", "Bad input and
 * faults"), driven over HTTP through the local gateway against DynamoDB Local.
 */

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

const thisYear = new Date().getUTCFullYear();
const hex = () => randomUUID().replace(/-/g, '');
const valid = { amount: 10000, currency: 'NGN' };
const JSON_HEADERS = { 'content-type': 'application/json' };

/** A 400 `invalid_request_error` naming `param` (when given), never a 5xx. */
function expect400(res: TestResponse, param?: string, code?: string) {
  const err = expectError(res, 400, code);
  expect(err.type).toBe('invalid_request_error');
  if (param !== undefined) expect(err.param).toBe(param);
  return err;
}

function cardWith(overrides: Record<string, string>) {
  return { card: { ...card('4242424242424242').card, ...overrides } };
}

describe('POST /payments body validation', () => {
  test('missing amount → 400 parameter_missing, param amount', async () => {
    expect400(await api.request('POST', '/payments', { body: { currency: 'NGN' } }), 'amount', 'parameter_missing');
  });

  test('missing currency → 400 parameter_missing, param currency', async () => {
    expect400(await api.request('POST', '/payments', { body: { amount: 100 } }), 'currency', 'parameter_missing');
  });

  test('empty object → 400 parameter_missing naming a required field', async () => {
    const err = expect400(await api.request('POST', '/payments', { body: {} }), undefined, 'parameter_missing');
    expect(['amount', 'currency']).toContain(err.param);
  });

  test('wrong type → 400 naming the field', async () => {
    expect400(await api.request('POST', '/payments', { body: { ...valid, amount: '100' } }), 'amount');
    expect400(await api.request('POST', '/payments', { body: { ...valid, amount: 10.5 } }), 'amount');
    expect400(await api.request('POST', '/payments', { body: { ...valid, confirm: 'yes' } }), 'confirm');
    expect400(await api.request('POST', '/payments', { body: { ...valid, metadata: ['a'] } }), 'metadata');
    expect400(await api.request('POST', '/payments', { body: { ...valid, billing: 'Lagos' } }), 'billing');
  });

  test('bad enum value → 400 naming the field', async () => {
    expect400(await api.request('POST', '/payments', { body: { ...valid, currency: 'EUR' } }), 'currency');
    expect400(await api.request('POST', '/payments', { body: { ...valid, currency: 'ngn' } }), 'currency');
    expect400(await api.request('POST', '/payments', { body: { ...valid, payment_method: 'crypto' } }), 'payment_method');
    expect400(await api.request('POST', '/payments', { body: { ...valid, capture_method: 'later' } }), 'capture_method');
  });

  test('unknown field, top level and nested → 400 naming its path', async () => {
    expect400(await api.request('POST', '/payments', { body: { ...valid, foo: 1 } }), 'foo');
    expect400(
      await api.request('POST', '/payments', { body: { ...valid, billing: { address: { city: 'Lagos', foo: 'x' } } } }),
      'billing.address.foo',
    );
    expect400(await api.request('POST', '/payments', { body: { ...valid, billing: { shipping: {} } } }), 'billing.shipping');
    expect400(
      await api.request('POST', '/payments', {
        body: { ...valid, confirm: true, payment_method_data: { card: { ...card('4242424242424242').card, foo: '1' } } },
      }),
      'payment_method_data.card.foo',
    );
  });

  test('malformed JSON → 400 invalid_json', async () => {
    for (const raw of ['{"amount": 100,', "{amount: 100, currency: 'NGN'}", '{"amount":100,"currency":"NGN"}}', '\u0000']) {
      expect400(await api.request('POST', '/payments', { raw, headers: JSON_HEADERS }), undefined, 'invalid_json');
    }
    expect400(await api.request('POST', '/customers', { raw: '{"name":', headers: JSON_HEADERS }), undefined, 'invalid_json');
  });

  test('JSON that is not an object → 400', async () => {
    for (const raw of ['[]', '[{"amount":100,"currency":"NGN"}]', '"hello"', '42', 'null', 'true']) {
      const res = await api.request('POST', '/payments', { raw, headers: JSON_HEADERS });
      expect({ raw, status: res.status }).toEqual({ raw, status: 400 });
      expect400(res);
    }
    expect400(await api.request('POST', '/customers', { raw: '[]', headers: JSON_HEADERS }));
  });

  test('amount bounds: 1 and 99,999,999,999 accepted; 0, -1 and 100,000,000,000 rejected', async () => {
    for (const amount of [0, -1, 100_000_000_000, 1e21]) {
      expect400(await api.request('POST', '/payments', { body: { ...valid, amount } }), 'amount');
    }
    for (const amount of [1, 99_999_999_999]) {
      const ok = await api.request('POST', '/payments', { body: { ...valid, amount } });
      expect(ok.status).toBe(200);
      expect(ok.body.amount).toBe(amount);
    }
  });

  test('email must be a valid address', async () => {
    for (const email of ['not-an-email', 'a@', '@example.com', 'a b@example.com']) {
      expect400(await api.request('POST', '/payments', { body: { ...valid, email } }), 'email');
      expect400(await api.request('POST', '/customers', { body: { email } }), 'email');
    }
    expect400(await api.request('POST', '/customers', { body: { email: 42 } }), 'email');
    const ok = await api.request('POST', '/customers', { body: { email: 'ada@example.com' } });
    expect(ok.status).toBe(200);
  });

  test('phone must be E.164 (POST /customers)', async () => {
    for (const phone of [
      '08012345678',
      '2348012345678',
      '+12345',
      '+1234567890123456',
      '+234 801 234 5678',
      '+234-801-234-5678',
      '+abc1234567',
    ]) {
      expect400(await api.request('POST', '/customers', { body: { phone } }), 'phone');
    }
    const ok = await api.request('POST', '/customers', { body: { phone: '+2348012345678' } });
    expect(ok.status).toBe(200);
    expect(ok.body.phone).toBe('+2348012345678');
  });

  test('billing.address.country must be ISO 3166-1 alpha-2', async () => {
    for (const country of ['XX', 'ng', 'NGA', 'N', '']) {
      expect400(
        await api.request('POST', '/payments', { body: { ...valid, billing: { address: { country } } } }),
        'billing.address.country',
      );
    }
    const ok = await api.request('POST', '/payments', { body: { ...valid, billing: { address: { city: 'Accra', country: 'GH' } } } });
    expect(ok.status).toBe(200);
  });

  test('metadata: at most 50 keys, keys ≤ 40 chars, string values ≤ 500 chars', async () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
    const cases: Record<string, unknown>[] = [
      keys(51),
      { ['k'.repeat(41)]: 'v' },
      { note: 'v'.repeat(501) },
      { count: 5 },
      { flag: true },
      { nested: { a: 'b' } },
      { nothing: null },
    ];
    for (const metadata of cases) {
      const onPayment = expect400(await api.request('POST', '/payments', { body: { ...valid, metadata } }));
      expect(onPayment.param).toMatch(/^metadata/);
      const onCustomer = expect400(await api.request('POST', '/customers', { body: { metadata } }));
      expect(onCustomer.param).toMatch(/^metadata/);
    }
    const atLimits = { ...keys(49), ['k'.repeat(40)]: 'v'.repeat(500) };
    const ok = await api.request('POST', '/payments', { body: { ...valid, metadata: atLimits } });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body.metadata)).toHaveLength(50);
  });

  test('payment_method_data with confirm false (or absent) → 400', async () => {
    const data = card('4242424242424242');
    expect400(
      await api.request('POST', '/payments', { body: { ...valid, confirm: false, payment_method_data: data } }),
      'payment_method_data',
    );
    const absent = await api.request('POST', '/payments', { body: { ...valid, payment_method: 'card', payment_method_data: data } });
    expect400(absent, 'payment_method_data');
    expect(absent.text).not.toContain('4242424242424242');
  });

  test('a customer_id that does not exist → 400 resource_missing (param customer_id)', async () => {
    expect400(
      await api.request('POST', '/payments', { body: { ...valid, customer_id: `cus_${hex()}` } }),
      'customer_id',
      'resource_missing',
    );
    expect400(await api.request('POST', '/payments', { body: { ...valid, customer_id: 'nobody' } }), 'customer_id', 'resource_missing');
    // A customer of another merchant does not exist for this one.
    const otherKey = await api.newMerchantKey();
    const theirs = await api.request('POST', '/customers', { key: otherKey, body: { name: 'Theirs' } });
    expect(theirs.status).toBe(200);
    expect400(
      await api.request('POST', '/payments', { body: { ...valid, customer_id: theirs.body.customer_id } }),
      'customer_id',
      'resource_missing',
    );
    // Control: an existing customer of this merchant is accepted.
    const mine = await api.request('POST', '/customers', { body: { name: 'Mine' } });
    const ok = await api.request('POST', '/payments', { body: { ...valid, customer_id: mine.body.customer_id } });
    expect(ok.status).toBe(200);
    expect(ok.body.customer_id).toBe(mine.body.customer_id);
  });

  test('junk of every kind is a 4xx with the error body, never a 5xx', async () => {
    const deep: Record<string, unknown> = {};
    let node = deep;
    for (let i = 0; i < 200; i += 1) {
      node.a = {};
      node = node.a as Record<string, unknown>;
    }
    const bodies: unknown[] = [
      { ...valid, amount: { value: 100 } },
      { ...valid, amount: [100] },
      { ...valid, amount: null },
      { ...valid, currency: ['NGN'] },
      { ...valid, currency: 'NGN\u0000' },
      { ...valid, currency: '₦' },
      { ...valid, description: { text: 'x' } },
      { ...valid, billing: { address: { country: 'NG', city: 7 } } },
      { ...valid, billing: deep },
      { ...valid, '\u{1F4B8}': '\u{1F4B8}' },
      { ...valid, constructor: 'x' },
      { ...valid, confirm: true, payment_method_data: 'card' },
      { ...valid, confirm: true, payment_method_data: { card: '4242424242424242' } },
      { ...valid, confirm: true, payment_method_data: { card: { card_number: 4242424242424242 } } },
    ];
    for (const body of bodies) {
      const res = await api.request('POST', '/payments', { body });
      expect(res.status).toBeLessThan(500);
      expect400(res);
    }
    const proto = await api.request('POST', '/payments', {
      raw: '{"amount":100,"currency":"NGN","__proto__":{"amount":"x"}}',
      headers: JSON_HEADERS,
    });
    expect400(proto, '__proto__');
  });
});

describe('card validation on confirm', () => {
  const badCards: [string, Record<string, string>, string][] = [
    ['Luhn failure', { card_number: '4242424242424241' }, 'payment_method_data.card.card_number'],
    // Both pass Luhn: only their length is wrong.
    ['11 digits', { card_number: '42424242420' }, 'payment_method_data.card.card_number'],
    ['20 digits', { card_number: '42424242424242424242' }, 'payment_method_data.card.card_number'],
    ['month 13', { card_exp_month: '13' }, 'payment_method_data.card.card_exp_month'],
    ['month 00', { card_exp_month: '00' }, 'payment_method_data.card.card_exp_month'],
    ['past year (4 digits)', { card_exp_year: String(thisYear - 1) }, 'payment_method_data.card.card_exp_year'],
    ['past year (2 digits)', { card_exp_year: String((thisYear - 1) % 100).padStart(2, '0') }, 'payment_method_data.card.card_exp_year'],
    ['3-digit year', { card_exp_year: '203' }, 'payment_method_data.card.card_exp_year'],
    ['CVC of 2 digits', { card_cvc: '12' }, 'payment_method_data.card.card_cvc'],
    ['CVC of 5 digits', { card_cvc: '12345' }, 'payment_method_data.card.card_cvc'],
  ];

  test.each(badCards)('%s → 400 on POST /payments/{id}/confirm, payment unchanged', async (_name, overrides, param) => {
    const p = await api.request('POST', '/payments', { body: { ...valid, payment_method: 'card' } });
    expect(p.status).toBe(200);
    const pmd = cardWith(overrides);
    const res = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: { payment_method_data: pmd } });
    expect400(res, param);
    expect(res.text).not.toContain(pmd.card.card_number);
    const after = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(after.body.status).toBe('RequiresConfirmation');
    expect(after.body.connector_transaction_id).toBeNull();
  });

  test.each(badCards)('%s → 400 on POST /payments with confirm: true', async (_name, overrides, param) => {
    const pmd = cardWith(overrides);
    const res = await api.request('POST', '/payments', { body: { ...valid, confirm: true, payment_method_data: pmd } });
    expect400(res, param);
    expect(res.text).not.toContain(pmd.card.card_number);
  });

  test('a 2-digit future year and a 4-digit CVC are accepted', async () => {
    const p = await api.request('POST', '/payments', { body: { ...valid, payment_method: 'card' } });
    const yy = String((thisYear + 2) % 100).padStart(2, '0');
    const res = await api.request('POST', `/payments/${p.body.payment_id}/confirm`, {
      body: { payment_method_data: cardWith({ card_exp_year: yy, card_exp_month: '01', card_cvc: '1234' }) },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Succeeded');
    expect(res.body.payment_method_data.card).toMatchObject({ last4: '4242', exp_month: 1, exp_year: thisYear + 2 });
  });

  test('error messages never echo a card number', async () => {
    const numbers = ['4242424242424241', '4000000000000003', '42424242424242424242', '424242424242425'];
    for (const number of numbers) {
      const res = await api.request('POST', '/payments', {
        body: { ...valid, confirm: true, payment_method_data: cardWith({ card_number: number }) },
      });
      expect400(res);
      expect(res.text).not.toContain(number);
    }
    // A PAN sent where it does not belong is not echoed either.
    const misplaced = await api.request('POST', '/payments', { body: { ...valid, description: { pan: '4242424242424242' } } });
    expect400(misplaced, 'description');
    expect(misplaced.text).not.toContain('4242424242424242');
    const asUnknown = await api.request('POST', '/payments', { body: { ...valid, card_number: '4242424242424242' } });
    expect400(asUnknown, 'card_number');
    expect(asUnknown.text).not.toContain('4242424242424242');
  });
});

describe('authentication', () => {
  test('missing api-key → 401 on every keyed endpoint', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/payments'],
      ['POST', '/payments', valid],
      ['GET', `/payments/pay_${hex()}`],
      ['POST', `/payments/pay_${hex()}/confirm`, {}],
      ['GET', '/customers'],
      ['POST', '/customers', {}],
      ['GET', `/customers/cus_${hex()}`],
      ['GET', `/refunds/ref_${hex()}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await api.request(method, path, { key: null, body });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      expect(expectError(res, 401).type).toBe('authentication_error');
    }
  });

  test('unknown api-key → 401', async () => {
    for (const key of [`sk_test_${hex()}`, 'x', 'k'.repeat(300)]) {
      const res = await api.request('GET', '/payments', { key });
      expect(expectError(res, 401).type).toBe('authentication_error');
    }
    const post = await api.request('POST', '/payments', { key: `sk_test_${hex()}`, body: valid });
    expect(expectError(post, 401).type).toBe('authentication_error');
  });

  test('GET /health works without a key', async () => {
    const res = await api.request('GET', '/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });
});

describe('body size and media type', () => {
  test('a body over 64 KiB → 413', async () => {
    const raw = JSON.stringify({ ...valid, description: 'x'.repeat(64 * 1024) });
    const res = await api.request('POST', '/payments', { raw, headers: JSON_HEADERS });
    expectError(res, 413);
    const customers = await api.request('POST', '/customers', { raw: JSON.stringify({ name: 'y'.repeat(70_000) }), headers: JSON_HEADERS });
    expectError(customers, 413);
  });

  test('a body that is not JSON → 415', async () => {
    expectError(await api.request('POST', '/payments', { raw: 'amount=100&currency=NGN', headers: { 'content-type': 'text/plain' } }), 415);
    expectError(
      await api.request('POST', '/payments', {
        raw: 'amount=100&currency=NGN',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
    );
    expectError(await api.request('POST', '/customers', { raw: 'name=Ada', headers: { 'content-type': 'text/plain' } }), 415);
  });
});

describe('list query validation', () => {
  // Every row has two elements: jest would take a missing second one for `done`.
  const cases: [string, string | undefined][] = [
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=-1', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=abc', 'offset'],
    ['offset=0&starting_after=PAY', undefined],
    ['foo=1', 'foo'],
    ['status=Bogus', 'status'],
    ['status=succeeded', 'status'],
    ['created[gte]=notadate', undefined],
    ['created.gte=notadate', undefined],
    ['created[lt]=2026-13-45', undefined],
    ['created[between]=1', undefined],
  ];

  test.each(cases)('GET /payments?%s → 400', async (query, param) => {
    let path = `/payments?${query}`;
    if (query.includes('PAY')) {
      // A real id of this merchant, so only the combination with offset is wrong.
      const p = await api.request('POST', '/payments', { body: valid });
      path = path.replace('PAY', p.body.payment_id);
    }
    const res = await api.request('GET', path);
    const err = expect400(res);
    if (param) expect(err.param).toBe(param);
    if (query.startsWith('created')) expect(err.param ?? '').toMatch(/^created/);
  });

  test('starting_after that is unknown → 400 naming it', async () => {
    expect400(await api.request('GET', `/payments?starting_after=pay_${hex()}`), 'starting_after');
    expect400(await api.request('GET', '/payments?starting_after=garbage'), 'starting_after');
    expect400(await api.request('GET', `/customers?starting_after=cus_${hex()}`), 'starting_after');
  });

  test('the same errors on GET /customers and GET /payments/{id}/refunds', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'foo=1', 'created[gte]=notadate']) {
      expect400(await api.request('GET', `/customers?${query}`));
    }
    const p = await api.request('POST', '/payments', { body: { ...valid, confirm: true, payment_method_data: card('4242424242424242') } });
    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'foo=1']) {
      expect400(await api.request('GET', `/payments/${p.body.payment_id}/refunds?${query}`));
    }
  });

  test('controls: valid queries answer 200', async () => {
    for (const query of [
      'limit=1',
      'limit=100',
      'offset=0',
      'status=Succeeded',
      'created[gte]=2020-01-01T00:00:00Z',
      'created.lte=1893456000',
    ]) {
      const res = await api.request('GET', `/payments?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      expect(res.body).toEqual({ data: expect.any(Array), has_more: expect.any(Boolean) });
    }
  });
});

describe('nothing is written for a rejected request', () => {
  test('a fresh merchant sees no payment and no customer after a batch of rejected creates', async () => {
    const key = await api.newMerchantKey();
    const rejected: [string, { body?: unknown; raw?: string; headers?: Record<string, string> }, number][] = [
      ['/payments', { body: { currency: 'NGN' } }, 400],
      ['/payments', { body: { ...valid, amount: 0 } }, 400],
      ['/payments', { body: { ...valid, currency: 'EUR' } }, 400],
      ['/payments', { body: { ...valid, foo: 1 } }, 400],
      ['/payments', { body: { ...valid, billing: { address: { country: 'XX' } } } }, 400],
      ['/payments', { body: { ...valid, metadata: { count: 1 } } }, 400],
      ['/payments', { body: { ...valid, customer_id: `cus_${hex()}` } }, 400],
      ['/payments', { body: { ...valid, customer_id: `cus_${hex()}`, confirm: true, payment_method_data: card('4242424242424242') } }, 400],
      ['/payments', { body: { ...valid, payment_method_data: card('4242424242424242') } }, 400],
      ['/payments', { body: { ...valid, confirm: true, payment_method_data: cardWith({ card_number: '4242424242424241' }) } }, 400],
      ['/payments', { body: { ...valid, confirm: true, payment_method_data: cardWith({ card_exp_year: String(thisYear - 1) }) } }, 400],
      ['/payments', { raw: '{"amount":100,', headers: JSON_HEADERS }, 400],
      ['/payments', { raw: '[]', headers: JSON_HEADERS }, 400],
      ['/payments', { raw: JSON.stringify({ ...valid, description: 'x'.repeat(70_000) }), headers: JSON_HEADERS }, 413],
      ['/payments', { raw: 'amount=100', headers: { 'content-type': 'text/plain' } }, 415],
      ['/customers', { body: { email: 'nope' } }, 400],
      ['/customers', { body: { phone: '0801' } }, 400],
      ['/customers', { body: { name: 'Ada', foo: 'bar' } }, 400],
      ['/customers', { body: { metadata: { ['k'.repeat(41)]: 'v' } } }, 400],
      ['/customers', { raw: '{"name":', headers: JSON_HEADERS }, 400],
      ['/customers', { raw: JSON.stringify({ name: 'y'.repeat(70_000) }), headers: JSON_HEADERS }, 413],
    ];
    for (const [path, options, status] of rejected) {
      const res = await api.request('POST', path, { ...options, key });
      expect({ path, status: res.status }).toEqual({ path, status });
      expectError(res, status);
    }
    const payments = await api.request('GET', '/payments', { key });
    expect(payments.status).toBe(200);
    expect(payments.body).toEqual({ data: [], has_more: false });
    const customers = await api.request('GET', '/customers', { key });
    expect(customers.status).toBe(200);
    expect(customers.body).toEqual({ data: [], has_more: false });

    // Control: an accepted create for the same merchant does show up.
    const ok = await api.request('POST', '/customers', { key, body: { name: 'Ada' } });
    expect(ok.status).toBe(200);
    const after = await api.request('GET', '/customers', { key });
    expect(after.body.data.map((c: { customer_id: string }) => c.customer_id)).toEqual([ok.body.customer_id]);
  });
});

describe('inputs: impossible dates, NUL and lone surrogates, e-mail addresses', () => {
  test('an impossible calendar date in a list filter → 400 naming the bound, never rolled over', async () => {
    const cases: [string, string][] = [
      ['/payments?created[gte]=2026-02-30', 'created.gte'],
      ['/payments?created.lte=2026-04-31', 'created.lte'],
      ['/payments?created[lt]=2027-02-29T00:00:00Z', 'created.lt'],
      ['/payments?created[gt]=2100-02-29', 'created.gt'],
      ['/customers?created[gte]=2026-06-31', 'created.gte'],
    ];
    for (const [path, param] of cases) {
      const err = expect400(await api.request('GET', path), param, 'parameter_invalid');
      expect(err.message).toMatch(/real calendar date/);
      expect(err.message).not.toMatch(/2026-02-30|2026-04-31|2027-02-29|2100-02-29|2026-06-31/);
    }
    for (const query of ['created[gte]=2028-02-29', 'created[gte]=2000-02-29T12:00:00Z', 'created[lte]=2026-02-28']) {
      const res = await api.request('GET', `/payments?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
    }
  });

  test('NUL or a lone surrogate in a body field → 400 parameter_invalid naming it, the value never echoed', async () => {
    const cases: [string, string, string][] = [
      ['/customers', '{"name":"Ada\\u0000Lovelace"}', 'name'],
      ['/customers', '{"description":"x\\ud800y"}', 'description'],
      ['/customers', '{"description":"x\\udc00"}', 'description'],
      ['/customers', '{"metadata":{"note":"\\u0000"}}', 'metadata.note'],
      ['/payments', '{"amount":100,"currency":"NGN","description":"tail \\ud83d"}', 'description'],
      [
        '/payments',
        '{"amount":100,"currency":"NGN","billing":{"address":{"line1":"1 Marina\\u0000","country":"NG"}}}',
        'billing.address.line1',
      ],
      // A metadata key and a return_url: their spec patterns refuse NUL too (scripts/openapi.ts).
      ['/customers', '{"metadata":{"no\\u0000te":"x"}}', 'metadata'],
      ['/payments', '{"amount":100,"currency":"NGN","return_url":"https://shop.example.com/done\\u0000"}', 'return_url'],
    ];
    for (const [path, raw, param] of cases) {
      const res = await api.request('POST', path, { raw, headers: JSON_HEADERS });
      const err = expect400(res, param, 'parameter_invalid');
      expect(err.message).toMatch(/NUL characters \(U\+0000\) or unpaired UTF-16 surrogates/);
      expect(err.message).not.toMatch(/Ada|Lovelace|Marina|tail/);
      expect(isWellFormedText(err.message)).toBe(true);
    }
  });

  test('a well-formed pair (an emoji) and non-ASCII text are accepted', async () => {
    const res = await api.request('POST', '/customers', {
      raw: '{"name":"Ọlá \\ud83d\\ude00","description":"naïve — ok"}',
      headers: JSON_HEADERS,
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Ọlá 😀');
  });

  test('NUL in a query parameter → 400 naming it', async () => {
    expect400(await api.request('GET', '/customers?starting_after=cus%00x'), 'starting_after', 'parameter_invalid');
    expect400(await api.request('GET', '/customers?email=ada%00@example.com'), 'email', 'parameter_invalid');
  });

  test('e-mail addresses are validated by isEmail: an invalid domain label → 400 email', async () => {
    for (const email of ['ada@example-.com', 'ada@-example.com', `${'a'.repeat(65)}@example.com`, 'ada@example.c0m']) {
      const err = expect400(await api.request('POST', '/customers', { body: { email } }), 'email', 'parameter_invalid');
      expect(err.message).not.toContain(email);
      expect400(await api.request('GET', `/customers?email=${encodeURIComponent(email)}`), 'email');
    }
    for (const email of ['ada@example.com', 'x.y+z@sub.example.ng', "o'neil@example.co.za"]) {
      const res = await api.request('POST', '/customers', { body: { email } });
      expect({ email, status: res.status }).toEqual({ email, status: 200 });
    }
  });
});
