/**
 * The Paystack stand-in's own behaviour (test/helpers/paystack-stand-in.ts), spoken to over HTTP the
 * way any client would: requests validated against PaystackOSS/openapi, answers in Paystack's
 * documented shapes (success answers checked against the published response schemas), the ledger,
 * the test cards' step sequences, wrong PIN / OTP / voucher, refunds, the fault hooks, one account per
 * secret key and GET /balance. At the end: the minimal Flutterwave stand-in (accounts, GET /v3/balances).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  FLUTTERWAVE_STAND_IN_ACCOUNT_ID,
  FLUTTERWAVE_STAND_IN_MESSAGES,
  FLUTTERWAVE_STAND_IN_SECRET_KEY,
  type FlutterwaveStandIn,
  flutterwaveEnv,
  startFlutterwaveStandIn,
} from '../helpers/flutterwave-stand-in';
import {
  expectedNextStep,
  expectedPaymentStatus,
  PAYSTACK_STAND_IN_LIMITS,
  PAYSTACK_STAND_IN_MESSAGES,
  PAYSTACK_STAND_IN_SECRET_KEY,
  PAYSTACK_STAND_IN_VOUCHER,
  PAYSTACK_TEST_CARDS,
  type PaystackStandIn,
  type PaystackTestCard,
  paystackEnv,
  paystackOpenApiSchema,
  startPaystackStandIn,
  TELECEL_VOUCHER_PROMPT,
} from '../helpers/paystack-stand-in';

let standIn: PaystackStandIn;
let clock = Date.parse('2030-01-01T10:00:00Z');

beforeAll(async () => {
  standIn = await startPaystackStandIn({ now: () => clock });
});
afterAll(async () => {
  await standIn.close();
});
afterEach(async () => {
  await standIn.setDown(false);
  standIn.reset();
});

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  options: { key?: string | null; form?: boolean; timeoutMs?: number } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (options.key !== null) headers.authorization = `Bearer ${options.key ?? standIn.secretKey}`;
  let payload: string | undefined;
  if (body !== undefined) {
    if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(body as Record<string, string>).toString();
    } else {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
  }
  const res = await fetch(`${standIn.url}${path}`, {
    method,
    headers,
    body: payload,
    signal: AbortSignal.timeout(options.timeoutMs ?? 2000),
  });
  return { status: res.status, body: await res.json() };
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
/** Asserts a body matches a published [OAS] response schema. */
function expectSchema(schemaFile: string, body: unknown): void {
  const validate = ajv.compile(paystackOpenApiSchema(`components/schemas/${schemaFile}`) as object);
  const valid = validate(body);
  expect({ schemaFile, errors: valid ? null : validate.errors }).toEqual({ schemaFile, errors: null });
}

let seq = 0;
const newReference = () => {
  seq += 1;
  return `pay-${Date.now().toString(36)}${seq}`;
};
const cardBody = (c: Pick<PaystackTestCard, 'number' | 'cvv'>, reference: string, amount = 150000) => ({
  email: 'payer@example.com',
  amount,
  currency: 'NGN',
  reference,
  card: { number: c.number, cvv: c.cvv, expiry_month: '12', expiry_year: '30' },
});

describe('authentication and request validation', () => {
  test('a missing or wrong key is 401 "Invalid key" and changes nothing', async () => {
    const reference = newReference();
    for (const key of [null, 'sk_test_not_the_key']) {
      const res = await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, reference), { key });
      expect(res).toEqual({ status: 401, body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.invalidKey } });
    }
    expect(standIn.entry(reference)).toBeUndefined();
    expect(standIn.requests.map((r) => r.authorized)).toEqual([false, false]);
  });

  test('bodies are checked against the published request schemas: a string amount, a missing reference, a bad date, a foreign currency', async () => {
    const reference = newReference();
    const cases: [string, unknown][] = [
      ['/charge', { ...cardBody(PAYSTACK_TEST_CARDS.noValidation, reference), amount: '150000' }],
      ['/charge/submit_otp', { otp: '123456' }],
      ['/charge/submit_birthday', { birthday: '21/09/1961', reference }],
      ['/refund', { transaction: reference, currency: 'EUR' }],
      ['/transaction/initialize', { email: 'payer@example.com', amount: 100, channels: ['cash'] }],
    ];
    for (const [path, body] of cases) {
      const res = await call('POST', path, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        status: false,
        type: 'validation_error',
        code: 'invalid_params',
        meta: { nextStep: expect.any(String) },
      });
      expect(standIn.requests.at(-1)?.schemaErrors?.length).toBeGreaterThan(0);
    }
    expect(standIn.ledger()).toEqual({});
  });

  test("a charge without an instrument, a duplicate reference, an unknown reference: Paystack's documented answers", async () => {
    const reference = newReference();
    expect(await call('POST', '/charge', { email: 'payer@example.com', amount: 5000 })).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.noInstrument },
    });
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, reference))).status).toBe(200);
    const again = await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, reference));
    expect(again).toEqual({
      status: 400,
      body: expect.objectContaining({
        status: false,
        message: PAYSTACK_STAND_IN_MESSAGES.duplicateReference,
        type: 'validation_error',
        code: 'duplicate_reference',
      }),
    });
    expect(standIn.entry(reference)?.amountCaptured).toBe(150000); // charged once
    expect(await call('POST', '/charge/submit_pin', { pin: '1234', reference: 'pay-unknown' })).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.referenceInvalid },
    });
    expect(await call('GET', '/transaction/verify/pay-unknown')).toEqual({
      status: 404,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.notFound },
    });
  });

  test('form-encoded bodies are taken like JSON ones (Paystack accepts both)', async () => {
    const reference = newReference();
    const c = PAYSTACK_TEST_CARDS.pinOnly;
    await call('POST', '/charge', cardBody(c, reference));
    const res = await call('POST', '/charge/submit_pin', { pin: c.pin, reference }, { form: true });
    expect(res.body.data.status).toBe('success');
  });
});

