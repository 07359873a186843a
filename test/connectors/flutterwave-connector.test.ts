/**
 * The Flutterwave adapter against a local HTTP server (127.0.0.1, never the
 * network) answering with Flutterwave v3's documented response shapes, recorded
 * as fixtures in test/connectors/fixtures/flutterwave/. Every test asserts the
 * exact requests sent and the mapping of every status in the adapter's tables.
 * Authentication steps (PIN, address, OTP) are tested in flutterwave-authenticate.test.ts and the request bodies
 * and documented response samples against flutterwave-node-v3's own material in flutterwave-contract.test.ts.
 * Sources of the refund-list and not-found fixtures: fixtures/SOURCES.md (GET /v3/refunds from
 * https://developer.flutterwave.com/v3.0.0/reference/get-all-refunds and Flutterwave's v3 OpenAPI;
 * timeouts from https://developer.flutterwave.com/docs/handling-error-timeouts).
 */
import { createDecipheriv } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type RefundLookupRequest,
  type SyncRequest,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../../shared/connectors/connector';
import { FlutterwaveConnector, type FlutterwaveConnectorConfig } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_NOT_FOUND_SETTLE_MS, FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS } from '../../shared/connectors/flutterwave/lookups';
import { majorToMinor, minorToMajor } from '../../shared/connectors/flutterwave/money';
import { buildChargeRequest, encryptCardPayload } from '../../shared/connectors/flutterwave/requests';
import {
  FLUTTERWAVE_AUTH_MODES,
  FLUTTERWAVE_NOT_FOUND_STATUS,
  FLUTTERWAVE_PAYMENT_STATUS,
  FLUTTERWAVE_PENDING_STATUS,
  FLUTTERWAVE_PREAUTH_STATUS,
  FLUTTERWAVE_REFUND_STATUS,
} from '../../shared/connectors/flutterwave/statuses';
import { FLUTTERWAVE_CHARGE_TYPES, type FlutterwaveChargeType } from '../../shared/connectors/flutterwave/supported-methods';
import { FLUTTERWAVE_TIMEOUTS_MS } from '../../shared/connectors/flutterwave/timeouts';
import { FLUTTERWAVE_DOCUMENTED_USSD_BANKS, FLUTTERWAVE_USSD_BANKS } from '../../shared/connectors/flutterwave/ussd-banks';
import type { Currency } from '../../shared/domain/money';
import type { PaymentMethod } from '../../shared/domain/payment';
import { USSD_BANKS } from '../../shared/domain/ussd-banks';

// Test credentials (not real keys).
const SECRET_KEY = 'FLWSECK_TEST-0000test0000secret0000-X';
const ENCRYPTION_KEY = 'FLWSECK_TEST0123456789ab'; // 24 characters, as the dashboard's key
const WEBHOOK_HASH = 'switchyard-test-secret-hash';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

// ---------------------------------------------------------------------------
// Fixture server
// ---------------------------------------------------------------------------

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; body: unknown } | 'hang';

const requests: Recorded[] = [];
let replies: Reply[] = [];
const hanging: ServerResponse[] = [];
let server: Server;
let baseUrl: string;

function reply(...next: Reply[]): void {
  replies.push(...next);
}

function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(readFileSync(join(__dirname, 'fixtures', 'flutterwave', `${name}.json`), 'utf8')) as T;
}

/** A fixture with `data` fields replaced. */
function withData(name: string, patch: Record<string, unknown>): Record<string, unknown> {
  const f = fixture(name);
  return { ...f, data: { ...(f.data as Record<string, unknown>), ...patch } };
}

function ok(body: unknown): Reply {
  return { status: 200, body };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = replies.shift() ?? { status: 500, body: { status: 'error', message: 'no reply queued in the test', data: null } };
      if (next === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(next.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  replies = [];
});

function connector(overrides: Partial<FlutterwaveConnectorConfig> = {}): FlutterwaveConnector {
  return new FlutterwaveConnector({
    baseUrl,
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_HASH,
    encryptionKey: ENCRYPTION_KEY,
    timeoutMs: 2000,
    now: () => NOW,
    ...overrides,
  });
}

/** Asserts the common request shape and returns the parsed JSON body (or undefined when there is none). */
function expectRequest(r: Recorded | undefined, method: string, path: string): unknown {
  expect(r).toBeDefined();
  const req = r as Recorded;
  expect(req.method).toBe(method);
  expect(req.path).toBe(path);
  expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  expect(req.headers.accept).toBe('application/json');
  if (method === 'GET' || req.body === '') {
    expect(req.body).toBe('');
    expect(req.headers['content-type']).toBeUndefined();
    return undefined;
  }
  expect(req.headers['content-type']).toBe('application/json');
  return JSON.parse(req.body);
}

function decrypt(client: string): unknown {
  const decipher = createDecipheriv('des-ede3', Buffer.from(ENCRYPTION_KEY, 'utf8'), null);
  return JSON.parse(Buffer.concat([decipher.update(Buffer.from(client, 'base64')), decipher.final()]).toString('utf8'));
}

const CARD = { card_number: '5531886652142950', card_exp_month: '9', card_exp_year: '2032', card_cvc: '564' };

function cardRequest(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: 'pay_flw_card',
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: CARD,
    email: 'payer@example.com',
    phone: null,
    publicBaseUrl: 'https://api.example.test',
    returnUrl: 'https://shop.example.test/return',
    ...overrides,
  };
}

function syncRequest(overrides: Partial<SyncRequest> = {}): SyncRequest {
  return {
    paymentId: 'pay_flw_sync',
    connectorTransactionId: '288200108',
    amount: 10000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    createdAt: '2026-01-15T11:00:00.000Z',
    ...overrides,
  };
}

/** (currency, method) of a payment that uses each Flutterwave charge type. */
const PAIR_OF_TYPE: Record<FlutterwaveChargeType, { currency: Currency; paymentMethod: PaymentMethod }> = {
  card: { currency: 'NGN', paymentMethod: 'card' },
  bank_transfer: { currency: 'NGN', paymentMethod: 'bank_transfer' },
  ussd: { currency: 'NGN', paymentMethod: 'ussd' },
  mobile_money_ghana: { currency: 'GHS', paymentMethod: 'mobile_money' },
  mpesa: { currency: 'KES', paymentMethod: 'mobile_money' },
};

// ---------------------------------------------------------------------------

