/**
 * The Paystack adapter against a local fixture server (node:http on 127.0.0.1, never the network)
 * answering with Paystack's documented response shapes, recorded under fixtures/paystack/:
 * charge answers from the Charge API reference and the Payment Channels samples
 * (github.com/PaystackOSS/doc-code-snippets src/doc/payments/payment-methods/*), verify and refund
 * answers from the Transaction and Refund API references, events from the webhooks and refunds guides.
 * Every test asserts the exact request sent (method, path, auth header, content type, parsed body)
 * and the mapping of every Paystack status in the adapter's tables. The verify not-found body is
 * PaystackOSS/openapi's (commit 9678dea922a9, paths/transaction_verify_{reference}.yaml → 404
 * NotFound.yaml); see fixtures/SOURCES.md for every fixture used by findRefund and notFound.
 * The authentication steps (submit_pin … submit_address), the USSD banks, the Telecel voucher and
 * refund.needs-attention are exercised here with Paystack's own samples (fixtures/paystack/doc-code-snippets/,
 * PaystackOSS/doc-code-snippets commit 94af513d752d); every request body is also validated against
 * PaystackOSS/openapi in paystack-contract.test.ts.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type RefundLookupRequest,
  type SyncRequest,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../../shared/connectors/connector';
import { PAYSTACK_NOT_FOUND_SETTLE_MS, PAYSTACK_REFUND_LOOKUP_SETTLE_MS } from '../../shared/connectors/paystack/lookups';
import { PAYSTACK_MOBILE_MONEY_PROVIDERS } from '../../shared/connectors/paystack/mobile-money';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import {
  PAYSTACK_CHARGE_STATUSES,
  PAYSTACK_REFUND_STATUSES,
  PAYSTACK_TRANSACTION_STATUSES,
} from '../../shared/connectors/paystack/statuses';
import { PAYSTACK_USSD_BANKS } from '../../shared/connectors/paystack/supported-methods';
import { PAYSTACK_TIMEOUTS_MS } from '../../shared/connectors/paystack/timeouts';
import type { Currency } from '../../shared/domain/money';
import type { PaymentMethod } from '../../shared/domain/payment';
import { USSD_BANKS } from '../../shared/domain/ussd-banks';
import { logger } from '../../shared/observability/logger';

/* ------------------------------------------------------------------------------------------------
 * Fixture server
 * --------------------------------------------------------------------------------------------- */

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

type Reply = { status: number; body: unknown } | 'hang';

class FixtureServer {
  readonly requests: Recorded[] = [];
  private readonly replies: Reply[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      });
      const reply = this.replies.shift() ?? { status: 500, body: { status: false, message: 'No reply queued in the test.' } };
      if (reply === 'hang') return; // never answers: the adapter's timeout must fire
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  reply(...replies: Reply[]): void {
    this.replies.push(...replies);
  }

  reset(): void {
    this.requests.length = 0;
    this.replies.length = 0;
  }

  /** The only request received, with its body parsed. */
  only(): Recorded & { body: unknown } {
    expect(this.requests).toHaveLength(1);
    const r = this.requests[0] as Recorded;
    return { ...r, body: r.rawBody ? JSON.parse(r.rawBody) : undefined };
  }
}

/* ------------------------------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------------------------------- */

const FIXTURES = path.join(__dirname, 'fixtures', 'paystack');
/** A fresh copy of a fixture (tests override fields without leaking into other tests). */
function fixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as T;
}

/**
 * A response sample of PaystackOSS/doc-code-snippets (commit 94af513d752d), copied unchanged under
 * fixtures/paystack/doc-code-snippets/: `src/api/…/response.json` files hold several samples keyed
 * `200`, `200_otp`, `400`…, each `{description, data}`; `key` picks one and returns its `data`.
 */
function official<T = any>(file: string, key?: string): T {
  const parsed = JSON.parse(readFileSync(path.join(FIXTURES, 'doc-code-snippets', file), 'utf8'));
  if (key === undefined) return parsed as T;
  if (!Object.hasOwn(parsed, key)) throw new Error(`${file} has no sample ${key}`);
  return parsed[key].data as T;
}

const SECRET = 'sk_test_fixture_0123456789abcdef';
const PUBLIC_BASE_URL = 'https://api.switchyard.test';
const STEP_PAGE = `${PUBLIC_BASE_URL}/pay/pay_0a1b2c3d4e5f60718293a4b5c6d7e8f9/authenticate`;
const PAYMENT_ID = 'pay_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const REFERENCE = 'pay-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const NOW = new Date('2024-04-01T10:00:00.000Z');

const server = new FixtureServer();
let paystack: PaystackConnector;

beforeAll(async () => {
  await server.start();
  paystack = new PaystackConnector({ baseUrl: server.url, secretKey: SECRET, webhookSecret: SECRET, timeoutMs: 2000, now: () => NOW });
});
afterAll(() => server.stop());
beforeEach(() => server.reset());

function authorizeRequest(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: PAYMENT_ID,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: { card_number: '4084084084084081', card_exp_month: '4', card_exp_year: '2027', card_cvc: '408' },
    email: 'payer@example.com',
    phone: null,
    publicBaseUrl: 'https://api.switchyard.test',
    returnUrl: 'https://shop.example/return',
    ...overrides,
  };
}

function syncRequest(overrides: Partial<SyncRequest> = {}): SyncRequest {
  return {
    paymentId: PAYMENT_ID,
    connectorTransactionId: REFERENCE,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    createdAt: NOW.toISOString(),
    ...overrides,
  };
}

/** Asserts the request line and the documented headers: bearer key; JSON content type iff a body. */
function expectCall(recorded: Recorded & { body: unknown }, method: string, pathname: string, body?: unknown): void {
  expect(recorded.method).toBe(method);
  expect(recorded.path).toBe(pathname);
  expect(recorded.headers.authorization).toBe(`Bearer ${SECRET}`);
  if (body === undefined) {
    expect(recorded.headers['content-type']).toBeUndefined();
    expect(recorded.rawBody).toBe('');
  } else {
    expect(recorded.headers['content-type']).toBe('application/json');
    expect(recorded.body).toEqual(body);
  }
}

/** Catches the error a promise rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

const sign = (rawBody: string, key = SECRET) => createHmac('sha512', key).update(rawBody).digest('hex');

/* ------------------------------------------------------------------------------------------------
 * supports
 * --------------------------------------------------------------------------------------------- */

describe("supports: the (currency, method) matrix from Paystack's Payment Channels page", () => {
  const matrix: Record<PaymentMethod, Record<Currency, boolean>> = {
    card: { NGN: true, USD: true, GHS: true, ZAR: true, KES: true },
    bank_transfer: { NGN: true, USD: false, GHS: false, ZAR: false, KES: true },
    ussd: { NGN: true, USD: false, GHS: false, ZAR: false, KES: false },
    mobile_money: { NGN: false, USD: false, GHS: true, ZAR: false, KES: true },
  };
  const cases = Object.entries(matrix).flatMap(([method, row]) =>
    Object.entries(row).map(([currency, expected]) => [method as PaymentMethod, currency as Currency, expected] as const),
  );
  test.each(cases)('%s in %s → %s', (method, currency, expected) => {
    expect(paystack.supports(currency, method)).toBe(expected);
  });
});

describe('USSD banks (PAYSTACK_USSD_BANKS): the four USSD types of PaystackOSS/openapi USSD.yaml', () => {
  test('exactly 737, 919, 822 and 966, each for its bank, all inside the shared USSD_BANKS list', () => {
    expect(PAYSTACK_USSD_BANKS).toEqual({ '058': '737', '033': '919', '232': '822', '057': '966' });
    for (const code of Object.keys(PAYSTACK_USSD_BANKS)) expect(USSD_BANKS[code]).toBeDefined();
    expect(USSD_BANKS['058']).toBe('Guaranty Trust Bank');
    expect(USSD_BANKS['033']).toBe('United Bank for Africa');
    expect(USSD_BANKS['232']).toBe('Sterling Bank');
    expect(USSD_BANKS['057']).toBe('Zenith Bank');
  });

  test.each(Object.keys(USSD_BANKS))('supports(NGN, ussd, {ussdBankCode: %s})', (code) => {
    expect(paystack.supports('NGN', 'ussd', { ussdBankCode: code })).toBe(code in PAYSTACK_USSD_BANKS);
  });

  test('a bank never serves another currency, and the option is ignored for other methods', () => {
    expect(paystack.supports('GHS', 'ussd', { ussdBankCode: '058' })).toBe(false);
    expect(paystack.supports('NGN', 'card', { ussdBankCode: '044' })).toBe(true);
    expect(paystack.supports('NGN', 'ussd', { ussdBankCode: '999' })).toBe(false);
  });
});