describe('card steps', () => {
  test("the Verve card: send_pin → PIN → send_otp with Paystack's prompt → OTP → success; the ledger follows each step", async () => {
    const reference = newReference();
    const c = PAYSTACK_TEST_CARDS.vervePinOtp;
    const created = await call('POST', '/charge', cardBody(c, reference));
    expect(created).toEqual({ status: 200, body: { status: true, message: 'Charge attempted', data: { reference, status: 'send_pin' } } });
    expect(standIn.entry(reference)).toMatchObject({
      status: 'send_pin',
      waitingOn: 'pin',
      transactionStatus: 'ongoing',
      amountCaptured: 0,
      cardLast4: c.number.slice(-4),
    });
    expect((await call('GET', `/charge/${reference}`)).body.data).toEqual({ reference, status: 'send_pin' });

    const afterPin = await call('POST', '/charge/submit_pin', { pin: c.pin, reference });
    expect(afterPin.body.data).toEqual({ reference, status: 'send_otp', display_text: 'Please send OTP' });
    expect(standIn.entry(reference)).toMatchObject({ waitingOn: 'otp', displayText: 'Please send OTP' });

    const afterOtp = await call('POST', '/charge/submit_otp', { otp: c.otp, reference });
    expect(afterOtp.body.data).toMatchObject({
      reference,
      status: 'success',
      amount: 150000,
      currency: 'NGN',
      channel: 'card',
      gateway_response: 'Approved',
    });
    expectSchema('ChargeSubmitOtpResponse.yaml', afterOtp.body);
    expectSchema('ChargeSubmitPinResponse.yaml', afterOtp.body);
    const verify = await call('GET', `/transaction/verify/${reference}`);
    expect(verify.body.data).toMatchObject({ reference, status: 'success', amount: 150000, id: standIn.entry(reference)?.transactionId });
    expectSchema('VerifyResponse.yaml', verify.body);
    expect(standIn.entry(reference)).toMatchObject({
      status: 'success',
      waitingOn: null,
      amountCaptured: 150000,
      submissions: [
        { step: 'pin', accepted: true },
        { step: 'otp', accepted: true },
      ],
    });
    expect(expectedPaymentStatus(standIn.entry(reference)!)).toBe('Succeeded');
  });

  test('the stand-in never keeps a PIN, an OTP, a card number or a CVV', async () => {
    const reference = newReference();
    const c = PAYSTACK_TEST_CARDS.vervePinOtp;
    await call('POST', '/charge', cardBody(c, reference));
    await call('POST', '/charge/submit_pin', { pin: c.pin, reference });
    await call('POST', '/charge/submit_otp', { otp: c.otp, reference });
    const kept = JSON.stringify({ requests: standIn.requests, ledger: standIn.ledger() });
    for (const secret of [c.pin, c.otp, c.number, `"${c.cvv}"`]) expect(kept).not.toContain(secret);
    expect(standIn.requests.map((r) => r.body?.pin ?? r.body?.otp)).toEqual([undefined, '[REDACTED]', '[REDACTED]']);
  });

  test('PIN, then phone, then OTP; the birthday and address steps; PIN-only; a card without validation', async () => {
    const ppo = PAYSTACK_TEST_CARDS.pinPhoneOtp;
    const r1 = newReference();
    await call('POST', '/charge', cardBody(ppo, r1));
    expect((await call('POST', '/charge/submit_pin', { pin: ppo.pin, reference: r1 })).body.data).toEqual({
      reference: r1,
      status: 'send_phone',
      display_text: 'Please send phone',
    });
    expect((await call('POST', '/charge/submit_phone', { phone: '08012345678', reference: r1 })).body.data.status).toBe('send_otp');
    expect((await call('POST', '/charge/submit_otp', { otp: ppo.otp, reference: r1 })).body.data.status).toBe('success');

    const r2 = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.birthday, r2))).body.data).toEqual({
      reference: r2,
      status: 'send_birthday',
      display_text: 'Please send your birthday',
    });
    expect((await call('POST', '/charge/submit_birthday', { birthday: '1961-09-21', reference: r2 })).body.data.status).toBe('success');

    const r3 = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.address, r3))).body.data).toEqual({
      display_text: 'Please send details for address verification',
      reference: r3,
      status: 'send_address',
      country_code: 'US',
    });
    const address = { address: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip_code: '18360', reference: r3 };
    expect((await call('POST', '/charge/submit_address', address)).body.data.status).toBe('success');

    const r4 = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.pinOnly, r4));
    expect((await call('POST', '/charge/submit_pin', { pin: PAYSTACK_TEST_CARDS.pinOnly.pin, reference: r4 })).body.data.status).toBe(
      'success',
    );

    const r5 = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, r5))).body.data.status).toBe('success');
    for (const r of [r1, r2, r3, r4, r5])
      expect(standIn.entry(r)).toMatchObject({ status: 'success', amountCaptured: 150000, waitingOn: null });
  });

  test('a wrong PIN closes the charge (failed, "Incorrect PIN"); nothing more can be submitted', async () => {
    const reference = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.vervePinOtp, reference));
    const wrong = await call('POST', '/charge/submit_pin', { pin: '9999', reference });
    expect(wrong).toEqual({
      status: 200,
      body: {
        status: true,
        message: 'Charge attempted',
        data: { reference, status: 'failed', message: PAYSTACK_STAND_IN_MESSAGES.incorrectPin },
      },
    });
    expect(standIn.entry(reference)).toMatchObject({
      status: 'failed',
      transactionStatus: 'failed',
      waitingOn: null,
      amountCaptured: 0,
      failureMessage: 'Incorrect PIN',
      submissions: [{ step: 'pin', accepted: false }],
    });
    expect(await call('POST', '/charge/submit_pin', { pin: PAYSTACK_TEST_CARDS.vervePinOtp.pin, reference })).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.notWaitingFor('pin') },
    });
    expect((await call('GET', `/transaction/verify/${reference}`)).body.data).toMatchObject({
      status: 'failed',
      gateway_response: 'Incorrect PIN',
    });
    expect(expectedPaymentStatus(standIn.entry(reference)!)).toBe('Failed');
  });

  test('a wrong OTP leaves the step open; too many lock it for a while, then the right OTP still completes it', async () => {
    const reference = newReference();
    const c = PAYSTACK_TEST_CARDS.vervePinOtp;
    await call('POST', '/charge', cardBody(c, reference));
    await call('POST', '/charge/submit_pin', { pin: c.pin, reference });
    const wrong = await call('POST', '/charge/submit_otp', { otp: '000000', reference });
    expect(wrong).toEqual({ status: 400, body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.incorrectOtp } });
    expect(standIn.entry(reference)).toMatchObject({ status: 'send_otp', waitingOn: 'otp', wrongOtps: 1 });
    expect(expectedNextStep(standIn.entry(reference)!)).toBe('submit_otp');
    for (let i = 2; i < PAYSTACK_STAND_IN_LIMITS.maxWrongOtps; i += 1)
      await call('POST', '/charge/submit_otp', { otp: '000000', reference });
    const locked = await call('POST', '/charge/submit_otp', { otp: '000000', reference });
    expect(locked.body.message).toBe(PAYSTACK_STAND_IN_MESSAGES.tooManyOtps(PAYSTACK_STAND_IN_LIMITS.otpLockMinutes));
    expect((await call('POST', '/charge/submit_otp', { otp: c.otp, reference })).status).toBe(400); // even the right one, while locked
    expect(standIn.entry(reference)).toMatchObject({ status: 'send_otp', amountCaptured: 0 });
    clock += PAYSTACK_STAND_IN_LIMITS.otpLockMinutes * 60_000 + 1;
    expect((await call('POST', '/charge/submit_otp', { otp: c.otp, reference })).body.data.status).toBe('success');
    expect(standIn.entry(reference)?.amountCaptured).toBe(150000);
  });

  test('declined, token not generated, bank authorization (open_url) cards', async () => {
    const declined = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.declined, declined))).body.data).toEqual({
      reference: declined,
      status: 'failed',
      message: 'Declined',
    });
    const token = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.tokenNotGenerated, token));
    expect(
      (await call('POST', '/charge/submit_pin', { pin: PAYSTACK_TEST_CARDS.tokenNotGenerated.pin, reference: token })).body.data,
    ).toMatchObject({ status: 'failed', message: PAYSTACK_TEST_CARDS.tokenNotGenerated.failureMessage });
    const bankAuth = newReference();
    const open = await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.bankAuthorization, bankAuth));
    expect(open.body.data).toEqual({ reference: bankAuth, url: expect.stringMatching(/^http/), status: 'open_url' });
    standIn.completeOffline(bankAuth, 'success');
    expect(standIn.entry(bankAuth)).toMatchObject({ status: 'success', amountCaptured: 150000 });
    expect(standIn.entry(declined)?.amountCaptured).toBe(0);
    expect(standIn.entry(token)?.status).toBe('failed');
  });
});