describe('configuration and supported pairs', () => {
  test('supports exactly the matrix: cards in all five currencies, bank transfer and USSD in NGN, mobile money in GHS and KES', () => {
    const fw = connector();
    const expected: Record<PaymentMethod, Currency[]> = {
      card: ['NGN', 'USD', 'GHS', 'ZAR', 'KES'],
      bank_transfer: ['NGN'],
      ussd: ['NGN'],
      mobile_money: ['GHS', 'KES'],
    };
    for (const method of Object.keys(expected) as PaymentMethod[]) {
      for (const currency of ['NGN', 'USD', 'GHS', 'ZAR', 'KES'] as Currency[]) {
        expect([method, currency, fw.supports(currency, method)]).toEqual([method, currency, expected[method].includes(currency)]);
      }
    }
    expect(FLUTTERWAVE_CHARGE_TYPES.mobile_money).toEqual({ GHS: 'mobile_money_ghana', KES: 'mpesa' });
  });

  test("FLUTTERWAVE_USSD_BANKS: the 18 banks of Flutterwave's USSD guide that Switchyard offers (a subset of USSD_BANKS)", () => {
    expect(Object.keys(FLUTTERWAVE_DOCUMENTED_USSD_BANKS)).toHaveLength(18);
    expect(FLUTTERWAVE_USSD_BANKS.every((code) => Object.hasOwn(USSD_BANKS, code))).toBe(true);
    expect(FLUTTERWAVE_USSD_BANKS).toEqual([...FLUTTERWAVE_USSD_BANKS].sort());
    // Every bank Flutterwave documents is offered (Lotus, PremiumTrust and VFD included).
    expect(Object.keys(FLUTTERWAVE_DOCUMENTED_USSD_BANKS).filter((code) => !FLUTTERWAVE_USSD_BANKS.includes(code))).toEqual([]);
    expect(FLUTTERWAVE_USSD_BANKS).toHaveLength(18);
  });

  test('USSD with a chosen bank: only the banks Flutterwave documents for USSD (FLUTTERWAVE_USSD_BANKS)', () => {
    const fw = connector();
    for (const code of FLUTTERWAVE_USSD_BANKS) expect([code, fw.supports('NGN', 'ussd', { ussdBankCode: code })]).toEqual([code, true]);
    // Providus (101) and Kuda (50211) are Nigerian banks Flutterwave lists no USSD charge for; 999 is no bank.
    for (const code of ['101', '50211', '999']) expect([code, fw.supports('NGN', 'ussd', { ussdBankCode: code })]).toEqual([code, false]);
    expect(fw.supports('USD', 'ussd', { ussdBankCode: '058' })).toBe(false);
    // The bank option concerns USSD only.
    expect(fw.supports('NGN', 'card', { ussdBankCode: '999' })).toBe(true);
  });

  test('refuses an encryption key that is not 24 bytes, without echoing it', () => {
    expect(() => connector({ encryptionKey: 'short-key-123' })).toThrow(/24-character/);
    try {
      connector({ encryptionKey: 'short-key-123' });
    } catch (err) {
      expect((err as Error).message).not.toContain('short-key-123');
    }
  });
});

describe('money conversion (integer arithmetic only)', () => {
  test.each([
    [0, '0.00'],
    [1, '0.01'],
    [99, '0.99'],
    [100, '1.00'],
    [150000, '1500.00'],
    [123456789, '1234567.89'],
    [99_999_999_999, '999999999.99'],
  ])('minor %i → major %s and back', (minor, major) => {
    expect(minorToMajor(minor)).toBe(major);
    expect(majorToMinor(major)).toBe(minor);
  });

  test('reads Flutterwave JSON numbers and strings', () => {
    expect(majorToMinor(1500)).toBe(150000);
    expect(majorToMinor(12.5)).toBe(1250);
    expect(majorToMinor(0.29)).toBe(29);
    expect(majorToMinor('1500.00')).toBe(150000);
    expect(majorToMinor('1.005')).toBe(101); // third decimal rounds half up
    expect(() => majorToMinor('-1')).toThrow(ConnectorTechnicalError);
    expect(() => majorToMinor('1e21')).toThrow(ConnectorTechnicalError);
    expect(() => minorToMajor(1.5)).toThrow(RangeError);
  });
});

describe('authorize: card', () => {
  test('sends the 3DES-encrypted payload as { client } and maps a 3DS redirect to RequiresAction', async () => {
    reply(ok(fixture('charge-card-redirect')));
    const result = await connector().authorize(cardRequest());

    expect(requests).toHaveLength(1);
    const body = expectRequest(requests[0], 'POST', '/v3/charges?type=card') as Record<string, string>;
    expect(Object.keys(body)).toEqual(['client']);
    expect(requests[0]?.body).not.toContain(CARD.card_number);
    expect(requests[0]?.body).not.toContain('"564"');
    expect(decrypt(body.client as string)).toEqual({
      card_number: '5531886652142950',
      cvv: '564',
      expiry_month: '09',
      expiry_year: '32',
      currency: 'NGN',
      amount: '1500.00',
      email: 'payer@example.com',
      tx_ref: 'pay_flw_card',
      redirect_url: 'https://shop.example.test/return',
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '2534420',
      amountCaptured: 0,
      nextAction: {
        type: 'redirect_to_url',
        redirect_to_url:
          'https://ravesandboxapi.flutterwave.com/mockvbvpage?ref=FLW-MOCK-0a6b80654370ff4b0987851ce0e611c0&code=00&message=Approved.%20Successful&receiptno=RN1633628627056',
      },
    });
  });

  test('encryption matches an independent 3DES-ECB decryption', () => {
    const payload = {
      card_number: '4111111111111111',
      cvv: '123',
      expiry_month: '01',
      expiry_year: '30',
      currency: 'USD' as const,
      amount: '1.00',
      email: 'a@b.c',
      tx_ref: 'pay_x',
      redirect_url: 'https://x.test',
    };
    expect(decrypt(encryptCardPayload(ENCRYPTION_KEY, payload))).toEqual(payload);
  });

  test('manual capture sends preauthorize: true and a successful preauth is RequiresCapture', async () => {
    reply(ok(fixture('charge-card-preauth')));
    const result = await connector().authorize(
      cardRequest({ currency: 'USD', captureMethod: 'manual', phone: '+2348012345678', card: { ...CARD, card_exp_year: '32' } }),
    );
    const body = expectRequest(requests[0], 'POST', '/v3/charges?type=card') as { client: string };
    expect(decrypt(body.client)).toEqual({
      card_number: '5531886652142950',
      cvv: '564',
      expiry_month: '09',
      expiry_year: '32',
      currency: 'USD',
      amount: '1500.00',
      email: 'payer@example.com',
      tx_ref: 'pay_flw_card',
      redirect_url: 'https://shop.example.test/return',
      phone_number: '+2348012345678',
      preauthorize: true,
    });
    expect(result).toEqual({ status: 'RequiresCapture', connectorTransactionId: '4973363', amountCaptured: 0 });
  });

  test('a card that needs no authentication succeeds at once with amount_captured in minor units', async () => {
    reply(ok(fixture('charge-card-successful')));
    await expect(connector().authorize(cardRequest())).resolves.toEqual({
      status: 'Succeeded',
      connectorTransactionId: '4973065',
      amountCaptured: 150000,
    });
  });

  test('a decline is a Failed result with the processor response as code and message', async () => {
    reply(ok(fixture('charge-card-failed')));
    await expect(connector().authorize(cardRequest())).resolves.toEqual({
      status: 'Failed',
      connectorTransactionId: '4973066',
      amountCaptured: 0,
      errorCode: 'insufficient_funds',
      errorMessage: 'Insufficient Funds',
    });
  });

  /** A charge response carrying each authorization mode of the table. */
  const responseForMode: Record<string, () => unknown> = {
    redirect: () => fixture('charge-card-redirect'),
    banktransfer: () => fixture('charge-bank-transfer'),
    ussd: () => fixture('charge-ussd'),
    callback: () => ({
      ...fixture<Record<string, unknown>>('charge-mpesa'),
      meta: { authorization: { mode: 'callback', redirect_url: null } },
    }),
    pin: () => fixture('charge-card-authorization-required'),
    avs_noauth: () => ({
      status: 'success',
      message: 'Charge authorization data required',
      meta: { authorization: { mode: 'avs_noauth', fields: ['city', 'address', 'state', 'country', 'zipcode'] } },
    }),
    otp: () => fixture('charge-card-otp'),
  };

  test('the fixtures cover every authorization mode of the table', () => {
    expect(Object.keys(responseForMode).sort()).toEqual(Object.keys(FLUTTERWAVE_AUTH_MODES).sort());
  });

  test.each(Object.entries(FLUTTERWAVE_AUTH_MODES))('authorization mode %s → %o', async (mode, outcome) => {
    reply(ok(responseForMode[mode]?.()));
    const result = await connector().authorize(cardRequest());
    expect(result.status).toBe(outcome.status);
    const expectedAction =
      outcome.action === 'step'
        ? outcome.step
        : { redirect: 'redirect_to_url', bank_transfer: 'bank_transfer_instructions', ussd: 'display_ussd_code', none: undefined }[
            outcome.action
          ];
    expect(result.nextAction?.type).toBe(expectedAction);
    if (outcome.action === 'step') {
      expect(result.nextAction).toMatchObject({
        card_required: outcome.cardRequired,
        redirect_to_url: 'https://api.example.test/pay/pay_flw_card/authenticate',
      });
      expect(result.errorCode).toBeUndefined();
    }
  });

  test('PIN and AVS requests create nothing at Flutterwave: the tx_ref stands for the charge; an OTP charge keeps its id', async () => {
    reply(ok(fixture('charge-card-authorization-required')), ok(fixture('charge-card-otp')));
    expect(await connector().authorize(cardRequest())).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      nextAction: {
        type: 'submit_pin',
        display_text: null,
        redirect_to_url: 'https://api.example.test/pay/pay_flw_card/authenticate',
        card_required: true,
      },
    });
    expect(await connector().authorize(cardRequest())).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Kindly enter the OTP sent to *******0328',
        redirect_to_url: 'https://api.example.test/pay/pay_flw_card/authenticate',
        card_required: false,
      },
    });
  });
});