/* ------------------------------------------------------------------------------------------------
 * authorize
 * --------------------------------------------------------------------------------------------- */

describe('authorize', () => {
  test('card with details: POST /charge with the card object, success → Succeeded with the amount captured', async () => {
    server.reply({ status: 200, body: fixture('charge-success') });
    const result = await paystack.authorize(authorizeRequest());
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'NGN',
      reference: REFERENCE,
      card: { number: '4084084084084081', cvv: '408', expiry_month: '04', expiry_year: '27' },
    });
    // The fixture's authorization is reusable, so the result carries it as the saved method.
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: REFERENCE,
      amountCaptured: 150000,
      savedMethod: {
        token: 'AUTH_6tmt288t0o',
        fingerprint: 'SIG_uSYN4fv1adlAuoij8QXh',
        card: { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bin: '408408', issuerCountry: 'NG' },
        processorCustomerId: 'CUS_hns72vhhtos0f0k',
        email: 'payer@example.com',
        expiresAt: '2030-12-31T23:59:59.999Z',
      },
    });
  });

  test('card with 3-D Secure: open_url → RequiresAction redirecting to data.url', async () => {
    server.reply({ status: 200, body: fixture('charge-open-url') });
    const result = await paystack.authorize(
      authorizeRequest({
        currency: 'USD',
        card: { card_number: '5192602720584796', card_exp_month: '12', card_exp_year: '30', card_cvc: '123' },
      }),
    );
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'USD',
      reference: REFERENCE,
      card: { number: '5192602720584796', cvv: '123', expiry_month: '12', expiry_year: '30' },
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'redirect_to_url',
        redirect_to_url: 'https://standard.paystack.co/close/3ds/pay-0a1b2c3d4e5f60718293a4b5c6d7e8f9',
      },
    });
  });

  test('card without details: POST /transaction/initialize (hosted checkout, cards only) → redirect to authorization_url', async () => {
    server.reply({ status: 200, body: fixture('transaction-initialize') });
    const result = await paystack.authorize(authorizeRequest({ card: undefined, currency: 'ZAR' }));
    expectCall(server.only(), 'POST', '/transaction/initialize', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'ZAR',
      reference: REFERENCE,
      callback_url: 'https://shop.example/return',
      channels: ['card'],
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: { type: 'redirect_to_url', redirect_to_url: 'https://checkout.paystack.com/0peioxfhpn' },
    });
  });

  test('capture_method manual → ConnectorRequestError capture_method_not_supported, nothing sent', async () => {
    const err = await rejection(paystack.authorize(authorizeRequest({ captureMethod: 'manual' })));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('capture_method_not_supported');
    expect(server.requests).toHaveLength(0);
  });

  test('a (currency, method) outside the matrix → payment_method_not_supported, nothing sent', async () => {
    const err = await rejection(paystack.authorize(authorizeRequest({ paymentMethod: 'ussd', currency: 'GHS', card: undefined })));
    expect((err as ConnectorRequestError).code).toBe('payment_method_not_supported');
    expect(server.requests).toHaveLength(0);
  });

  test('no email (Paystack requires one) → email_required, nothing sent', async () => {
    const err = await rejection(paystack.authorize(authorizeRequest({ email: null })));
    expect((err as ConnectorRequestError).code).toBe('email_required');
    expect(server.requests).toHaveLength(0);
  });

  test('a decline (data.status failed) → Failed with the gateway response as code, not an exception', async () => {
    server.reply({ status: 200, body: fixture('charge-failed') });
    const result = await paystack.authorize(authorizeRequest());
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      errorCode: 'declined',
      errorMessage: 'Declined',
    });
  });

  test('a 4xx whose body is a failed charge → Failed (business decline), not ConnectorRequestError', async () => {
    server.reply({ status: 400, body: fixture('error-declined-charge') });
    const result = await paystack.authorize(authorizeRequest());
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Insufficient Funds',
    });
  });

  test('pending → Processing (settled later by sync or charge.success)', async () => {
    server.reply({ status: 200, body: fixture('charge-pending') });
    expect(await paystack.authorize(authorizeRequest())).toEqual({
      status: 'Processing',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
    });
  });

  test('bank_transfer NGN (Pay with Transfer): account_expires_at now + 30 min → bank transfer instructions', async () => {
    server.reply({ status: 200, body: fixture('charge-pay-with-transfer') });
    const result = await paystack.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', card: undefined }));
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'NGN',
      reference: REFERENCE,
      bank_transfer: { account_expires_at: '2024-04-01T10:30:00.000Z' },
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'bank_transfer_instructions',
        bank_transfer: {
          bank_name: 'Test Bank',
          account_number: '1231084927',
          account_name: 'PAYSTACK CHECKOUT',
          amount: 150000,
          currency: 'NGN',
          reference: REFERENCE,
          expires_at: '2024-04-01T10:30:00.000Z',
        },
      },
    });
  });

  test('bank_transfer KES (Pesalink): expiry capped under 25 min, the transaction_reference is the narration shown', async () => {
    server.reply({ status: 200, body: fixture('charge-pesalink') });
    const result = await paystack.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', currency: 'KES', card: undefined }));
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'KES',
      reference: REFERENCE,
      bank_transfer: { account_expires_at: '2024-04-01T10:24:00.000Z' },
    });
    expect(result.nextAction).toEqual({
      type: 'bank_transfer_instructions',
      bank_transfer: {
        bank_name: 'Diamond Trust Bank Kenya Ltd',
        account_number: '1234567891',
        account_name: 'Paystack Payments Kenya Limited',
        amount: 150000,
        currency: 'KES',
        reference: '1234567',
        expires_at: '2024-04-01T10:24:00.000Z',
      },
    });
  });

  test.each(
    Object.entries({ '058': '737', '033': '919', '232': '822', '057': '966' }),
  )('ussd NGN, bank %s: ussd.type %s → display_ussd_code with the code Paystack returns', async (bank, type) => {
    server.reply({ status: 200, body: fixture('charge-ussd') });
    const result = await paystack.authorize(authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: bank }));
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'NGN',
      reference: REFERENCE,
      ussd: { type },
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'display_ussd_code',
        ussd: { code: '*737*33*4*18791#', reference: REFERENCE, expires_at: '2024-04-02T10:00:00.000Z' },
      },
    });
  });

  test.each([
    ['another bank (Access Bank 044)', '044', 'ussd_bank_not_supported'],
    ['no bank at all', undefined, 'ussd_bank_required'],
  ])('ussd with %s (bank %s) → %s naming the allowed banks, nothing sent', async (_label, bank, code) => {
    const err = await rejection(paystack.authorize(authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: bank })));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe(code);
    expect(err.message).toContain('033, 057, 058, 232');
    expect(server.requests).toHaveLength(0);
  });

  test.each([
    ['GHS', '+233551234987', { phone: '0551234987', provider: 'mtn' }],
    ['GHS', '+233201234567', { phone: '0201234567', provider: 'vod' }],
    ['GHS', '+233571234567', { phone: '0571234567', provider: 'atl' }],
    ['KES', '+254710000000', { phone: '+254710000000', provider: 'mpesa' }],
  ] as const)('mobile_money %s %s → mobile_money %o, pay_offline → await approval', async (currency, phone, mobileMoney) => {
    server.reply({ status: 200, body: fixture('charge-mobile-money') });
    const result = await paystack.authorize(authorizeRequest({ paymentMethod: 'mobile_money', currency, phone, card: undefined }));
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency,
      reference: REFERENCE,
      mobile_money: mobileMoney,
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'await_mobile_money_approval',
        mobile_money: { message: 'Please complete authorization process on your mobile phone', reference: REFERENCE },
      },
    });
  });

  test.each([
    ['GHS', null, 'phone_required'],
    ['GHS', '+254710000000', 'invalid_phone'],
    ['GHS', '+233301234567', 'mobile_money_provider_unknown'],
    ['KES', '+233551234987', 'invalid_phone'],
  ] as const)('mobile_money %s with phone %s → %s, nothing sent', async (currency, phone, code) => {
    const err = await rejection(paystack.authorize(authorizeRequest({ paymentMethod: 'mobile_money', currency, phone, card: undefined })));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe(code);
    expect(server.requests).toHaveLength(0);
  });

  describe('every Charge API data.status is mapped (PAYSTACK_CHARGE_STATUS)', () => {
    const expected: Record<string, PaymentResult['status']> = {
      success: 'Succeeded',
      failed: 'Failed',
      timeout: 'Failed',
      pending: 'Processing',
      open_url: 'RequiresAction',
      pay_offline: 'RequiresAction',
      pending_bank_transfer: 'RequiresAction',
      send_pin: 'RequiresAction',
      send_otp: 'RequiresAction',
      send_phone: 'RequiresAction',
      send_birthday: 'RequiresAction',
      send_address: 'RequiresAction',
    };
    const steps: Record<string, string> = {
      send_pin: 'submit_pin',
      send_otp: 'submit_otp',
      send_phone: 'submit_phone',
      send_birthday: 'submit_birthday',
      send_address: 'submit_address',
    };

    test('the expectations cover every status of the table', () => {
      expect(Object.keys(expected).sort()).toEqual([...PAYSTACK_CHARGE_STATUSES].sort());
    });

    const shapes: Record<string, string> = {
      success: 'charge-success',
      failed: 'charge-failed',
      open_url: 'charge-open-url',
      pay_offline: 'charge-ussd',
      pending_bank_transfer: 'charge-pay-with-transfer',
      send_otp: 'charge-send-otp',
    };
    test.each(Object.entries(expected))('%s → %s', async (status, ours) => {
      const body = fixture(shapes[status] ?? 'charge-pending');
      body.data.status = status;
      if (status.startsWith('send_')) body.data.display_text = `Paystack wants ${status}`;
      server.reply({ status: 200, body });
      const method: PaymentMethod = status === 'pay_offline' ? 'ussd' : status === 'pending_bank_transfer' ? 'bank_transfer' : 'card';
      const result = await paystack.authorize(
        authorizeRequest({
          paymentMethod: method,
          card: method === 'card' ? authorizeRequest().card : undefined,
          ussdBankCode: method === 'ussd' ? '058' : undefined,
        }),
      );
      expect(result.status).toBe(ours);
      expect(result.connectorTransactionId).toBe(REFERENCE);
      if (ours === 'RequiresAction') expect(result.nextAction).toBeTruthy();
      if (status.startsWith('send_')) {
        expect(result.nextAction).toEqual({
          type: steps[status],
          display_text: `Paystack wants ${status}`,
          redirect_to_url: STEP_PAGE,
          card_required: false,
        });
        expect(result.errorCode).toBeUndefined();
      }
      if (status === 'timeout') expect(result.errorCode).toBe('timeout');
    });

    test('a status Paystack may add later → Processing (a sync settles it)', async () => {
      const body = fixture('charge-pending');
      body.data.status = 'brand_new_status';
      server.reply({ status: 200, body });
      expect((await paystack.authorize(authorizeRequest())).status).toBe('Processing');
    });
  });
});