describe('mobile money, USSD, Pay with Transfer, hosted checkout', () => {
  const momo = (reference: string, provider: string, phone = '0201234567') => ({
    email: 'payer@example.com',
    amount: 2500,
    currency: 'GHS',
    reference,
    mobile_money: { phone, provider },
  });

  test('Telecel (vod): send_otp with the *110# voucher prompt; a wrong voucher keeps the step open; the voucher completes it', async () => {
    const reference = newReference();
    const created = await call('POST', '/charge', momo(reference, 'vod'));
    expect(created.body).toEqual({
      status: true,
      message: 'Charge attempted',
      data: { reference, status: 'send_otp', display_text: TELECEL_VOUCHER_PROMPT },
    });
    const wrong = await call('POST', '/charge/submit_otp', { otp: '111111', reference });
    expect(wrong).toEqual({ status: 400, body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.incorrectMobileMoneyOtp } });
    expect(standIn.entry(reference)).toMatchObject({ waitingOn: 'otp', displayText: TELECEL_VOUCHER_PROMPT, provider: 'vod' });
    const done = await call('POST', '/charge/submit_otp', { otp: PAYSTACK_STAND_IN_VOUCHER, reference });
    expect(done.body.data).toMatchObject({ status: 'success', amount: 2500, currency: 'GHS', channel: 'mobile_money' });
    expect(standIn.entry(reference)).toMatchObject({ status: 'success', amountCaptured: 2500, channel: 'mobile_money' });
  });

  test('MTN: pay_offline until the payer approves; an unknown provider is refused', async () => {
    const reference = newReference();
    const created = await call('POST', '/charge', momo(reference, 'mtn', '0551234987'));
    expect(created.body.data).toEqual({
      reference,
      status: 'pay_offline',
      display_text: 'Please complete authorization process on your mobile phone',
    });
    expect((await call('GET', `/transaction/verify/${reference}`)).body.data.status).toBe('ongoing');
    standIn.completeOffline(reference, 'success');
    expect((await call('GET', `/transaction/verify/${reference}`)).body.data).toMatchObject({ status: 'success', amount: 2500 });
    expect((await call('POST', '/charge', momo(newReference(), 'mpesa'))).body.message).toBe(PAYSTACK_STAND_IN_MESSAGES.invalidProvider);
  });

  test('USSD gives a code of the chosen type; Pay with Transfer an account until its expiry; initialize a checkout URL', async () => {
    const ussd = newReference();
    const u = await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: 5000,
      currency: 'NGN',
      reference: ussd,
      ussd: { type: '919' },
    });
    expect(u.body.data).toEqual({
      reference: ussd,
      status: 'pay_offline',
      display_text: expect.stringContaining(u.body.data.ussd_code),
      ussd_code: expect.stringMatching(/^\*919\*.*#$/),
    });
    const pwt = newReference();
    const expires = '2030-01-01T11:00:00.000Z';
    const t = await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: 5000,
      currency: 'NGN',
      reference: pwt,
      bank_transfer: { account_expires_at: expires },
    });
    expect(t.body.data).toMatchObject({
      reference: pwt,
      status: 'pending_bank_transfer',
      account_number: expect.any(String),
      bank: { name: expect.any(String) },
      account_expires_at: expires,
    });
    const checkout = newReference();
    const init = await call('POST', '/transaction/initialize', {
      email: 'payer@example.com',
      amount: 5000,
      currency: 'NGN',
      reference: checkout,
      callback_url: 'https://example.com/back',
      channels: ['card'],
    });
    expect(init.body).toEqual({
      status: true,
      message: 'Authorization URL created',
      data: {
        authorization_url: expect.stringMatching(/^https:\/\/checkout\.paystack\.com\//),
        access_code: expect.any(String),
        reference: checkout,
      },
    });
    expectSchema('TransactionInitializeResponse.yaml', init.body);
    expect((await call('GET', `/transaction/verify/${checkout}`)).body.data.status).toBe('abandoned');
    expect(
      (await call('POST', '/transaction/initialize', { email: 'payer@example.com', amount: 5000, reference: checkout })).body.code,
    ).toBe('duplicate_reference');
    expect(Object.values(standIn.ledger()).map((e) => [e.channel, e.status])).toEqual([
      ['ussd', 'pay_offline'],
      ['bank_transfer', 'pending_bank_transfer'],
      ['checkout', 'abandoned'],
    ]);
  });
});

