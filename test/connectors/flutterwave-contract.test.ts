/**
 * Contract tests of the Flutterwave adapter against Flutterwave's own published material, not against this
 * project's assumptions:
 *
 * 1. Requests. Every request the adapter can send is captured by the loopback stand-in
 *    (fixtures/flutterwave/fixture-server.ts) and validated against the official Node SDK's joi request schema for
 *    that call, required from node_modules: flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit
 *    537f9f4455f922a879e4f088cf0f596621c3517c), services/schema/create.js (`cardChargeSchema`, `chargeSchema`,
 *    `ussdChargeSchema`, `momoSchema`, `refundSchema`, `tokenSchema`) and services/schema/base.js (`validateSchema`,
 *    `fetchSchema`, `listSchema`), with the joi the SDK itself uses. Card charges are decrypted with the test key
 *    first. Where the adapter sends a field Flutterwave documents but the SDK's schema lacks, the schema is extended
 *    by exactly that field (and a test proves nothing else differs): `preauthorize` (Flutterwave's preauthorization
 *    reference; typed as the SDK's own `tokenSchema.preauthorize`) and the refund's `comments` (Flutterwave's refunds
 *    guide, whose own SDK sample sends it). The SDK has no preauthorization calls: capture and preauth-refund bodies
 *    are validated with ajv against fixtures/flutterwave/request-schemas.json, transcribed from Flutterwave's API
 *    reference (sources in fixtures/SOURCES.md).
 *    The credential check (`GET /v3/balances`) is compared with what the SDK's own `Misc.bal()` sends.
 * 2. Responses. Every "Sample Response" of the SDK's documentation/collections.md, documentation/transactions.md and
 *    documentation/misc.md (read from node_modules at test time) runs through the adapter's mapping with an asserted
 *    outcome, or is listed with the reason it is not an answer the adapter reads (the SDK's 13 other documentation
 *    files document APIs the adapter never calls; a test classifies every file); so do the other official samples
 *    kept as fixtures (validate-charge, preauth refund, void; sources in fixtures/SOURCES.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import type { AuthenticateRequest, AuthorizeRequest, PaymentResult } from '../../shared/connectors/connector';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_GHANA_NETWORKS } from '../../shared/connectors/flutterwave/mobile-money';
import { FLUTTERWAVE_BALANCES_PATH } from '../../shared/connectors/flutterwave/requests';
import {
  isFlutterwaveBalances,
  paymentResultFromCharge,
  paymentResultFromTransaction,
  paymentResultFromValidation,
  refundResultFromPreauthRefund,
  refundResultFromRefund,
} from '../../shared/connectors/flutterwave/responses';
import type { FlutterwaveChargeType } from '../../shared/connectors/flutterwave/supported-methods';
import { FLUTTERWAVE_USSD_BANKS } from '../../shared/connectors/flutterwave/ussd-banks';
import type { FlutterwaveRefund, FlutterwaveResponse, FlutterwaveTransaction } from '../../shared/connectors/flutterwave/wire-types';
import type { Currency } from '../../shared/domain/money';
import {
  decryptCardPayload,
  type FixtureReply,
  type FixtureServer,
  flutterwaveFixture as fixture,
  ok,
  type RecordedRequest,
  startFixtureServer,
  withFixtureData as withData,
} from './fixtures/flutterwave/fixture-server';

// ---------------------------------------------------------------------------
// The SDK's own material
// ---------------------------------------------------------------------------

const SDK_DIR = join(require.resolve('flutterwave-node-v3/package.json'), '..');

/** The part of a joi schema these tests use (the SDK ships no types for its schemas). */
interface JoiSchema {
  validate(value: unknown, options?: { abortEarly?: boolean }): { error?: { details: Array<{ message: string }> } };
  keys(extra: Record<string, JoiSchema>): JoiSchema;
  extract(path: string): JoiSchema;
}
interface JoiModule {
  string(): JoiSchema;
}

const create = require('flutterwave-node-v3/services/schema/create') as Record<
  'cardChargeSchema' | 'chargeSchema' | 'ussdChargeSchema' | 'momoSchema' | 'refundSchema' | 'tokenSchema',
  JoiSchema
>;
const base = require('flutterwave-node-v3/services/schema/base') as Record<'validateSchema' | 'fetchSchema' | 'listSchema', JoiSchema>;
/** The joi the SDK validates with (its pinned dependency), for the two documented extensions. */
const joi = require(require.resolve('joi', { paths: [SDK_DIR] })) as JoiModule;