describe('authorize: bank transfer, USSD, mobile money', () => {
  test('bank transfer (NGN) → RequiresAction with the account to pay into', async () => {
    reply(ok(fixture('charge-bank-transfer')));
    const result = await connector().authorize(
      cardRequest({ paymentId: 'pay_flw_bt', paymentMethod: 'bank_transfer', card: undefined, phone: '+2348012345678' }),
    );
    expect(expectRequest(requests[0], 'POST', '/v3/charges?type=bank_transfer')).toEqual({
      tx_ref: 'pay_flw_bt',
      amount: '1500.00',
      currency: 'NGN',
      email: 'payer@example.com',
      phone_number: '+2348012345678',
      expires: 3600,
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: null,
      amountCaptured: 0,
      nextAction: {
        type: 'bank_transfer_instructions',
        bank_transfer: {
          bank_name: 'Mock Bank',
          account_number: '0067100155',
          account_name: 'Mock note',
          amount: 150000,
          currency: 'NGN',
          reference: 'MockFLWRef-1689847855598',
          expires_at: new Date(1689847855598).toISOString(),
        },
      },
    });
  });

  test("USSD (NGN) → RequiresAction with the code to dial; account_bank is the payer's bank", async () => {
    reply(ok(fixture('charge-ussd')), ok(fixture('charge-ussd')));
    const request = cardRequest({ paymentId: 'pay_flw_ussd', paymentMethod: 'ussd', card: undefined, ussdBankCode: '058' });
    const result = await connector().authorize(request);
    expect(expectRequest(requests[0], 'POST', '/v3/charges?type=ussd')).toEqual({
      tx_ref: 'pay_flw_ussd',
      account_bank: '058',
      amount: '1500.00',
      currency: 'NGN',
      email: 'payer@example.com',
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '4517159',
      amountCaptured: 0,
      nextAction: {
        type: 'display_ussd_code',
        ussd: {
          code: '*566*002*4517159#',
          reference: 'flwm3s4m0c1691591875526',
          expires_at: new Date(NOW + 24 * 3600 * 1000).toISOString(),
        },
      },
    });
    await connector().authorize({ ...request, ussdBankCode: '057' });
    expect((expectRequest(requests[1], 'POST', '/v3/charges?type=ussd') as { account_bank: string }).account_bank).toBe('057');
  });

  test.each([
    ['ussd_bank_required', undefined],
    ['unsupported_ussd_bank', '101'],
  ])('USSD without a bank Flutterwave serves is refused before sending anything: %s', async (code, ussdBankCode) => {
    const request = cardRequest({
      paymentId: 'pay_flw_ussd',
      paymentMethod: 'ussd',
      card: undefined,
      ...(ussdBankCode ? { ussdBankCode } : {}),
    });
    await expect(connector().authorize(request)).rejects.toMatchObject({ name: 'ConnectorRequestError', code });
    expect(requests).toHaveLength(0);
  });

  test('Ghana mobile money (GHS) → network from the number, local phone format, RequiresAction to the verification page', async () => {
    reply(ok(fixture('charge-mobile-money-ghana')));
    const result = await connector().authorize(
      cardRequest({ paymentId: 'pay_flw_gh', currency: 'GHS', paymentMethod: 'mobile_money', card: undefined, phone: '+233241234567' }),
    );
    expect(expectRequest(requests[0], 'POST', '/v3/charges?type=mobile_money_ghana')).toEqual({
      tx_ref: 'pay_flw_gh',
      amount: '1500.00',
      currency: 'GHS',
      country: 'GH',
      network: 'MTN',
      email: 'payer@example.com',
      phone_number: '0241234567',
    });
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: null,
      amountCaptured: 0,
      nextAction: {
        type: 'redirect_to_url',
        redirect_to_url: 'https://ravemodal-dev.herokuapp.com/captcha/verify/83940:dede0352930befaac522ca71e969f0e2',
      },
    });
  });

  test.each([
    ['+233241234567', 'MTN'],
    ['233551234567', 'MTN'],
    ['0201234567', 'VODAFONE'], // Telecel Cash (formerly Vodafone Cash)
    ['+233501234567', 'VODAFONE'],
    ['+233261234567', 'AIRTELTIGO'],
    ['+233571234567', 'AIRTELTIGO'],
    ['+233271234567', 'AIRTELTIGO'],
  ])('Ghana number %s → network %s', (phone, network) => {
    const charge = buildChargeRequest(cardRequest({ currency: 'GHS', paymentMethod: 'mobile_money', card: undefined, phone }), {
      encryptionKey: ENCRYPTION_KEY,
    });
    expect((JSON.parse(charge.body) as { network: string }).network).toBe(network);
  });

  test('M-Pesa (KES) → Processing while the payer approves the STK push', async () => {
    reply(ok(fixture('charge-mpesa')));
    const result = await connector().authorize(
      cardRequest({
        paymentId: 'pay_flw_mpesa',
        amount: 1000,
        currency: 'KES',
        paymentMethod: 'mobile_money',
        card: undefined,
        phone: '+254712345678',
      }),
    );
    expect(expectRequest(requests[0], 'POST', '/v3/charges?type=mpesa')).toEqual({
      tx_ref: 'pay_flw_mpesa',
      amount: '10.00',
      currency: 'KES',
      email: 'payer@example.com',
      phone_number: '254712345678',
    });
    expect(result).toEqual({
      status: 'Processing',
      connectorTransactionId: '4193428',
      amountCaptured: 0,
      nextAction: {
        type: 'await_mobile_money_approval',
        mobile_money: { message: 'Approve the M-Pesa prompt sent to your phone.', reference: '2993238342' },
      },
    });
  });

  test.each([
    ['email_required', cardRequest({ email: null })],
    ['card_required', cardRequest({ card: undefined })],
    ['manual_capture_not_supported', cardRequest({ paymentMethod: 'bank_transfer', captureMethod: 'manual', card: undefined })],
    ['unsupported_payment_method', cardRequest({ currency: 'USD', paymentMethod: 'ussd', card: undefined })],
    ['phone_required', cardRequest({ currency: 'KES', paymentMethod: 'mobile_money', card: undefined, phone: null })],
    ['invalid_phone', cardRequest({ currency: 'KES', paymentMethod: 'mobile_money', card: undefined, phone: '+2348012345678' })],
    ['unknown_mobile_network', cardRequest({ currency: 'GHS', paymentMethod: 'mobile_money', card: undefined, phone: '+233301234567' })],
  ])('refuses before sending anything: %s', async (code, request) => {
    await expect(connector().authorize(request)).rejects.toMatchObject({ name: 'ConnectorRequestError', code });
    expect(requests).toHaveLength(0);
  });
});