/* ------------------------------------------------------------------------------------------------
 * authenticate: PIN, OTP, phone, birthday, address (POST /charge/submit_*)
 * --------------------------------------------------------------------------------------------- */

const PIN = '3310';
const OTP = '123456';

function authenticateRequest(overrides: Partial<AuthenticateRequest> = {}): AuthenticateRequest {
  return {
    paymentId: PAYMENT_ID,
    connectorTransactionId: REFERENCE,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    step: 'submit_pin',
    pin: PIN,
    email: 'payer@example.com',
    publicBaseUrl: PUBLIC_BASE_URL,
    returnUrl: 'https://shop.example/return',
    ...overrides,
  };
}

/** An official sample with our reference in place of the sample's (a flow through our own payment). */
function ours<T extends { data: { reference?: string } }>(sample: T): T {
  return { ...sample, data: { ...sample.data, reference: REFERENCE } };
}

describe('authenticate: each step is relayed to its submit endpoint with the charge reference', () => {
  const cases: [string, Partial<AuthenticateRequest>, string, Record<string, string>][] = [
    ['submit_pin', { step: 'submit_pin', pin: PIN }, '/charge/submit_pin', { pin: PIN, reference: REFERENCE }],
    ['submit_otp', { step: 'submit_otp', pin: undefined, otp: OTP }, '/charge/submit_otp', { otp: OTP, reference: REFERENCE }],
    [
      'submit_phone',
      { step: 'submit_phone', pin: undefined, phone: '08012345678' },
      '/charge/submit_phone',
      { phone: '08012345678', reference: REFERENCE },
    ],
    [
      'submit_birthday',
      { step: 'submit_birthday', pin: undefined, birthday: '1961-09-21' },
      '/charge/submit_birthday',
      { birthday: '1961-09-21', reference: REFERENCE },
    ],
    [
      'submit_address',
      {
        step: 'submit_address',
        pin: undefined,
        address: { line1: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip: '18360', country: 'US' },
      },
      '/charge/submit_address',
      { address: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip_code: '18360', reference: REFERENCE },
    ],
  ];
  const samples: Record<string, string> = {
    submit_pin: 'src/api/charges/submit-pin/response.json',
    submit_otp: 'src/api/charges/submit-otp/response.json',
    submit_phone: 'src/api/charges/submit-phone/response.json',
    submit_birthday: 'src/api/charges/submit-birthday/response.json',
    submit_address: 'src/api/charges/submit-address/response.json',
  };

  test.each(
    cases,
  )("%s: POST %s with exactly the documented body; Paystack's success sample → Succeeded", async (step, overrides, pathname, body) => {
    const sample = official(samples[step] as string, '200');
    server.reply({ status: 200, body: ours(sample) });
    const result = await paystack.authenticate(authenticateRequest(overrides));
    expectCall(server.only(), 'POST', pathname.replace('%s', step), body);
    // Only the submit-address sample's authorization is reusable (a card); the others are a bank's (`reusable: false`).
    const savedMethod =
      step === 'submit_address'
        ? {
            savedMethod: {
              token: 'AUTH_82e26bc6yb',
              fingerprint: 'SIG_5wBvKoAT64nwSJgZkHvQ',
              card: { brand: 'visa', last4: '4633', expMonth: 8, expYear: 2024, bin: '440066', issuerCountry: 'US' },
              processorCustomerId: 'CUS_bpy9ciomcstg55y',
              email: 'ben@jude.com',
              expiresAt: '2024-08-31T23:59:59.999Z',
            },
          }
        : {};
    expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: REFERENCE, amountCaptured: sample.data.amount, ...savedMethod });
  });

  test('connectorTransactionId null (never recorded) → the reference derived from our payment id', async () => {
    server.reply({ status: 200, body: ours(official('src/api/charges/submit-otp/response.json', '200_pending')) });
    const result = await paystack.authenticate(
      authenticateRequest({ connectorTransactionId: null, step: 'submit_otp', pin: undefined, otp: OTP }),
    );
    expectCall(server.only(), 'POST', '/charge/submit_otp', { otp: OTP, reference: REFERENCE });
    expect(result).toEqual({ status: 'Processing', connectorTransactionId: REFERENCE, amountCaptured: 0 });
  });

  test.each([
    ['submit_pin without a pin', { step: 'submit_pin', pin: undefined }, 'authentication_value_required'],
    ['submit_otp with a blank otp', { step: 'submit_otp', pin: undefined, otp: '  ' }, 'authentication_value_required'],
    ['submit_birthday not YYYY-MM-DD', { step: 'submit_birthday', pin: undefined, birthday: '21/09/1961' }, 'invalid_birthday'],
    [
      'submit_address without a zip',
      { step: 'submit_address', pin: undefined, address: { line1: '1 Main St', city: 'Lagos', state: 'LA', zip: '', country: 'NG' } },
      'authentication_value_required',
    ],
  ] as [
    string,
    Partial<AuthenticateRequest>,
    string,
  ][])('%s → %s, nothing sent, the value never in the message', async (_label, overrides, code) => {
    const err = await rejection(paystack.authenticate(authenticateRequest(overrides)));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe(code);
    expect(err.message).not.toContain('21/09/1961');
    expect(server.requests).toHaveLength(0);
  });
});

