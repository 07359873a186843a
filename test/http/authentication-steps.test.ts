/**
 * Authentication steps (PIN, OTP, phone, birthday, address) through the whole local stack with the
 * sandbox processor: POST /payments/{id}/authenticate, the hosted step page and the payer return
 * route (/pay/{id}/…), return_url, USSD bank choice, and the faults around the step's processor call.
 */

import { SANDBOX_STEP_VALUES, TELECEL_VOUCHER_PROMPT } from '../../shared/connectors/sandbox/transformers';
import { Browser, sandboxPageDecision, stepFormCsrf } from '../helpers/checkout-browser';
import { useFaultHarness } from '../helpers/fault-harness';
import { card, expectError, type TestResponse } from '../helpers/local-api';

const h = useFaultHarness();
const { pin: PIN, otp: OTP } = SANDBOX_STEP_VALUES;

const VERVE_PIN_OTP = '5060666666666666666';
const OTP_ONLY = '5060990000000000019';
const PHONE_THEN_OTP = '5060990000000000027';
const BIRTHDAY = '5060990000000000035';
const ADDRESS = '5060990000000000043';
const PIN_WITH_CARD = '4000000000000317';

async function confirmWith(number: string, extra: Record<string, unknown> = {}): Promise<TestResponse> {
  const res = await h.api.request('POST', '/payments', {
    body: { amount: 150000, currency: 'NGN', confirm: true, payment_method_data: card(number), ...extra },
  });
  expect(res.status).toBe(200);
  return res;
}

const authenticate = (id: string, body: unknown) => h.api.request('POST', `/payments/${id}/authenticate`, { body });