/**
 * The saved card of verify-transaction.json (its `data.card.token`; "NIGERIA NG" → NG, "02/23" → 2/2023,
 * expiring a year after its `created_at`); mapping and sources in flutterwave-saved-methods.test.ts.
 */
const VERIFY_SAVED_METHOD = {
  token: 'flw-t1nf-4676a40c7ddf5f12scr432aa12d471973-k3n',
  processorCustomerId: null,
  email: 'payer@example.com',
  fingerprint: null,
  card: { brand: 'verve', last4: '4567', expMonth: 2, expYear: 2023, bin: '232343', issuerCountry: 'NG' },
  expiresAt: '2021-07-15T14:31:16.000Z',
};

describe('sync', () => {
  test('by transaction id: GET /v3/transactions/{id}/verify', async () => {
    reply(ok(fixture('verify-transaction')));
    const result = await connector().sync(syncRequest());
    expectRequest(requests[0], 'GET', '/v3/transactions/288200108/verify');
    expect(result).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '288200108',
      amountCaptured: 10000,
      savedMethod: VERIFY_SAVED_METHOD,
    });
  });

  test('by our reference when authorize never answered: GET /v3/transactions/verify_by_reference?tx_ref=…', async () => {
    reply(ok(withData('verify-transaction', { status: 'pending' })));
    const result = await connector().sync(syncRequest({ connectorTransactionId: null }));
    expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_sync');
    // A card whose authorize timed out stays Processing (no 3DS page was ever shown) and now has its id.
    expect(result).toEqual({ status: 'Processing', connectorTransactionId: '288200108', amountCaptured: 0 });
  });

  test.each(Object.entries(FLUTTERWAVE_PAYMENT_STATUS))('transaction status %s → %s (automatic capture)', async (status, ours) => {
    reply(ok(withData('verify-transaction', { status, processor_response: status === 'failed' ? 'Declined' : 'Approved' })));
    const result = await connector().sync(syncRequest());
    expect(result.status).toBe(ours === 'Processing' ? FLUTTERWAVE_PENDING_STATUS.card : ours);
    expect(result.amountCaptured).toBe(ours === 'Succeeded' ? 10000 : 0);
    if (ours === 'Failed') expect(result).toMatchObject({ errorCode: 'declined', errorMessage: 'Declined' });
  });

  test.each(Object.entries(FLUTTERWAVE_PREAUTH_STATUS))('preauth transaction status %s → %s (manual capture)', async (status, ours) => {
    reply(ok(withData('verify-transaction', { status, charge_type: 'preauth' })));
    await expect(connector().sync(syncRequest({ captureMethod: 'manual' }))).resolves.toEqual({
      status: ours,
      connectorTransactionId: '288200108',
      amountCaptured: 0,
      savedMethod: VERIFY_SAVED_METHOD, // the hold's card token
    });
  });

  test('an unknown transaction status settles nothing: it reads as pending (what authorize answered)', async () => {
    reply(
      ok(withData('verify-transaction', { status: 'something-new' })),
      ok(withData('verify-transaction', { status: 'something-new', currency: 'KES' })),
    );
    await expect(connector().sync(syncRequest())).resolves.toMatchObject({ status: FLUTTERWAVE_PENDING_STATUS.card });
    await expect(connector().sync(syncRequest({ currency: 'KES', paymentMethod: 'mobile_money' }))).resolves.toMatchObject({
      status: 'Processing',
    });
  });

  test.each(Object.entries(FLUTTERWAVE_PENDING_STATUS))('pending %s transaction → %s (what authorize answered)', async (type, ours) => {
    const pair = PAIR_OF_TYPE[type as FlutterwaveChargeType];
    reply(ok(withData('verify-transaction', { status: 'pending', currency: pair.currency })));
    await expect(connector().sync(syncRequest({ ...pair }))).resolves.toEqual({
      status: ours,
      connectorTransactionId: '288200108',
      amountCaptured: 0,
    });
  });

  test.each(Object.entries(FLUTTERWAVE_NOT_FOUND_STATUS))('no transaction for a %s payment → %s', async (type, ours) => {
    const pair = PAIR_OF_TYPE[type as FlutterwaveChargeType];
    reply({ status: 400, body: fixture('error-not-found') });
    const result = await connector().sync(syncRequest({ ...pair, connectorTransactionId: null }));
    expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_sync');
    expect(result.status).toBe(ours);
    if (ours === 'Failed') expect(result).toMatchObject({ errorCode: 'transaction_not_found', notFound: true });
    else expect(result.notFound).toBeUndefined();
  });

  describe('notFound: "No transaction was found" by our reference', () => {
    const old = new Date(NOW - FLUTTERWAVE_NOT_FOUND_SETTLE_MS).toISOString();

    test('after the settle window → Failed with notFound (routing may fall back)', async () => {
      reply({ status: 400, body: fixture('error-not-found') });
      await expect(connector().sync(syncRequest({ connectorTransactionId: null, createdAt: old }))).resolves.toEqual({
        status: 'Failed',
        connectorTransactionId: null,
        amountCaptured: 0,
        errorCode: 'transaction_not_found',
        errorMessage: 'Flutterwave has no transaction for this payment: the charge never reached it.',
        notFound: true,
      });
      expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_sync');
    });

    test('a 200 envelope saying "No transaction was found" counts too', async () => {
      reply(ok(fixture('error-not-found')));
      await expect(connector().sync(syncRequest({ connectorTransactionId: null, createdAt: old }))).resolves.toMatchObject({
        status: 'Failed',
        notFound: true,
      });
    });

    test('within the settle window (the charge may still be in flight) → Processing, no notFound', async () => {
      reply({ status: 400, body: fixture('error-not-found') }, { status: 400, body: fixture('error-not-found') });
      const fresh = new Date(NOW - FLUTTERWAVE_NOT_FOUND_SETTLE_MS + 1).toISOString();
      await expect(connector().sync(syncRequest({ connectorTransactionId: null, createdAt: fresh }))).resolves.toEqual({
        status: 'Processing',
        connectorTransactionId: null,
        amountCaptured: 0,
      });
      await expect(connector().sync(syncRequest({ connectorTransactionId: null, createdAt: 'not a date' }))).resolves.toEqual({
        status: 'Processing',
        connectorTransactionId: null,
        amountCaptured: 0,
      });
    });

    test('not found by a transaction id Flutterwave gave us → Failed without notFound (the charge reached it)', async () => {
      reply({ status: 400, body: fixture('error-not-found') });
      const result = await connector().sync(syncRequest({ createdAt: old }));
      expectRequest(requests[0], 'GET', '/v3/transactions/288200108/verify');
      expect(result).toMatchObject({ status: 'Failed', errorCode: 'transaction_not_found' });
      expect(result.notFound).toBeUndefined();
    });

    test.each([
      ["a bare 404 (not Flutterwave's answer)", { status: 404, body: { message: 'Not Found' } }, ConnectorRequestError],
      ['another 400', { status: 400, body: { status: 'error', message: 'Invalid authorization key', data: null } }, ConnectorRequestError],
      ['a 503 timeout answer', { status: 503, body: fixture('error-server') }, ConnectorTechnicalError],
      ['a 409', { status: 409, body: { status: 'error', message: 'Conflict', data: null } }, ConnectorTechnicalError],
    ] as Array<[string, Reply, new (...args: never[]) => Error]>)('%s is thrown, never notFound', async (_what, answer, errorClass) => {
      reply(answer);
      await expect(connector().sync(syncRequest({ connectorTransactionId: null, createdAt: old }))).rejects.toBeInstanceOf(errorClass);
    });
  });

  test.each([
    ['another reference', { tx_ref: 'pay_someone_else' }],
    ['another currency', { currency: 'USD' }],
    ['a smaller successful amount', { amount: 99.99 }],
  ])('a transaction with %s is refused (verification_mismatch)', async (_what, patch) => {
    reply(ok(withData('verify-transaction', patch)));
    await expect(connector().sync(syncRequest())).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'verification_mismatch' });
  });
});