describe('authenticate: steps chain through the status table (a Verve-style card asking PIN, then OTP)', () => {
  test("authorize → send_pin (no prompt) → submit_pin → send_otp with Paystack's prompt → submit_otp → Succeeded", async () => {
    server.reply({ status: 200, body: ours(official('src/api/charges/create/response.json', '200_pin')) });
    const first = await paystack.authorize(authorizeRequest());
    expect(first).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: { type: 'submit_pin', display_text: null, redirect_to_url: STEP_PAGE, card_required: false },
    });

    // The submit-pin samples show no send_otp answer; every /charge endpoint answers the same charge
    // object ([OAS] ChargeSubmitPinResponse = ChargeCreateResponse's data), so the Charge API's own
    // send_otp sample stands for it.
    server.reset();
    server.reply({ status: 200, body: ours(official('src/api/charges/create/response.json', '200_otp')) });
    const second = await paystack.authenticate(authenticateRequest({ connectorTransactionId: first.connectorTransactionId }));
    expectCall(server.only(), 'POST', '/charge/submit_pin', { pin: PIN, reference: REFERENCE });
    expect(second).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: { type: 'submit_otp', display_text: 'Please send OTP', redirect_to_url: STEP_PAGE, card_required: false },
    });

    server.reset();
    server.reply({ status: 200, body: ours(official('src/api/charges/submit-otp/response.json', '200')) });
    const third = await paystack.authenticate(authenticateRequest({ step: 'submit_otp', pin: undefined, otp: OTP }));
    expectCall(server.only(), 'POST', '/charge/submit_otp', { otp: OTP, reference: REFERENCE });
    expect(third).toEqual({ status: 'Succeeded', connectorTransactionId: REFERENCE, amountCaptured: 10000 });
  });

  test("identifiers in Paystack's answer are kept exactly, even when the PIN's digits occur in them (only free text is scrubbed)", async () => {
    const pinInside = REFERENCE.replace(/\d{4}/, PIN);
    expect(pinInside).toContain(PIN);
    const body = official('src/api/charges/create/response.json', '200_otp') as { data: Record<string, unknown> };
    server.reply({
      status: 200,
      body: { ...body, data: { ...body.data, reference: pinInside, display_text: `Enter the OTP (PIN ${PIN} accepted)` } },
    });
    const result = await paystack.authenticate(authenticateRequest({ connectorTransactionId: pinInside }));
    expect(result.connectorTransactionId).toBe(pinInside);
    expect(result.nextAction).toMatchObject({ type: 'submit_otp', display_text: 'Enter the OTP (PIN [REDACTED] accepted)' });
  });

  test('a step may lead to 3-D Secure (submit_otp → open_url) or to another step (submit_birthday → send_otp)', async () => {
    server.reply({ status: 200, body: ours(official('src/api/charges/submit-otp/response.json', '200_bank_auth')) });
    expect((await paystack.authenticate(authenticateRequest({ step: 'submit_otp', pin: undefined, otp: OTP }))).nextAction).toEqual({
      type: 'redirect_to_url',
      redirect_to_url: 'https://standard.paystack.co/close',
    });
    server.reply({ status: 200, body: official('src/api/charges/submit-birthday/response.json', '200_otp') });
    const result = await paystack.authenticate(authenticateRequest({ step: 'submit_birthday', pin: undefined, birthday: '1961-09-21' }));
    // That sample has no reference: ours is kept.
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'To confirm that you own this account, kindly enter the OTP sent to your phone',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
    });
  });
});