/** `cardChargeSchema` + `preauthorize` (Flutterwave's preauthorization reference: "preauthorize boolean"), typed as the SDK's `tokenSchema.preauthorize`. */
const cardChargeWithPreauth = create.cardChargeSchema.keys({ preauthorize: create.tokenSchema.extract('preauthorize') });
/** `refundSchema` + `comments` (Flutterwave's refunds guide: `flw.Transaction.refund({id, amount, comments})`, and its curl sample's body). */
const refundWithComments = create.refundSchema.keys({ comments: joi.string() });

const requestSchemas = fixture<Record<'capturePreauth' | 'refundPreauth', object>>('request-schemas');
const ajv = new Ajv({ allErrors: true });
const capturePreauthSchema = ajv.compile(requestSchemas.capturePreauth);
const refundPreauthSchema = ajv.compile(requestSchemas.refundPreauth);

/** Messages of a joi validation (empty when valid), every error reported. */
function problems(schema: JoiSchema, value: unknown): string[] {
  return schema.validate(value, { abortEarly: false }).error?.details.map((d) => d.message) ?? [];
}

test('the SDK is the version whose schemas and samples these tests cite (1.4.1); another version must be re-read first', () => {
  expect((JSON.parse(readFileSync(join(SDK_DIR, 'package.json'), 'utf8')) as { version: string }).version).toBe('1.4.1');
});

// ---------------------------------------------------------------------------
// 1. Every request the adapter can send
// ---------------------------------------------------------------------------

const SECRET_KEY = 'FLWSECK_TEST-0000test0000secret0000-X';
const ENCRYPTION_KEY = 'FLWSECK_TEST0123456789ab';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const BASE = 'https://api.example.test';
const CARD = { card_number: '5531886652142950', card_exp_month: '9', card_exp_year: '2032', card_cvc: '564' };

let fw: FixtureServer;
beforeAll(async () => {
  fw = await startFixtureServer();
});
afterAll(async () => {
  await fw.close();
});
beforeEach(() => fw.reset());

function connector(): FlutterwaveConnector {
  return new FlutterwaveConnector({
    baseUrl: fw.baseUrl,
    secretKey: SECRET_KEY,
    webhookSecret: 'hash',
    encryptionKey: ENCRYPTION_KEY,
    timeoutMs: 2000,
    now: () => NOW,
  });
}

function authorizeRequest(overrides: Partial<AuthorizeRequest>): AuthorizeRequest {
  return {
    paymentId: 'pay_flw_contract',
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: CARD,
    email: 'payer@example.com',
    phone: '+2348012345678',
    publicBaseUrl: BASE,
    returnUrl: `${BASE}/pay/pay_flw_contract/return`,
    ...overrides,
  };
}

function stepRequest(overrides: Partial<AuthenticateRequest> & Pick<AuthenticateRequest, 'step'>): AuthenticateRequest {
  return {
    paymentId: 'pay_flw_contract',
    connectorTransactionId: 'pay_flw_contract',
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    email: 'payer@example.com',
    publicBaseUrl: BASE,
    returnUrl: `${BASE}/pay/pay_flw_contract/return`,
    ...overrides,
  };
}

/** Runs an adapter call against queued replies and returns what it sent. */
async function sent(replies: FixtureReply[], call: (c: FlutterwaveConnector) => Promise<unknown>): Promise<RecordedRequest[]> {
  fw.reply(...replies);
  await call(connector());
  return [...fw.requests];
}

const bodyOf = (r: RecordedRequest | undefined) => JSON.parse(r?.body ?? '') as Record<string, unknown>;
const cardPayloadOf = (r: RecordedRequest | undefined) => decryptCardPayload(ENCRYPTION_KEY, bodyOf(r).client as string);
/** The SDK validates its own input, which carries the encryption key (`enckey`, required); Flutterwave's payload does not need it. */
const asSdkCardInput = (payload: Record<string, unknown>): Record<string, unknown> => ({ ...payload, enckey: ENCRYPTION_KEY });

const ourTx = (patch: Record<string, unknown> = {}) => withData('verify-transaction', { tx_ref: 'pay_flw_contract', ...patch });

