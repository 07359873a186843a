import { type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

/**
 * Each outcome of the sandbox connector (issue "Sandbox connector"), reached both
 * by `POST /payments` with `confirm: true` and by create then `POST /payments/{id}/confirm`.
 */

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

const expYear = new Date().getUTCFullYear() + 3;
/** Every PAN sent by this file, to check that no response (or list) ever holds one. */
const sentPans = new Set<string>();

function cardData(number: string, cvc: string) {
  sentPans.add(number);
  return { card: { card_number: number, card_exp_month: '12', card_exp_year: String(expYear), card_cvc: cvc } };
}

/** A USSD code a phone keypad can dial: starts with *, ends with #, only digits and * between. */
const DIALABLE = /^\*[0-9*]+#$/;

type Path = 'create with confirm: true' | 'create, then POST /confirm';
const PATHS: Path[] = ['create with confirm: true', 'create, then POST /confirm'];

/**
 * Processes a payment by one of the two paths.
 * @param create fields of the create body (without confirm / payment_method_data)
 * @param confirm what the confirm step carries (payment_method, payment_method_data)
 */
async function processPayment(path: Path, create: Record<string, unknown>, confirm: Record<string, unknown> = {}): Promise<TestResponse> {
  if (path === 'create with confirm: true') {
    return api.request('POST', '/payments', { body: { ...create, ...confirm, confirm: true } });
  }
  const created = await api.request('POST', '/payments', { body: create });
  expect(created.status).toBe(200);
  expect(created.body.status).toBe('RequiresConfirmation');
  return api.request('POST', `/payments/${created.body.payment_id}/confirm`, { body: confirm });
}

/** Recursively collects every [key, value] of a JSON value. */
function entries(value: unknown, out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value)) {
    for (const v of value) entries(v, out);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push([k, v]);
      entries(v, out);
    }
  }
  return out;
}

/** The response holds neither the PAN nor the CVC (as a field or as a value). */
function expectNoCardSecrets(res: TestResponse, pan: string, cvc: string) {
  expect(res.text).not.toContain(pan);
  const all = entries(res.body);
  expect(all.filter(([k]) => /cvc|cvv|card_number/i.test(k))).toEqual([]);
  expect(all.filter(([, v]) => v === cvc || v === pan)).toEqual([]);
}

/** GET /payments/{id} agrees with the response of the processing step. */
async function expectStoredAs(res: TestResponse) {
  const got = await api.request('GET', `/payments/${res.body.payment_id}`);
  expect(got.status).toBe(200);
  expect(got.body.status).toBe(res.body.status);
  expect(got.body.next_action ?? null).toEqual(res.body.next_action ?? null);
  expect(got.body.payment_method_data ?? null).toEqual(res.body.payment_method_data ?? null);
  return got;
}

/** The card as the API may return it: last4, brand, expiry only. */
function expectCardSummary(body: { payment_method_data?: { card?: Record<string, unknown> } }, last4: string, brand?: string) {
  const summary = body.payment_method_data?.card;
  expect(summary).toBeDefined();
  expect(Object.keys(summary ?? {}).sort()).toEqual(['brand', 'exp_month', 'exp_year', 'fingerprint', 'last4']);
  expect(summary?.fingerprint).toMatch(/^fp_[0-9a-f]{32}$/);
  expect(summary?.last4).toBe(last4);
  expect(summary?.brand).toEqual(brand ?? expect.any(String));
  expect(Number(summary?.exp_month)).toBe(12);
  expect(Number(summary?.exp_year)).toBe(expYear);
}

function expectRedirect(body: { next_action?: { type?: string; redirect_to_url?: unknown } }) {
  expect(body.next_action).toMatchObject({ type: 'redirect_to_url', redirect_to_url: expect.any(String) });
  const url = new URL(String(body.next_action?.redirect_to_url));
  expect(['http:', 'https:']).toContain(url.protocol);
}