describe('authenticate: wrong values, as Paystack answers them', () => {
  test("data.status failed (Paystack's 200_failed sample) → Failed with Paystack's message: the charge is closed", async () => {
    server.reply({ status: 200, body: ours(official('src/api/charges/submit-pin/response.json', '200_failed')) });
    const result = await paystack.authenticate(authenticateRequest());
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      errorCode: 'failed',
      errorMessage: 'Error occured while enrolling you for OTP!',
    });
  });

  test('a failed charge carrying gateway_response "Incorrect PIN" (Paystack\'s "Customer errors" wording) → Failed incorrect_pin', async () => {
    const body = ours(official('src/api/charges/submit-pin/response.json', '200_failed'));
    body.data.gateway_response = 'Incorrect PIN';
    body.data.message = 'Incorrect PIN';
    server.reply({ status: 200, body });
    expect(await paystack.authenticate(authenticateRequest())).toMatchObject({
      status: 'Failed',
      errorCode: 'incorrect_pin',
      errorMessage: 'Incorrect PIN',
    });
  });

  test('submit_address answering status:false with a failed charge (Paystack\'s 200_failed sample) → Failed "Insufficient funds"', async () => {
    server.reply({ status: 200, body: official('src/api/charges/submit-address/response.json', '200_failed') });
    const result = await paystack.authenticate(
      authenticateRequest({
        step: 'submit_address',
        pin: undefined,
        address: { line1: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip: '18360', country: 'US' },
      }),
    );
    expect(result).toEqual({
      status: 'Failed',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      errorCode: 'failed',
      errorMessage: 'Insufficient funds',
    });
  });

  // Paystack's errors page documents the meaning ("The OTP provided for the mobile money transaction is
  // incorrect — show the error to the customer and ask for correct OTP") but prints no body: these two
  // bodies are Paystack's envelope with the step still open, the shape every charge answer has.
  test.each([
    ['HTTP 400', 400],
    ['HTTP 200 with status false', 200],
  ])("the same step asked again after a wrong OTP (%s) → RequiresAction on it, with Paystack's message", async (_label, httpStatus) => {
    server.reply({
      status: httpStatus,
      body: {
        status: false,
        message: 'Invalid OTP provided',
        data: {
          reference: REFERENCE,
          status: 'send_otp',
          display_text: 'Please dial *110# to generate a voucher code. Then input the voucher',
        },
      },
    });
    const result = await paystack.authenticate(
      authenticateRequest({ paymentMethod: 'mobile_money', currency: 'GHS', step: 'submit_otp', pin: undefined, otp: '000000' }),
    );
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Please dial *110# to generate a voucher code. Then input the voucher',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
      errorCode: 'invalid_otp_provided',
      errorMessage: 'Invalid OTP provided',
    });
  });

  test('a plain 4xx refusal (Paystack\'s 400 sample "Transaction reference is invalid") → ConnectorRequestError, nothing changed', async () => {
    server.reply({ status: 400, body: official('src/api/charges/submit-otp/response.json', '400') });
    const err = await rejection(paystack.authenticate(authenticateRequest({ step: 'submit_otp', pin: undefined, otp: OTP })));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('transaction_reference_is_invalid');
    expect(err.message).toBe('Transaction reference is invalid');
  });

  test('a Paystack message echoing the PIN or OTP is scrubbed: never in an error nor a result', async () => {
    server.reply({ status: 400, body: { status: false, message: `PIN ${PIN} is not valid for this card` } });
    const err = await rejection(paystack.authenticate(authenticateRequest()));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err.message).toBe('PIN [REDACTED] is not valid for this card');
    expect((err as ConnectorRequestError).code).toBe('pin_redacted_is_not_valid_for_this_card');
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(PIN);

    server.reply({
      status: 200,
      body: {
        status: false,
        message: `OTP ${OTP} expired`,
        data: { reference: REFERENCE, status: 'send_otp', display_text: `Enter the OTP (not ${OTP})` },
      },
    });
    const result = await paystack.authenticate(authenticateRequest({ step: 'submit_otp', pin: undefined, otp: OTP }));
    expect(JSON.stringify(result)).not.toContain(OTP);
    expect(result.errorMessage).toBe('OTP [REDACTED] expired');
  });

  test.each([
    ['a 5xx', { status: 502, body: { status: false, message: 'Bad gateway' } } as const],
    ['a 409', { status: 409, body: { status: false, message: 'Conflict' } } as const],
  ])('%s → ConnectorTechnicalError (outcome unknown: the reconciler syncs), the PIN nowhere in it', async (_label, reply) => {
    server.reply(reply);
    const err = await rejection(paystack.authenticate(authenticateRequest()));
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect(err.message).not.toContain(PIN);
  });

  test('no answer in time → ConnectorTechnicalError; the submit call uses the authorize timeout (60 s) without an override', async () => {
    const impatient = new PaystackConnector({
      baseUrl: server.url,
      secretKey: SECRET,
      webhookSecret: SECRET,
      timeoutMs: 200,
      now: () => NOW,
    });
    server.reply('hang');
    expect(await rejection(impatient.authenticate(authenticateRequest()))).toBeInstanceOf(ConnectorTechnicalError);

    const tabled = new PaystackConnector({ baseUrl: server.url, secretKey: SECRET, webhookSecret: SECRET, now: () => NOW });
    const spy = jest.spyOn(AbortSignal, 'timeout');
    try {
      server.reply({ status: 200, body: ours(official('src/api/charges/submit-pin/response.json', '200')) });
      await tabled.authenticate(authenticateRequest());
      expect(spy).toHaveBeenLastCalledWith(PAYSTACK_TIMEOUTS_MS.authorize);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('mobile money: Ghana networks and the Telecel Cash voucher', () => {
  test('provider codes and the networks behind them (Telecel is still `vod`)', () => {
    expect(Object.keys(PAYSTACK_MOBILE_MONEY_PROVIDERS).sort()).toEqual(['atl', 'mpesa', 'mtn', 'vod']);
    expect(PAYSTACK_MOBILE_MONEY_PROVIDERS.vod).toMatch(/Telecel/);
    expect(PAYSTACK_MOBILE_MONEY_PROVIDERS.atl).toMatch(/AirtelTigo/);
  });

  test('Telecel: send_otp "dial *110#" → submit_otp with that prompt; the voucher as otp → submit_otp → Succeeded', async () => {
    server.reply({ status: 200, body: ours(official('src/doc/payments/payment-methods/mobile-vodafone/index.json')) });
    const first = await paystack.authorize(
      authorizeRequest({ paymentMethod: 'mobile_money', currency: 'GHS', phone: '+233201234567', card: undefined }),
    );
    expectCall(server.only(), 'POST', '/charge', {
      email: 'payer@example.com',
      amount: 150000,
      currency: 'GHS',
      reference: REFERENCE,
      mobile_money: { phone: '0201234567', provider: 'vod' },
    });
    expect(first).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Please dial *110# to generate a voucher code. Then input the voucher',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
    });

    server.reset();
    const success = ours(official('src/doc/payments/payment-methods/mobile-response-jit/index.json'));
    server.reply({ status: 200, body: success });
    const voucher = '582913';
    const second = await paystack.authenticate(
      authenticateRequest({
        paymentMethod: 'mobile_money',
        currency: 'GHS',
        amount: 150000,
        step: 'submit_otp',
        pin: undefined,
        otp: voucher,
      }),
    );
    expectCall(server.only(), 'POST', '/charge/submit_otp', { otp: voucher, reference: REFERENCE });
    expect(second).toEqual({ status: 'Succeeded', connectorTransactionId: REFERENCE, amountCaptured: 100 });
  });

  test('after the voucher Paystack may still ask for approval on the phone (pay_offline) → await_mobile_money_approval', async () => {
    server.reply({ status: 200, body: ours(official('src/doc/payments/payment-methods/mobile-airtel-mtn/index.json')) });
    const result = await paystack.authenticate(
      authenticateRequest({ paymentMethod: 'mobile_money', currency: 'GHS', step: 'submit_otp', pin: undefined, otp: '582913' }),
    );
    expect(result.nextAction).toEqual({
      type: 'await_mobile_money_approval',
      mobile_money: { message: 'Please complete authorization process on your mobile phone', reference: REFERENCE },
    });
  });
});

describe('sync of a charge still waiting on a step', () => {
  test.each([
    'ongoing',
    'abandoned',
    'send_pin',
    'send_otp',
  ])('verify status %s → RequiresAction without a next action (the payment keeps its own)', async (status) => {
    const body = fixture('transaction-verify');
    body.data.status = status;
    server.reply({ status: 200, body });
    expect(await paystack.sync(syncRequest())).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: REFERENCE,
      amountCaptured: 0,
    });
  });
});

describe('refund needs-attention: never Succeeded, and a warning for operators', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());

  test("the refund.needs-attention event (Paystack's sample, with an id) → Pending refund_needs_attention, logged with its references", async () => {
    const rawBody = JSON.stringify(official('src/doc/payments/refunds/events/refund-needs-attention.json'));
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event).toEqual({
      kind: 'refund',
      eventId: 'refund.needs-attention:123456',
      refundId: null,
      connectorRefundId: '123456',
      result: {
        status: 'Pending',
        connectorRefundId: '123456',
        errorCode: 'refund_needs_attention',
        errorMessage: expect.stringContaining("needs the customer's bank details"),
      },
    });
    expect(server.requests).toHaveLength(0);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('Paystack refund needs attention');
    expect(warn.mock.calls[0]?.[1]).toMatchObject({
      connector: 'paystack',
      connector_refund_id: '123456',
      refund_reference: 'TRF_7jn17u9vkqm91efk',
      transaction_reference: '88bfa94509eb96aa9785641c26cc57cc',
      event: 'refund.needs-attention',
    });
  });

  test("GET /refund/:id in needs-attention with Paystack's reason → that reason as the message, and a warning naming our refund", async () => {
    const body = fixture('refund-fetch');
    body.data.status = 'needs-attention';
    body.data.reason = 'Customer bank account required';
    server.reply({ status: 200, body });
    const result = await paystack.syncRefund({ refundId: 'ref_99aa', connectorRefundId: '3018284', currency: 'NGN' });
    expect(result).toEqual({
      status: 'Pending',
      connectorRefundId: '3018284',
      errorCode: 'refund_needs_attention',
      errorMessage: 'Customer bank account required',
    });
    expect(warn).toHaveBeenCalledWith(
      'Paystack refund needs attention',
      expect.objectContaining({ refund_id: 'ref_99aa', connector_refund_id: '3018284' }),
    );
  });

  test('a bare state token from Paystack only completes our message', async () => {
    const body = fixture('refund-fetch');
    body.data.status = 'needs-attention';
    body.data.reason = 'NEEDS_ATTENTION';
    server.reply({ status: 200, body });
    const result = await paystack.syncRefund({ refundId: 'ref_99aa', connectorRefundId: '3018284', currency: 'NGN' });
    expect(result.errorMessage).toMatch(/needs the customer's bank details.*\(Paystack: NEEDS_ATTENTION\)$/);
  });

  test('refund() answered needs-attention → Pending, and the warning names our refund and the transaction', async () => {
    const body = fixture('refund-create');
    body.data.status = 'needs-attention';
    server.reply({ status: 200, body });
    const result = await paystack.refund({
      paymentId: PAYMENT_ID,
      connectorTransactionId: REFERENCE,
      currency: 'NGN',
      amount: 50000,
      refundId: 'ref_99aa',
    });
    expect(result).toMatchObject({ status: 'Pending', connectorRefundId: '3018284', errorCode: 'refund_needs_attention' });
    expect(warn).toHaveBeenCalledWith(
      'Paystack refund needs attention',
      expect.objectContaining({ refund_id: 'ref_99aa', transaction_reference: REFERENCE }),
    );
  });

  test('other statuses are not logged', async () => {
    server.reply({ status: 200, body: fixture('refund-fetch') });
    await paystack.syncRefund({ refundId: 'ref_99aa', connectorRefundId: '3018284', currency: 'NGN' });
    expect(warn).not.toHaveBeenCalled();
  });
});

/* ------------------------------------------------------------------------------------------------
 * capture, void
 * --------------------------------------------------------------------------------------------- */

describe('capture', () => {
  test('refused (Paystack captures at authorization), nothing sent', async () => {
    const err = await rejection(
      paystack.capture({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 150000 }),
    );
    expect((err as ConnectorRequestError).code).toBe('capture_not_supported');
    expect(server.requests).toHaveLength(0);
  });
});