describe("request bodies against flutterwave-node-v3 1.4.1's joi schemas", () => {
  test('card charge (POST /v3/charges?type=card): the decrypted payload passes cardChargeSchema', async () => {
    const [charge] = await sent([ok(fixture('charge-card-redirect'))], (c) => c.authorize(authorizeRequest({})));
    expect(charge?.path).toBe('/v3/charges?type=card');
    expect(Object.keys(bodyOf(charge))).toEqual(['client']);
    expect(problems(create.cardChargeSchema, asSdkCardInput(cardPayloadOf(charge)))).toEqual([]);
  });

  test('preauthorized card charge: passes cardChargeSchema + the documented preauthorize flag, and differs from the SDK schema by that flag only', async () => {
    const [charge] = await sent([ok(fixture('charge-card-preauth'))], (c) =>
      c.authorize(authorizeRequest({ currency: 'USD', captureMethod: 'manual' })),
    );
    const payload = asSdkCardInput(cardPayloadOf(charge));
    expect(payload.preauthorize).toBe(true);
    expect(problems(cardChargeWithPreauth, payload)).toEqual([]);
    expect(problems(create.cardChargeSchema, payload)).toEqual(['"preauthorize" is not allowed']);
  });

  test('PIN step (the charge sent again with authorization {mode: pin, pin}) passes cardChargeSchema', async () => {
    // The lookup by reference that precedes a re-send (no charge yet), then the re-sent charge.
    const [lookup, charge] = await sent([{ status: 400, body: fixture('error-not-found') }, ok(fixture('charge-card-otp'))], (c) =>
      c.authenticate(stepRequest({ step: 'submit_pin', pin: '3310', card: CARD })),
    );
    expect(lookup?.path).toMatch(/^\/v3\/transactions\/verify_by_reference\?tx_ref=/);
    const payload = cardPayloadOf(charge);
    expect(payload.authorization).toEqual({ mode: 'pin', pin: '3310' });
    expect(problems(create.cardChargeSchema, asSdkCardInput(payload))).toEqual([]);
  });

  test('address step (authorization {mode: avs_noauth, city, address, state, country, zipcode}) passes cardChargeSchema', async () => {
    const address = { line1: '470 Mundet Pl', city: 'Hillside', state: 'NJ', zip: '07205', country: 'US' };
    const [, charge] = await sent([{ status: 400, body: fixture('error-not-found') }, ok(fixture('charge-card-redirect'))], (c) =>
      c.authenticate(stepRequest({ step: 'submit_address', address, card: CARD })),
    );
    const payload = cardPayloadOf(charge);
    expect(payload.authorization).toEqual({
      mode: 'avs_noauth',
      city: 'Hillside',
      address: '470 Mundet Pl',
      state: 'NJ',
      country: 'US',
      zipcode: '07205',
    });
    expect(problems(create.cardChargeSchema, asSdkCardInput(payload))).toEqual([]);
  });

  test('OTP step (POST /v3/validate-charge) passes validateSchema; its flw_ref came from GET /v3/transactions/{id}/verify (fetchSchema)', async () => {
    const pending = {
      status: 'success',
      message: 'Transaction fetched successfully',
      data: { ...(fixture('charge-card-otp').data as object), tx_ref: 'pay_flw_contract' },
    };
    const [verify, validate] = await sent([ok(pending), ok(withData('validate-charge', { tx_ref: 'pay_flw_contract' }))], (c) =>
      c.authenticate(stepRequest({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '12345' })),
    );
    expect(verify?.path).toBe('/v3/transactions/288192886/verify');
    expect(problems(base.fetchSchema, { id: '288192886' })).toEqual([]);
    expect(validate?.path).toBe('/v3/validate-charge');
    expect(bodyOf(validate)).toEqual({ otp: '12345', flw_ref: 'FLW275389391', type: 'card' });
    expect(problems(base.validateSchema, bodyOf(validate))).toEqual([]);
  });

  test('bank transfer (POST /v3/charges?type=bank_transfer) passes chargeSchema', async () => {
    const [charge] = await sent([ok(fixture('charge-bank-transfer'))], (c) =>
      c.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', card: undefined })),
    );
    expect(charge?.path).toBe('/v3/charges?type=bank_transfer');
    expect(problems(create.chargeSchema, bodyOf(charge))).toEqual([]);
  });

  test.each(
    FLUTTERWAVE_USSD_BANKS.map((code) => [code]),
  )('USSD with bank %s (POST /v3/charges?type=ussd) passes ussdChargeSchema', async (code) => {
    const [charge] = await sent([ok(fixture('charge-ussd'))], (c) =>
      c.authorize(authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: code })),
    );
    expect(charge?.path).toBe('/v3/charges?type=ussd');
    expect(bodyOf(charge).account_bank).toBe(code);
    expect(problems(create.ussdChargeSchema, bodyOf(charge))).toEqual([]);
  });

  test.each([
    ['MTN', '+233241234567'],
    ['TELECEL', '+233201234567'],
    ['AIRTELTIGO', '+233271234567'],
  ] as const)('Ghana mobile money, %s number (POST /v3/charges?type=mobile_money_ghana) passes momoSchema', async (operator, phone) => {
    const [charge] = await sent([ok(fixture('charge-mobile-money-ghana'))], (c) =>
      c.authorize(authorizeRequest({ currency: 'GHS', paymentMethod: 'mobile_money', card: undefined, phone })),
    );
    expect(bodyOf(charge).network).toBe(FLUTTERWAVE_GHANA_NETWORKS[operator]);
    expect(problems(create.momoSchema, bodyOf(charge))).toEqual([]);
  });

  test('the current guide\'s spellings "Telecel" and "TIGO" are refused by the SDK\'s momoSchema (why the adapter sends VODAFONE and AIRTELTIGO)', () => {
    const body = { tx_ref: 'x', amount: '1.00', currency: 'GHS', email: 'a@b.co', phone_number: '0201234567' };
    expect(problems(create.momoSchema, { ...body, network: 'Telecel' })).toEqual(['Only MTN, AIRTELTIGO, and VODAFONE are valid for GHS.']);
    expect(problems(create.momoSchema, { ...body, network: 'TIGO' })).toEqual(['Only MTN, AIRTELTIGO, and VODAFONE are valid for GHS.']);
  });

  test('M-Pesa (POST /v3/charges?type=mpesa) passes momoSchema', async () => {
    const [charge] = await sent([ok(fixture('charge-mpesa'))], (c) =>
      c.authorize(
        authorizeRequest({ currency: 'KES', amount: 1000, paymentMethod: 'mobile_money', card: undefined, phone: '+254712345678' }),
      ),
    );
    expect(charge?.path).toBe('/v3/charges?type=mpesa');
    expect(problems(create.momoSchema, bodyOf(charge))).toEqual([]);
  });

  test('refund (POST /v3/transactions/{id}/refund) passes refundSchema (id from the path) + the documented comments, and differs by comments only', async () => {
    const [verify, refund] = await sent([ok(ourTx()), ok(fixture('refund'))], (c) =>
      c.refund({
        paymentId: 'pay_flw_contract',
        connectorTransactionId: '288200108',
        currency: 'NGN',
        amount: 6000,
        refundId: 're_contract',
      }),
    );
    expect(problems(base.fetchSchema, { id: verify?.path.split('/')[3] })).toEqual([]);
    expect(refund?.path).toBe('/v3/transactions/288200108/refund');
    const sdkInput = { id: '288200108', ...bodyOf(refund) };
    expect(problems(refundWithComments, sdkInput)).toEqual([]);
    expect(problems(create.refundSchema, sdkInput)).toEqual(['"comments" is not allowed']);
  });

  test("preauth capture, preauth refund and void: the bodies Flutterwave's reference documents (ajv, request-schemas.json); void has none", async () => {
    const preauth = ourTx({ charge_type: 'preauth', flw_ref: 'FLW-MOCK-PREAUTH-1' });
    const captured = await sent([ok(preauth), ok(fixture('capture'))], (c) =>
      c.capture({ paymentId: 'pay_flw_contract', connectorTransactionId: '288200108', currency: 'NGN', amount: 5000 }),
    );
    expect(captured[1]?.path).toBe('/v3/charges/FLW-MOCK-PREAUTH-1/capture');
    expect([capturePreauthSchema(bodyOf(captured[1])), capturePreauthSchema.errors]).toEqual([true, null]);
    fw.reset();
    const refunded = await sent([ok(preauth), ok(fixture('refund-preauth'))], (c) =>
      c.refund({
        paymentId: 'pay_flw_contract',
        connectorTransactionId: '288200108',
        currency: 'NGN',
        amount: 5000,
        refundId: 're_contract',
      }),
    );
    expect(refunded[1]?.path).toBe('/v3/charges/FLW-MOCK-PREAUTH-1/refund');
    expect([refundPreauthSchema(bodyOf(refunded[1])), refundPreauthSchema.errors]).toEqual([true, null]);
    // The schemas are not vacuous: the general refund's body would not pass.
    expect(refundPreauthSchema({ amount: '50.00', comments: 'Refund re_contract' })).toBe(false);
    expect(capturePreauthSchema({ amount: 50 })).toBe(false);
    fw.reset();
    const voided = await sent([ok(preauth), ok(fixture('void'))], (c) =>
      c.void({ paymentId: 'pay_flw_contract', connectorTransactionId: '288200108', currency: 'NGN' }),
    );
    expect([voided[1]?.path, voided[1]?.body]).toEqual(['/v3/charges/FLW-MOCK-PREAUTH-1/void', '']);
  });

  test('GET queries: verify_by_reference (listSchema tx_ref), the refunds list (listSchema id/from/to/page), refund sync (fetchSchema id)', async () => {
    const byRef = await sent([ok(ourTx())], (c) =>
      c.sync({
        paymentId: 'pay_flw_contract',
        connectorTransactionId: null,
        amount: 10000,
        currency: 'NGN',
        paymentMethod: 'card',
        captureMethod: 'automatic',
        createdAt: new Date(NOW).toISOString(),
      }),
    );
    const refQuery = Object.fromEntries(new URL(byRef[0]?.path ?? '', 'http://x').searchParams);
    expect(refQuery).toEqual({ tx_ref: 'pay_flw_contract' });
    expect(problems(base.listSchema, refQuery)).toEqual([]);
    fw.reset();
    const listed = await sent([ok(ourTx()), ok(fixture('refund-list'))], (c) =>
      c.findRefund({
        refundId: 're_flw_1',
        paymentId: 'pay_flw_contract',
        connectorTransactionId: '288200108',
        amount: 6000,
        currency: 'NGN',
        createdAt: new Date(NOW - 3600_000).toISOString(),
      }),
    );
    const listQuery = Object.fromEntries(new URL(listed[1]?.path ?? '', 'http://x').searchParams);
    expect(Object.keys(listQuery).sort()).toEqual(['from', 'id', 'page', 'to']);
    expect(problems(base.listSchema, listQuery)).toEqual([]);
    fw.reset();
    const synced = await sent([ok(fixture('get-refund'))], (c) =>
      c.syncRefund({ refundId: 're_flw_1', connectorRefundId: '75923', currency: 'NGN' }),
    );
    expect(synced[0]?.path).toBe('/v3/refunds/75923');
    expect(problems(base.fetchSchema, { id: '75923' })).toEqual([]);
  });

  test("credential check: GET /v3/balances with no query nor body, as the SDK's Misc.bal() sends it (services/misc/rave.balances.js)", async () => {
    const sdkService = readFileSync(join(SDK_DIR, 'services', 'misc', 'rave.balances.js'), 'utf8');
    expect(sdkService).toContain('`/v3/balances?`'); // handleEmptyFetch: a GET of that URI, no parameters
    const checked = await sent([ok(sdkSamples('misc.md').get('Get all wallet balances'))], (c) => c.verifyCredentials());
    expect(checked).toHaveLength(1);
    expect(checked[0]).toMatchObject({ method: 'GET', path: FLUTTERWAVE_BALANCES_PATH, body: '' });
  });

  test('the schemas are not vacuous: a body missing what Flutterwave requires is refused by each', () => {
    expect(
      problems(create.cardChargeSchema, {
        enckey: 'k',
        tx_ref: 'x',
        amount: '1.00',
        card_number: '5531886652142950',
        cvv: '564',
        expiry_month: '09',
        expiry_year: '32',
      }),
    ).toEqual(['"email" is required']);
    expect(problems(create.ussdChargeSchema, { tx_ref: 'x', amount: '1.00', currency: 'NGN', email: 'a@b.co' })).toEqual([
      '"account_bank" is required',
    ]);
    expect(problems(base.validateSchema, { otp: '12345', type: 'card' })).toEqual(['"flw_ref" is required']);
    expect(problems(create.chargeSchema, { tx_ref: 'x', amount: '1.00', currency: 'NGN', email: 'a@b.co', is_permanent: false })).toEqual([
      '"is_permanent" is not allowed',
    ]);
  });
});