describe.each(PATHS)('sandbox outcomes — %s', (path) => {
  const successCards: [string, string, string | undefined, string][] = [
    ['4242424242424242', 'visa', 'visa', '123'],
    ['4111111111111111', 'visa', 'visa', '321'],
    ['5555555555554444', 'mastercard', 'mastercard', '456'],
    ['378282246310005', 'another Luhn-valid number (amex)', 'amex', '7391'],
    ['6011111111111117', 'another Luhn-valid number (discover)', undefined, '852'],
  ];

  test.each(successCards)('%s (%s) → Succeeded with automatic capture', async (pan, _label, brand, cvc) => {
    const res = await processPayment(
      path,
      { amount: 25000, currency: 'NGN', capture_method: 'automatic' },
      { payment_method_data: cardData(pan, cvc) },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Succeeded', amount: 25000, amount_captured: 25000 });
    expect(res.body.connector_transaction_id).toEqual(expect.any(String));
    expectCardSummary(res.body, pan.slice(-4), brand);
    expectNoCardSecrets(res, pan, cvc);
    const got = await expectStoredAs(res);
    expectCardSummary(got.body, pan.slice(-4), brand);
    expectNoCardSecrets(got, pan, cvc);
  });

  test.each(successCards)('%s (%s) → RequiresCapture with capture_method manual', async (pan, _label, brand, cvc) => {
    const res = await processPayment(
      path,
      { amount: 4000, currency: 'USD', capture_method: 'manual' },
      { payment_method_data: cardData(pan, cvc) },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'RequiresCapture', capture_method: 'manual' });
    expect(res.body.connector_transaction_id).toEqual(expect.any(String));
    expectCardSummary(res.body, pan.slice(-4), brand);
    expectNoCardSecrets(res, pan, cvc);
    const got = await expectStoredAs(res);
    expectNoCardSecrets(got, pan, cvc);
  });

  test('4000000000000002 → HTTP 200, Failed, card_declined with a message', async () => {
    const res = await processPayment(path, { amount: 1500, currency: 'GHS' }, { payment_method_data: cardData('4000000000000002', '111') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Failed', error_code: 'card_declined' });
    expect(res.body.error_message).toEqual(expect.any(String));
    expect(res.body.error_message.length).toBeGreaterThan(0);
    expect(res.body.error).toBeUndefined();
    expectCardSummary(res.body, '0002', 'visa');
    expectNoCardSecrets(res, '4000000000000002', '111');
    const got = await expectStoredAs(res);
    expect(got.body).toMatchObject({ status: 'Failed', error_code: 'card_declined', error_message: res.body.error_message });
    expectNoCardSecrets(got, '4000000000000002', '111');
  });

  test('4000000000009995 → HTTP 200, Failed, insufficient_funds', async () => {
    const res = await processPayment(path, { amount: 1500, currency: 'ZAR' }, { payment_method_data: cardData('4000000000009995', '222') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'Failed', error_code: 'insufficient_funds' });
    expect(res.body.error_message).toEqual(expect.any(String));
    expect(res.body.error_message.length).toBeGreaterThan(0);
    expectCardSummary(res.body, '9995', 'visa');
    expectNoCardSecrets(res, '4000000000009995', '222');
    const got = await expectStoredAs(res);
    expect(got.body).toMatchObject({ status: 'Failed', error_code: 'insufficient_funds' });
  });

  test('4000000000003220 → RequiresAction with a redirect_to_url next_action (3DS)', async () => {
    const res = await processPayment(path, { amount: 9900, currency: 'KES' }, { payment_method_data: cardData('4000000000003220', '333') });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RequiresAction');
    expectRedirect(res.body);
    expectCardSummary(res.body, '3220', 'visa');
    expectNoCardSecrets(res, '4000000000003220', '333');
    const got = await expectStoredAs(res);
    expectRedirect(got.body);
  });

  test('a card payment without card data → RequiresAction, redirect to a hosted page', async () => {
    const res = await processPayment(path, { amount: 5000, currency: 'NGN', payment_method: 'card' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RequiresAction');
    expectRedirect(res.body);
    await expectStoredAs(res);
  });

  test('bank_transfer → RequiresAction with transfer instructions in next_action', async () => {
    const res = await processPayment(path, { amount: 120000, currency: 'NGN', payment_method: 'bank_transfer' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RequiresAction');
    expect(res.body.next_action).toMatchObject({ type: 'bank_transfer_instructions' });
    // Instructions: something beyond the type itself.
    expect(entries(res.body.next_action).filter(([k]) => k !== 'type').length).toBeGreaterThan(0);
    await expectStoredAs(res);
  });

  test('ussd → RequiresAction with a code to dial', async () => {
    const res = await processPayment(path, { amount: 3000, currency: 'NGN', payment_method: 'ussd' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RequiresAction');
    expect(res.body.next_action).toMatchObject({ type: 'display_ussd_code' });
    const codes = entries(res.body.next_action).filter(([, v]) => typeof v === 'string' && DIALABLE.test(v));
    expect(codes.length).toBeGreaterThan(0);
    await expectStoredAs(res);
  });

  test('mobile_money → Processing (waiting for the payer)', async () => {
    const res = await processPayment(path, { amount: 2500, currency: 'KES', payment_method: 'mobile_money' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('Processing');
    await expectStoredAs(res);
  });
});

test('every ussd code is dialable (keypad characters only), across several payments', async () => {
  const codes: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const res = await api.request('POST', '/payments', {
      body: { amount: 1000 + i, currency: 'NGN', payment_method: 'ussd', confirm: true },
    });
    expect(res.body.status).toBe('RequiresAction');
    // Whatever the field is called, the code to dial is the string that looks like one (*…#).
    const shaped = entries(res.body.next_action).filter(([, v]) => typeof v === 'string' && /^\*.*#$/.test(v));
    expect(shaped.length).toBeGreaterThan(0);
    codes.push(...shaped.map(([, v]) => String(v)));
  }
  expect(codes.filter((c) => !DIALABLE.test(c))).toEqual([]);
});

describe('the method may be chosen only at confirm', () => {
  test.each([
    ['card', 'RequiresAction'],
    ['bank_transfer', 'RequiresAction'],
    ['ussd', 'RequiresAction'],
    ['mobile_money', 'Processing'],
  ])('created without a method, confirmed with payment_method %s → %s', async (method, status) => {
    const created = await api.request('POST', '/payments', { body: { amount: 700, currency: 'NGN' } });
    expect(created.body.status).toBe('RequiresConfirmation');
    const res = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, { body: { payment_method: method } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(status);
    await expectStoredAs(res);
  });

  test('created as card without data, confirmed with a card → the card decides', async () => {
    const created = await api.request('POST', '/payments', { body: { amount: 700, currency: 'USD', payment_method: 'card' } });
    const res = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      body: { payment_method: 'card', payment_method_data: cardData('4000000000000002', '444') },
    });
    expect(res.body).toMatchObject({ status: 'Failed', error_code: 'card_declined' });
    await expectStoredAs(res);
  });
});

describe('card numbers never come back', () => {
  test('no PAN sent by this file appears in the payment list', async () => {
    const own = await api.request('POST', '/payments', {
      body: { amount: 100, currency: 'NGN', confirm: true, payment_method_data: cardData('5555555555554444', '909') },
    });
    expect(own.body.status).toBe('Succeeded');
    const list = await api.request('GET', '/payments?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data.map((p: { payment_id: string }) => p.payment_id)).toContain(own.body.payment_id);
    for (const pan of sentPans) expect(list.text).not.toContain(pan);
    expect(entries(list.body).filter(([k]) => /cvc|cvv|card_number/i.test(k))).toEqual([]);
  });
});