describe('void', () => {
  test('a charge still waiting on the payer: GET /transaction/verify/:reference, then Cancelled', async () => {
    const body = fixture('transaction-verify');
    body.data.status = 'ongoing';
    server.reply({ status: 200, body });
    const result = await paystack.void({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN' });
    expectCall(server.only(), 'GET', `/transaction/verify/${REFERENCE}`);
    expect(result).toEqual({ status: 'Cancelled', connectorTransactionId: REFERENCE, amountCaptured: 0 });
  });

  test('a charge Paystack already completed → ConnectorRequestError charge_already_succeeded', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') });
    const err = await rejection(paystack.void({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN' }));
    expect((err as ConnectorRequestError).code).toBe('charge_already_succeeded');
  });
});

/* ------------------------------------------------------------------------------------------------
 * refund, syncRefund
 * --------------------------------------------------------------------------------------------- */

describe('refund', () => {
  test('POST /refund with the transaction reference, integer amount, currency and our refund id as merchant note', async () => {
    server.reply({ status: 200, body: fixture('refund-create') });
    const result = await paystack.refund({
      paymentId: PAYMENT_ID,
      connectorTransactionId: REFERENCE,
      currency: 'NGN',
      amount: 50000,
      refundId: 'ref_99aa',
    });
    expectCall(server.only(), 'POST', '/refund', {
      transaction: REFERENCE,
      amount: 50000,
      currency: 'NGN',
      merchant_note: 'Switchyard refund ref_99aa',
    });
    expect(result).toEqual({ status: 'Pending', connectorRefundId: '3018284' });
  });

  test("a refused refund (4xx with code) → ConnectorRequestError with Paystack's code", async () => {
    server.reply({ status: 400, body: fixture('error-validation') });
    const err = await rejection(
      paystack.refund({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 50000, refundId: 'ref_99aa' }),
    );
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('invalid_params');
  });
});

describe('syncRefund: every refund status is mapped (PAYSTACK_REFUND_STATUS)', () => {
  const expected: Record<string, string> = {
    pending: 'Pending',
    processing: 'Pending',
    processed: 'Succeeded',
    failed: 'Failed',
    'needs-attention': 'Pending',
  };

  test('the expectations cover every status of the table', () => {
    expect(Object.keys(expected).sort()).toEqual([...PAYSTACK_REFUND_STATUSES].sort());
  });

  test.each(Object.entries(expected))('GET /refund/:id, %s → %s', async (status, ours) => {
    const body = fixture('refund-fetch');
    body.data.status = status;
    server.reply({ status: 200, body });
    const result = await paystack.syncRefund({ refundId: 'ref_99aa', connectorRefundId: '3018284', currency: 'NGN' });
    expectCall(server.only(), 'GET', '/refund/3018284');
    expect(result.status).toBe(ours);
    expect(result.connectorRefundId).toBe('3018284');
    if (status === 'needs-attention') expect(result.errorCode).toBe('refund_needs_attention');
    if (status === 'failed') expect(result.errorCode).toBe('failed');
  });
});

/* ------------------------------------------------------------------------------------------------
 * sync
 * --------------------------------------------------------------------------------------------- */

describe('sync', () => {
  test("GET /transaction/verify/:reference, success → Succeeded with Paystack's amount", async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') });
    const result = await paystack.sync(syncRequest());
    expectCall(server.only(), 'GET', `/transaction/verify/${REFERENCE}`);
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: REFERENCE,
      amountCaptured: 150000,
      savedMethod: {
        token: 'AUTH_ahisucjkru',
        fingerprint: 'SIG_yEXu7dLBeqG0kU7g95Ke',
        card: { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bin: '408408', issuerCountry: 'NG' },
        processorCustomerId: 'CUS_i5yosncbl8h2kvc',
        email: 'payer@example.com',
        expiresAt: '2030-12-31T23:59:59.999Z',
      },
    });
  });

  test('an authorize that timed out (connectorTransactionId null) is found by the reference derived from our payment id', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') });
    const result = await paystack.sync(syncRequest({ connectorTransactionId: null }));
    expectCall(server.only(), 'GET', `/transaction/verify/${REFERENCE}`);
    expect(result.status).toBe('Succeeded');
    expect(result.connectorTransactionId).toBe(REFERENCE);
  });

  describe('a reference Paystack does not know (notFound)', () => {
    const old = new Date(NOW.getTime() - PAYSTACK_NOT_FOUND_SETTLE_MS).toISOString();
    const notFound: PaymentResult = {
      status: 'Failed',
      connectorTransactionId: null,
      amountCaptured: 0,
      errorCode: 'transaction_not_found',
      errorMessage: "Paystack has no transaction under this payment's reference: the charge never reached Paystack.",
      notFound: true,
    };

    test.each([
      ['404 Entity not found (PaystackOSS/openapi NotFound.yaml)', 404, 'error-verify-not-found'],
      ['400 Transaction reference not found (live API)', 400, 'error-reference-not-found'],
    ])('%s after the settle window → Failed with notFound', async (_label, status, name) => {
      server.reply({ status, body: fixture(name) });
      const result = await paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: old }));
      expectCall(server.only(), 'GET', `/transaction/verify/${REFERENCE}`);
      expect(result).toEqual(notFound);
    });

    test('with the reference we hold, the answer keeps it', async () => {
      server.reply({ status: 404, body: fixture('error-verify-not-found') });
      const result = await paystack.sync(syncRequest({ createdAt: old }));
      expect(result).toEqual({ ...notFound, connectorTransactionId: REFERENCE });
    });

    test('within the settle window (the charge may still be in flight) → Processing, no notFound', async () => {
      server.reply({ status: 400, body: fixture('error-reference-not-found') }, { status: 404, body: fixture('error-verify-not-found') });
      const fresh = new Date(NOW.getTime() - PAYSTACK_NOT_FOUND_SETTLE_MS + 1).toISOString();
      await expect(paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: fresh }))).resolves.toEqual({
        status: 'Processing',
        connectorTransactionId: null,
        amountCaptured: 0,
      });
      await expect(paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: 'not a date' }))).resolves.toEqual({
        status: 'Processing',
        connectorTransactionId: null,
        amountCaptured: 0,
      });
    });

    test.each([
      ["a 404 that is not Paystack's body", 404, { message: 'Not Found' }],
      ['a 404 with another message', 404, { status: false, message: 'Integration not found' }],
      ['a 400 validation error', 400, { status: false, message: 'Invalid key' }],
    ])('%s is thrown (ConnectorRequestError), never notFound', async (_label, status, body) => {
      server.reply({ status, body });
      const err = await rejection(paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: old })));
      expect(err).toBeInstanceOf(ConnectorRequestError);
    });

    test('a 5xx or a 409 → ConnectorTechnicalError, never notFound', async () => {
      server.reply(
        { status: 503, body: { status: false, message: 'Service unavailable' } },
        { status: 409, body: { status: false, message: 'Conflict' } },
      );
      expect(await rejection(paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: old })))).toBeInstanceOf(
        ConnectorTechnicalError,
      );
      expect(await rejection(paystack.sync(syncRequest({ connectorTransactionId: null, createdAt: old })))).toBeInstanceOf(
        ConnectorTechnicalError,
      );
    });
  });

  describe('every transaction status is mapped (PAYSTACK_TRANSACTION_STATUS)', () => {
    const expected: Record<string, PaymentResult['status']> = {
      success: 'Succeeded',
      failed: 'Failed',
      abandoned: 'RequiresAction',
      ongoing: 'RequiresAction',
      pending: 'Processing',
      processing: 'Processing',
      queued: 'Processing',
      reversed: 'Cancelled',
    };

    test('the expectations cover every status of the table', () => {
      expect(Object.keys(expected).sort()).toEqual([...PAYSTACK_TRANSACTION_STATUSES].sort());
    });

    test.each(Object.entries(expected))('%s → %s', async (status, ours) => {
      const body = fixture('transaction-verify');
      body.data.status = status;
      if (status === 'failed') {
        body.data.gateway_response = 'Insufficient Funds';
        body.data.message = 'The customer has insufficient funds';
      }
      server.reply({ status: 200, body });
      const result = await paystack.sync(syncRequest());
      expect(result.status).toBe(ours);
      expect(result.amountCaptured).toBe(ours === 'Succeeded' ? 150000 : 0);
      if (status === 'failed') {
        expect(result.errorCode).toBe('insufficient_funds');
        expect(result.errorMessage).toBe('The customer has insufficient funds');
      }
    });
  });
});