// ---------------------------------------------------------------------------
// 2. Every documented response sample through the adapter's mapping
// ---------------------------------------------------------------------------

/** The "Sample Response" JSON blocks of one of the SDK's documentation files, by the `## ` section they are under. */
function sdkSamples(file: string): Map<string, unknown> {
  const text = readFileSync(join(SDK_DIR, 'documentation', file), 'utf8');
  const samples = new Map<string, unknown>();
  const re = /^## (.+)$|Sample Response\s*\n+```(?:javascript|json)?\n([\s\S]*?)\n```/gm;
  let section = '';
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[1]) section = m[1].trim();
    else samples.set(section, JSON.parse(m[2] ?? '') as unknown);
  }
  return samples;
}

/** Some samples print the SDK's raw HTTP wrapper `{ body: … }`; the API's answer is the body. */
const unwrap = (sample: unknown) => ((sample as { body?: unknown }).body ?? sample) as FlutterwaveResponse<FlutterwaveTransaction>;

/**
 * The SDK's documentation files and why only two are read: the others document APIs the adapter never calls, whose
 * samples are not answers to anything it sends (a new file in another SDK version fails this test until classified).
 */
const SDK_DOC_FILES: Record<string, string> = {
  'collections.md': 'read: POST /v3/charges answers (every charge type)',
  'transactions.md': 'read: verify, verify_by_reference, refund, transaction list',
  'banks.md': 'bank lists (GET /v3/banks): never called',
  'beneficiary.md': 'transfer beneficiaries: never called',
  'billPayments.md': 'bill payments: never called',
  'ebills.md': 'ebills: never called',
  'misc.md':
    'read: GET /v3/balances ("Get all wallet balances", the credential check); balance per currency, account resolution, BVN: never called',
  'otp.md': "Flutterwave's standalone OTP service (/v3/otps), not validate-charge: never called",
  'payment-plan.md': 'payment plans: never called',
  'settlements.md': 'settlements: never called',
  'subaccount.md': 'subaccounts: never called',
  'subscription.md': 'subscriptions: never called',
  'tokenization.md':
    'tokenized charges (POST /v3/tokenized-charges, saved cards): its body and "Charge with token" sample are checked in flutterwave-saved-methods.test.ts; bulk charges and token updates: never called',
  'transfers.md': 'payouts: never called',
  'virtualAccount.md': 'virtual account numbers: never called',
  'virtualCard.md': 'virtual cards: never called',
};