describe('refunds', () => {
  test('create (pending), fetch, list by transaction; the ledger sums them; nothing above what is left; a full processed refund reverses', async () => {
    const reference = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, reference, 10000));
    const { transactionId } = standIn.entry(reference)!;
    const first = await call('POST', '/refund', {
      transaction: reference,
      amount: 4000,
      currency: 'NGN',
      merchant_note: 'Switchyard refund ref_1',
    });
    expect(first.body).toMatchObject({
      status: true,
      message: 'Refund has been queued for processing',
      data: { status: 'pending', amount: 4000, merchant_note: 'Switchyard refund ref_1', transaction: { id: transactionId, reference } },
    });
    expectSchema('RefundCreateResponse.yaml', first.body);
    expect(await call('POST', '/refund', { transaction: reference, amount: 6001 })).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.refundTooLarge },
    });
    const rest = await call('POST', '/refund', { transaction: String(transactionId) }); // by id, the remaining amount
    expect(rest.body.data.amount).toBe(6000);

    const fetched = await call('GET', `/refund/${first.body.data.id}`);
    expect(fetched.body).toMatchObject({
      status: true,
      message: 'Refund retrieved',
      data: { id: first.body.data.id, transaction: transactionId, status: 'pending' },
    });
    expectSchema('RefundFetchResponse.yaml', fetched.body);
    const list = await call('GET', `/refund?transaction=${transactionId}&perPage=1&page=2`);
    expect(list.body.data.map((r: { id: number }) => r.id)).toEqual([first.body.data.id]); // newest first: page 2 is the first refund
    expect(list.body.meta).toMatchObject({ total: 2, pageCount: 2, page: 2 });
    expectSchema('RefundListResponse.yaml', list.body);
    expect(await call('GET', '/refund/999')).toEqual({
      status: 404,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.notFound },
    });

    expect(standIn.entry(reference)).toMatchObject({ amountRefunded: 10000, transactionStatus: 'success' });
    standIn.setRefundStatus(first.body.data.id, 'processed');
    standIn.setRefundStatus(rest.body.data.id, 'processed');
    expect((await call('GET', `/transaction/verify/${reference}`)).body.data.status).toBe('reversed');
    standIn.setRefundStatus(rest.body.data.id, 'failed');
    expect(standIn.entry(reference)).toMatchObject({ amountRefunded: 4000, refunds: [{ status: 'processed' }, { status: 'failed' }] });
  });

  test('a charge that did not succeed cannot be refunded', async () => {
    const reference = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.vervePinOtp, reference));
    expect(await call('POST', '/refund', { transaction: reference })).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.refundUnsuccessful },
    });
    expect(standIn.entry(reference)?.refunds).toEqual([]);
  });
});

