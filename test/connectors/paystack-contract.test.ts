/**
 * Contract tests of the Paystack adapter against Paystack's own published material, kept in the
 * repository as fixtures (provenance: fixtures/SOURCES.md, "Paystack contract fixtures"):
 *
 * - fixtures/paystack/openapi/: the PaystackOSS/openapi files (commit 9678dea922a900b2485969592055ccf634460352)
 *   of every endpoint the adapter calls — paths/charge.yaml, charge_submit_{pin,otp,phone,birthday,address}.yaml,
 *   charge_{reference}.yaml, transaction_initialize.yaml, transaction_verify_{reference}.yaml, refund.yaml,
 *   refund_{id}.yaml, balance.yaml (the credential check) — with every component they reference, unchanged.
 * - fixtures/paystack/doc-code-snippets/: Paystack's response samples (PaystackOSS/doc-code-snippets commit
 *   94af513d752dfc9f85dd0718301e7257091eb7f2), unchanged, and the removed `card` request sample
 *   (doc/payments/charge/request/index.json at a0ac6a3dea0071749e394caf201a19a543c18217, the parent of
 *   the commit that removed it, 2c8a413d59a2d5f5b28450ab66bc617999c73384).
 *
 * What is checked:
 * 1. Every request the adapter can send, captured by a loopback stand-in for api.paystack.co (each
 *    authorize flow, each authentication step, refund, and the reads), is validated with ajv against the
 *    request schema of its path, AND every property it sends must be declared by that schema or be one of
 *    the DOCUMENTED_EXCEPTIONS below, each with its source (so a property Paystack does not document
 *    cannot slip in unnoticed, and an exception no flow uses any more fails the test).
 * 2. Every response example of those openapi files, and every response sample of doc-code-snippets for
 *    those endpoints, runs through the adapter's status mapping with its outcome asserted explicitly.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  ConnectorRequestError,
  type PaymentResult,
  type RefundResult,
  type WebhookEvent,
} from '../../shared/connectors/connector';
import { isReferenceNotFound, PAYSTACK_NOT_FOUND_SETTLE_MS } from '../../shared/connectors/paystack/lookups';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import { type ChargeContext, chargeToPaymentResult, paystackErrorOf } from '../../shared/connectors/paystack/responses';
import { logger } from '../../shared/observability/logger';

/* ------------------------------------------------------------------------------------------------
 * The openapi fixtures: YAML with relative $refs, resolved into plain JSON Schema
 * --------------------------------------------------------------------------------------------- */

const FIXTURES = path.join(__dirname, 'fixtures', 'paystack');
const OPENAPI = path.join(FIXTURES, 'openapi');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const yamlCache = new Map<string, Json>();
function loadYaml(file: string): Json {
  const hit = yamlCache.get(file);
  if (hit !== undefined) return hit;
  const parsed = yaml.load(readFileSync(file, 'utf8')) as Json;
  yamlCache.set(file, parsed);
  return parsed;
}

/**
 * `node` with every `$ref` (a path relative to the file holding it; the fixtures use no fragments)
 * replaced by the referenced file's content, recursively, and OpenAPI 3.0's `nullable` turned into
 * JSON Schema (`type: [t, "null"]`; without a type it says nothing and is dropped).
 */
function resolve(node: Json, file: string): Json {
  if (Array.isArray(node)) return node.map((n) => resolve(n, file));
  if (node === null || typeof node !== 'object') return node;
  if (typeof node.$ref === 'string') {
    const target = path.resolve(path.dirname(file), node.$ref);
    return resolve(loadYaml(target), target);
  }
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) out[key] = resolve(value, file);
  if (out.nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
  }
  delete out.nullable;
  return out;
}

/** A path file of the fixtures, resolved. */
function pathItem(name: string): JsonObject {
  const file = path.join(OPENAPI, 'paths', `${name}.yaml`);
  return resolve(loadYaml(file), file) as JsonObject;
}

/**
 * The endpoints the adapter calls, as PaystackOSS/openapi src/assets/openapi/openapi.yaml mounts the
 * path files (`/charge: $ref: paths/charge.yaml`, …, `/refund/{id}: $ref: paths/refund_{id}.yaml`).
 */
const ENDPOINTS: readonly { template: string; file: string }[] = [
  { template: '/charge', file: 'charge' },
  { template: '/charge/submit_pin', file: 'charge_submit_pin' },
  { template: '/charge/submit_otp', file: 'charge_submit_otp' },
  { template: '/charge/submit_phone', file: 'charge_submit_phone' },
  { template: '/charge/submit_birthday', file: 'charge_submit_birthday' },
  { template: '/charge/submit_address', file: 'charge_submit_address' },
  { template: '/charge/{reference}', file: 'charge_{reference}' },
  { template: '/transaction/initialize', file: 'transaction_initialize' },
  { template: '/transaction/verify/{reference}', file: 'transaction_verify_{reference}' },
  { template: '/refund', file: 'refund' },
  { template: '/refund/{id}', file: 'refund_{id}' },
  { template: '/balance', file: 'balance' },
  // Saved cards (mounted so by openapi.yaml; the deactivation path since commit ef89553d5bda).
  { template: '/transaction/charge_authorization', file: 'transaction_charge_authorization' },
  { template: '/customer/authorization/deactivate', file: 'customer_authorization_deactivate' },
];

/** The endpoint a concrete path belongs to (literal templates win over parameterised ones). */
function endpointOf(pathname: string): { template: string; file: string } | undefined {
  const literal = ENDPOINTS.find((e) => e.template === pathname);
  if (literal) return literal;
  return ENDPOINTS.find((e) => new RegExp(`^${e.template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname));
}

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv);
ajv.addKeyword('example');

const validators = new Map<string, ValidateFunction>();
/** The ajv validator of the JSON request body of `POST <template>`. */
function requestValidator(template: string): ValidateFunction {
  const hit = validators.get(template);
  if (hit) return hit;
  const endpoint = ENDPOINTS.find((e) => e.template === template);
  if (!endpoint) throw new Error(`no openapi file for ${template}`);
  const schema = requestSchema(endpoint.file);
  const validate = ajv.compile(schema as object);
  validators.set(template, validate);
  return validate;
}

/** `post.requestBody.content['application/json'].schema` of a path file. */
function requestSchema(file: string): JsonObject {
  const item = pathItem(file) as any;
  const schema = item?.post?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${file} has no JSON request body`);
  return schema as JsonObject;
}

/** The schema of property `key` in `schema` (looking through `allOf`), or undefined when undeclared. */
function propertySchema(schema: JsonObject, key: string): JsonObject | undefined {
  const own = (schema.properties as JsonObject | undefined)?.[key];
  if (own && typeof own === 'object' && !Array.isArray(own)) return own as JsonObject;
  for (const branch of (schema.allOf as JsonObject[] | undefined) ?? []) {
    const found = propertySchema(branch, key);
    if (found) return found;
  }
  return undefined;
}

/**
 * The dotted paths of every property of `body` that `schema` does not declare (at any depth where the
 * schema describes an object). The published schemas leave `additionalProperties` open, so ajv alone
 * would accept any extra field: this is what keeps the adapter to documented fields.
 */
function undeclared(schema: JsonObject, body: JsonObject, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    const declared = propertySchema(schema, key);
    if (!declared) {
      out.push(`${prefix}${key}`);
      continue;
    }
    if (value && typeof value === 'object' && !Array.isArray(value) && (declared.properties || declared.allOf)) {
      out.push(...undeclared(declared, value as JsonObject, `${prefix}${key}.`));
    }
  }
  return out;
}