test('every documentation file of the SDK is classified: read for samples, or an API the adapter never calls', () => {
  expect(
    readdirSync(join(SDK_DIR, 'documentation'))
      .filter((f) => f.endsWith('.md'))
      .sort(),
  ).toEqual(Object.keys(SDK_DOC_FILES).sort());
});

const chargeContext = (type: FlutterwaveChargeType, currency: Currency = 'NGN', amount = 150000) => ({
  request: { amount, currency, paymentId: 'pay_flw_sample', captureMethod: 'automatic' as const, publicBaseUrl: BASE },
  type,
  now: NOW,
});

describe('flutterwave-node-v3 1.4.1 documentation/collections.md: every charge sample through paymentResultFromCharge', () => {
  const samples = sdkSamples('collections.md');
  const redirect = (url: string, id: string | null): PaymentResult => ({
    status: 'RequiresAction',
    connectorTransactionId: id,
    amountCaptured: 0,
    nextAction: { type: 'redirect_to_url', redirect_to_url: url },
  });
  /**
   * Per section: the charge type it is mapped as and the asserted outcome. The mapping depends on the type only for
   * M-Pesa (no mode: the STK push); samples of charge types this adapter never sends run as `card`.
   */
  const expected: Record<string, { type: FlutterwaveChargeType; outcome: PaymentResult }> = {
    'Bank Transfers': {
      type: 'bank_transfer',
      outcome: {
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
      },
    },
    'Direct debit (Nigerian bank account)': {
      type: 'card',
      outcome: redirect('https://ravesandboxapi.flutterwave.com/flwv3-pug/getpaid/api/short-url/aqp45TtNl', '4475057'),
    },
    'Direct debit (UK & EU bank account)': {
      type: 'card',
      outcome: redirect('https://token-io-fe.dev-flutterwave.com/transactions?reference=LFTT5300124270590', '4474995'),
    },
    'ACH Payement': {
      type: 'card',
      outcome: redirect('https://flutterwavestaging.com:9443/flwusprocessor/redirect?hid=FLW3f9f99f0e5534d438c15297bc608f21d', '1190657'),
    },
    USSD: {
      type: 'ussd',
      outcome: {
        status: 'RequiresAction',
        connectorTransactionId: '4517159',
        amountCaptured: 0,
        nextAction: {
          type: 'display_ussd_code',
          ussd: {
            code: '*566*002*4517159#',
            reference: 'flwm3s4m0c1691591875526',
            expires_at: new Date(NOW + 24 * 3600_000).toISOString(),
          },
        },
      },
    },
    Mpesa: {
      type: 'mpesa',
      outcome: {
        status: 'Processing',
        connectorTransactionId: '4193428',
        amountCaptured: 0,
        nextAction: {
          type: 'await_mobile_money_approval',
          mobile_money: { message: 'Approve the M-Pesa prompt sent to your phone.', reference: '2993238342' },
        },
      },
    },
    'Ghana mobile money': {
      type: 'mobile_money_ghana',
      outcome: redirect('https://ravemodal-dev.herokuapp.com/captcha/verify/83940:dede0352930befaac522ca71e969f0e2', null),
    },
    'Rwanda mobile money': {
      type: 'card',
      outcome: redirect('https://ravemodal-dev.herokuapp.com/captcha/verify/lang-en/97635:6450140e7b1d0108b402bd3c326f2d15', null),
    },
    'Uganda mobile money': {
      type: 'card',
      outcome: redirect('https://ravemodal-dev.herokuapp.com/captcha/verify/lang-en/97639:6bd0e317a5d95ccc7ea163482b33bdd2', null),
    },
    'Francophone mobile money': { type: 'card', outcome: { status: 'Processing', connectorTransactionId: '4193429', amountCaptured: 0 } },
    'Zambia mobile money': {
      type: 'card',
      outcome: redirect('https://ravemodal-dev.herokuapp.com/captcha/verify/lang-en/97640:5dd11685fe49474090416b67eff38dc7', null),
    },
    'Tanzania mobile money': { type: 'card', outcome: { status: 'Processing', connectorTransactionId: '976392302', amountCaptured: 0 } },
    Enaira: {
      type: 'card',
      outcome: redirect(
        'https://camltest.azurewebsites.net/enairapay/?invoiceId=01GVDVRTG80MVSRJJQQYRFTZK3&amount=200&token=438890',
        '4197118',
      ),
    },
    'Apple Pay': { type: 'card', outcome: redirect('https://applepay.aq2-flutterwave.com?reference=TKVH48681032738026', '645498756') },
    'Google Pay': {
      type: 'card',
      outcome: redirect('https://rave-api-v2.herokuapp.com/flwv3-pug/getpaid/api/short-url/XPtNw-WkQ', '2615403'),
    },
  };

  test('every sample of the file is mapped below (a new sample in another SDK version must be added)', () => {
    expect([...samples.keys()].sort()).toEqual(Object.keys(expected).sort());
  });

  test.each(Object.entries(expected))('%s', (section, { type, outcome }) => {
    expect(paymentResultFromCharge(unwrap(samples.get(section)), chargeContext(type))).toEqual(outcome);
  });
});

