/**
 * Wrong answers: a payment step takes at most three wrong answers (PIN, OTP, phone,
 * birthday), through `POST /payments/{id}/authenticate` and the hosted step page alike; the third
 * fails the payment with `error_code: authentication_failed`. Counted in the claim write, so a result
 * that is never recorded still counts.
 */
import { SANDBOX_STEP_VALUES } from '../../shared/connectors/sandbox/transformers';
import { MAX_WRONG_ANSWERS_PER_STEP } from '../../shared/operations/payments/payment-authentication';
import { getPayment } from '../../shared/storage/payments-repository';
import { stepFormCsrf } from '../helpers/checkout-browser';
import { useFaultHarness } from '../helpers/fault-harness';
import { card, expectError, type TestResponse } from '../helpers/local-api';

const h = useFaultHarness();
const { pin: PIN, otp: OTP } = SANDBOX_STEP_VALUES;
const VERVE_PIN_OTP = '5060666666666666666';
const OTP_ONLY = '5060990000000000019';

async function confirmWith(number: string, extra: Record<string, unknown> = {}): Promise<TestResponse> {
  const res = await h.api.request('POST', '/payments', {
    body: { amount: 150000, currency: 'NGN', confirm: true, payment_method_data: card(number), ...extra },
  });
  expect(res.status).toBe(200);
  return res;
}
const authenticate = (id: string, body: unknown) => h.api.request('POST', `/payments/${id}/authenticate`, { body });
/** Posts the step page's form as a browser that drew the page would: with its CSRF cookie and token. */
const form = async (url: string, fields: Record<string, string>) => {
  const csrf = await stepFormCsrf(/pay_[0-9a-z]+/.exec(url)?.[0] as string);
  return fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrf.cookie },
    body: new URLSearchParams({ ...fields, csrf_token: csrf.csrf_token }).toString(),
  });
};

test('the limit is three', () => {
  expect(MAX_WRONG_ANSWERS_PER_STEP).toBe(3);
});

describe('POST /payments/{id}/authenticate', () => {
  test('two wrong OTPs keep the step open; the third fails the payment with authentication_failed; the right one is then refused', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    for (const guess of ['918271', '918272']) {
      const wrong = await authenticate(p.payment_id, { otp: guess });
      expect(wrong.status).toBe(200);
      expect(wrong.body).toMatchObject({ status: 'RequiresAction', next_action: { type: 'submit_otp' }, error_code: 'incorrect_otp' });
    }
    const third = await authenticate(p.payment_id, { otp: '918273' });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({ status: 'Failed', next_action: null, error_code: 'authentication_failed', pending_operation: null });
    expect(third.body.error_message).toMatch(/Too many wrong answers to the submit_otp step \(3\)/);
    expect(third.text).not.toContain('918273');
    const right = await authenticate(p.payment_id, { otp: OTP });
    expectError(right, 409, 'payment_unexpected_state');
    const stored = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(stored.body).toMatchObject({ status: 'Failed', error_code: 'authentication_failed' });
    // The event says so too, and no value is kept anywhere.
    const events = await h.api.request('GET', `/events?limit=100`);
    const failed = events.body.data.filter(
      (e: { type: string }) => e.type === 'payment.failed' && JSON.stringify(e).includes(p.payment_id),
    );
    expect(failed).toHaveLength(1);
    expect(events.text).not.toContain('918273');
  });

  test('the count is per step: a right PIN starts the OTP step afresh, and a right answer clears the count', async () => {
    const p = (await confirmWith(VERVE_PIN_OTP)).body;
    expect((await authenticate(p.payment_id, { pin: PIN })).body.next_action.type).toBe('submit_otp');
    for (const guess of ['918271', '918272']) expect((await authenticate(p.payment_id, { otp: guess })).body.status).toBe('RequiresAction');
    const stored = await getPayment(h.api.merchantId, p.payment_id);
    expect(stored?.authAnswers).toEqual({ step: 'submit_otp', count: 2 });
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
    expect((await getPayment(h.api.merchantId, p.payment_id))?.authAnswers).toBeNull();
  });

  test('a 400 (the answer never reaches the processor) does not count', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    for (let i = 0; i < 5; i++) expect((await authenticate(p.payment_id, { pin: '1234' })).status).toBe(400);
    expect((await authenticate(p.payment_id, { otp: OTP })).body.status).toBe('Succeeded');
  });

  test('the third wrong answer whose result is never recorded still counts: after the reconciler reopens the step, the next answer fails the payment without reaching the processor', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    for (const guess of ['918271', '918272']) expect((await authenticate(p.payment_id, { otp: guess })).body.status).toBe('RequiresAction');
    // write 1 = the claim (with the count), write 2 = the outcome: lost.
    h.failStorage({ command: 'write', pk: '#PAYMENT#', nth: 2, mode: 'killed' });
    const lost = await authenticate(p.payment_id, { otp: '918273' });
    h.failStorage(undefined);
    expectError(lost, 503, 'outcome_unknown');
    await h.reconcileLater();
    const reopened = await h.api.request('GET', `/payments/${p.payment_id}`);
    expect(reopened.body).toMatchObject({ status: 'RequiresAction', pending_operation: null, next_action: { type: 'submit_otp' } });
    // Even the right code is not sent: it would have succeeded at the sandbox.
    const next = await authenticate(p.payment_id, { otp: OTP });
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ status: 'Failed', error_code: 'authentication_failed', amount_captured: 0 });
  });
});

describe('hosted step page', () => {
  test('three wrong OTPs on the page fail the payment; the payer sees why; the page then takes no answer', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    const url = p.next_action.redirect_to_url;
    for (const guess of ['918271', '918272']) {
      const wrong = await form(url, { otp: guess });
      expect(wrong.status).toBe(200);
      expect(await wrong.text()).toContain('The code is incorrect');
    }
    const third = await form(url, { otp: '918273' });
    expect(third.status).toBe(303);
    const result = await fetch(new URL(third.headers.get('location')!, url), { redirect: 'manual' });
    const html = await result.text();
    expect(html).toContain('Payment not completed');
    expect(html).toContain('Too many wrong answers');
    expect(html).not.toContain('918273');
    const again = await form(url, { otp: OTP });
    expect(again.status).toBe(409);
    expect((await h.api.request('GET', `/payments/${p.payment_id}`)).body).toMatchObject({
      status: 'Failed',
      error_code: 'authentication_failed',
    });
  });

  test('the API and the page share one count', async () => {
    const p = (await confirmWith(OTP_ONLY)).body;
    expect((await authenticate(p.payment_id, { otp: '918271' })).body.status).toBe('RequiresAction');
    expect((await form(p.next_action.redirect_to_url, { otp: '918272' })).status).toBe(200);
    expect((await authenticate(p.payment_id, { otp: '918273' })).body).toMatchObject({
      status: 'Failed',
      error_code: 'authentication_failed',
    });
  });
});