describe('capture and void (preauthorized cards)', () => {
  const preauthTx = withData('verify-transaction', {
    id: 4973363,
    tx_ref: 'pay_flw_card',
    flw_ref: 'FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399',
    amount: 1500,
    currency: 'USD',
    charge_type: 'preauth',
  });

  test('capture reads the flw_ref, then POST /v3/charges/{flw_ref}/capture with the major-unit amount', async () => {
    reply(ok(preauthTx), ok(fixture('capture')));
    const result = await connector().capture({
      paymentId: 'pay_flw_card',
      connectorTransactionId: '4973363',
      currency: 'USD',
      amount: 120000,
    });
    expectRequest(requests[0], 'GET', '/v3/transactions/4973363/verify');
    expect(expectRequest(requests[1], 'POST', '/v3/charges/FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399/capture')).toEqual({
      amount: '1200.00',
    });
    expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: '4973363', amountCaptured: 120000 });
  });

  test('void reads the flw_ref, then POST /v3/charges/{flw_ref}/void without a body → Cancelled', async () => {
    reply(ok(preauthTx), ok(fixture('void')));
    const result = await connector().void({ paymentId: 'pay_flw_card', connectorTransactionId: '4973363', currency: 'USD' });
    expectRequest(requests[0], 'GET', '/v3/transactions/4973363/verify');
    expect(expectRequest(requests[1], 'POST', '/v3/charges/FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399/void')).toBeUndefined();
    expect(result).toEqual({ status: 'Cancelled', connectorTransactionId: '4973363', amountCaptured: 0 });
  });

  test("a refused void (e.g. not a preauth) is a ConnectorRequestError with Flutterwave's message", async () => {
    reply(ok(preauthTx), { status: 400, body: { status: 'error', message: 'Transaction is not a preauth transaction', data: null } });
    await expect(connector().void({ paymentId: 'pay_flw_card', connectorTransactionId: '4973363', currency: 'USD' })).rejects.toMatchObject(
      {
        name: 'ConnectorRequestError',
        code: 'transaction_is_not_a_preauth_transaction',
        message: 'Transaction is not a preauth transaction',
      },
    );
  });

  test("capture by reference when the stored id is not Flutterwave's numeric id", async () => {
    reply(ok(preauthTx), ok(fixture('capture')));
    await connector().capture({ paymentId: 'pay_flw_card', connectorTransactionId: 'MockFLWRef-1', currency: 'USD', amount: 150000 });
    expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
  });
});