describe('flutterwave-node-v3 1.4.1 documentation/transactions.md: every sample through the transaction or refund mapping', () => {
  const samples = sdkSamples('transactions.md');
  const notAState: Record<string, string> = {
    'Get transaction fee': 'a fee quote (GET /v3/transactions/fee), not a payment or refund state; the adapter never calls it',
    'Resend transaction webhook': 'an acknowledgement ("hook sent"), not a payment or refund state; the adapter never calls it',
    'View transaction timeline': 'a list of timeline events without statuses; the adapter never calls it',
  };
  const mapped = ['Get all transactions', 'Create a transaction refund', 'Verify transaction', 'Verify transaction with reference'];

  test('every sample of the file is either mapped or listed as not a state', () => {
    expect([...samples.keys()].sort()).toEqual([...mapped, ...Object.keys(notAState)].sort());
  });

  test('Get all transactions: each listed transaction through paymentResultFromTransaction (pending stays open; successful → amount in minor units)', () => {
    const list = unwrap(samples.get('Get all transactions')) as unknown as { data: FlutterwaveTransaction[] };
    const outcomes = list.data.map((tx) => paymentResultFromTransaction(tx, { preauthorized: false, pendingStatus: 'RequiresAction' }));
    expect(outcomes.map((r) => [r.connectorTransactionId, r.status, r.amountCaptured])).toEqual([
      ['989226', 'RequiresAction', 0],
      ['989223', 'RequiresAction', 0],
      ['989222', 'RequiresAction', 0],
      ['989217', 'RequiresAction', 0],
      ['989216', 'RequiresAction', 0],
      ['989214', 'RequiresAction', 0],
      ['989213', 'RequiresAction', 0],
      ['989208', 'Succeeded', 10_000_000],
      ['989207', 'Succeeded', 100_000],
      ['989058', 'Succeeded', 5_000_000],
    ]);
  });

  test('Create a transaction refund: "completed" is final → Succeeded with the refund\'s own id', () => {
    const refund = unwrap(samples.get('Create a transaction refund')) as unknown as FlutterwaveResponse<FlutterwaveRefund>;
    expect(refundResultFromRefund(refund.data as FlutterwaveRefund)).toEqual({ status: 'Succeeded', connectorRefundId: '8612' });
  });

  test('Verify transaction and Verify transaction with reference → Succeeded with the amount in minor units', () => {
    const byId = unwrap(samples.get('Verify transaction')).data as FlutterwaveTransaction;
    const byRef = unwrap(samples.get('Verify transaction with reference')).data as FlutterwaveTransaction;
    expect(paymentResultFromTransaction(byId, { preauthorized: false, pendingStatus: 'RequiresAction' })).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '288200108',
      amountCaptured: 10000,
      // A saved card: the sample's data.card.token, a year after its created_at (flutterwave-saved-methods.test.ts)
      savedMethod: {
        token: 'flw-t1nf-4676a40c7ddf5f12scr432aa12d471973-k3n',
        processorCustomerId: null,
        email: 'user@gmail.com',
        fingerprint: null,
        card: { brand: 'verve', last4: '4567', expMonth: 2, expYear: 2023, bin: '232343', issuerCountry: 'NG' },
        expiresAt: '2021-07-15T14:31:16.000Z',
      },
    });
    expect(paymentResultFromTransaction(byRef, { preauthorized: false, pendingStatus: 'RequiresAction' })).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '8415006',
      amountCaptured: 250000,
      savedMethod: {
        token: 'flw-t1nf-937086f0365b7334de60da246def40df-m03k',
        processorCustomerId: null,
        email: 'test@mailinator.com',
        fingerprint: null,
        card: { brand: 'visa', last4: '4246', expMonth: 9, expYear: 2032, bin: '418742', issuerCountry: 'NG' },
        expiresAt: '2026-02-27T18:29:34.000Z',
      },
    });
  });
});