/* ------------------------------------------------------------------------------------------------
 * findRefund
 * --------------------------------------------------------------------------------------------- */

describe("findRefund: our refund by merchant_note among the transaction's refunds", () => {
  const CREATED_AT = new Date(NOW.getTime() - 60 * 60_000).toISOString();
  const FROM = new Date(NOW.getTime() - 2 * 60 * 60_000).toISOString();
  const listPath = (page: number) => `/refund?transaction=2009945086&from=${encodeURIComponent(FROM)}&perPage=50&page=${page}`;
  const lookup = (overrides: Partial<RefundLookupRequest> = {}): RefundLookupRequest => ({
    refundId: 'ref_99aa',
    paymentId: PAYMENT_ID,
    connectorTransactionId: REFERENCE,
    amount: 50000,
    currency: 'NGN',
    createdAt: CREATED_AT,
    ...overrides,
  });
  /** The refund-list fixture with its items replaced. */
  const listOf = (data: unknown[], meta: unknown = { total: data.length, skipped: 0, perPage: 50, page: 1, pageCount: 1 }) => ({
    ...fixture('refund-list'),
    data,
    meta,
  });
  const item = (over: Record<string, unknown>) => ({ ...fixture('refund-list').data[1], ...over });

  test('verify for the transaction id, then GET /refund?transaction=<id>&from=…&perPage=50&page=1 → ours by note', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    const result = await paystack.findRefund(lookup());
    expect(server.requests).toHaveLength(2);
    const [verify, list] = server.requests.map((r) => ({ ...r, body: undefined }));
    expectCall(verify!, 'GET', `/transaction/verify/${REFERENCE}`);
    expectCall(list!, 'GET', listPath(1));
    expect(Object.fromEntries(new URL(list!.path, server.url).searchParams)).toEqual({
      transaction: '2009945086',
      from: FROM,
      perPage: '50',
      page: '1',
    });
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: '3018284' });
  });

  test('the other refund of the same transaction is told apart by its note (pending → Pending)', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    await expect(paystack.findRefund(lookup({ refundId: 'ref_99bb', amount: 20000 }))).resolves.toEqual({
      status: 'Pending',
      connectorRefundId: '3018290',
    });
  });

  test('reads every page (meta.pageCount) and finds ours on page 2', async () => {
    const page1 = listOf([item({ id: 1, merchant_note: 'Switchyard refund ref_other' })], {
      total: 2,
      skipped: 0,
      perPage: 50,
      page: 1,
      pageCount: 2,
    });
    const page2 = listOf([fixture('refund-list').data[0]], { total: 2, skipped: 1, perPage: 50, page: 2, pageCount: 2 });
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: page1 }, { status: 200, body: page2 });
    const result = await paystack.findRefund(lookup());
    expect(server.requests.map((r) => r.path)).toEqual([`/transaction/verify/${REFERENCE}`, listPath(1), listPath(2)]);
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: '3018284' });
  });

  test('absent after the settle window → null (known absent)', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    const createdAt = new Date(NOW.getTime() - PAYSTACK_REFUND_LOOKUP_SETTLE_MS).toISOString();
    await expect(paystack.findRefund(lookup({ refundId: 'ref_absent', amount: 12300, createdAt }))).resolves.toBeNull();
  });

  test('absent within the settle window → Pending without an id', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: listOf([]) });
    const createdAt = new Date(NOW.getTime() - PAYSTACK_REFUND_LOOKUP_SETTLE_MS + 1).toISOString();
    await expect(paystack.findRefund(lookup({ createdAt }))).resolves.toEqual({ status: 'Pending', connectorRefundId: null });
  });

  test('refunds of another transaction (the filter ignored) are skipped', async () => {
    server.reply(
      { status: 200, body: fixture('transaction-verify') },
      { status: 200, body: listOf([item({ transaction: 99, merchant_note: 'Switchyard refund ref_99aa', amount: 50000 })]) },
    );
    await expect(paystack.findRefund(lookup())).resolves.toBeNull();
  });

  test.each([
    [
      'two refunds with our note',
      [
        item({ id: 1, merchant_note: 'Switchyard refund ref_99aa', amount: 50000 }),
        item({ id: 2, merchant_note: 'Switchyard refund ref_99aa', amount: 50000 }),
      ],
    ],
    ['no note matches, but one of our amount has no note at all', [item({ id: 3, merchant_note: null, amount: 50000 })]],
    ['our note on a refund of another amount', [item({ id: 4, merchant_note: 'Switchyard refund ref_99aa', amount: 40000 })]],
    [
      'our note on a refund in another currency',
      [item({ id: 5, merchant_note: 'Switchyard refund ref_99aa', amount: 50000, currency: 'GHS' })],
    ],
  ])('ambiguous: %s → ConnectorTechnicalError (retry later / operator)', async (_label, data) => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: listOf(data) });
    expect(await rejection(paystack.findRefund(lookup()))).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('a refund of another amount without a note does not block a known absence', async () => {
    server.reply(
      { status: 200, body: fixture('transaction-verify') },
      { status: 200, body: listOf([item({ merchant_note: null, amount: 777 })]) },
    );
    const createdAt = new Date(NOW.getTime() - PAYSTACK_REFUND_LOOKUP_SETTLE_MS).toISOString();
    await expect(paystack.findRefund(lookup({ createdAt }))).resolves.toBeNull();
  });

  test('a listing without meta: a full page asks for the next one', async () => {
    const full = Array.from({ length: 50 }, (_, i) => item({ id: 100 + i, merchant_note: `Switchyard refund ref_${i}` }));
    server.reply(
      { status: 200, body: fixture('transaction-verify') },
      { status: 200, body: { ...listOf(full), meta: undefined } },
      { status: 200, body: { ...listOf([fixture('refund-list').data[0]]), meta: undefined } },
    );
    await expect(paystack.findRefund(lookup())).resolves.toEqual({ status: 'Succeeded', connectorRefundId: '3018284' });
    expect(server.requests.map((r) => r.path)).toEqual([`/transaction/verify/${REFERENCE}`, listPath(1), listPath(2)]);
  });

  test('technical failures of the verify or the listing → ConnectorTechnicalError', async () => {
    server.reply({ status: 502, body: { status: false, message: 'Bad gateway' } });
    expect(await rejection(paystack.findRefund(lookup()))).toBeInstanceOf(ConnectorTechnicalError);
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 500, body: { status: false, message: 'Server error' } });
    expect(await rejection(paystack.findRefund(lookup()))).toBeInstanceOf(ConnectorTechnicalError);
  });
});