describe('POST /payments/{id}/authenticate', () => {
  test('a Verve card goes through submit_pin then submit_otp to Succeeded; each answer is the updated payment', async () => {
    const created = (await confirmWith(VERVE_PIN_OTP)).body;
    expect(created).toMatchObject({
      status: 'RequiresAction',
      next_action: { type: 'submit_pin', card_required: false, display_text: null },
    });
    expect(created.next_action.redirect_to_url).toBe(`${h.api.url}/pay/${created.payment_id}/authenticate`);
    expect(created.payment_method_data.card).toMatchObject({ brand: 'verve', last4: '6666' });

    const afterPin = await authenticate(created.payment_id, { pin: PIN });
    expect(afterPin.status).toBe(200);
    expect(afterPin.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp' }, pending_operation: null });

    const afterOtp = await authenticate(created.payment_id, { otp: OTP });
    expect(afterOtp.body).toMatchObject({ status: 'Succeeded', amount_captured: 150000, next_action: null, pending_operation: null });
    // The outcome of the steps is recorded in attempts (the steps in between are not tries of their own).
    expect(afterOtp.body.attempts.map((a: { connector: string; status: string }) => [a.connector, a.status])).toEqual([
      ['sandbox', 'RequiresAction'],
      ['sandbox', 'Succeeded'],
    ]);
    // Nothing of the PIN or OTP is in what the API keeps.
    const stored = await h.api.request('GET', `/payments/${created.payment_id}`);
    expect(stored.text).not.toContain(`"${PIN}"`);
    expect(stored.text).not.toContain(OTP);
    // The events carry the payment too: no step value there either.
    const events = await h.api.request('GET', `/events?limit=100`);
    expect(events.text).not.toContain(OTP);
  });

  test("a wrong OTP keeps the step open with the processor's reason; the right one then succeeds", async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    const wrong = await authenticate(p.payment_id, { otp: '000000' });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp' }, error_code: 'incorrect_otp' });
    expect(wrong.text).not.toContain('000000');
    const right = await authenticate(p.payment_id, { otp: OTP });
    expect(right.body).toMatchObject({ status: 'Succeeded', error_code: null });
  });

  test('a wrong PIN fails the payment as the sandbox issuer does; nothing more can be submitted', async () => {
    const p = (await confirmWith(VERVE_PIN_OTP)).body;
    const wrong = await authenticate(p.payment_id, { pin: '9999' });
    expect(wrong.body).toMatchObject({ status: 'Failed', error_code: 'incorrect_pin', next_action: null });
    const again = await authenticate(p.payment_id, { pin: PIN });
    expectError(again, 409, 'payment_unexpected_state');
  });

  test('phone then OTP, birthday, address: each step takes its own field', async () => {
    const phone = (await confirmWith(PHONE_THEN_OTP)).body;
    expect(phone.next_action.type).toBe('submit_phone');
    expect((await authenticate(phone.payment_id, { phone: '08012345678' })).body.next_action.type).toBe('submit_otp');
    expect((await authenticate(phone.payment_id, { otp: OTP })).body.status).toBe('Succeeded');

    const birthday = (await confirmWith(BIRTHDAY, { capture_method: 'manual' })).body;
    expect(birthday.next_action.type).toBe('submit_birthday');
    expect((await authenticate(birthday.payment_id, { birthday: '1990-02-28' })).body).toMatchObject({
      status: 'RequiresCapture',
      amount_captured: 0,
    });

    const address = (await confirmWith(ADDRESS)).body;
    expect(address.next_action.type).toBe('submit_address');
    const done = await authenticate(address.payment_id, {
      address: { line1: '1 Marina', city: 'Lagos', state: 'Lagos', zip: '101001', country: 'NG' },
    });
    expect(done.body.status).toBe('Succeeded');
  });

  test('bad answers are 400s naming the field, never echoing it, and change nothing', async () => {
    const p = (await confirmWith(VERVE_PIN_OTP)).body;
    const empty = await authenticate(p.payment_id, {});
    expect(expectError(empty, 400, 'parameter_missing').message).toMatch(/send one of pin, otp/);
    const wrongStep = await authenticate(p.payment_id, { otp: OTP });
    expect(expectError(wrongStep, 400, 'parameter_missing')).toMatchObject({ param: 'pin' });
    const twoFields = await authenticate(p.payment_id, { pin: PIN, otp: OTP });
    expectError(twoFields, 400);
    const badPin = await authenticate(p.payment_id, { pin: '12a4' });
    expect(expectError(badPin, 400).param).toBe('pin');
    expect(badPin.text).not.toContain('12a4');
    const badBirthday = await authenticate(p.payment_id, { birthday: '1990-02-30' });
    expect(expectError(badBirthday, 400).param).toBe('birthday');
    const unexpectedCard = await authenticate(p.payment_id, { pin: PIN, payment_method_data: card(VERVE_PIN_OTP) });
    expect(expectError(unexpectedCard, 400, 'parameter_invalid').param).toBe('payment_method_data');
    const after = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(after.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_pin' }, pending_operation: null });
  });

  test('a step that needs the card again (card_required) takes the same card only', async () => {
    const p = (await confirmWith(PIN_WITH_CARD)).body;
    expect(p.next_action).toMatchObject({ type: 'submit_pin', card_required: true });
    const missing = await authenticate(p.payment_id, { pin: PIN });
    expect(expectError(missing, 400, 'parameter_missing').param).toBe('payment_method_data');
    const other = await authenticate(p.payment_id, { pin: PIN, payment_method_data: card('4242424242424242') });
    expect(expectError(other, 400, 'parameter_invalid').param).toBe('payment_method_data.card.card_number');
    expect(other.text).not.toContain('4242424242424242');
    const ok = await authenticate(p.payment_id, { pin: PIN, payment_method_data: card(PIN_WITH_CARD) });
    expect(ok.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp', card_required: false } });
  });

  test('a payment not waiting on a step answers 409; unknown payment 404', async () => {
    const p = (await confirmWith('4242424242424242')).body;
    expect(p.status).toBe('Succeeded');
    expectError(await authenticate(p.payment_id, { otp: OTP }), 409, 'payment_unexpected_state');
    const threeDs = (await confirmWith('4000000000003220')).body;
    expectError(await authenticate(threeDs.payment_id, { otp: OTP }), 409, 'payment_unexpected_state');
    expectError(await authenticate('pay_00000000000000000000000000000000', { otp: OTP }), 404);
  });

  test('a GHS mobile-money payment from a Telecel number asks for the *110# voucher as an OTP', async () => {
    const customer = (await h.api.request('POST', '/customers', { body: { phone: '+233201234567' } })).body;
    const p = await h.api.request('POST', '/payments', {
      body: { amount: 2500, currency: 'GHS', payment_method: 'mobile_money', customer_id: customer.customer_id, confirm: true },
    });
    expect(p.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp', display_text: TELECEL_VOUCHER_PROMPT } });
    // The reconciler does not settle it behind the payer's back: it still waits for the voucher.
    await h.reconcileLater();
    expect((await h.api.request('GET', `/payments/${p.body.payment_id}`)).body).toMatchObject({
      status: 'RequiresAction',
      next_action: { type: 'submit_otp' },
    });
    const done = await authenticate(p.body.payment_id, { otp: OTP });
    expect(done.body).toMatchObject({ status: 'Succeeded', amount_captured: 2500 });
  });
});

describe('faults around the step call', () => {
  test('storage failing on the claim: 503 nothing changed, the step is still open and can be answered', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    h.failStorage({ command: 'write', pk: '#PAYMENT#', nth: 1, mode: 'outage' });
    const res = await authenticate(p.payment_id, { otp: OTP });
    h.failStorage(undefined);
    expect(expectError(res, 503, 'service_unavailable').message).toMatch(/Nothing was changed/);
    const after = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(after.body).toMatchObject({ status: 'RequiresAction', pending_operation: null });
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
  });

  test('storage failing after the processor answered: 503 outcome_unknown, the claim stays, a second submit is refused until the reconciler settles it', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    // write 1 = the claim, write 2 = the outcome (with its event).
    h.failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'killed' });
    const res = await authenticate(p.payment_id, { otp: OTP });
    h.failStorage(undefined);
    expect(expectError(res, 503, 'outcome_unknown')).toBeTruthy();
    const open = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(open.body).toMatchObject({
      status: 'RequiresAction',
      pending_operation: { operation: 'authorize', connector: 'sandbox', state: 'in_progress' },
    });
    const retry = await authenticate(p.payment_id, { otp: OTP });
    expectError(retry, 409, 'payment_unexpected_state');
    // After the lease the reconciler asks the processor: the sandbox still shows the step waiting,
    // so the step reopens (with its next_action) for the payer to answer again.
    await h.reconcileLater();
    const settled = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(settled.body).toMatchObject({ status: 'RequiresAction', pending_operation: null, next_action: { type: 'submit_otp' } });
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
  });
});