describe('flutterwave-node-v3 1.4.1 documentation/misc.md: the wallet balances sample is what the credential check accepts', () => {
  const samples = sdkSamples('misc.md');
  const notRead: Record<string, string> = {
    'Get balances per currency': 'GET /v3/balances/{currency}: one wallet (`data` an object); the adapter reads all wallets',
    'Resolve account details': 'account resolution (POST /v3/accounts/resolve): never called',
    'Initiate BVN Consent': 'BVN consent (POST /v3/bvn/verifications): never called',
    'Verify BVN consent': 'BVN details (GET /v3/bvn/verifications/{reference}): never called',
  };

  test('every sample of the file is either read or listed as not read', () => {
    expect([...samples.keys()].sort()).toEqual(['Get all wallet balances', ...Object.keys(notRead)].sort());
  });

  test('Get all wallet balances → recognised, and verifyCredentials resolves on it', async () => {
    const sample = samples.get('Get all wallet balances');
    expect(isFlutterwaveBalances(sample)).toBe(true);
    fw.reply(ok(sample));
    await expect(connector().verifyCredentials()).resolves.toBeUndefined();
  });

  test('the per-currency sample (one wallet) is not the answer of GET /v3/balances', () => {
    expect(isFlutterwaveBalances(samples.get('Get balances per currency'))).toBe(false);
  });
});