describe('fault hooks', () => {
  const submitOtp = { method: 'POST', path: '/charge/submit_otp' };
  async function waitingForOtp(): Promise<string> {
    const reference = newReference();
    const c = PAYSTACK_TEST_CARDS.vervePinOtp;
    await call('POST', '/charge', cardBody(c, reference));
    await call('POST', '/charge/submit_pin', { pin: c.pin, reference });
    return reference;
  }
  const otp = (reference: string) =>
    call('POST', '/charge/submit_otp', { otp: PAYSTACK_TEST_CARDS.vervePinOtp.otp, reference }, { timeoutMs: 300 });

  test('hang_after_work: the OTP is applied (the charge succeeds) but no answer comes', async () => {
    const reference = await waitingForOtp();
    standIn.failNext(submitOtp, 'hang_after_work');
    await expect(otp(reference)).rejects.toThrow(/abort|timeout/i);
    expect(standIn.entry(reference)).toMatchObject({ status: 'success', amountCaptured: 150000 });
    expect(standIn.requests.at(-1)).toMatchObject({ fault: 'hang_after_work', outcome: 'hung', status: 200 });
  });

  test('hang_before_work and the before-work 500 / reset change nothing; the after-work 500 / reset do the work', async () => {
    for (const fault of ['hang_before_work', 'error_500_before_work', 'reset_before_work'] as const) {
      const reference = await waitingForOtp();
      standIn.failNext(submitOtp, fault);
      const res = await otp(reference).catch((err: Error) => err);
      if (fault === 'error_500_before_work') expect(res).toMatchObject({ status: 500, body: { status: false } });
      else expect((res as Error).name).toMatch(/TimeoutError|TypeError/); // no answer / connection reset
      expect(standIn.entry(reference)).toMatchObject({ status: 'send_otp', amountCaptured: 0 });
    }
    for (const fault of ['error_500_after_work', 'reset_after_work'] as const) {
      const reference = await waitingForOtp();
      standIn.failNext(submitOtp, fault);
      const res = await otp(reference).catch((err: Error) => err);
      if (fault === 'error_500_after_work') expect((res as Reply).status).toBe(500);
      else expect((res as Error).name).toBe('TypeError'); // fetch failed: the socket was destroyed
      expect(standIn.entry(reference)).toMatchObject({ status: 'success', amountCaptured: 150000 });
    }
  });

  test('faults match by method and path prefix, apply in order, `times` times', async () => {
    standIn.failNext({ path: '/transaction/verify/' }, 'error_500_before_work', { times: 2 });
    standIn.failNext({ method: 'GET', path: '/refund' }, 'error_500_before_work');
    expect(standIn.pendingFaults()).toEqual([
      { match: { path: '/transaction/verify/' }, fault: 'error_500_before_work', remaining: 2 },
      { match: { method: 'GET', path: '/refund' }, fault: 'error_500_before_work', remaining: 1 },
    ]);
    expect((await call('POST', '/refund', { transaction: 'x' })).status).toBe(404); // POST: not matched
    expect((await call('GET', '/transaction/verify/a')).status).toBe(500);
    expect((await call('GET', '/transaction/verify/b')).status).toBe(500);
    expect((await call('GET', '/transaction/verify/c')).status).toBe(404);
    expect((await call('GET', '/refund/1')).status).toBe(500);
    expect(standIn.pendingFaults()).toEqual([]);
  });

  test('down: reset drops every connection, refuse closes the port (ECONNREFUSED); back up on the same URL', async () => {
    const reference = await waitingForOtp();
    await standIn.setDown('reset');
    await expect(otp(reference)).rejects.toThrow();
    await standIn.setDown('refuse');
    const refused = await otp(reference).catch((err: Error & { cause?: { code?: string } }) => err);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    expect(standIn.entry(reference)).toMatchObject({ status: 'send_otp', amountCaptured: 0 });
    await standIn.setDown(false);
    expect((await otp(reference)).body.data.status).toBe('success');
  });

  test('paystackEnv gives the registry its key, base URL and the timeout override', () => {
    expect(paystackEnv(standIn, { timeoutMs: 300 })).toEqual({
      PAYSTACK_SECRET_KEY: standIn.secretKey,
      PAYSTACK_BASE_URL: standIn.url,
      CONNECTOR_TIMEOUT_MS: '300',
    });
    expect(paystackEnv(standIn)).not.toHaveProperty('CONNECTOR_TIMEOUT_MS');
  });
});