/**
 * Request fields the adapter sends that PaystackOSS/openapi does not declare, each documented elsewhere
 * by Paystack. The test fails if a flow sends any other undeclared field, or if an exception here is
 * no longer sent by any flow.
 */
const DOCUMENTED_EXCEPTIONS: Readonly<Record<string, { fields: readonly string[]; source: string }>> = {
  'POST /charge currency': {
    fields: ['currency'],
    source:
      'Paystack\'s Charge API samples send it: doc-code-snippets src/doc/payments/payment-methods/mobile/index.sh and mobile-charge/index.json ("currency": "GHS"); the sample payload of https://paystack.com/docs/payments/payment-channels/ "Charge API"',
  },
  'POST /charge bank_transfer': {
    fields: ['bank_transfer'],
    source:
      'Pay with Transfer: doc-code-snippets src/doc/payments/payment-methods/pwt/index.sh ("bank_transfer": {"account_expires_at": …})',
  },
  'POST /charge card': {
    fields: ['card'],
    source:
      'DECISION (docs/connectors/paystack.md "Card details"): kept as a documented exception for integrations Paystack approved for card data — https://paystack.com/docs/payments/payment-channels/ "Cards" ("If you are PCI-DSS certified and would like to be able to send cardholder information directly to our APIs from your servers, reach out to us"); shape from the removed sample doc/payments/charge/request/index.json',
  },
  'POST /transaction/charge_authorization callback_url': {
    fields: ['callback_url'],
    source:
      'Recurring Charges, Two-Factor Authentication (https://paystack.com/docs/payments/recurring-charges/): where Paystack sends a challenged payer back; doc-code-snippets src/doc/payments/recurring-charges/callback/index.json sends it with authorization_code, email and amount',
  },
  'GET /refund transaction': {
    fields: ['transaction'],
    source:
      'List Refunds filter by transaction: not among the documented query parameters (perPage, page, from, to); every page is read and each refund checked client-side (lookups.ts refundListQuery / ourPaystackRefund)',
  },
};

/** Documented query parameter names of a GET path item. */
function queryParameters(file: string): string[] {
  const item = pathItem(file) as any;
  return ((item?.get?.parameters as any[]) ?? []).filter((p) => p.in === 'query').map((p) => String(p.name));
}

/* ------------------------------------------------------------------------------------------------
 * A loopback stand-in for api.paystack.co that records every request
 * --------------------------------------------------------------------------------------------- */

interface Recorded {
  method: string;
  path: string;
  rawBody: string;
}
type Reply = { status: number; body: unknown };