describe('other official samples kept as fixtures (sources in fixtures/SOURCES.md)', () => {
  test('validate-charge, developer.flutterwave.com reference and the v3 OpenAPI rendering → Succeeded', () => {
    expect(
      paymentResultFromValidation(
        fixture('validate-charge') as unknown as FlutterwaveResponse<FlutterwaveTransaction>,
        chargeContext('card', 'NGN', 10000),
      ),
    ).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '288200108',
      amountCaptured: 10000,
    });
    expect(
      paymentResultFromValidation(
        fixture('validate-charge-mintlify') as unknown as FlutterwaveResponse<FlutterwaveTransaction>,
        chargeContext('card', 'NGN', 10000),
      ),
    ).toEqual({
      status: 'Succeeded',
      connectorTransactionId: '4981392',
      amountCaptured: 10000,
    });
  });

  test('refund of a preauthorized charge ("Charge refunded") → Succeeded, no refund id in the answer', () => {
    expect(refundResultFromPreauthRefund(fixture('refund-preauth') as unknown as FlutterwaveResponse<FlutterwaveTransaction>)).toEqual({
      status: 'Succeeded',
      connectorRefundId: null,
    });
  });

  test('a voided preauth ("status": "voided") read back by verify → Cancelled', () => {
    const voided = fixture('void-mintlify').data as FlutterwaveTransaction;
    expect(paymentResultFromTransaction(voided, { preauthorized: true, pendingStatus: 'RequiresAction' })).toEqual({
      status: 'Cancelled',
      connectorTransactionId: '4973327',
      amountCaptured: 0,
    });
  });

  test("the card guide's PIN and address requests → the card steps with card_required", () => {
    const ctx = chargeContext('card');
    for (const [name, step] of [
      ['charge-card-authorization-required', 'submit_pin'],
      ['charge-card-avs-required', 'submit_address'],
    ] as const) {
      expect(paymentResultFromCharge(fixture(name) as unknown as FlutterwaveResponse<FlutterwaveTransaction>, ctx)).toEqual({
        status: 'RequiresAction',
        connectorTransactionId: 'pay_flw_sample',
        amountCaptured: 0,
        nextAction: { type: step, display_text: null, redirect_to_url: `${BASE}/pay/pay_flw_sample/authenticate`, card_required: true },
      });
    }
  });
});