describe('409 and timeouts', () => {
  test('a 409 on POST /charge or POST /refund is an unknown outcome (ConnectorTechnicalError), not a decline', async () => {
    server.reply({
      status: 409,
      body: { status: false, message: 'Duplicate request in progress', data: { status: 'failed', reference: REFERENCE } },
    });
    expect(await rejection(paystack.authorize(authorizeRequest()))).toBeInstanceOf(ConnectorTechnicalError);
    server.reply({ status: 409, body: { status: false, message: 'Conflict' } });
    expect(
      await rejection(
        paystack.refund({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 50000, refundId: 'ref_99aa' }),
      ),
    ).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('the per-operation table applies without an override (60 s writes, 30 s reads, 10 s credential check)', async () => {
    expect(PAYSTACK_TIMEOUTS_MS).toEqual({
      authorize: 60_000,
      refund: 60_000,
      capture: 30_000,
      void: 30_000,
      sync: 30_000,
      syncRefund: 30_000,
      findRefund: 30_000,
      webhook: 30_000,
      verifyCredentials: 10_000,
    });
    const tabled = new PaystackConnector({ baseUrl: server.url, secretKey: SECRET, webhookSecret: SECRET, now: () => NOW });
    const spy = jest.spyOn(AbortSignal, 'timeout');
    try {
      server.reply(
        { status: 200, body: fixture('charge-success') },
        { status: 200, body: fixture('transaction-verify') },
        { status: 200, body: fixture('transaction-verify') },
      );
      await tabled.authorize(authorizeRequest());
      expect(spy).toHaveBeenLastCalledWith(60_000);
      await tabled.sync(syncRequest());
      expect(spy).toHaveBeenLastCalledWith(30_000);
      await paystack.sync(syncRequest());
      expect(spy).toHaveBeenLastCalledWith(2000);
    } finally {
      spy.mockRestore();
    }
  });
});

/* ------------------------------------------------------------------------------------------------
 * webhooks
 * --------------------------------------------------------------------------------------------- */

describe('parseWebhook', () => {
  const raw = (name: string) => JSON.stringify(fixture(name));

  test('a correctly signed charge.success → payment update for our payment; redelivery has the same event id', async () => {
    const rawBody = raw('webhook-charge-success');
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event).toEqual({
      kind: 'payment',
      eventId: `charge.success:${REFERENCE}`,
      paymentId: PAYMENT_ID,
      connectorTransactionId: REFERENCE,
      result: { status: 'Succeeded', connectorTransactionId: REFERENCE, amountCaptured: 100 },
    });
    const again = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(again.eventId).toBe(event.eventId);
    expect(server.requests).toHaveLength(0);
  });

  test('the signature is over the exact raw bytes (spacing differs from JSON.stringify of the object)', async () => {
    const rawBody = JSON.stringify(fixture('webhook-charge-success'), null, 2);
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody).toUpperCase() } });
    expect(event.kind).toBe('payment');
  });

  test('an empty webhookSecret falls back to the secret key (Paystack signs events with it)', async () => {
    const fallback = new PaystackConnector({ baseUrl: server.url, secretKey: SECRET, webhookSecret: '' });
    const rawBody = raw('webhook-charge-success');
    expect((await fallback.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } })).kind).toBe('payment');
  });

  test('charge.success for a reference this service did not create → paymentId null', async () => {
    const body = fixture('webhook-charge-success');
    body.data.reference = 'gf4n3ykzj6a7u89';
    const rawBody = JSON.stringify(body);
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event).toMatchObject({ kind: 'payment', paymentId: null, connectorTransactionId: 'gf4n3ykzj6a7u89' });
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['signed with another key', sign(JSON.stringify(fixture('webhook-charge-success')), 'sk_test_someone_else')],
    ['not hex', 'z'.repeat(128)],
    ['truncated', sign(JSON.stringify(fixture('webhook-charge-success'))).slice(0, 64)],
  ])('signature %s → WebhookSignatureError', async (_label, signature) => {
    const rawBody = raw('webhook-charge-success');
    const err = await rejection(paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': signature } }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
  });

  test('a body changed after signing → WebhookSignatureError', async () => {
    const rawBody = raw('webhook-charge-success');
    const signature = sign(rawBody);
    const tampered = rawBody.replace('"amount":100', '"amount":100000');
    expect(tampered).not.toBe(rawBody);
    const err = await rejection(paystack.parseWebhook({ rawBody: tampered, headers: { 'x-paystack-signature': signature } }));
    expect(err).toBeInstanceOf(WebhookSignatureError);
  });

  test('refund.processed (no refund id in the payload): the refund is found by transaction and amount', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    const rawBody = raw('webhook-refund-processed');
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(server.requests).toHaveLength(2);
    const [verify, list] = server.requests.map((r) => ({ ...r, body: undefined }));
    expectCall(verify!, 'GET', `/transaction/verify/${REFERENCE}`);
    expectCall(list!, 'GET', '/refund?transaction=2009945086');
    expect(event).toEqual({
      kind: 'refund',
      eventId: 'refund.processed:3018284',
      refundId: null,
      connectorRefundId: '3018284',
      result: { status: 'Succeeded', connectorRefundId: '3018284' },
    });
  });

  test('refund.failed → Failed for the refund of that amount', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    const rawBody = raw('webhook-refund-failed');
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event).toMatchObject({ kind: 'refund', connectorRefundId: '3018290', result: { status: 'Failed', errorCode: 'failed' } });
  });

  test.each([
    ['refund.pending', 'pending', 'Pending'],
    ['refund.processing', 'processing', 'Pending'],
    ['refund.processed', 'processed', 'Succeeded'],
    ['refund.failed', 'failed', 'Failed'],
  ])('%s carrying a refund id → mapped without any lookup', async (eventName, status, ours) => {
    const body = fixture('webhook-refund-processed');
    body.event = eventName;
    body.data.status = status;
    body.data.id = '3018284';
    const rawBody = JSON.stringify(body);
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event).toMatchObject({
      kind: 'refund',
      eventId: `${eventName}:3018284`,
      connectorRefundId: '3018284',
      result: { status: ours },
    });
    expect(server.requests).toHaveLength(0);
  });

  test('a refund event no listed refund matches → ignored (syncRefund settles it)', async () => {
    server.reply({ status: 200, body: fixture('transaction-verify') }, { status: 200, body: fixture('refund-list') });
    const body = fixture('webhook-refund-processed');
    body.data.amount = '12345';
    const rawBody = JSON.stringify(body);
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event.kind).toBe('ignored');
  });

  test.each(['webhook-bank-transfer-rejected'])('%s → ignored, nothing looked up', async (name) => {
    const rawBody = raw(name);
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event.kind).toBe('ignored');
    expect(server.requests).toHaveLength(0);
  });

  test('an event Paystack raises for other products (transfer.success) → ignored', async () => {
    const rawBody = JSON.stringify({ event: 'transfer.success', data: { reference: 'tr_1', status: 'success' } });
    const event = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } });
    expect(event.kind).toBe('ignored');
  });

  test.each([
    ['not JSON', 'event=charge.success', 'invalid_json', undefined],
    ['without data', '{"event":"charge.success"}', 'parameter_missing', 'data'],
    [
      'a charge.success without reference',
      '{"event":"charge.success","data":{"status":"success","amount":100}}',
      'parameter_missing',
      'data.reference',
    ],
  ])('a signed body %s → WebhookPayloadError (400), nothing looked up', async (_what, rawBody, code, param) => {
    const err = await paystack.parseWebhook({ rawBody, headers: { 'x-paystack-signature': sign(rawBody) } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookPayloadError);
    expect(err).toMatchObject({ connector: 'paystack', code, param });
    expect(server.requests).toHaveLength(0);
  });
});

/* ------------------------------------------------------------------------------------------------
 * errors
 * --------------------------------------------------------------------------------------------- */

describe('errors', () => {
  test("a 4xx error body → ConnectorRequestError with Paystack's message slug as code; the key never appears", async () => {
    server.reply({ status: 401, body: fixture('error-invalid-key') });
    const err = await rejection(paystack.authorize(authorizeRequest()));
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).toBe('invalid_key');
    expect(err.message).toBe('Invalid key');
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(SECRET);
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('4084084084084081');
  });

  test('a 5xx → ConnectorTechnicalError', async () => {
    server.reply({ status: 502, body: { status: false, message: 'Bad gateway' } });
    const err = await rejection(paystack.sync(syncRequest()));
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('a server that never answers → ConnectorTechnicalError after timeoutMs', async () => {
    const impatient = new PaystackConnector({
      baseUrl: server.url,
      secretKey: SECRET,
      webhookSecret: SECRET,
      timeoutMs: 200,
      now: () => NOW,
    });
    server.reply('hang');
    const started = Date.now();
    const err = await rejection(impatient.authorize(authorizeRequest()));
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    // A server that never answers holds the call until the test's end: giving up well within 10 s shows the timeout
    // fired (a generous ceiling: a loaded machine may take over a second to run a 200 ms timer).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(err.message).not.toContain(SECRET);
  });

  test('nothing listening → ConnectorTechnicalError', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = new PaystackConnector({
      baseUrl: `http://127.0.0.1:${port}`,
      secretKey: SECRET,
      webhookSecret: SECRET,
      timeoutMs: 500,
    });
    const err = await rejection(offline.syncRefund({ refundId: 'ref_99aa', connectorRefundId: '3018284', currency: 'NGN' }));
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
  });
});