describe('refunds', () => {
  test('reads the transaction, then POST /v3/transactions/{id}/refund with the major-unit amount; "completed" is final (Succeeded)', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund')));
    const result = await connector().refund({
      paymentId: 'pay_flw_sync',
      connectorTransactionId: '288200108',
      currency: 'NGN',
      amount: 6000,
      refundId: 're_flw_1',
    });
    expectRequest(requests[0], 'GET', '/v3/transactions/288200108/verify');
    expect(expectRequest(requests[1], 'POST', '/v3/transactions/288200108/refund')).toEqual({
      amount: '60.00',
      comments: 'Refund re_flw_1',
    });
    expect(requests).toHaveLength(2);
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: '75923' });
  });

  test("a transaction that is not the payment's is never refunded (verification_mismatch, nothing sent)", async () => {
    reply(ok(withData('verify-transaction', { tx_ref: 'pay_someone_else' })));
    await expect(
      connector().refund({
        paymentId: 'pay_flw_sync',
        connectorTransactionId: '288200108',
        currency: 'NGN',
        amount: 6000,
        refundId: 're_flw_1',
      }),
    ).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'verification_mismatch',
    });
    expect(requests).toHaveLength(1);
  });

  test('looks the transaction id up by reference when it is not numeric', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund')));
    await connector().refund({
      paymentId: 'pay_flw_sync',
      connectorTransactionId: 'MockFLWRef-1689847855598',
      currency: 'NGN',
      amount: 6000,
      refundId: 're_flw_2',
    });
    expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_sync');
    expectRequest(requests[1], 'POST', '/v3/transactions/288200108/refund');
  });

  test('syncRefund: GET /v3/refunds/{id}', async () => {
    reply(ok(fixture('get-refund')));
    const result = await connector().syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' });
    expectRequest(requests[0], 'GET', '/v3/refunds/75923');
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: '75923' });
  });

  test.each(Object.entries(FLUTTERWAVE_REFUND_STATUS))('refund status %s → %s', async (status, ours) => {
    reply(ok(withData('get-refund', { status })));
    const result = await connector().syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' });
    expect(result.status).toBe(ours);
    if (ours === 'Failed') expect(result.errorCode).toBe('refund_failed');
  });

  test('an unknown refund status stays Pending (the reconciler asks again); another completed-<channel> status is completed', async () => {
    reply(
      ok(withData('get-refund', { status: 'queued' })),
      ok(withData('get-refund', { status: 'completed-wallet' })),
      ok(withData('get-refund', { status: 'pending-bank' })),
    );
    await expect(connector().syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' })).resolves.toEqual({
      status: 'Pending',
      connectorRefundId: '75923',
    });
    await expect(connector().syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' })).resolves.toEqual({
      status: 'Succeeded',
      connectorRefundId: '75923',
    });
    await expect(connector().syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' })).resolves.toEqual({
      status: 'Pending',
      connectorRefundId: '75923',
    });
  });

  test("a refund below Flutterwave's minimum is a ConnectorRequestError with its message", async () => {
    reply(ok(fixture('verify-transaction')), { status: 400, body: fixture('error-refund-minimum') });
    await expect(
      connector().refund({
        paymentId: 'pay_flw_sync',
        connectorTransactionId: '288200108',
        currency: 'NGN',
        amount: 5000,
        refundId: 're_flw_3',
      }),
    ).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'amount_should_be_above_ngn100',
      message: 'Amount should be above NGN100',
    });
  });
});

describe('refunds of preauthorized charges (POST /v3/charges/{flw_ref}/refund)', () => {
  const preauth = withData('verify-transaction', {
    id: 4973363,
    tx_ref: 'pay_flw_card',
    flw_ref: 'FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399',
    amount: 1500,
    currency: 'USD',
    charge_type: 'preauth',
  });
  const refundOf = (amount: number) => ({
    paymentId: 'pay_flw_card',
    connectorTransactionId: '4973363',
    currency: 'USD' as const,
    amount,
    refundId: 're_flw_pre',
  });

  test('a preauth is refunded through the preauth refund endpoint with {amount} only; its answer (the charge) is Succeeded without a refund id', async () => {
    reply(ok(preauth), ok(fixture('refund-preauth')));
    const result = await connector().refund(refundOf(120000));
    expectRequest(requests[0], 'GET', '/v3/transactions/4973363/verify');
    expect(expectRequest(requests[1], 'POST', '/v3/charges/FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399/refund')).toEqual({
      amount: '1200.00',
    });
    expect(requests).toHaveLength(2);
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: null });
  });

  test('the general endpoint is never used for a preauth, and a preauth refund refused by Flutterwave is a ConnectorRequestError', async () => {
    reply(ok(preauth), {
      status: 400,
      body: {
        status: 'error',
        message:
          'Transaction with ref FLW-MOCK-PREAUTH-bde14443c3f233d11c5f574acc120399 either does not exist or is not a valid preauth transaction',
        data: null,
      },
    });
    await expect(connector().refund(refundOf(120000))).rejects.toBeInstanceOf(ConnectorRequestError);
    expect(requests.map((r) => r.path)).not.toContain('/v3/transactions/4973363/refund');
    reply(ok(preauth), ok({ status: 'error', message: 'Refund failed', data: null }));
    await expect(connector().refund(refundOf(120000))).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'refund_failed' });
  });

  describe('findRefund: the preauth refund endpoint takes no note, so ours is found by transaction, amount and time', () => {
    const createdAt = new Date(NOW - 60 * 60_000).toISOString(); // our record: 11:00Z
    const lookup = (over: Partial<RefundLookupRequest> = {}): RefundLookupRequest => ({
      refundId: 're_flw_pre',
      paymentId: 'pay_flw_card',
      connectorTransactionId: '4973363',
      amount: 120000,
      currency: 'USD',
      createdAt,
      ...over,
    });
    const listed = (over: Record<string, unknown>) => ({
      id: 91001,
      amount_refunded: 1200,
      status: 'completed-preauth',
      flw_ref: 'URF_PREAUTH_1',
      comment: null,
      transaction_id: 4973363,
      created_at: new Date(NOW - 59 * 60_000).toISOString(),
      ...over,
    });
    const list = (data: unknown[]) =>
      ok({
        status: 'success',
        message: 'Refunds fetched',
        meta: { page_info: { total: data.length, current_page: 1, total_pages: 1, page_size: 20 } },
        data,
      });

    test('one uncommented refund of our amount after our record is never taken as ours (it may be a later refund of a retry): an operator decides', async () => {
      reply(
        ok(preauth),
        list([listed({}), listed({ id: 91000, amount_refunded: 500, created_at: new Date(NOW - 65 * 60_000).toISOString() })]),
      );
      await expect(connector().findRefund(lookup())).rejects.toThrow(/operator/);
      expect(requests.map((r) => r.path.split('?')[0])).toEqual(['/v3/transactions/4973363/verify', '/v3/refunds']);
    });

    test('an older refund of the same amount well before our record is another refund: ours is absent', async () => {
      reply(ok(preauth), list([listed({ created_at: new Date(NOW - 3 * 60 * 60_000).toISOString() })]));
      await expect(connector().findRefund(lookup())).resolves.toBeNull();
    });

    test.each([
      ['two candidates after our record', [listed({}), listed({ id: 91002 })]],
      [
        'one after and one of the same amount minutes before our record',
        [listed({}), listed({ id: 90999, created_at: new Date(NOW - 62 * 60_000).toISOString() })],
      ],
      ['one without a readable date', [listed({ created_at: undefined })]],
    ])('ambiguous: %s → ConnectorTechnicalError (an operator decides)', async (_what, data) => {
      reply(ok(preauth), list(data));
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });

    test('a refund commented for another of our refunds is not ours; one commented with ours is', async () => {
      reply(ok(preauth), list([listed({ comment: 'Refund re_other' })]));
      await expect(connector().findRefund(lookup())).resolves.toBeNull();
      reply(ok(preauth), list([listed({ comment: 'Refund re_flw_pre', status: 'completed' })]));
      await expect(connector().findRefund(lookup())).resolves.toEqual({ status: 'Succeeded', connectorRefundId: '91001' });
    });
  });
});