class FixtureServer {
  readonly requests: Recorded[] = [];
  private readonly replies: Reply[] = [];
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.requests.push({ method: req.method ?? '', path: req.url ?? '', rawBody: Buffer.concat(chunks).toString('utf8') });
      const reply = this.replies.shift() ?? { status: 500, body: { status: false, message: 'No reply queued in the test.' } };
      res.writeHead(reply.status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
  reply(...replies: Reply[]): void {
    this.replies.push(...replies);
  }
  /** Drops answers a test queued but did not use, so none leaks into the next test. */
  clearReplies(): void {
    this.replies.length = 0;
  }
}

/* ------------------------------------------------------------------------------------------------
 * Helpers
 * --------------------------------------------------------------------------------------------- */

/** A doc-code-snippets file; with `key`, the `data` of that sample of a `response.json`. */
function official<T = any>(file: string, key?: string): T {
  const parsed = JSON.parse(readFileSync(path.join(FIXTURES, 'doc-code-snippets', file), 'utf8'));
  if (key === undefined) return parsed as T;
  if (!Object.hasOwn(parsed, key)) throw new Error(`${file} has no sample ${key}`);
  return parsed[key].data as T;
}

/** The HTTP status a `response.json` sample key stands for (`200_otp` → 200, `400` → 400). */
const httpStatusOf = (key: string): number => Number(key.split('_')[0]);

const SECRET = 'sk_test_contract_0123456789abcdef';
const PAYMENT_ID = 'pay_0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const REFERENCE = 'pay-0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const PUBLIC_BASE_URL = 'https://api.switchyard.test';
const STEP_PAGE = `${PUBLIC_BASE_URL}/pay/${PAYMENT_ID}/authenticate`;
const NOW = new Date('2025-04-24T16:10:57.954Z');

const server = new FixtureServer();
let paystack: PaystackConnector;
beforeAll(async () => {
  await server.start();
  paystack = new PaystackConnector({ baseUrl: server.url, secretKey: SECRET, webhookSecret: SECRET, timeoutMs: 2000, now: () => NOW });
});
afterAll(() => server.stop());
beforeEach(() => server.clearReplies());

function authorizeRequest(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: PAYMENT_ID,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: { card_number: '5060666666666666666', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' },
    email: 'payer@example.com',
    phone: null,
    publicBaseUrl: PUBLIC_BASE_URL,
    returnUrl: `${PUBLIC_BASE_URL}/pay/${PAYMENT_ID}/return`,
    ...overrides,
  };
}

function authenticateRequest(overrides: Partial<AuthenticateRequest> = {}): AuthenticateRequest {
  return {
    paymentId: PAYMENT_ID,
    connectorTransactionId: REFERENCE,
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    step: 'submit_pin',
    email: 'payer@example.com',
    publicBaseUrl: PUBLIC_BASE_URL,
    returnUrl: `${PUBLIC_BASE_URL}/pay/${PAYMENT_ID}/return`,
    ...overrides,
  };
}

/** Runs a call and returns its result, or the error it throws. */
async function outcome<T>(promise: Promise<T>): Promise<T | Error> {
  try {
    return await promise;
  } catch (err) {
    return err as Error;
  }
}

const CHARGE_SUCCESS = official('src/api/charges/submit-pin/response.json');
const ok = (body: unknown): Reply => ({ status: 200, body });

/* ------------------------------------------------------------------------------------------------
 * 1. Every request the adapter can send, validated against PaystackOSS/openapi
 * --------------------------------------------------------------------------------------------- */

/** Each flow: what it calls on the adapter, and the answers the stand-in gives (official samples). */
const FLOWS: readonly { name: string; replies: Reply[]; run: (p: PaystackConnector) => Promise<unknown> }[] = [
  {
    name: 'authorize card with details (card object)',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authorize(authorizeRequest()),
  },
  {
    name: 'authorize card without details (hosted checkout)',
    replies: [ok(official('src/api/transactions/initialize/response.json', '200'))],
    run: (p) => p.authorize(authorizeRequest({ card: undefined, currency: 'ZAR' })),
  },
  {
    name: 'authorize bank_transfer NGN (Pay with Transfer)',
    replies: [ok(official('src/doc/payments/payment-methods/pwt/index.json'))],
    run: (p) => p.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', card: undefined })),
  },
  {
    name: 'authorize bank_transfer KES (Pesalink)',
    replies: [ok(official('src/doc/payments/payment-methods/pwt/index.json'))],
    run: (p) => p.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', currency: 'KES', card: undefined })),
  },
  ...['058', '033', '232', '057'].map((bank) => ({
    name: `authorize ussd, bank ${bank}`,
    replies: [ok(official('src/doc/payments/payment-methods/ussd/index.json'))],
    run: (p: PaystackConnector) => p.authorize(authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: bank })),
  })),
  ...[
    ['GHS', '+233551234987'],
    ['GHS', '+233201234567'],
    ['GHS', '+233571234567'],
    ['KES', '+254710000000'],
  ].map(([currency, phone]) => ({
    name: `authorize mobile_money ${currency} ${phone}`,
    replies: [ok(official('src/doc/payments/payment-methods/mobile-airtel-mtn/index.json'))],
    run: (p: PaystackConnector) =>
      p.authorize(authorizeRequest({ paymentMethod: 'mobile_money', currency: currency as 'GHS' | 'KES', phone, card: undefined })),
  })),
  {
    name: 'authenticate submit_pin',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authenticate(authenticateRequest({ step: 'submit_pin', pin: '1234' })),
  },
  {
    name: 'authenticate submit_otp',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authenticate(authenticateRequest({ step: 'submit_otp', otp: '123456' })),
  },
  {
    name: 'authenticate submit_otp (Telecel voucher)',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authenticate(authenticateRequest({ step: 'submit_otp', otp: '582913', paymentMethod: 'mobile_money', currency: 'GHS' })),
  },
  {
    name: 'authenticate submit_phone',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authenticate(authenticateRequest({ step: 'submit_phone', phone: '08012345678' })),
  },
  {
    name: 'authenticate submit_birthday',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) => p.authenticate(authenticateRequest({ step: 'submit_birthday', birthday: '1961-09-21' })),
  },
  {
    name: 'authenticate submit_address',
    replies: [ok(CHARGE_SUCCESS['200'].data)],
    run: (p) =>
      p.authenticate(
        authenticateRequest({
          step: 'submit_address',
          address: { line1: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip: '18360', country: 'US' },
        }),
      ),
  },
  {
    name: 'refund',
    replies: [ok(official('src/api/refunds/create/response.json', '200'))],
    run: (p) => p.refund({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 5000, refundId: 'ref_1' }),
  },
  {
    name: 'sync',
    replies: [ok(official('src/api/transactions/verify/response.json', '200'))],
    run: (p) =>
      p.sync({
        paymentId: PAYMENT_ID,
        connectorTransactionId: REFERENCE,
        amount: 150000,
        currency: 'NGN',
        paymentMethod: 'card',
        captureMethod: 'automatic',
        createdAt: NOW.toISOString(),
      }),
  },
  {
    name: 'syncRefund',
    replies: [ok(official('src/api/refunds/fetch/response.json', '200'))],
    run: (p) => p.syncRefund({ refundId: 'ref_1', connectorRefundId: '1', currency: 'NGN' }),
  },
  {
    name: 'findRefund',
    replies: [
      ok(official('src/api/transactions/verify/response.json', '200')),
      ok({ status: true, message: 'Refunds retrieved', data: [], meta: { pageCount: 1 } }),
    ],
    run: (p) =>
      p.findRefund({
        refundId: 'ref_1',
        paymentId: PAYMENT_ID,
        connectorTransactionId: REFERENCE,
        amount: 5000,
        currency: 'NGN',
        createdAt: NOW.toISOString(),
      }),
  },
  {
    name: 'void',
    replies: [
      ok({
        ...official<any>('src/api/transactions/verify/response.json', '200'),
        data: { ...official<any>('src/api/transactions/verify/response.json', '200').data, status: 'ongoing' },
      }),
    ],
    run: (p) => p.void({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN' }),
  },
  {
    name: 'verifyCredentials',
    replies: [ok(official('src/api/transfers-control/balance/response.json', '200'))],
    run: (p) => p.verifyCredentials(),
  },
  {
    name: 'authorize a saved card (charge_authorization, off-session)',
    replies: [ok(official('src/api/transactions/charge_authorization/response.json', '200'))],
    run: (p) =>
      p.authorize(
        authorizeRequest({ card: undefined, savedMethod: { token: 'AUTH_uh8bcl3zbn', email: 'demo@test.com' }, offSession: true }),
      ),
  },
  {
    name: 'detachSavedMethod (deactivate authorization)',
    replies: [ok(official('src/api/customers/deactivate-authorization/response.json', '200'))],
    run: (p) => p.detachSavedMethod({ token: 'AUTH_uh8bcl3zbn' }),
  },
];

describe('the validator itself (so that a passing body means something)', () => {
  test.each([
    ['/charge', 'ChargeCreate.yaml'],
    ['/charge/submit_pin', 'ChargeSubmitPin.yaml'],
    ['/charge/submit_otp', 'ChargeSubmitOTP.yaml'],
    ['/charge/submit_phone', 'ChargeSubmitPhone.yaml'],
    ['/charge/submit_birthday', 'ChargeSubmitBirthday.yaml'],
    ['/charge/submit_address', 'ChargeSubmitAddress.yaml'],
    ['/transaction/initialize', 'TransactionInitialize.yaml'],
    ['/refund', 'RefundCreate.yaml'],
    ['/transaction/charge_authorization', 'TransactionChargeAuthorization.yaml'],
    ['/customer/authorization/deactivate', 'CustomerDeactivateAuthorization.yaml'],
  ])("Paystack's own request example of %s (%s) passes", (template, schemaFile) => {
    const example = (loadYaml(path.join(OPENAPI, 'components', 'schemas', schemaFile)) as JsonObject).example;
    expect(example).toBeDefined();
    const validate = requestValidator(template);
    expect(validate(example)).toBe(true);
  });

  test.each([
    ['/charge/submit_pin', { reference: 'x' }, 'the PIN missing'],
    ['/charge/submit_birthday', { birthday: '21/09/1961', reference: 'x' }, 'a birthday not in date format'],
    ['/charge/submit_address', { address: 'a', city: 'b', state: 'c', reference: 'x' }, 'zip_code missing'],
    ['/charge', { email: 'a@b.c', amount: '10000' }, 'the amount as a string'],
    ['/charge', { email: 'a@b.c', amount: 100, ussd: { type: '901' } }, 'a USSD type outside 737/919/822/966'],
    ['/refund', { transaction: 'x', currency: 'EUR' }, 'a currency Paystack does not refund in'],
    ['/transaction/charge_authorization', { email: 'a@b.c', amount: 100 }, 'the authorization code missing'],
    [
      '/transaction/charge_authorization',
      { email: 'a@b.c', amount: 100, authorization_code: 'AUTH_x', metadata: {} },
      'metadata as an object',
    ],
    ['/customer/authorization/deactivate', {}, 'the authorization code missing'],
  ])('%s with %o (%s) fails', (template, body, _label) => {
    expect(requestValidator(template)(body)).toBe(false);
  });

  test('an undeclared field is reported (the schemas leave additionalProperties open)', () => {
    expect(undeclared(requestSchema('charge'), { email: 'a@b.c', amount: 1, ussd: { type: '737', extra: 1 }, surprise: true })).toEqual([
      'ussd.extra',
      'surprise',
    ]);
  });
});

describe('every request the adapter sends is valid against PaystackOSS/openapi', () => {
  const captured: { flow: string; request: Recorded }[] = [];

  beforeAll(async () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      for (const flow of FLOWS) {
        const before = server.requests.length;
        server.reply(...flow.replies);
        const result = await outcome(flow.run(paystack));
        if (result instanceof Error) throw new Error(`flow "${flow.name}" failed: ${result.message}`);
        for (const request of server.requests.slice(before)) captured.push({ flow: flow.name, request });
      }
    } finally {
      warn.mockRestore();
    }
  });

  test('every flow sent at least one request, each to a documented endpoint', () => {
    for (const flow of FLOWS) expect(captured.some((c) => c.flow === flow.name)).toBe(true);
    for (const { request } of captured) expect(endpointOf(new URL(request.path, server.url).pathname)).toBeDefined();
  });

  test("each POST body passes ajv against its path's request schema, and sends no undeclared field but the documented exceptions", () => {
    const exceptionsUsed = new Set<string>();
    const posts = captured.filter((c) => c.request.method === 'POST');
    // Every POST endpoint of the fixtures was exercised.
    expect([...new Set(posts.map((c) => c.request.path))].sort()).toEqual([
      '/charge',
      '/charge/submit_address',
      '/charge/submit_birthday',
      '/charge/submit_otp',
      '/charge/submit_phone',
      '/charge/submit_pin',
      '/customer/authorization/deactivate',
      '/refund',
      '/transaction/charge_authorization',
      '/transaction/initialize',
    ]);
    for (const { flow, request } of posts) {
      const endpoint = endpointOf(request.path);
      expect(endpoint).toBeDefined();
      const body = JSON.parse(request.rawBody) as JsonObject;
      const validate = requestValidator(endpoint!.template);
      const valid = validate(body);
      if (!valid) throw new Error(`${flow}: POST ${request.path} is invalid: ${ajv.errorsText(validate.errors)}`);
      for (const field of undeclared(requestSchema(endpoint!.file), body)) {
        const key = `POST ${endpoint!.template} ${field}`;
        if (!DOCUMENTED_EXCEPTIONS[key])
          throw new Error(
            `${flow}: POST ${request.path} sends ${field}, which PaystackOSS/openapi does not declare and no exception documents`,
          );
        exceptionsUsed.add(key);
      }
    }
    for (const { request } of captured.filter((c) => c.request.method === 'GET')) {
      const url = new URL(request.path, server.url);
      const endpoint = endpointOf(url.pathname)!;
      const documented = queryParameters(endpoint.file);
      for (const name of new Set(url.searchParams.keys())) {
        if (documented.includes(name)) continue;
        const key = `GET ${endpoint.template} ${name}`;
        if (!DOCUMENTED_EXCEPTIONS[key])
          throw new Error(`GET ${request.path} sends the query parameter ${name}, which PaystackOSS/openapi does not document`);
        exceptionsUsed.add(key);
      }
    }
    // Every documented exception is still needed by some flow (a stale one fails here).
    expect([...exceptionsUsed].sort()).toEqual(Object.keys(DOCUMENTED_EXCEPTIONS).sort());
  });

  test('the submit steps send exactly the fields of their schema: the value and the charge reference', () => {
    const submits = captured.filter((c) => c.request.path.startsWith('/charge/submit_'));
    expect(submits.map((c) => c.request.path).sort()).toEqual(
      [
        '/charge/submit_address',
        '/charge/submit_birthday',
        '/charge/submit_otp',
        '/charge/submit_otp',
        '/charge/submit_phone',
        '/charge/submit_pin',
      ].sort(),
    );
    for (const { request } of submits) {
      const endpoint = endpointOf(request.path)!;
      const schema = requestSchema(endpoint.file);
      expect(Object.keys(JSON.parse(request.rawBody)).sort()).toEqual([...(schema.required as string[])].sort());
      expect(JSON.parse(request.rawBody).reference).toBe(REFERENCE);
    }
  });

  test('USSD: one charge per Paystack USSD type, each from the openapi enum', () => {
    const types = captured
      .filter((c) => c.request.path === '/charge' && c.request.rawBody.includes('"ussd"'))
      .map((c) => (JSON.parse(c.request.rawBody) as { ussd: { type: string } }).ussd.type);
    const documented = ((requestSchema('charge') as any).allOf as any[]).find((b) => b.properties?.ussd).properties.ussd.properties.type
      .enum;
    expect(types.sort()).toEqual([...documented].sort());
  });

  test("DECISION, card details: the raw `card` object is kept as a documented exception, shaped exactly like Paystack's removed sample", () => {
    // 1. PaystackOSS/openapi's current Create Charge schema has no `card` (if Paystack adds one, this
    //    fails and the body must then be validated against it instead of the exception).
    expect(propertySchema(requestSchema('charge'), 'card')).toBeUndefined();
    // 2. No other documented server-side way takes a card number: the schema's instruments are these.
    const instruments = ['authorization_code', 'bank', 'mobile_money', 'ussd', 'eft'].filter((k) =>
      propertySchema(requestSchema('charge'), k),
    );
    expect(instruments).toEqual(['authorization_code', 'bank', 'mobile_money', 'ussd', 'eft']);
    // 3. What the adapter sends has exactly the keys and string types of the removed official sample
    //    (doc/payments/charge/request/index.json: cvv, number, expiry_month "01", expiry_year "99").
    const sample = official('removed/doc/payments/charge/request/index.json').card as Record<string, string>;
    const sent = captured.find((c) => c.flow === 'authorize card with details (card object)')!;
    const card = (JSON.parse(sent.request.rawBody) as { card: Record<string, unknown> }).card;
    expect(Object.keys(card).sort()).toEqual(Object.keys(sample).sort());
    for (const key of Object.keys(sample)) expect(typeof card[key]).toBe('string');
    expect(card.expiry_month).toMatch(/^\d{2}$/);
    expect(card.expiry_year).toMatch(/^\d{2}$/);
    expect(sample.expiry_year).toMatch(/^\d{2}$/);
    // 4. The exception names its sources.
    expect(DOCUMENTED_EXCEPTIONS['POST /charge card']?.source).toMatch(/PCI-DSS certified/);
  });
});