describe('one account per secret key (merchant connector accounts)', () => {
  const momoBody = (reference: string) => ({
    email: 'payer@example.com',
    amount: 2500,
    currency: 'GHS',
    reference,
    mobile_money: { phone: '0551234987', provider: 'mtn' },
  });

  test('charges made with two keys land in their own account ledgers and nowhere else', async () => {
    const b = standIn.addAccount();
    expect(b).toEqual({ integration: expect.any(Number), secretKey: expect.stringMatching(/^sk_test_[0-9a-f]{40}$/) });
    expect(b.integration).toBeGreaterThanOrEqual(100_000);
    expect(standIn.accounts()).toEqual([{ integration: 412829, secretKey: standIn.secretKey }, b]);
    const onA = newReference();
    const onB = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, onA))).body.data.status).toBe('success');
    const charged = await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, onB, 7000), { key: b.secretKey });
    expect(charged.body.data).toMatchObject({ status: 'success', amount: 7000, reference: onB });

    expect(Object.keys(standIn.ledger())).toEqual([onA]);
    expect(standIn.ledgerOf(standIn.secretKey)).toEqual(standIn.ledger());
    expect(Object.keys(standIn.ledgerOf(b.secretKey))).toEqual([onB]);
    expect(standIn.entryOf(b.secretKey, onB)).toMatchObject({ status: 'success', amountCaptured: 7000 });
    expect(standIn.entry(onB)).toBeUndefined();
    expect(standIn.entryOf(b.secretKey, onA)).toBeUndefined();

    // The same reference is free in another account (references are unique per integration).
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, onA, 300), { key: b.secretKey })).status).toBe(200);
    expect(standIn.entry(onA)).toMatchObject({ amount: 150000 });
    expect(standIn.entryOf(b.secretKey, onA)).toMatchObject({ amount: 300 });
    expect(standIn.entryOf(b.secretKey, onA)!.transactionId).not.toBe(standIn.entry(onA)!.transactionId);

    // Each request records the integration it acted on and the masked key, never the key.
    expect(standIn.requests.map((r) => [r.authorized, r.integration])).toEqual([
      [true, 412829],
      [true, b.integration],
      [true, b.integration],
    ]);
    expect(standIn.requests[1]!.keyHint).toBe(`sk_test_${'*'.repeat(b.secretKey.length - 12)}${b.secretKey.slice(-4)}`);
    expect(JSON.stringify(standIn.requests)).not.toContain(b.secretKey);
    expect(JSON.stringify(standIn.requests)).not.toContain(standIn.secretKey);
  });

  test("another account's transactions and refunds are Paystack's not-found answers; nothing changes on either side", async () => {
    const b = standIn.addAccount();
    const reference = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, reference, 10000));
    const refund = await call('POST', '/refund', { transaction: reference, amount: 1000 });
    const { transactionId } = standIn.entry(reference)!;
    const asB = { key: b.secretKey };
    const notFound = { status: 404, body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.notFound } };
    expect(await call('GET', `/transaction/verify/${reference}`, undefined, asB)).toEqual(notFound);
    expect(await call('GET', `/charge/${reference}`, undefined, asB)).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.referenceInvalid },
    });
    expect(await call('POST', '/refund', { transaction: reference }, asB)).toEqual(notFound);
    expect(await call('POST', '/refund', { transaction: String(transactionId) }, asB)).toEqual(notFound);
    expect(await call('GET', `/refund/${refund.body.data.id}`, undefined, asB)).toEqual(notFound);
    expect((await call('GET', `/refund?transaction=${transactionId}`, undefined, asB)).body).toMatchObject({
      data: [],
      meta: { total: 0 },
    });
    expect(await call('POST', '/charge/submit_pin', { pin: '1234', reference }, asB)).toEqual({
      status: 400,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.referenceInvalid },
    });
    expect(standIn.ledgerOf(b.secretKey)).toEqual({});
    expect(standIn.entry(reference)).toMatchObject({
      amountCaptured: 10000,
      amountRefunded: 1000,
      refunds: [expect.objectContaining({ id: refund.body.data.id })],
    });
    // The refund carries its own account's integration id.
    expect((await call('GET', `/refund/${refund.body.data.id}`)).body.data.integration).toBe(412829);
  });

  test('completeOffline and setRefundStatus find the charge / refund of any account; an ambiguous reference needs the key', async () => {
    const b = standIn.addAccount();
    const onB = newReference();
    await call('POST', '/charge', momoBody(onB), { key: b.secretKey });
    standIn.completeOffline(onB, 'success'); // only account B has it
    expect(standIn.entryOf(b.secretKey, onB)).toMatchObject({ status: 'success', amountCaptured: 2500 });

    const shared = newReference();
    await call('POST', '/charge', momoBody(shared));
    await call('POST', '/charge', momoBody(shared), { key: b.secretKey });
    standIn.completeOffline(shared, 'failed', b.secretKey);
    expect(standIn.entryOf(b.secretKey, shared)).toMatchObject({ status: 'failed' });
    expect(standIn.entry(shared)).toMatchObject({ status: 'pay_offline' });
    standIn.completeOffline(shared, 'success'); // the default account's first
    expect(standIn.entry(shared)).toMatchObject({ status: 'success' });
    expect(() => standIn.completeOffline('nowhere', 'success')).toThrow(/no charge nowhere/);
    expect(() => standIn.completeOffline(onB, 'success', standIn.secretKey)).toThrow(/no charge/);

    const refund = await call('POST', '/refund', { transaction: onB }, { key: b.secretKey });
    standIn.setRefundStatus(refund.body.data.id, 'processed');
    expect(standIn.entryOf(b.secretKey, onB)).toMatchObject({
      transactionStatus: 'reversed',
      refunds: [expect.objectContaining({ status: 'processed' })],
    });
  });

  test('options.accounts: extra keys are accounts from the start; a wrong key is 401; a removed account is 401; reset keeps accounts', async () => {
    const merchantB = 'sk_test_0123456789abcdef0123456789abcdef0123bbbb';
    const server = await startPaystackStandIn({ accounts: [merchantB] });
    try {
      expect(server.accounts()).toEqual([
        { integration: 412829, secretKey: PAYSTACK_STAND_IN_SECRET_KEY },
        { integration: expect.any(Number), secretKey: merchantB },
      ]);
      const get = async (path: string, key: string) => {
        const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
        return { status: res.status, body: (await res.json()) as unknown };
      };
      expect(await get('/balance', merchantB)).toMatchObject({ status: 200, body: { status: true } });
      const invalid = { status: 401, body: { status: false, message: 'Invalid key' } };
      expect(await get('/balance', 'sk_test_ffffffffffffffffffffffffffffffffffffffff')).toEqual(invalid);
      expect(server.requests.at(-1)).toMatchObject({
        authorized: false,
        integration: null,
        keyHint: `sk_test_${'*'.repeat(36)}ffff`,
      });
      expect(() => server.ledgerOf('sk_test_nope_nope_nope')).toThrow(/no account has the key sk_test_\*+nope/);

      server.reset();
      expect(server.accounts()).toHaveLength(2);
      server.removeAccount(merchantB);
      expect(await get('/balance', merchantB)).toEqual(invalid);
      expect(() => server.removeAccount(PAYSTACK_STAND_IN_SECRET_KEY)).toThrow(/default account/);
      expect(() => server.removeAccount(merchantB)).toThrow(/no account/);
    } finally {
      await server.close();
    }
    await expect(startPaystackStandIn({ accounts: [PAYSTACK_STAND_IN_SECRET_KEY] })).rejects.toThrow(/two accounts/);
  });

  test('a fault limited to one account key applies to that account only', async () => {
    const b = standIn.addAccount();
    standIn.failNext({ method: 'POST', path: '/charge', secretKey: b.secretKey }, 'error_500_before_work');
    const onA = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, onA))).status).toBe(200);
    expect(standIn.pendingFaults()).toHaveLength(1);
    const onB = newReference();
    expect((await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, onB), { key: b.secretKey })).status).toBe(500);
    expect(standIn.pendingFaults()).toEqual([]);
    expect(standIn.ledgerOf(b.secretKey)).toEqual({});
    expect(Object.keys(standIn.ledger())).toEqual([onA]);
  });

  test('paystackEnv with options.account points the registry at that account', () => {
    const b = standIn.addAccount();
    expect(paystackEnv(standIn, { account: b })).toEqual({ PAYSTACK_SECRET_KEY: b.secretKey, PAYSTACK_BASE_URL: standIn.url });
  });
});