describe("findRefund: our refund by its comment among the transaction's refunds (GET /v3/refunds)", () => {
  const lookup = (over: Partial<RefundLookupRequest> = {}): RefundLookupRequest => ({
    refundId: 're_flw_1',
    paymentId: 'pay_flw_sync',
    connectorTransactionId: '288200108',
    amount: 6000,
    currency: 'NGN',
    createdAt: new Date(NOW - 60 * 60_000).toISOString(),
    ...over,
  });
  // NOW is 2026-01-15T12:00Z: from = the day before our record, to = the day after now.
  const listPath = (page: number) => `/v3/refunds?id=288200108&from=2026-01-14&to=2026-01-16&page=${page}`;
  const listOf = (data: unknown[], pageInfo: unknown = { total: data.length, current_page: 1, total_pages: 1, page_size: 20 }) => ({
    ...fixture('refund-list'),
    data,
    meta: { page_info: pageInfo },
  });
  const item = (over: Record<string, unknown>) => ({ ...(fixture('refund-list').data as Record<string, unknown>[])[1], ...over });

  test('the transaction (verify), then GET /v3/refunds?id=<transaction id>&from&to&page=1 → ours by comment, mapped by the refund table', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund-list')));
    const result = await connector().findRefund(lookup());
    expect(requests).toHaveLength(2);
    expectRequest(requests[0], 'GET', '/v3/transactions/288200108/verify');
    expectRequest(requests[1], 'GET', listPath(1));
    expect(Object.fromEntries(new URL(requests[1]!.path, baseUrl).searchParams)).toEqual({
      id: '288200108',
      from: '2026-01-14',
      to: '2026-01-16',
      page: '1',
    });
    expect(result).toEqual({ status: 'Succeeded', connectorRefundId: '75923' });
  });

  test('the other refund of the same transaction is told apart by its comment ("completed" → Succeeded)', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund-list')));
    await expect(connector().findRefund(lookup({ refundId: 're_flw_2', amount: 2000 }))).resolves.toEqual({
      status: 'Succeeded',
      connectorRefundId: '75924',
    });
  });

  test('looks the transaction id up by our reference when the stored id is not numeric', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund-list')));
    await connector().findRefund(lookup({ connectorTransactionId: 'MockFLWRef-1689847855598' }));
    expectRequest(requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_sync');
    expectRequest(requests[1], 'GET', listPath(1));
  });

  test('reads every page (meta.page_info) and finds ours on page 2', async () => {
    const [ours, other] = fixture('refund-list').data as unknown[];
    reply(
      ok(fixture('verify-transaction')),
      ok(listOf([other], { total: 2, current_page: 1, total_pages: 2, page_size: 1 })),
      ok(listOf([ours], { total: 2, current_page: 2, total_pages: 2, page_size: 1 })),
    );
    await expect(connector().findRefund(lookup())).resolves.toEqual({ status: 'Succeeded', connectorRefundId: '75923' });
    expect(requests.map((r) => r.path)).toEqual(['/v3/transactions/288200108/verify', listPath(1), listPath(2)]);
  });

  test('absent after the settle window → null (known absent)', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('refund-list')));
    await expect(
      connector().findRefund(
        lookup({ refundId: 're_absent', amount: 1234, createdAt: new Date(NOW - FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS).toISOString() }),
      ),
    ).resolves.toBeNull();
  });

  test('absent within the settle window → Pending without an id', async () => {
    reply(ok(fixture('verify-transaction')), ok(listOf([])));
    await expect(
      connector().findRefund(lookup({ createdAt: new Date(NOW - FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS + 1).toISOString() })),
    ).resolves.toEqual({ status: 'Pending', connectorRefundId: null });
  });

  test('refunds of another transaction (the id filter ignored) are skipped', async () => {
    reply(ok(fixture('verify-transaction')), ok(listOf([item({ transaction_id: 1, comment: 'Refund re_flw_1', amount_refunded: 60 })])));
    await expect(connector().findRefund(lookup())).resolves.toBeNull();
  });

  test.each([
    [
      'two refunds with our comment',
      [item({ id: 1, comment: 'Refund re_flw_1', amount_refunded: 60 }), item({ id: 2, comment: 'Refund re_flw_1', amount_refunded: 60 })],
    ],
    ['no comment matches, but one of our amount has no comment', [item({ id: 3, comment: null, amount_refunded: 60 })]],
    ['our comment on a refund of another amount', [item({ id: 4, comment: 'Refund re_flw_1', amount_refunded: 59.99 })]],
  ])('ambiguous: %s → ConnectorTechnicalError (retry later / operator)', async (_what, data) => {
    reply(ok(fixture('verify-transaction')), ok(listOf(data)));
    await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  test('a listing without page_info is not authoritative → ConnectorTechnicalError; an empty one is', async () => {
    reply(ok(fixture('verify-transaction')), ok({ ...fixture<Record<string, unknown>>('refund-list'), meta: undefined }));
    await expect(connector().findRefund(lookup({ refundId: 're_absent' }))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    reply(ok(fixture('verify-transaction')), ok({ status: 'success', message: 'Refunds fetched', data: [] }));
    await expect(
      connector().findRefund(lookup({ createdAt: new Date(NOW - FLUTTERWAVE_REFUND_LOOKUP_SETTLE_MS).toISOString() })),
    ).resolves.toBeNull();
  });

  test('an "error" envelope → ConnectorRequestError; a 5xx or 409 → ConnectorTechnicalError', async () => {
    reply(ok(fixture('verify-transaction')), ok({ status: 'error', message: 'Invalid authorization key', data: null }));
    await expect(connector().findRefund(lookup())).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'invalid_authorization_key',
    });
    reply(ok(fixture('verify-transaction')), { status: 503, body: fixture('error-server') });
    await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    reply(ok(fixture('verify-transaction')), { status: 409, body: { status: 'error', message: 'Conflict', data: null } });
    await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    expect(requests.map((r) => r.path.split('?')[0])).toEqual(Array(3).fill(['/v3/transactions/288200108/verify', '/v3/refunds']).flat());
  });
});