/* ------------------------------------------------------------------------------------------------
 * 2a. Every response example of the openapi fixtures, through the adapter's mapping
 * --------------------------------------------------------------------------------------------- */

/** Every `example` of a response in the openapi path files: `<file> <METHOD> <status>` → the example. */
function openapiResponseExamples(): Record<string, JsonObject> {
  const found: Record<string, JsonObject> = {};
  for (const { file } of ENDPOINTS) {
    const item = pathItem(file) as any;
    for (const method of ['get', 'post']) {
      for (const [status, response] of Object.entries((item?.[method]?.responses ?? {}) as Record<string, any>)) {
        const content = response?.content?.['application/json'];
        const example = content?.example ?? content?.schema?.example;
        if (example) found[`${file} ${method.toUpperCase()} ${status}`] = example as JsonObject;
      }
    }
  }
  return found;
}

describe('every response example of the PaystackOSS/openapi fixtures', () => {
  const examples = openapiResponseExamples();
  const old = new Date(NOW.getTime() - PAYSTACK_NOT_FOUND_SETTLE_MS).toISOString();
  const syncOld = () =>
    paystack.sync({
      paymentId: PAYMENT_ID,
      connectorTransactionId: REFERENCE,
      amount: 150000,
      currency: 'NGN',
      paymentMethod: 'card',
      captureMethod: 'automatic',
      createdAt: old,
    });

  const verified = ok(official('src/api/transactions/verify/response.json', '200'));
  const findRefund = () =>
    paystack.findRefund({
      refundId: 'ref_1',
      paymentId: PAYMENT_ID,
      connectorTransactionId: REFERENCE,
      amount: 1,
      currency: 'NGN',
      createdAt: NOW.toISOString(),
    });
  const syncRefund = () => paystack.syncRefund({ refundId: 'ref_1', connectorRefundId: '1', currency: 'NGN' });

  /**
   * For each example: the adapter call that reaches its endpoint (`before`: answers to queue for the
   * calls that precede it, e.g. findRefund's verify), and what the example must come out as. `http:
   * false` for GET /charge/:reference, which the adapter never calls (sync verifies the transaction):
   * its examples go through the error mapping every call uses.
   */
  const expected: Record<string, { call: () => Promise<unknown>; outcome: (r: unknown) => void; before?: Reply[]; http?: false }> = {
    'charge POST 401': { call: () => paystack.authorize(authorizeRequest()), outcome: refused('invalid_key', 'Invalid key') },
    'charge_submit_pin POST 401': {
      call: () => paystack.authenticate(authenticateRequest({ pin: '1234' })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'charge_submit_otp POST 401': {
      call: () => paystack.authenticate(authenticateRequest({ step: 'submit_otp', otp: '1' })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'charge_submit_phone POST 401': {
      call: () => paystack.authenticate(authenticateRequest({ step: 'submit_phone', phone: '1' })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'charge_submit_birthday POST 401': {
      call: () => paystack.authenticate(authenticateRequest({ step: 'submit_birthday', birthday: '1961-09-21' })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'charge_submit_address POST 401': {
      call: () =>
        paystack.authenticate(
          authenticateRequest({ step: 'submit_address', address: { line1: 'a', city: 'b', state: 'c', zip: 'd', country: 'NG' } }),
        ),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'charge_{reference} GET 401': {
      http: false,
      call: async () => paystackErrorOf(401, examples['charge_{reference} GET 401']),
      outcome: (r) => expect(r).toEqual({ code: 'invalid_key', message: 'Invalid key' }),
    },
    'charge_{reference} GET 404': {
      http: false,
      call: async () => ({
        mapped: paystackErrorOf(404, examples['charge_{reference} GET 404']),
        notFound: isReferenceNotFound(404, examples['charge_{reference} GET 404']),
      }),
      outcome: (r) => expect(r).toEqual({ mapped: { code: 'entity_not_found', message: 'Entity not found' }, notFound: true }),
    },
    'transaction_initialize POST 400': {
      call: () => paystack.authorize(authorizeRequest({ card: undefined })),
      outcome: refused('duplicate_reference', 'Duplicate Transaction Reference'),
    },
    'transaction_initialize POST 401': {
      call: () => paystack.authorize(authorizeRequest({ card: undefined })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'transaction_verify_{reference} GET 401': { call: syncOld, outcome: refused('invalid_key', 'Invalid key') },
    'transaction_verify_{reference} GET 404': {
      call: syncOld,
      outcome: (r) =>
        expect(r).toEqual({
          status: 'Failed',
          connectorTransactionId: REFERENCE,
          amountCaptured: 0,
          errorCode: 'transaction_not_found',
          errorMessage: "Paystack has no transaction under this payment's reference: the charge never reached Paystack.",
          notFound: true,
        }),
    },
    'refund POST 401': {
      call: () =>
        paystack.refund({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 1, refundId: 'ref_1' }),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'refund GET 401': { before: [verified], call: findRefund, outcome: refused('invalid_key', 'Invalid key') },
    'refund GET 404': { before: [verified], call: findRefund, outcome: refused('entity_not_found', 'Entity not found') },
    'refund_{id} GET 401': { call: syncRefund, outcome: refused('invalid_key', 'Invalid key') },
    'refund_{id} GET 404': { call: syncRefund, outcome: refused('entity_not_found', 'Entity not found') },
    'balance GET 401': {
      call: () => paystack.verifyCredentials(),
      outcome: refused('invalid_credentials', 'paystack did not accept the API key (HTTP 401).'),
    },
    'balance GET 404': { call: () => paystack.verifyCredentials(), outcome: refused('entity_not_found', 'Entity not found') },
    'transaction_charge_authorization POST 401': {
      call: () =>
        paystack.authorize(authorizeRequest({ card: undefined, savedMethod: { token: 'AUTH_uh8bcl3zbn', email: 'demo@test.com' } })),
      outcome: refused('invalid_key', 'Invalid key'),
    },
    'customer_authorization_deactivate POST 401': {
      call: () => paystack.detachSavedMethod({ token: 'AUTH_uh8bcl3zbn' }),
      outcome: refused('invalid_key', 'Invalid key'),
    },
  };

  test('the expectations cover every example the fixtures hold (and nothing else)', () => {
    expect(Object.keys(examples).sort()).toEqual(Object.keys(expected).sort());
  });

  test.each(Object.keys(expected))('%s', async (key) => {
    const status = Number(key.split(' ').pop());
    const example = examples[key];
    expect(example).toBeDefined();
    const spec = expected[key]!;
    const before = server.requests.length;
    if (spec.http !== false) server.reply(...(spec.before ?? []), { status, body: example });
    spec.outcome(await outcome(spec.call()));
    expect(server.requests.length - before).toBe(spec.http === false ? 0 : (spec.before?.length ?? 0) + 1);
  });
});

/** An assertion: the outcome is a ConnectorRequestError with this code and message. */
function refused(code: string, message: string): (r: unknown) => void {
  return (r) => {
    expect(r).toBeInstanceOf(ConnectorRequestError);
    expect((r as ConnectorRequestError).code).toBe(code);
    expect((r as ConnectorRequestError).message).toBe(message);
  };
}

/* ------------------------------------------------------------------------------------------------
 * 2b. Every doc-code-snippets response sample of those endpoints, through the adapter
 * --------------------------------------------------------------------------------------------- */

const step = (type: string, displayText: string | null) => ({
  type,
  display_text: displayText,
  redirect_to_url: STEP_PAGE,
  card_required: false,
});
const action = (reference: string, nextAction: unknown): PaymentResult => ({
  status: 'RequiresAction',
  connectorTransactionId: reference,
  amountCaptured: 0,
  nextAction: nextAction as PaymentResult['nextAction'],
});
const succeeded = (reference: string, amount: number, savedMethod?: PaymentResult['savedMethod']): PaymentResult => ({
  status: 'Succeeded',
  connectorTransactionId: reference,
  amountCaptured: amount,
  ...(savedMethod ? { savedMethod } : {}),
});
/**
 * The saved method of a sample whose `authorization.reusable` is true, as the sample prints it
 * (token = `authorization_code`, fingerprint = `signature`, `exp_month`/`exp_year` strings → numbers, the
 * customer's `customer_code` and `email`); `expiresAt` is the end of the expiry month.
 */
const saved = (
  token: string,
  fingerprint: string,
  card: { brand: string; last4: string; expMonth: number; expYear: number; bin: string; issuerCountry: string },
  customer: { code: string; email: string },
  expiresAt: string,
): PaymentResult['savedMethod'] => ({ token, fingerprint, card, processorCustomerId: customer.code, email: customer.email, expiresAt });
/** [DCS] charges/create and charges/check `200`: `AUTH_6tmt288t0o`, visa 408408…4081, 12/2020, NG. */
const CREATE_SAMPLE_SAVED = saved(
  'AUTH_6tmt288t0o',
  'SIG_uSYN4fv1adlAuoij8QXh',
  { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2020, bin: '408408', issuerCountry: 'NG' },
  { code: 'CUS_hns72vhhtos0f0k', email: 'test@email.co' },
  '2020-12-31T23:59:59.999Z',
);
const processing = (reference: string): PaymentResult => ({ status: 'Processing', connectorTransactionId: reference, amountCaptured: 0 });
const failed = (reference: string, errorCode: string, errorMessage: string): PaymentResult => ({
  status: 'Failed',
  connectorTransactionId: reference,
  amountCaptured: 0,
  errorCode,
  errorMessage,
});

type Expectation = PaymentResult | RefundResult | WebhookEvent | { refused: string } | { verified: true } | { detached: true };

/**
 * `response.json` files of the endpoints the adapter calls (Charge, Transaction, Refund, and Check Balance for the
 * credential check): which adapter call reaches them, and each sample's outcome.
 */
const CHARGE_SAMPLES: Readonly<Record<string, { call: (key: string) => Promise<unknown>; outcomes: Record<string, Expectation> }>> = {
  'src/api/charges/create/response.json': {
    call: (key) =>
      paystack.authorize(
        key === '200_ussd'
          ? authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: '058' })
          : key === '200_momo'
            ? authorizeRequest({ paymentMethod: 'mobile_money', currency: 'GHS', phone: '+233551234987', card: undefined })
            : authorizeRequest(),
      ),
    outcomes: {
      '200': succeeded('zuvbpizfcf2fs7y', 200, CREATE_SAMPLE_SAVED),
      '200_otp': action('0t4gwo2ft6q0n9h', step('submit_otp', 'Please send OTP')),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_pin': action('apg8mnjf5yg7zp8', step('submit_pin', null)),
      '200_bank_auth': action('apg8mnjf5yg7zp8', { type: 'redirect_to_url', redirect_to_url: 'https://standard.paystack.co/close' }),
      '200_phone': action('0t4gwo2ft6q0n9h', step('submit_phone', 'Please send phone')),
      '200_birthday': action('0t4gwo2ft6q0n9h', step('submit_birthday', 'Please send your birthday')),
      '200_ussd': action('2ofkbk0yie6dvzb', {
        type: 'display_ussd_code',
        ussd: { code: '*737*33*4*453441#', reference: '2ofkbk0yie6dvzb', expires_at: new Date(NOW.getTime() + 86_400_000).toISOString() },
      }),
      '200_momo': succeeded('l7lvu4y3xcka6zu', 100),
      '200_address': action('7c7rpkqpc0tijs8', step('submit_address', 'Please send details for address verification')),
      '400': { refused: 'email_address_is_required_for_association_with_card' },
    },
  },
  'src/api/charges/submit-pin/response.json': {
    call: () => paystack.authenticate(authenticateRequest({ step: 'submit_pin', pin: '1234' })),
    outcomes: {
      '200': succeeded('36xz3b9rie9ppvz', 10000),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_failed': failed('bc9w93gh629a4d7', 'failed', 'Error occured while enrolling you for OTP!'),
      '400': { refused: 'transaction_reference_is_invalid' },
    },
  },
  'src/api/charges/submit-otp/response.json': {
    call: () => paystack.authenticate(authenticateRequest({ step: 'submit_otp', otp: '123456' })),
    outcomes: {
      '200': succeeded('36xz3b9rie9ppvz', 10000),
      '200_bank_auth': action('apg8mnjf5yg7zp8', { type: 'redirect_to_url', redirect_to_url: 'https://standard.paystack.co/close' }),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_failed': failed('bc9w93gh629a4d7', 'failed', 'Error occured while enrolling you for OTP!'),
      '400': { refused: 'transaction_reference_is_invalid' },
    },
  },
  'src/api/charges/submit-phone/response.json': {
    call: () => paystack.authenticate(authenticateRequest({ step: 'submit_phone', phone: '08012345678' })),
    outcomes: {
      '200': succeeded('36xz3b9rie9ppvz', 10000),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_failed': failed('bc9w93gh629a4d7', 'failed', 'Error occured while enrolling you for OTP!'),
      '400': { refused: 'transaction_reference_is_invalid' },
    },
  },
  'src/api/charges/submit-birthday/response.json': {
    call: () => paystack.authenticate(authenticateRequest({ step: 'submit_birthday', birthday: '1961-09-21' })),
    outcomes: {
      '200': succeeded('36xz3b9rie9ppvz', 10000),
      // No reference in this sample: the charge's (ours) is kept.
      '200_otp': action(REFERENCE, step('submit_otp', 'To confirm that you own this account, kindly enter the OTP sent to your phone')),
      '200_bank_auth': action('apg8mnjf5yg7zp8', { type: 'redirect_to_url', redirect_to_url: 'https://standard.paystack.co/close' }),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_failed': failed('bc9w93gh629a4d7', 'failed', 'Error occured while enrolling you for OTP!'),
      '400': { refused: 'transaction_reference_is_invalid' },
    },
  },
  'src/api/charges/submit-address/response.json': {
    call: () =>
      paystack.authenticate(
        authenticateRequest({
          step: 'submit_address',
          address: { line1: '140 N 2ND ST', city: 'Stroudsburg', state: 'PA', zip: '18360', country: 'US' },
        }),
      ),
    outcomes: {
      // `card_type: "visa DEBIT"`, `brand: "visa"` → `visa`; `country_code: "US"`.
      '200': succeeded(
        '7c7rpkqpc0tijs8',
        10000,
        saved(
          'AUTH_82e26bc6yb',
          'SIG_5wBvKoAT64nwSJgZkHvQ',
          { brand: 'visa', last4: '4633', expMonth: 8, expYear: 2024, bin: '440066', issuerCountry: 'US' },
          { code: 'CUS_bpy9ciomcstg55y', email: 'ben@jude.com' },
          '2024-08-31T23:59:59.999Z',
        ),
      ),
      // HTTP 200 with `status: false` and a failed charge without a reference.
      '200_failed': failed(REFERENCE, 'failed', 'Insufficient funds'),
      '400': { refused: 'transaction_reference_is_invalid' },
    },
  },
  'src/api/transactions/initialize/response.json': {
    call: () => paystack.authorize(authorizeRequest({ card: undefined })),
    outcomes: {
      '200': action('re4lyvq3s3', { type: 'redirect_to_url', redirect_to_url: 'https://checkout.paystack.com/3ni8kdavz62431k' }),
    },
  },
  'src/api/transactions/verify/response.json': {
    call: () =>
      paystack.sync({
        paymentId: PAYMENT_ID,
        connectorTransactionId: REFERENCE,
        amount: 150000,
        currency: 'NGN',
        paymentMethod: 'card',
        captureMethod: 'automatic',
        createdAt: new Date(0).toISOString(),
      }),
    outcomes: {
      '200': succeeded(
        're4lyvq3s3',
        40333,
        saved(
          'AUTH_uh8bcl3zbn',
          'SIG_yEXu7dLBeqG0kU7g95Ke',
          { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bin: '408408', issuerCountry: 'NG' },
          { code: 'CUS_1rkzaqsv4rrhqo6', email: 'demo@test.com' },
          '2030-12-31T23:59:59.999Z',
        ),
      ),
      '400': { refused: 'invalid_key' },
    },
  },
  'src/api/refunds/create/response.json': {
    call: () =>
      paystack.refund({ paymentId: PAYMENT_ID, connectorTransactionId: REFERENCE, currency: 'NGN', amount: 10000, refundId: 'ref_1' }),
    outcomes: { '200': { status: 'Pending', connectorRefundId: '3018284' } },
  },
  'src/api/refunds/fetch/response.json': {
    call: () => paystack.syncRefund({ refundId: 'ref_1', connectorRefundId: '1', currency: 'NGN' }),
    outcomes: { '200': { status: 'Succeeded', connectorRefundId: '1' } },
  },
  'src/api/transfers-control/balance/response.json': {
    call: async () => {
      await paystack.verifyCredentials();
      return { verified: true };
    },
    outcomes: { '200': { verified: true } },
  },
  // A saved card charged again (the sample answers with the same reusable authorization).
  'src/api/transactions/charge_authorization/response.json': {
    call: () =>
      paystack.authorize(
        authorizeRequest({ card: undefined, savedMethod: { token: 'AUTH_uh8bcl3zbn', email: 'demo@test.com' }, offSession: true }),
      ),
    outcomes: {
      '200': succeeded(
        '0m7frfnr47ezyxl',
        35247,
        saved(
          'AUTH_uh8bcl3zbn',
          'SIG_yEXu7dLBeqG0kU7g95Ke',
          { brand: 'visa', last4: '4081', expMonth: 12, expYear: 2030, bin: '408408', issuerCountry: 'NG' },
          { code: 'CUS_1rkzaqsv4rrhqo6', email: 'demo@test.com' },
          '2030-12-31T23:59:59.999Z',
        ),
      ),
      '400': { refused: 'invalid_key' },
    },
  },
  'src/api/customers/deactivate-authorization/response.json': {
    call: async () => {
      await paystack.detachSavedMethod({ token: 'AUTH_xxxIjkZVj5' });
      return { detached: true };
    },
    outcomes: { '200': { detached: true }, '404': { refused: 'authorization_code_not_found' } },
  },
};

function expectOutcome(result: unknown, expected: Expectation): void {
  if ('refused' in expected) {
    expect(result).toBeInstanceOf(ConnectorRequestError);
    expect((result as ConnectorRequestError).code).toBe(expected.refused);
  } else {
    expect(result).toEqual(expected);
  }
}

describe('every doc-code-snippets response sample of the endpoints the adapter calls', () => {
  test('the expectations cover every sample of every file', () => {
    for (const [file, spec] of Object.entries(CHARGE_SAMPLES))
      expect(Object.keys(spec.outcomes).sort()).toEqual(Object.keys(official(file)).sort());
  });

  test('the Check Balance sample is the `200` answer PaystackOSS/openapi declares for GET /balance (what verifyCredentials accepts)', () => {
    const schema = (pathItem('balance') as any).get.responses['200'].content['application/json'].schema;
    const validate = ajv.compile(schema);
    const sample = official('src/api/transfers-control/balance/response.json', '200');
    if (!validate(sample)) throw new Error(ajv.errorsText(validate.errors));
    expect(validate({ status: true, message: 'Balances retrieved' })).toBe(false);
  });

  const cases = Object.entries(CHARGE_SAMPLES).flatMap(([file, spec]) => Object.keys(spec.outcomes).map((key) => [file, key] as const));
  test.each(cases)('%s %s', async (file, key) => {
    const spec = CHARGE_SAMPLES[file]!;
    server.reply({ status: httpStatusOf(key), body: official(file, key) });
    expectOutcome(await outcome(spec.call(key)), spec.outcomes[key]!);
  });

  describe('GET /charge/:reference samples (Check pending charge; not called by the adapter) through the same charge mapping', () => {
    const ctx: ChargeContext = {
      paymentId: PAYMENT_ID,
      publicBaseUrl: PUBLIC_BASE_URL,
      paymentMethod: 'card',
      amount: 150000,
      currency: 'NGN',
      reference: REFERENCE,
      ussdExpiresAt: NOW.toISOString(),
    };
    const outcomes: Record<string, Expectation> = {
      '200': succeeded('zuvbpizfcf2fs7y', 200, CREATE_SAMPLE_SAVED),
      '200_otp': action('0t4gwo2ft6q0n9h', step('submit_otp', 'Please send OTP (none will be sent to your phone)')),
      '200_pending': processing('5bwib5v6anhe9xa'),
      '200_pin': action('apg8mnjf5yg7zp8', step('submit_pin', null)),
      '200_failed': failed('ojk8k0bimgftf0x', 'failed', 'Insufficient funds'),
      '200_bank_auth': action('apg8mnjf5yg7zp8', { type: 'redirect_to_url', redirect_to_url: 'https://standard.paystack.co/close' }),
      '200_phone': action('0t4gwo2ft6q0n9h', step('submit_phone', 'Please send phone')),
      '200_birthday': action('0t4gwo2ft6q0n9h', step('submit_birthday', 'Please send your birthday')),
    };
    const file = 'src/api/charges/check/response.json';
    test('the expectations cover every sample but the 400 error body', () => {
      expect(Object.keys(outcomes).sort()).toEqual(
        Object.keys(official(file))
          .filter((k) => k !== '400')
          .sort(),
      );
      expect(paystackErrorOf(400, official(file, '400'))).toEqual({
        code: 'transaction_reference_is_invalid',
        message: 'Transaction reference is invalid',
      });
    });
    test.each(Object.keys(outcomes))('%s', (key) => {
      expect(chargeToPaymentResult(official(file, key).data, ctx)).toEqual(outcomes[key]);
    });
  });

  describe('payment-method samples (Payment Channels page)', () => {
    const mobile = (p: PaystackConnector) =>
      p.authorize(authorizeRequest({ paymentMethod: 'mobile_money', currency: 'GHS', phone: '+233201234567', card: undefined }));
    const cases: [string, (p: PaystackConnector) => Promise<unknown>, Expectation][] = [
      [
        'mobile-vodafone (Telecel: dial *110# for a voucher)',
        mobile,
        action('r13havfcdt7btcm', step('submit_otp', 'Please dial *110# to generate a voucher code. Then input the voucher')),
      ],
      [
        'mobile-airtel-mtn (approve on the phone)',
        mobile,
        action('8nn5fqljd0suybr', {
          type: 'await_mobile_money_approval',
          mobile_money: { message: 'Please complete authorization process on your mobile phone', reference: '8nn5fqljd0suybr' },
        }),
      ],
      ['mobile-response-jit (approved in time)', mobile, succeeded('l7lvu4y3xcka6zu', 100)],
      ['mobile-response-late (answered after the request)', mobile, processing('84oow6t0rf715g6')],
      [
        'ussd',
        (p) => p.authorize(authorizeRequest({ paymentMethod: 'ussd', card: undefined, ussdBankCode: '058' })),
        action('yjr1r8rwhedara4', {
          type: 'display_ussd_code',
          ussd: { code: '*737*33*4*18791#', reference: 'yjr1r8rwhedara4', expires_at: new Date(NOW.getTime() + 86_400_000).toISOString() },
        }),
      ],
      [
        'pwt (Pay with Transfer)',
        (p) => p.authorize(authorizeRequest({ paymentMethod: 'bank_transfer', card: undefined })),
        action('kcvu0t3kzs', {
          type: 'bank_transfer_instructions',
          bank_transfer: {
            bank_name: 'Test Bank',
            account_number: '1260257501',
            account_name: 'TEST-MANAGED-ACCOUNT',
            amount: 150000,
            currency: 'NGN',
            reference: 'kcvu0t3kzs',
            expires_at: '2025-04-24T16:40:57.954Z',
          },
        }),
      ],
    ];
    test.each(cases)('%s', async (label, call, expected) => {
      const name = label.split(' ')[0];
      server.reply(ok(official(`src/doc/payments/payment-methods/${name}/index.json`)));
      expectOutcome(await outcome(call(paystack)), expected);
    });
  });

  describe('refund event samples', () => {
    let warn: jest.SpyInstance;
    beforeEach(() => {
      warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    });
    afterEach(() => warn.mockRestore());

    const deliver = (name: string) => {
      const rawBody = JSON.stringify(official(`src/doc/payments/refunds/events/${name}.json`));
      return paystack.parseWebhook({
        rawBody,
        headers: { 'x-paystack-signature': createHmac('sha512', SECRET).update(rawBody).digest('hex') },
      });
    };

    test('refund.needs-attention (carries an id) → Pending refund_needs_attention, never Succeeded, and logged', async () => {
      const event = await deliver('refund-needs-attention');
      expect(event).toMatchObject({
        kind: 'refund',
        connectorRefundId: '123456',
        result: { status: 'Pending', errorCode: 'refund_needs_attention' },
      });
      expect(warn).toHaveBeenCalledWith(
        'Paystack refund needs attention',
        expect.objectContaining({ refund_reference: 'TRF_7jn17u9vkqm91efk' }),
      );
    });

    test.each([
      'refund-pending',
      'refund-processing',
      'refund-processed',
      'refund-failed',
    ])('%s (no id, a transaction reference this service did not create) → ignored without any lookup', async (name) => {
      const before = server.requests.length;
      const event = await deliver(name);
      expect(event.kind).toBe('ignored');
      expect(server.requests.length).toBe(before);
      expect(warn).not.toHaveBeenCalled();
    });
  });
});