describe('GET /balance', () => {
  test("answers the account's balances in Paystack's documented shape; money taken shows per account and currency", async () => {
    const b = standIn.addAccount();
    const fresh = await call('GET', '/balance');
    expect(fresh).toEqual({ status: 200, body: { status: true, message: 'Balances retrieved', data: [{ currency: 'NGN', balance: 0 }] } });
    expectSchema('BalanceCheckResponse.yaml', fresh.body);

    const ngn = newReference();
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.noValidation, ngn, 150000));
    await call('POST', '/refund', { transaction: ngn, amount: 50000 });
    const failedRefund = await call('POST', '/refund', { transaction: ngn, amount: 10000 });
    standIn.setRefundStatus(failedRefund.body.data.id, 'failed'); // a failed refund gives the money back
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.declined, newReference(), 9000)); // declined: nothing taken
    const ghs = newReference();
    await call('POST', '/charge', {
      email: 'payer@example.com',
      amount: 2500,
      currency: 'GHS',
      reference: ghs,
      mobile_money: { phone: '0551234987', provider: 'mtn' },
    });
    standIn.completeOffline(ghs, 'success');
    await call('POST', '/charge', cardBody(PAYSTACK_TEST_CARDS.vervePinOtp, newReference(), 4000)); // waits on a PIN: nothing taken

    const balance = await call('GET', '/balance');
    expect(balance).toEqual({
      status: 200,
      body: {
        status: true,
        message: 'Balances retrieved',
        data: [
          { currency: 'GHS', balance: 2500 },
          { currency: 'NGN', balance: 100000 },
        ],
      },
    });
    expectSchema('BalanceCheckResponse.yaml', balance.body);
    // Account B took nothing.
    expect((await call('GET', '/balance', undefined, { key: b.secretKey })).body.data).toEqual([{ currency: 'NGN', balance: 0 }]);
    expect(standIn.requests.filter((r) => r.path === '/balance').map((r) => r.integration)).toEqual([412829, 412829, b.integration]);
  });

  test('a wrong or missing key is 401 {"status": false, "message": "Invalid key"} (the documented Unauthorized example)', async () => {
    const unauthorized = (paystackOpenApiSchema('paths/balance.yaml') as { get: { responses: Record<string, unknown> } }).get.responses[
      '401'
    ] as {
      content: { 'application/json': { example: unknown } };
    };
    const documented = unauthorized.content['application/json'].example;
    expect(documented).toEqual({ status: false, message: 'Invalid key' });
    for (const key of [null, 'sk_test_not_an_account_key']) {
      expect(await call('GET', '/balance', undefined, { key })).toEqual({ status: 401, body: documented });
    }
    expect(await call('GET', '/balance/ledger')).toEqual({
      status: 404,
      body: { status: false, message: PAYSTACK_STAND_IN_MESSAGES.notFound },
    });
  });

  test('faults apply to it as to every route: 500, hang, reset and refuse make Paystack unreachable', async () => {
    standIn.failNext({ method: 'GET', path: '/balance' }, 'error_500_before_work');
    expect(await call('GET', '/balance')).toEqual({
      status: 500,
      body: { status: false, message: 'An error occurred', type: 'api_error', code: 'unknown' },
    });
    standIn.failNext({ method: 'GET', path: '/balance' }, 'hang_before_work');
    expect(await call('GET', '/balance', undefined, { timeoutMs: 300 }).catch((e: Error) => e.name)).toBe('TimeoutError');
    standIn.failNext({ method: 'GET', path: '/balance' }, 'reset_before_work');
    expect(await call('GET', '/balance').catch((e: Error) => e.name)).toBe('TypeError');

    const b = standIn.addAccount();
    standIn.failNext({ path: '/balance', secretKey: b.secretKey }, 'error_500_before_work');
    expect((await call('GET', '/balance')).status).toBe(200);
    expect((await call('GET', '/balance', undefined, { key: b.secretKey })).status).toBe(500);

    await standIn.setDown('refuse');
    const refused = await call('GET', '/balance').catch((e: Error & { cause?: { code?: string } }) => e);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    await standIn.setDown(false);
    expect((await call('GET', '/balance')).status).toBe(200);
    expect(standIn.requests.filter((r) => r.path === '/balance').map((r) => [r.fault, r.outcome, r.status])).toEqual([
      ['error_500_before_work', 'answered', 500],
      ['hang_before_work', 'hung', null],
      ['reset_before_work', 'reset', null],
      [null, 'answered', 200],
      ['error_500_before_work', 'answered', 500],
      [null, 'answered', 200],
    ]);
  });
});

/* --------------------------------------------------------------------------------------------------
 * The minimal Flutterwave stand-in (test/helpers/flutterwave-stand-in.ts): accounts by secret key and
 * GET /v3/balances only. Kept here beside its sibling until it has a test file of its own.
 * ------------------------------------------------------------------------------------------------ */