describe('hosted step page and payer return', () => {
  /** The step form posted with the page's CSRF cookie and token (as a browser that drew the page sends it). */
  const form = async (url: string, fields: Record<string, string>) => {
    const csrf = await stepFormCsrf(/pay_[0-9a-z]+/.exec(url)?.[0] as string);
    return fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
      body: new URLSearchParams({ ...fields, csrf_token: csrf.csrf_token }).toString(),
    });
  };

  test('the step form carries a CSRF token; without it, with a wrong one or with another payment’s, 403 and nothing is sent', async () => {
    const p = (await confirmWith(VERVE_PIN_OTP)).body;
    const url = p.next_action.redirect_to_url as string;
    const browser = new Browser();
    const page = await browser.get(url);
    expect(page.headers.getSetCookie()[0]).toMatch(/^checkout_csrf=[0-9a-f]{32}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Strict$/);
    const token = /name="csrf_token" value="([0-9a-f]{64})"/.exec(await page.text())?.[1] as string;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const before = (await h.api.request('GET', `/payments/${p.payment_id}`)).body;
    const other = (await confirmWith(VERVE_PIN_OTP)).body;
    const otherToken = (await stepFormCsrf(other.payment_id)).csrf_token;
    const tries: Record<string, string>[] = [{ pin: PIN }, { pin: PIN, csrf_token: '0'.repeat(64) }, { pin: PIN, csrf_token: otherToken }];
    for (const fields of tries) {
      const refused = await browser.post(url, fields);
      expect(refused.status).toBe(403);
      const html = await refused.text();
      expect(html).toContain('Nothing was sent');
      expect(html).toContain('name="pin"');
      expect(html).toMatch(/name="csrf_token" value="[0-9a-f]{64}"/);
    }
    // A right token without its cookie (another site's form cannot send the SameSite cookie) is refused too.
    const cookieless = await new Browser().post(url, { pin: PIN, csrf_token: token });
    expect(cookieless.status).toBe(403);
    expect((await h.api.request('GET', `/payments/${p.payment_id}`)).body).toEqual(before);
    // The page's own token goes through.
    const accepted = await browser.post(url, { pin: PIN, csrf_token: token });
    expect(accepted.status).toBe(200);
    expect(await accepted.text()).toContain('name="otp"');
  });

  test("the payer answers PIN and OTP on the hosted page, then lands on the merchant's return_url with payment_id and status", async () => {
    const p = (await confirmWith(VERVE_PIN_OTP, { return_url: 'https://shop.example.com/done?order=42' })).body;
    expect(p.return_url).toBe('https://shop.example.com/done?order=42');
    const page = await fetch(p.next_action.redirect_to_url);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Never framed by another site (a PIN form), no external resources.
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toContain('name="pin"');
    expect(html).toContain('NGN 1,500.00');

    const afterPin = await form(p.next_action.redirect_to_url, { pin: PIN });
    expect(afterPin.status).toBe(200);
    expect(await afterPin.text()).toContain('name="otp"');

    const afterOtp = await form(p.next_action.redirect_to_url, { otp: OTP });
    expect(afterOtp.status).toBe(303);
    expect(afterOtp.headers.get('location')).toBe(`${h.api.url}/pay/${p.payment_id}/return`);
    const back = await fetch(afterOtp.headers.get('location')!, { redirect: 'manual' });
    expect(back.status).toBe(303);
    const target = new URL(back.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe('https://shop.example.com/done');
    expect(Object.fromEntries(target.searchParams)).toEqual({ order: '42', payment_id: p.payment_id, status: 'Succeeded' });
  });

  test("a wrong OTP on the page shows the step again with the processor's message; a page for a card step asks for the card", async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    const wrong = await form(p.next_action.redirect_to_url, { otp: '111111' });
    expect(wrong.status).toBe(200);
    const html = await wrong.text();
    expect(html).toContain('The code is incorrect');
    expect(html).not.toContain('111111');
    const cardStep = (await confirmWith(PIN_WITH_CARD)).body;
    const cardPage = await (await fetch(cardStep.next_action.redirect_to_url)).text();
    expect(cardPage).toContain('name="card_number"');
    const missing = await form(cardStep.next_action.redirect_to_url, { pin: PIN });
    expect(missing.status).toBe(400);
  });

  test('a form that cannot be read, or repeats a field, is a 400 page (never a 500), and changes nothing', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    const csrf = await stepFormCsrf(p.payment_id);
    const post = (body: string) =>
      fetch(p.next_action.redirect_to_url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
        body: `${body}&csrf_token=${csrf.csrf_token}`,
      });
    const repeated = await post(`otp=${OTP}&otp=000000`);
    expect(repeated.status).toBe(400);
    expect(await repeated.text()).toContain('send each field once');
    for (const body of ['%E0%A4%A', '=', 'otp']) expect([body, (await post(body)).status]).toEqual([body, 400]);
    const after = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(after.body).toMatchObject({ status: 'RequiresAction', pending_operation: null, next_action: { type: 'submit_otp' } });
  });

  test('the return route sends a payer whose payment still asks for a step to the step page', async () => {
    const p = (await confirmWith(OTP_ONLY, { return_url: 'https://shop.example.com/done' })).body;
    const back = await fetch(`${h.api.url}/pay/${p.payment_id}/return`, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(p.next_action.redirect_to_url);
  });

  test('3DS approved on the sandbox page returns through /pay/{id}/return to the merchant (303)', async () => {
    const p = (await confirmWith('4000000000003220', { return_url: 'https://shop.example.com/3ds-done' })).body;
    const approved = await fetch(p.next_action.redirect_to_url, {
      ...(await sandboxPageDecision(p.next_action.redirect_to_url, 'approve')),
      redirect: 'manual',
    });
    expect(approved.status).toBe(303);
    const back = await fetch(approved.headers.get('location')!, { redirect: 'manual' });
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`https://shop.example.com/3ds-done?payment_id=${p.payment_id}&status=Succeeded`);
  });

  test('without a return_url the payer sees a plain result page; an unknown payment is a 404 page', async () => {
    const p = (await confirmWith('4242424242424242')).body;
    const res = await fetch(`${h.api.url}/pay/${p.payment_id}/return`, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Payment complete');
    expect((await fetch(`${h.api.url}/pay/pay_00000000000000000000000000000000/return`)).status).toBe(404);
  });

  test('return_url is validated: absolute http(s) only, no credentials; confirm may set it', async () => {
    for (const bad of ['/relative', 'javascript:alert(1)', 'https://user:pw@shop.example.com/']) {
      const res = await h.api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', return_url: bad } });
      expect(expectError(res, 400).param).toBe('return_url');
      expect(res.text).not.toContain(bad);
    }
    const created = (await h.api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } })).body;
    expect(created.return_url).toBeNull();
    const confirmed = await h.api.request('POST', `/payments/${created.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242'), return_url: 'https://shop.example.com/r' },
    });
    expect(confirmed.body).toMatchObject({ status: 'Succeeded', return_url: 'https://shop.example.com/r' });
  });
});

describe('USSD bank choice', () => {
  test("the payer's bank is kept on the payment; an unknown bank code is a 400 naming the allowed codes", async () => {
    const p = await h.api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'NGN', confirm: true, payment_method: 'ussd', payment_method_data: { ussd: { bank_code: '057' } } },
    });
    expect(p.body).toMatchObject({
      status: 'RequiresAction',
      payment_method: 'ussd',
      payment_method_data: { ussd: { bank_code: '057', bank_name: 'Zenith Bank' } },
      next_action: { type: 'display_ussd_code' },
    });
    const bad = await h.api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'NGN', confirm: true, payment_method: 'ussd', payment_method_data: { ussd: { bank_code: '999' } } },
    });
    const error = expectError(bad, 400);
    expect(error.param).toBe('payment_method_data.ussd.bank_code');
    expect(error.message).toContain('058');
    const mismatch = await h.api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'NGN', confirm: true, payment_method: 'card', payment_method_data: { ussd: { bank_code: '058' } } },
    });
    expect(expectError(mismatch, 400).param).toBe('payment_method_data');
    // The bank may be chosen at create without confirming (it is not card data).
    const later = await h.api.request('POST', '/payments', {
      body: { amount: 5000, currency: 'NGN', payment_method_data: { ussd: { bank_code: '033' } } },
    });
    expect(later.body).toMatchObject({
      status: 'RequiresConfirmation',
      payment_method: 'ussd',
      payment_method_data: { ussd: { bank_code: '033' } },
    });
  });
});