describe('409 and timeouts', () => {
  test('a 409 on a charge or a refund is an unknown outcome (ConnectorTechnicalError), not a refusal', async () => {
    reply(
      { status: 409, body: { status: 'error', message: 'Duplicate transaction reference', data: null } },
      ok(fixture('verify-transaction')),
      { status: 409, body: { status: 'error', message: 'Refund in progress', data: null } },
    );
    await expect(connector().authorize(cardRequest())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    await expect(
      connector().refund({
        paymentId: 'pay_flw_sync',
        connectorTransactionId: '288200108',
        currency: 'NGN',
        amount: 6000,
        refundId: 're_flw_1',
      }),
    ).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  test("every operation on a payment or refund waits 35 s (Flutterwave's 28 s server wait plus a margin) unless overridden (the credential check: 10 s)", async () => {
    const { verifyCredentials, ...operations } = FLUTTERWAVE_TIMEOUTS_MS;
    expect(Object.values(operations)).toEqual(Array(8).fill(35_000));
    expect(verifyCredentials).toBe(10_000);
    const spy = jest.spyOn(AbortSignal, 'timeout');
    try {
      reply(ok(fixture('verify-transaction')), ok(fixture('verify-transaction')));
      await connector({ timeoutMs: undefined }).sync(syncRequest());
      expect(spy).toHaveBeenLastCalledWith(35_000);
      await connector().sync(syncRequest());
      expect(spy).toHaveBeenLastCalledWith(2000);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('webhooks', () => {
  /** The body as Flutterwave sends it, with `verif-hash` set to `hash` (null: no header). */
  const signed = (body: unknown, hash: string | null = WEBHOOK_HASH) => ({
    rawBody: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...(hash === null ? {} : { 'verif-hash': hash }) },
  });

  test('a correctly signed charge.completed is re-verified and mapped', async () => {
    reply(ok(fixture('verify-transaction')));
    const event = await connector().parseWebhook(signed(fixture('webhook-charge-completed')));
    expectRequest(requests[0], 'GET', '/v3/transactions/288200108/verify');
    expect(event).toEqual({
      kind: 'payment',
      eventId: 'flw_charge.completed_288200108_successful',
      paymentId: 'pay_flw_sync',
      connectorTransactionId: '288200108',
      result: { status: 'Succeeded', connectorTransactionId: '288200108', amountCaptured: 10000, savedMethod: VERIFY_SAVED_METHOD },
    });
  });

  test('a redelivery has the same event id', async () => {
    reply(ok(fixture('verify-transaction')), ok(fixture('verify-transaction')));
    const first = await connector().parseWebhook(signed(fixture('webhook-charge-completed')));
    const again = await connector().parseWebhook(signed(fixture('webhook-charge-completed')));
    expect(again.eventId).toBe(first.eventId);
  });

  test('the legacy flat webhook body is read too', async () => {
    reply(ok(fixture('verify-transaction')));
    const event = await connector().parseWebhook(signed(fixture('webhook-legacy-flat')));
    expect(event).toMatchObject({
      kind: 'payment',
      eventId: 'flw_card_transaction_288200108_successful',
      paymentId: 'pay_flw_sync',
      result: { status: 'Succeeded' },
    });
  });

  test('the verified status wins over the payload: a failed charge is Failed', async () => {
    reply(ok(withData('verify-transaction', { status: 'failed', processor_response: 'Do Not Honor' })));
    const event = await connector().parseWebhook(signed(fixture('webhook-charge-completed')));
    expect(event).toMatchObject({
      kind: 'payment',
      result: { status: 'Failed', errorCode: 'do_not_honor', errorMessage: 'Do Not Honor', amountCaptured: 0 },
    });
  });

  test('a preauth charge.completed is a hold (RequiresCapture)', async () => {
    reply(ok(withData('verify-transaction', { charge_type: 'preauth' })));
    const event = await connector().parseWebhook(signed(fixture('webhook-charge-completed')));
    expect(event).toMatchObject({ kind: 'payment', result: { status: 'RequiresCapture', amountCaptured: 0 } });
  });

  test('a still-waiting transaction, a reference mismatch and an unknown transaction are ignored', async () => {
    reply(
      ok(withData('verify-transaction', { status: 'pending' })),
      ok(withData('verify-transaction', { status: 'success-pending-validation' })),
      ok(withData('verify-transaction', { tx_ref: 'pay_other' })),
      { status: 400, body: fixture('error-not-found') },
    );
    for (let i = 0; i < 4; i += 1) {
      await expect(connector().parseWebhook(signed(fixture('webhook-charge-completed')))).resolves.toMatchObject({
        kind: 'ignored',
        eventId: 'flw_charge.completed_288200108_successful',
      });
    }
  });

  test('a transfer event naming no payout of ours is ignored without calling Flutterwave', async () => {
    // The sample's reference is Flutterwave's (`a0a827b1eca65311_PMCKDU_5`), not a payout id.
    const event = await connector().parseWebhook(signed(fixture('webhook-transfer-completed')));
    expect(event).toMatchObject({ kind: 'ignored', eventId: 'flw_transfer.completed_33286_successful' });
    expect(requests).toHaveLength(0);
  });

  test.each([
    ['a wrong verif-hash', 'not-the-secret-hash'],
    ['a verif-hash that only shares a prefix', `${WEBHOOK_HASH}x`],
    ['an empty verif-hash', ''],
    ['no verif-hash', null],
  ])('%s → WebhookSignatureError, nothing called', async (_what, hash) => {
    await expect(connector().parseWebhook(signed(fixture('webhook-charge-completed'), hash))).rejects.toBeInstanceOf(WebhookSignatureError);
    expect(requests).toHaveLength(0);
  });

  test.each([
    ['an empty verif-hash', ''],
    ['no verif-hash', null],
    ['any verif-hash', 'anything'],
  ])('no secret hash configured (optional at Flutterwave): %s → WebhookSignatureError, nothing called', async (_what, hash) => {
    const err = await connector({ webhookSecret: '' })
      .parseWebhook(signed(fixture('webhook-charge-completed'), hash))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookSignatureError);
    expect((err as Error).message).toMatch(/No Flutterwave secret hash is configured/);
    expect(requests).toHaveLength(0);
  });

  test('a correctly signed body that is not JSON → SyntaxError', async () => {
    await expect(connector().parseWebhook({ rawBody: '{not json', headers: { 'verif-hash': WEBHOOK_HASH } })).rejects.toBeInstanceOf(
      SyntaxError,
    );
  });

  test.each([
    ['not JSON', '{not json', 'invalid_json', undefined],
    ['JSON null', 'null', 'invalid_json', undefined],
    [
      'a charge.completed whose data.id is text',
      '{"event":"charge.completed","data":{"id":"288200108","tx_ref":"pay_1","status":"successful"}}',
      'parameter_invalid_type',
      'data.id',
    ],
  ])('a correctly signed body that is %s → WebhookPayloadError (400), Flutterwave not called', async (_what, rawBody, code, param) => {
    const err = await connector()
      .parseWebhook({ rawBody, headers: { 'verif-hash': WEBHOOK_HASH } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebhookPayloadError);
    expect(err).toMatchObject({ connector: 'flutterwave', code, param });
    expect(requests).toHaveLength(0);
  });
});

describe('errors', () => {
  test("a 4xx error body → ConnectorRequestError with Flutterwave's message as code", async () => {
    reply({ status: 400, body: fixture('error-invalid-card') });
    const err = await connector()
      .authorize(cardRequest())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ connector: 'flutterwave', code: 'invalid_card_number', message: 'Invalid card number' });
    expect(JSON.stringify(err)).not.toContain(SECRET_KEY);
  });

  test('a 200 answer whose envelope says "error" is a ConnectorRequestError too', async () => {
    reply(ok(fixture('error-not-found')));
    await expect(connector().syncRefund({ refundId: 're_1', connectorRefundId: '1', currency: 'NGN' })).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'no_transaction_was_found_for_this_id',
    });
  });

  test('a 5xx → ConnectorTechnicalError', async () => {
    reply({ status: 503, body: fixture('error-server') });
    await expect(connector().authorize(cardRequest())).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  test('no answer within timeoutMs → ConnectorTechnicalError', async () => {
    reply('hang');
    const started = Date.now();
    const err = await connector({ timeoutMs: 200 })
      .sync(syncRequest())
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as Error).message).toMatch(/did not answer in time/);
    // A server that never answers holds the call until the test's end: giving up well within 10 s shows the timeout
    // fired (a generous ceiling: a loaded machine may take over a second to run a 200 ms timer).
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