describe('Flutterwave stand-in: one account per secret key, GET /v3/balances', () => {
  let flw: FlutterwaveStandIn;
  beforeAll(async () => {
    flw = await startFlutterwaveStandIn();
  });
  afterAll(async () => {
    await flw.close();
  });
  afterEach(async () => {
    await flw.setDown(false);
    flw.reset();
  });

  const balances = async (key: string | null, timeoutMs = 2000): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (key !== null) headers.authorization = `Bearer ${key}`;
    const res = await fetch(`${flw.url}/v3/balances`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, body: await res.json() };
  };
  const FIXTURE = JSON.parse(readFileSync(join(__dirname, '..', 'connectors', 'fixtures', 'flutterwave', 'balances.json'), 'utf8')) as {
    status: string;
    message: string;
    data: Array<{ currency: string }>;
  };

  test('the fixture is the Sample Response of flutterwave-node-v3 documentation/misc.md "Get all wallet balances", verbatim', () => {
    const md = readFileSync(join(__dirname, '..', '..', 'node_modules', 'flutterwave-node-v3', 'documentation', 'misc.md'), 'utf8');
    const section = md.split('## Get all wallet balances')[1] ?? '';
    const sample = /Sample Response\s*```javascript\n([\s\S]*?)```/.exec(section)?.[1];
    expect(JSON.parse(sample ?? 'null')).toEqual(FIXTURE);
  });

  test("each key reads its own account's wallets in Flutterwave's envelope; setting one account's leaves the others", async () => {
    const b = flw.addAccount();
    expect(b).toEqual({
      accountId: expect.any(Number),
      secretKey: expect.stringMatching(/^FLWSECK_TEST-[0-9a-f]{32}-X$/),
      encryptionKey: expect.stringMatching(/^FLWSECK_TEST[0-9a-f]{12}$/),
      webhookHash: expect.any(String),
    });
    expect(flw.accounts()).toEqual([
      {
        accountId: FLUTTERWAVE_STAND_IN_ACCOUNT_ID,
        secretKey: FLUTTERWAVE_STAND_IN_SECRET_KEY,
        encryptionKey: expect.any(String),
        webhookHash: expect.any(String),
      },
      b,
    ]);
    const zeros = FIXTURE.data.map((w) => ({ currency: w.currency, available_balance: 0, ledger_balance: 0 }));
    expect(await balances(flw.secretKey)).toEqual({
      status: 200,
      body: { status: 'success', message: 'Wallet balances fetched', data: zeros },
    });

    flw.setBalances(b.secretKey, [{ currency: 'NGN', available_balance: 1500.5, ledger_balance: 1700 }]);
    expect((await balances(b.secretKey)).body).toEqual({
      status: 'success',
      message: FIXTURE.message,
      data: [{ currency: 'NGN', available_balance: 1500.5, ledger_balance: 1700 }],
    });
    expect(flw.balances()).toEqual(zeros);
    expect(flw.balancesOf(b.secretKey)).toEqual([{ currency: 'NGN', available_balance: 1500.5, ledger_balance: 1700 }]);
    expect(flw.requests.map((r) => [r.authorized, r.accountId])).toEqual([
      [true, FLUTTERWAVE_STAND_IN_ACCOUNT_ID],
      [true, b.accountId],
    ]);
    expect(flw.requests[1]!.keyHint).toBe(`FLWSECK_${'*'.repeat(b.secretKey.length - 12)}${b.secretKey.slice(-4)}`);
    expect(JSON.stringify(flw.requests)).not.toContain(b.secretKey);
    flw.reset();
    expect(flw.balancesOf(b.secretKey)).toEqual(zeros);
  });

  test("no key, a wrong key and a removed account are 401 in Flutterwave's error envelope; other paths are not served", async () => {
    expect(await balances(null)).toEqual({
      status: 401,
      body: { status: 'error', message: FLUTTERWAVE_STAND_IN_MESSAGES.authorizationRequired, data: null },
    });
    const invalid = { status: 401, body: { status: 'error', message: 'Invalid authorization key', data: null } };
    expect(await balances('FLWSECK_TEST-notAnAccountKey000000000000-X')).toEqual(invalid);
    expect(flw.requests.at(-1)).toMatchObject({ authorized: false, accountId: null, keyHint: expect.stringMatching(/^FLWSECK_\*+00-X$/) });
    const b = flw.addAccount();
    flw.removeAccount(b.secretKey);
    expect(await balances(b.secretKey)).toEqual(invalid);
    expect(() => flw.removeAccount(flw.secretKey)).toThrow(/default account/);
    expect(() => flw.balancesOf(b.secretKey)).toThrow(/no account has the key FLWSECK_\*+[0-9a-f]{2}-X$/);
    const other = await fetch(`${flw.url}/v3/charges?type=card`, { method: 'POST', headers: { authorization: `Bearer ${flw.secretKey}` } });
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ status: 'error', data: null });

    const two = await startFlutterwaveStandIn({ accounts: ['FLWSECK_TEST-merchantB0000000000000000-X'] });
    try {
      expect(two.accounts().map((a) => a.secretKey)).toEqual([FLUTTERWAVE_STAND_IN_SECRET_KEY, 'FLWSECK_TEST-merchantB0000000000000000-X']);
    } finally {
      await two.close();
    }
    await expect(startFlutterwaveStandIn({ accounts: [FLUTTERWAVE_STAND_IN_SECRET_KEY] })).rejects.toThrow(/two accounts/);
  });

  test('faults make Flutterwave unreachable: 500 app_error, hang, reset, refuse; a fault can target one account', async () => {
    flw.failNext({ method: 'GET', path: '/v3/balances' }, 'error_500_before_work');
    expect(await balances(flw.secretKey)).toEqual({
      status: 500,
      body: { error_id: expect.stringMatching(/^ERRNO\d+T\d+$/), message: 'Application error. Please contact support', code: 'app_error' },
    });
    flw.failNext({ path: '/v3/balances' }, 'hang_before_work');
    expect(await balances(flw.secretKey, 300).catch((e: Error) => e.name)).toBe('TimeoutError');
    flw.failNext({ path: '/v3/balances' }, 'reset_after_work');
    expect(await balances(flw.secretKey).catch((e: Error) => e.name)).toBe('TypeError');
    const b = flw.addAccount();
    flw.failNext({ path: '/v3/balances', secretKey: b.secretKey }, 'error_500_after_work');
    expect((await balances(flw.secretKey)).status).toBe(200);
    expect((await balances(b.secretKey)).status).toBe(500);
    expect(flw.pendingFaults()).toEqual([]);
    await flw.setDown('reset');
    expect(await balances(flw.secretKey).catch((e: Error) => e.name)).toBe('TypeError');
    await flw.setDown('refuse');
    const refused = await balances(flw.secretKey).catch((e: Error & { cause?: { code?: string } }) => e);
    expect((refused as { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
    await flw.setDown(false);
    expect((await balances(flw.secretKey)).status).toBe(200);
    expect(flw.requests.map((r) => [r.fault, r.outcome, r.status])).toEqual([
      ['error_500_before_work', 'answered', 500],
      ['hang_before_work', 'hung', null],
      ['reset_after_work', 'reset', 200],
      [null, 'answered', 200],
      ['error_500_after_work', 'answered', 500],
      ['down', 'reset', null],
      [null, 'answered', 200],
    ]);
  });

  test('flutterwaveEnv gives the registry the default account (or another) and the stand-in URL', () => {
    const b = flw.addAccount();
    expect(flutterwaveEnv(flw, { timeoutMs: 250 })).toEqual({
      FLUTTERWAVE_SECRET_KEY: FLUTTERWAVE_STAND_IN_SECRET_KEY,
      FLUTTERWAVE_ENCRYPTION_KEY: expect.stringMatching(/^.{24}$/),
      FLUTTERWAVE_WEBHOOK_HASH: expect.any(String),
      FLUTTERWAVE_BASE_URL: flw.url,
      CONNECTOR_TIMEOUT_MS: '250',
    });
    expect(flutterwaveEnv(flw, { account: b })).toEqual({
      FLUTTERWAVE_SECRET_KEY: b.secretKey,
      FLUTTERWAVE_ENCRYPTION_KEY: b.encryptionKey,
      FLUTTERWAVE_WEBHOOK_HASH: b.webhookHash,
      FLUTTERWAVE_BASE_URL: flw.url,
    });
  });
});
