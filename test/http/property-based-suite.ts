/**
 * Property-based tests (fast-check) of the request schemas, through the HTTP
 * layer (local gateway → handlers → DynamoDB Local). Whatever the body, query
 * or path: never a 5xx, every 4xx carries `{error: {type, code, message}}`,
 * and a rejected request writes nothing.
 *
 * About 6,000 requests in all, the run's heaviest sequence of requests: the properties are split over two test files
 * (test/http/property-based-bodies.test.ts and property-based-queries.test.ts) so two workers share them; each file
 * importing this module gets its own local API (the hooks below) and merchants.
 *
 * Set FC_SEED (and FC_PATH) to replay a failure that fast-check reported.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { SANDBOX_TEST_CARDS } from '../../shared/connectors/sandbox/transformers';
import { containsCardNumber } from '../../shared/domain/card';
import { metrics } from '../../shared/observability/metrics';
import { legitimateCorpus, PUBLISHED_TEST_CARDS, spellingsOf } from '../helpers/card-corpus';
import { card, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;

const thisYear = new Date().getUTCFullYear();
// Thousands of HTTP requests per test: on a loaded 2-core machine a property can outlast the default 30 s.
jest.setTimeout(240_000);

const hex = () => randomUUID().replace(/-/g, '');
const ERROR_TYPES = ['invalid_request_error', 'authentication_error', 'idempotency_error', 'connector_error', 'api_error'];
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Replays a reported failure: FC_SEED=… FC_PATH=… npx jest <the test file that reported it> */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function params(numRuns: number, examples: any[] = []): fc.Parameters<any> {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
  return { numRuns, examples, ...(seed !== undefined ? { seed, path: process.env.FC_PATH } : {}) };
}

/** Requests sent concurrently per run by the stateless properties. */
const BATCH = 4;
/** Runs per property (a batched run sends 1–BATCH requests): about 6,000 requests in all. */
const RUNS = {
  createPayment: 600,
  createCustomer: 300,
  confirm: 500,
  refund: 400,
  updateCustomer: 400,
  listQuery: 300,
  refundsQuery: 150,
  paths: 400,
};

/**
 * Counterexamples fast-check found before; always tried first.
 * - a metadata key named like an Object.prototype member (valueOf, toString, constructor,
 *   hasOwnProperty) with a non-string value: the 400 had no `code`
 *   (shared/schemas/zod-errors.ts looks the field name up in a plain object, prototype included);
 * - an own `__proto__` key (JSON.parse makes one): must not be a 5xx (zod drops it: 200).
 */
const KNOWN_BODY_COUNTEREXAMPLES: unknown[] = [
  { metadata: { valueOf: {} } },
  { metadata: { toString: 1 } },
  { metadata: { constructor: [] } },
  { metadata: { hasOwnProperty: { a: '' } } },
  JSON.parse('{"metadata": {"__proto__": 5}}'),
  // - a metadata key "constructor" with a string value: accepted by the schema, then the
  //   DynamoDB marshaller refused the map (500).
  { metadata: { constructor: ' ' } },
];

beforeAll(async () => {
  api = await startLocalApi();
  // Powertools Metrics warns "No application metrics to publish" on every invocation that
  // emits none; thousands of generated requests would bury the test output in it.
  const quiet = (metrics as unknown as { console?: { warn: (...args: unknown[]) => void } }).console;
  if (quiet) jest.spyOn(quiet, 'warn').mockImplementation(() => undefined);
});
afterAll(async () => {
  jest.restoreAllMocks();
  await api.close();
});

// ---------------------------------------------------------------------------
// Response checks
// ---------------------------------------------------------------------------

function describeRequest(method: string, path: string, sent: unknown): string {
  const text = typeof sent === 'string' ? sent : JSON.stringify(sent);
  return `${method} ${path.length > 300 ? `${path.slice(0, 300)}…` : path} ${text === undefined ? '' : text.length > 500 ? `${text.slice(0, 500)}…` : text}`;
}

/**
 * The contract for any answer: < 500; a 4xx has exactly `{error: {type, code, message, param?}}`
 * with string values and a known type; a 2xx is a JSON object.
 */
function checkAnswer(res: TestResponse, request: string): void {
  if (res.status >= 500) throw new Error(`${res.status} for ${request}\n→ ${res.text.slice(0, 1000)}`);
  const body = res.body as Record<string, unknown> | string;
  if (res.status >= 400) {
    const err = typeof body === 'object' && body !== null ? (body.error as Record<string, unknown> | undefined) : undefined;
    const ok =
      typeof body === 'object' &&
      body !== null &&
      Object.keys(body).length === 1 &&
      typeof err === 'object' &&
      err !== null &&
      typeof err.type === 'string' &&
      ERROR_TYPES.includes(err.type) &&
      typeof err.code === 'string' &&
      err.code.length > 0 &&
      typeof err.message === 'string' &&
      err.message.length > 0 &&
      (err.param === undefined || typeof err.param === 'string');
    if (!ok) throw new Error(`${res.status} without the error body for ${request}\n→ ${res.text.slice(0, 1000)}`);
    return;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Error(`${res.status} with a body that is not a JSON object for ${request}\n→ ${res.text.slice(0, 500)}`);
  }
}

/**
 * Sends a generated body: `{json}` is JSON-encoded (an unencodable value is sent
 * as no body), `{raw}` goes as is with the given content type.
 */
type Sent = { json: unknown } | { raw: string; contentType?: string };

async function send(method: string, path: string, sent: Sent, key?: string, headers: Record<string, string> = {}): Promise<TestResponse> {
  if ('json' in sent) {
    const text = JSON.stringify(sent.json);
    const res = await api.request(method, path, {
      key,
      raw: text,
      headers: text === undefined ? headers : { ...JSON_HEADERS, ...headers },
    });
    checkAnswer(res, describeRequest(method, path, text));
    return res;
  }
  const h = sent.contentType === undefined ? headers : { 'content-type': sent.contentType, ...headers };
  const res = await api.request(method, path, { key, raw: sent.raw, headers: h });
  checkAnswer(res, describeRequest(method, path, sent.raw));
  return res;
}

/** Waits for every request of a batch (none left running), then fails with the first failure. */
async function all<T>(promises: Array<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** Every item of a list, following `starting_after` pages of 100. */
async function listAll(path: string, idField: string, key?: string): Promise<Array<Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  let after: string | undefined;
  for (;;) {
    const res = await api.request('GET', `${path}?limit=100${after ? `&starting_after=${after}` : ''}`, { key });
    expect(res.status).toBe(200);
    all.push(...(res.body.data as Array<Record<string, unknown>>));
    if (!res.body.has_more) return all;
    after = all[all.length - 1]?.[idField] as string;
  }
}

// ---------------------------------------------------------------------------
// Generators: junk values
// ---------------------------------------------------------------------------

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x10',
  '1_000',
  ' 100',
  '100 ',
  '100.0',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '٣٤٥',
  '１２３',
  '\u0000',
  '\ud800',
  '\u202e\u0041',
  '👩‍👩‍👧‍👦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
  "'; DROP TABLE payments; --",
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as text on purpose
  '${jndi:ldap://x}',
  '%s%n%x',
  '../../etc/passwd',
  '__proto__',
  'constructor',
  'MERCHANT#mer_x#PAYMENT#pay_x',
  'pay_00000000000000000000000000000000',
  'cus_00000000000000000000000000000000',
  'USD',
  'usd',
  'card',
  'manual',
  '4242424242424242',
  '+2348012345678',
  'a@b.co',
);

const hugeStrings = fc
  .constantFrom(41, 257, 501, 1001, 5000, 65_000, 70_000)
  .chain((n) => fc.constantFrom('a', 'é', '😀', '9', ' ').map((c) => c.repeat(n)));

const extremeNumbers = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.5,
    1.0000001,
    99_999_999_999,
    100_000_000_000,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER,
    1e21,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_VALUE,
  ),
  fc.double(),
  fc.integer(),
  fc.integer({ min: 1, max: 99_999_999_999 }),
);

/** Deep nesting (arrays and objects hundreds of levels deep). */
const deepNesting = fc.tuple(fc.integer({ min: 1, max: 600 }), fc.boolean()).map(([depth, asArray]) => {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i += 1) v = asArray ? [v] : { a: v };
  return v;
});

const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.anything({ maxDepth: 3, withNullPrototype: true }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  { arbitrary: nastyStrings, weight: 3 },
  { arbitrary: hugeStrings, weight: 1 },
  { arbitrary: extremeNumbers, weight: 2 },
  // `[]` and `{}` made fresh for each draw: a constant instance would be shared by every run, and a mutation that
  // adds a member inside it (or adds it inside itself) would change it for every later run, even into a cycle.
  {
    arbitrary: fc
      .constantFrom<() => unknown>(
        () => null,
        () => true,
        () => false,
        () => [],
        () => ({}),
      )
      .map((make) => make()),
    weight: 1,
  },
  { arbitrary: fc.array(fc.anything({ maxDepth: 2 }), { maxLength: 5 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.anything({ maxDepth: 2 }), { maxKeys: 5 }), weight: 1 },
  { arbitrary: deepNesting, weight: 1 },
);

const weirdKeys = fc.oneof(
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '',
    ' ',
    'amount ',
    'AMOUNT',
    'amount\u0000',
    'card.card_number',
    '$where',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);

// ---------------------------------------------------------------------------
// Generators: valid values per field, and near-valid bodies
// ---------------------------------------------------------------------------

const validCard = fc
  .record({
    number: fc.constantFrom(
      '4242424242424242',
      '4111111111111111',
      '5555555555554444',
      '4000000000000002',
      '4000000000009995',
      '4000000000003220',
      '378282246310005',
    ),
    month: fc.integer({ min: 1, max: 12 }).chain((m) => fc.constantFrom(String(m), String(m).padStart(2, '0'))),
    year: fc.integer({ min: thisYear + 1, max: thisYear + 15 }).chain((y) => fc.constantFrom(String(y), String(y % 100).padStart(2, '0'))),
    cvc: fc.constantFrom('123', '1234', '000'),
  })
  .map((c) => ({ card: { card_number: c.number, card_exp_month: c.month, card_exp_year: c.year, card_cvc: c.cvc } }));

const validMetadata = fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 500 }), { maxKeys: 5 });
const validEmail = fc.constantFrom('ada@example.com', 'x.y+z@sub.example.ng', 'ADA@EXAMPLE.COM');
const validPhone = fc.constantFrom('+2348012345678', '+14155550123', '+254712345678');
const validBilling = fc.record(
  {
    address: fc.record(
      {
        first_name: fc.string({ maxLength: 200 }),
        last_name: fc.string({ maxLength: 200 }),
        line1: fc.string({ maxLength: 200 }),
        city: fc.string({ maxLength: 200 }),
        state: fc.string({ maxLength: 200 }),
        zip: fc.string({ maxLength: 40 }),
        country: fc.constantFrom('NG', 'GH', 'KE', 'ZA', 'US'),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

const validCreatePayment = fc.record(
  {
    amount: fc.integer({ min: 1, max: 99_999_999_999 }),
    currency: fc.constantFrom('NGN', 'USD', 'GHS', 'ZAR', 'KES'),
    confirm: fc.boolean(),
    capture_method: fc.constantFrom('automatic', 'manual'),
    payment_method: fc.constantFrom('card', 'bank_transfer', 'ussd', 'mobile_money'),
    payment_method_data: validCard,
    description: fc.string({ maxLength: 1000 }),
    email: validEmail,
    customer_id: fc.constantFrom('cus_00000000000000000000000000000000', 'not-an-id'),
    metadata: validMetadata,
    billing: validBilling,
  },
  { requiredKeys: ['amount', 'currency'] },
);

const validConfirm = fc.record(
  { payment_method: fc.constantFrom('card', 'bank_transfer', 'ussd', 'mobile_money'), payment_method_data: validCard },
  { requiredKeys: [] },
);

const validCustomer = fc.record(
  {
    email: validEmail,
    name: fc.string({ maxLength: 256 }),
    phone: validPhone,
    description: fc.string({ maxLength: 1000 }),
    metadata: validMetadata,
  },
  { requiredKeys: [] },
);

const validRefund = fc.record(
  { amount: fc.integer({ min: 1, max: 5_000_000 }), reason: fc.string({ maxLength: 500 }) },
  { requiredKeys: [] },
);

type Obj = Record<string, unknown>;

/** encodeURIComponent that tolerates lone surrogates (sent as U+FFFD, as any HTTP client would). */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const encode = (s: string) => encodeURIComponent(wellFormed(s));

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/** Every path (list of keys) to an object member in `v`, including nested ones. */
function memberPaths(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  const out: string[][] = [];
  for (const [k, child] of Object.entries(v as Obj)) {
    out.push([...prefix, k]);
    out.push(...memberPaths(child, [...prefix, k]));
  }
  return out;
}

function containerPaths(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
  const out: string[][] = [prefix];
  for (const [k, child] of Object.entries(v as Obj)) out.push(...containerPaths(child, [...prefix, k]));
  return out;
}

function parentOf(root: Obj, path: string[]): Obj {
  let v: Obj = root;
  for (const k of path.slice(0, -1)) v = v[k] as Obj;
  return v;
}

/** One mutation of a valid body: a member set to junk, deleted, or an unknown member added (at any depth). */
type Mutation =
  | { kind: 'set'; pick: number; value: unknown }
  | { kind: 'delete'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('set' as const), pick: fc.nat(), value: junkValue }), weight: 5 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('add' as const), pick: fc.nat(), key: weirdKeys, value: junkValue }), weight: 2 },
);

function mutate(valid: Obj, mutations: Mutation[]): Obj {
  const body = clone(valid);
  for (const m of mutations) {
    if (m.kind === 'add') {
      const containers = containerPaths(body);
      const at = containers[m.pick % containers.length] ?? [];
      let target: Obj = body;
      for (const k of at) target = target[k] as Obj;
      Object.defineProperty(target, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
      continue;
    }
    const members = memberPaths(body);
    if (members.length === 0) continue;
    const path = members[m.pick % members.length] as string[];
    const parent = parentOf(body, path);
    const key = path[path.length - 1] as string;
    if (m.kind === 'delete') delete parent[key];
    else parent[key] = m.value;
  }
  return body;
}

/** A valid body with 1–3 mutations (usually, but not always, invalid). */
const nearValid = (valid: fc.Arbitrary<Obj>) =>
  fc.tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, ms]) => mutate(v, ms));

/** A body built from the schema's real field names with junk values. */
const junkWithFieldNames = (names: string[]) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...names), weirdKeys), junkValue, { minKeys: 1, maxKeys: names.length + 1 });

/** Raw bodies that are not (or not quite) JSON, with assorted content types. */
const rawBody: fc.Arbitrary<Sent> = fc.record({
  raw: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom(
      '{',
      '}',
      '{"amount": 100,',
      "{amount: 100, currency: 'NGN'}",
      '{"amount":100,"currency":"NGN"}}',
      '\u0000',
      'null',
      'true',
      '0',
      '[]',
      '"x"',
      '[{"amount":100}]',
      '{"amount": 1e400, "currency": "USD"}',
      '{"amount": -0, "currency": "USD"}',
      '{"amount": 9007199254740993, "currency": "USD"}',
      '{"amount": 100, "amount": "x", "currency": "USD"}',
      '{"__proto__": {"amount": 100}, "currency": "USD"}',
      '\ufeff{}',
      `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      'amount=100&currency=USD',
      '<xml/>',
    ),
    fc.json().map((j) => `${j}${j}`),
    fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
  ),
  contentType: fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/vnd.api+json',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/jsonx',
      '',
    ),
    { nil: undefined },
  ),
});

/** Bodies for one endpoint: anything, arbitrary JSON, junk in the real fields, near-valid, raw text. */
function bodiesFor(valid: fc.Arbitrary<Obj>, fieldNames: string[]): fc.Arbitrary<Sent> {
  return fc.oneof(
    { arbitrary: fc.anything({ maxDepth: 4, withNullPrototype: true, withSparseArray: true }).map((json) => ({ json })), weight: 2 },
    { arbitrary: fc.json({ maxDepth: 4 }).map((raw) => ({ raw, contentType: 'application/json' })), weight: 2 },
    { arbitrary: junkWithFieldNames(fieldNames).map((json) => ({ json })), weight: 4 },
    { arbitrary: nearValid(valid).map((json) => ({ json })), weight: 6 },
    { arbitrary: rawBody, weight: 2 },
  );
}

const PAYMENT_FIELDS = [
  'amount',
  'currency',
  'confirm',
  'capture_method',
  'payment_method',
  'payment_method_data',
  'description',
  'email',
  'customer_id',
  'metadata',
  'billing',
];
const CUSTOMER_FIELDS = ['email', 'name', 'phone', 'description', 'metadata'];

/** An Idempotency-Key header value: absent, valid-looking, or junk (printable Latin-1 only: what HTTP can carry). */
const idempotencyHeader = fc.option(
  fc.oneof(
    fc.uuid(),
    fc.string({ minLength: 0, maxLength: 300, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }),
    fc.constantFrom('', ' ', 'x'.repeat(256), 'x'.repeat(255)),
  ),
  { nil: undefined },
);

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

/** The generated request-body properties of the create, confirm, refund and update endpoints; call from a test file. */
export function requestBodyProperties(): void {
  describe('generated request bodies', () => {
    test('POST /payments and POST /customers: no 5xx, error body on 4xx, a fresh merchant holds exactly the accepted resources', async () => {
      const merchant = await api.newMerchantKey();
      // A customer of ANOTHER merchant: linking to it must be 400 resource_missing, never a write.
      const foreignCustomer = (await api.request('POST', '/customers', { body: {} })).body.customer_id as string;
      const createdPayments = new Set<string>();
      const createdCustomers = new Set<string>();

      // Requests go in small concurrent batches (fast-check shrinks a failing batch to one request).
      const paymentRequests = fc.array(
        fc.tuple(
          bodiesFor(
            validCreatePayment.map((b) => (b.customer_id === 'not-an-id' ? { ...b, customer_id: foreignCustomer } : b)),
            PAYMENT_FIELDS,
          ),
          idempotencyHeader,
        ),
        { minLength: 1, maxLength: BATCH },
      );
      await fc.assert(
        fc.asyncProperty(paymentRequests, async (batch) => {
          const answers = await all(
            batch.map(([sent, idemKey]) =>
              send('POST', '/payments', sent, merchant, idemKey === undefined ? {} : { 'Idempotency-Key': idemKey }),
            ),
          );
          for (const res of answers) if (res.status === 200) createdPayments.add(res.body.payment_id as string);
        }),
        params(
          RUNS.createPayment,
          KNOWN_BODY_COUNTEREXAMPLES.map((json) => [[[{ json: { amount: 100, currency: 'NGN', ...(json as Obj) } }, undefined]]]),
        ),
      );

      await fc.assert(
        fc.asyncProperty(fc.array(bodiesFor(validCustomer, CUSTOMER_FIELDS), { minLength: 1, maxLength: BATCH }), async (batch) => {
          const answers = await all(batch.map((sent) => send('POST', '/customers', sent, merchant)));
          for (const res of answers) if (res.status === 200) createdCustomers.add(res.body.customer_id as string);
        }),
        params(
          RUNS.createCustomer,
          KNOWN_BODY_COUNTEREXAMPLES.map((json) => [[{ json }]]),
        ),
      );

      const payments = await listAll('/payments', 'payment_id', merchant);
      expect(payments.map((p) => p.payment_id).sort()).toEqual([...createdPayments].sort());
      const customers = await listAll('/customers', 'customer_id', merchant);
      expect(customers.map((c) => c.customer_id).sort()).toEqual([...createdCustomers].sort());
    }, 240_000);

    test('POST /payments/{id}/confirm: no 5xx, error body on 4xx, a rejected confirm leaves the payment untouched', async () => {
      const newTarget = async () => (await api.request('POST', '/payments', { body: { amount: 5000, currency: 'NGN' } })).body as Obj;
      // A confirm that is accepted changes its payment: the next runs get a fresh one.
      let target = await newTarget();
      await fc.assert(
        fc.asyncProperty(bodiesFor(validConfirm, ['payment_method', 'payment_method_data']), async (sent) => {
          const res = await send('POST', `/payments/${target.payment_id}/confirm`, sent);
          if (res.status === 200) target = await newTarget();
        }),
        params(RUNS.confirm, [[{ json: {} }], [{ json: { payment_method_data: { card: {} } } }]]),
      );
      // Every request since it was created was rejected: the payment is exactly as created.
      const after = await api.request('GET', `/payments/${target.payment_id}`);
      expect(after.body).toEqual(target);
    }, 120_000);

    test('POST /payments/{id}/refund: no 5xx, error body on 4xx; amount_refunded and the refund list hold exactly the accepted refunds', async () => {
      const AMOUNT = 50_000_000;
      const newTarget = async () => {
        const p = await api.request('POST', '/payments', {
          body: { amount: AMOUNT, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
        });
        expect(p.body.status).toBe('Succeeded');
        return { id: p.body.payment_id as string, refunded: 0, refunds: [] as string[] };
      };
      const targets = [await newTarget()];
      await fc.assert(
        fc.asyncProperty(bodiesFor(validRefund, ['amount', 'reason']), async (sent) => {
          const t = targets[targets.length - 1]!;
          const res = await send('POST', `/payments/${t.id}/refund`, sent);
          if (res.status === 200) {
            t.refunded += res.body.amount as number;
            t.refunds.push(res.body.refund_id as string);
            if (t.refunded >= AMOUNT) targets.push(await newTarget());
          }
        }),
        params(RUNS.refund, [[{ json: { amount: 0 } }], [{ json: { amount: AMOUNT + 1 } }]]),
      );
      for (const t of targets) {
        const after = await api.request('GET', `/payments/${t.id}`);
        expect({ id: t.id, amount_refunded: after.body.amount_refunded }).toEqual({ id: t.id, amount_refunded: t.refunded });
        const listed = await listAll(`/payments/${t.id}/refunds`, 'refund_id');
        expect(listed.map((r) => r.refund_id).sort()).toEqual([...t.refunds].sort());
      }
    }, 120_000);

    test('PUT /customers/{id}: no 5xx, error body on 4xx, a rejected update leaves the customer untouched', async () => {
      let current = (await api.request('POST', '/customers', { body: { name: 'Target', metadata: { k: 'v' } } })).body as Obj;
      const path = `/customers/${current.customer_id}`;
      await fc.assert(
        fc.asyncProperty(bodiesFor(validCustomer, CUSTOMER_FIELDS), async (sent) => {
          const res = await send('PUT', path, sent);
          if (res.status === 200) {
            current = res.body as Obj;
            return;
          }
          const after = await api.request('GET', path);
          if (JSON.stringify(after.body) !== JSON.stringify(current)) {
            throw new Error(`a rejected PUT (${res.status}) changed the customer: ${JSON.stringify(current)} → ${after.text}`);
          }
        }),
        params(
          RUNS.updateCustomer,
          KNOWN_BODY_COUNTEREXAMPLES.map((json) => [{ json }]),
        ),
      );
    }, 120_000);
  });
}

// ---------------------------------------------------------------------------
// Query strings
// ---------------------------------------------------------------------------

const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('limit', 'offset', 'starting_after', 'status', 'email'), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      'created[gt]',
      'created[gte]',
      'created[lt]',
      'created[lte]',
      'created.gt',
      'created.gte',
      'created.lt',
      'created.lte',
      'created',
      'created[]',
      'created[eq]',
      'created.eq',
      'created[gte][x]',
      'created..gte',
      'created[GTE]',
      'limit[]',
      'limit[x]',
    ),
    weight: 5,
  },
  { arbitrary: weirdKeys, weight: 2 },
);

const isoDate = fc
  .date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((d) => {
    const iso = d.toISOString();
    return fc.constantFrom(
      iso,
      iso.slice(0, 10),
      iso.slice(0, 19),
      iso.replace('Z', '+01:00'),
      iso.replace('Z', '-0530'),
      iso.slice(0, 16),
    );
  });

const queryValue = fc.oneof(
  { arbitrary: fc.integer({ min: -5, max: 200 }).map(String), weight: 4 },
  { arbitrary: extremeNumbers.map(String), weight: 2 },
  { arbitrary: isoDate, weight: 3 },
  { arbitrary: fc.integer({ min: -1, max: 300_000_000_000 }).map(String), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      'RequiresConfirmation',
      'Succeeded',
      'succeeded',
      'Processing',
      'Cancelled',
      'RequiresCapture',
      'Failed',
      'RequiresAction',
    ),
    weight: 2,
  },
  { arbitrary: fc.constantFrom('ada@example.com', 'ADA@EXAMPLE.COM', '@', 'a@', 'x'.repeat(3000)), weight: 1 },
  { arbitrary: nastyStrings, weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 120 }), weight: 2 },
  {
    arbitrary: fc.constantFrom(
      '2026-02-30',
      '2026-13-01',
      '2026-01-01T25:00:00Z',
      '1e3',
      '+5',
      '5.0',
      '0005',
      '99999999999',
      '999999999999',
      '9999999999999999',
    ),
    weight: 2,
  },
);

/** Encodes a query component, or (sometimes) leaves it raw — `%`, `+`, `&`, brackets and all. */
const encoding = fc.constantFrom('encode', 'encode', 'encode', 'raw');
const encodeWith = (how: string, s: string) => (how === 'raw' ? s.replace(/#/g, '') : encode(s));

function queryString(pairs: Array<[string, string, string]>): string {
  return pairs.map(([k, v, how]) => `${encodeWith(how, k)}=${encodeWith(how, v)}`).join('&');
}

const queryPairs = fc.array(fc.tuple(queryKey, queryValue, encoding), { minLength: 0, maxLength: 5 });

/** The generated query-string properties of the list endpoints; call from a test file. */
export function queryStringProperties(): void {
  describe('generated query strings', () => {
    let existing: { payment: string; customer: string; otherPayment: string; refund: string };
    beforeAll(async () => {
      const p = await api.request('POST', '/payments', {
        body: { amount: 900, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242') },
      });
      await api.request('POST', '/payments', { body: { amount: 901, currency: 'USD' } });
      const c = await api.request('POST', '/customers', { body: { email: 'ada@example.com' } });
      const r = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 10 } });
      const other = await api.newMerchantKey();
      const op = await api.request('POST', '/payments', { key: other, body: { amount: 902, currency: 'USD' } });
      existing = { payment: p.body.payment_id, customer: c.body.customer_id, otherPayment: op.body.payment_id, refund: r.body.refund_id };
    });

    /** Mixes in real ids as `starting_after` values now and then. */
    const withIds = (pairs: Array<[string, string, string]>, useId: number) => {
      if (useId === 0 || pairs.length === 0) return pairs;
      const ids = [existing.payment, existing.customer, existing.otherPayment, existing.refund];
      const out = [...pairs];
      out[0] = ['starting_after', ids[(useId - 1) % ids.length] as string, 'encode'];
      return out;
    };

    /** GETs a list with a generated query; checks the answer and, on 200, the list shape. */
    async function getList(path: string, pairs: Array<[string, string, string]>, useId: number): Promise<void> {
      const qs = queryString(withIds(pairs, useId));
      const url = qs ? `${path}?${qs}` : path;
      const res = await api.request('GET', url);
      checkAnswer(res, `GET ${url}`);
      if (res.status === 200) {
        const ok =
          Array.isArray(res.body.data) &&
          typeof res.body.has_more === 'boolean' &&
          res.body.data.length <= 100 &&
          Object.keys(res.body).length === 2;
        if (!ok) throw new Error(`200 without {data, has_more} for GET ${url}: ${res.text.slice(0, 300)}`);
      }
    }

    const batches = fc.array(fc.tuple(queryPairs, fc.nat(6)), { minLength: 1, maxLength: BATCH });
    const E = 'encode';
    /**
     * Found before: `starting_after` with a `created` range that excludes the cursor item → 500
     * (DynamoDB ValidationException "The provided starting key does not match the range key predicate").
     * useId picks the cursor: 1 payment, 2 customer, 3 other merchant's payment, 4 refund (see withIds).
     */
    const cursorOutsideRange = (useId: number) => [
      [
        [
          [
            [
              ['limit', '1', E],
              ['created[lt]', '0', E],
            ] as Array<[string, string, string]>,
            useId,
          ],
        ],
      ],
      [
        [
          [
            [
              ['limit', '1', E],
              ['created.gt', '9999-12-31', E],
            ] as Array<[string, string, string]>,
            useId,
          ],
        ],
      ],
    ];

    test('GET /payments: no 5xx, error body on 4xx, {data: array, has_more: boolean} on 200', async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (batch) => {
          await all(batch.map(([pairs, useId]) => getList('/payments', pairs, useId)));
        }),
        params(RUNS.listQuery, cursorOutsideRange(1)),
      );
    }, 120_000);

    test('GET /customers: no 5xx, error body on 4xx, {data: array, has_more: boolean} on 200', async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (batch) => {
          await all(batch.map(([pairs, useId]) => getList('/customers', pairs, useId)));
        }),
        params(RUNS.listQuery, cursorOutsideRange(2)),
      );
    }, 120_000);

    test('GET /payments/{id}/refunds: no 5xx, error body on 4xx, {data: array, has_more: boolean} on 200', async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (batch) => {
          await all(batch.map(([pairs, useId]) => getList(`/payments/${existing.payment}/refunds`, pairs, useId)));
        }),
        params(RUNS.refundsQuery, cursorOutsideRange(4)),
      );
    }, 120_000);
  });
}

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

/** The generated-paths property; call from a test file. */
export function pathProperties(): void {
  describe('generated paths', () => {
    test('GET/POST/PUT/DELETE under /payments/, /customers/, /refunds/: no 5xx, error body on 4xx', async () => {
      // Resources of their own merchant, so state-changing hits touch nothing of the other tests.
      const merchant = await api.newMerchantKey();
      const p = await api.request('POST', '/payments', {
        key: merchant,
        body: { amount: 700, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
      });
      const c = await api.request('POST', '/customers', { key: merchant, body: {} });
      const r = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { key: merchant, body: { amount: 1 } });
      const realIds = [
        p.body.payment_id as string,
        c.body.customer_id as string,
        r.body.refund_id as string,
        `pay_${hex()}`,
        `cus_${hex()}`,
        `ref_${hex()}`,
      ];

      const segment = fc.oneof(
        { arbitrary: fc.constantFrom(...realIds), weight: 3 },
        {
          arbitrary: fc.constantFrom('confirm', 'cancel', 'capture', 'refund', 'refunds', 'payments', 'customers', '..', '.', '', 'health'),
          weight: 3,
        },
        { arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encode), weight: 3 },
        { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }), weight: 1 },
        { arbitrary: fc.string({ minLength: 1, maxLength: 30 }), weight: 2 },
        {
          arbitrary: fc.constantFrom(
            '%',
            '%zz',
            '%c3%28',
            '%00',
            '%2F',
            '%252F',
            '%ff%fe',
            '%F0%9F%98%80',
            'pay_%00',
            'pay_x%0Ay',
            ';',
            '%20',
            `pay_${'a'.repeat(65)}`,
            `pay_${'a'.repeat(64)}`,
          ),
          weight: 2,
        },
        { arbitrary: fc.constantFrom(1000, 3000, 6000).map((n) => 'p'.repeat(n)), weight: 1 },
        { arbitrary: nastyStrings.map(encode), weight: 2 },
      );
      const request = fc
        .record({
          method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
          root: fc.constantFrom('/payments/', '/customers/', '/refunds/'),
          segments: fc.array(segment, { minLength: 0, maxLength: 4 }),
          body: fc.option(
            fc.oneof(
              fc.constant<Sent>({ json: {} }),
              fc.json({ maxDepth: 2 }).map<Sent>((raw) => ({ raw, contentType: 'application/json' })),
            ),
            { nil: undefined },
          ),
        })
        // Node's HTTP server refuses request lines over 16 KiB (431) before any handler runs: stay below.
        .filter(({ segments }) => encodeURI(wellFormed(segments.join('/'))).length < 12_000);

      const one = async ({ method, root, segments, body }: { method: string; root: string; segments: string[]; body?: Sent }) => {
        const path = `${root}${segments.join('/')}`;
        if (body === undefined || method === 'GET' || method === 'DELETE') {
          const res = await api.request(method, path, { key: merchant });
          checkAnswer(res, `${method} ${path.slice(0, 300)}`);
        } else {
          await send(method, path, body, merchant);
        }
      };
      await fc.assert(
        fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: BATCH }), async (batch) => {
          await all(batch.map(one));
        }),
        params(RUNS.paths),
      );
    }, 180_000);
  });
}

// ---------------------------------------------------------------------------
// Card numbers in free text (shared/domain/card.ts; measured in test/unit/card-detector.test.ts)
// ---------------------------------------------------------------------------

/** The card-number properties (through the API); call from a test file. */
export function cardTextProperties(): void {
  describe('card numbers in free text, through the API', () => {
    const pans = [...Object.keys(SANDBOX_TEST_CARDS), ...PUBLISHED_TEST_CARDS];
    /** A test card number written one of its ≥ 30 ways. */
    const spelledCard = fc.constantFrom(...pans).chain((pan) => fc.constantFrom(...spellingsOf(pan)).map((s) => ({ pan, text: s.text })));

    /** Where a body can carry text: the field's `param`, the body holding `text` there, and (`fit`) the longest text the place takes. */
    const PLACES: Array<{ path: string; customer: boolean; body: (text: string) => Obj; fit?: number }> = [
      { path: 'name', customer: true, body: (text) => ({ name: text }) },
      { path: 'description', customer: true, body: (text) => ({ description: text }) },
      { path: 'email', customer: true, body: (text) => ({ email: `x.${text}@example.com` }) },
      { path: 'phone', customer: true, body: (text) => ({ phone: `+${text}` }) },
      { path: 'metadata', customer: true, body: (text) => ({ metadata: { note: text } }) },
      { path: 'metadata', customer: true, body: (text) => ({ metadata: { [text]: 'x' } }), fit: 40 },
      { path: 'description', customer: false, body: (text) => ({ description: text }) },
      { path: 'billing.address.line1', customer: false, body: (text) => ({ billing: { address: { line1: text } } }) },
      { path: 'billing.address.city', customer: false, body: (text) => ({ billing: { address: { city: text } } }) },
      { path: 'metadata', customer: false, body: (text) => ({ metadata: { order: text } }) },
      {
        path: 'return_url',
        customer: false,
        body: (text) => ({ return_url: `https://shop.example.com/done?ref=${encodeURIComponent(text)}` }),
      },
    ];

    test('a test card number, in any spelling, in any stored field: 400 naming the field, and the answer holds no card number', async () => {
      const merchant = await api.newMerchantKey();
      const one = async ({ place, spelled }: { place: number; spelled: { pan: string; text: string } }) => {
        const where = PLACES[place] as (typeof PLACES)[number];
        // A metadata key holds at most 40 characters: a longer spelling is sent as the bare number.
        const text = where.fit !== undefined && spelled.text.length > where.fit ? spelled.pan : spelled.text;
        const body = where.customer ? where.body(text) : { amount: 1500, currency: 'NGN', ...where.body(text) };
        const path = where.customer ? '/customers' : '/payments';
        const res = await send('POST', path, { json: body }, merchant);
        const request = describeRequest('POST', path, body);
        if (res.status !== 400) throw new Error(`${res.status} (not 400) for ${request}`);
        const param = (res.body.error as { param?: string }).param ?? '';
        if (!(param === where.path || param.startsWith(`${where.path}.`)))
          throw new Error(`param ${JSON.stringify(param)} (not ${where.path}) for ${request}`);
        if (containsCardNumber(res.text) || res.text.includes(spelled.pan))
          throw new Error(`the answer repeats the card number for ${request}: ${res.text}`);
      };
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ place: fc.nat(PLACES.length - 1), spelled: spelledCard }), { minLength: 1, maxLength: BATCH }),
          async (batch) => {
            await all(batch.map(one));
          },
        ),
        params(75, [[[{ place: 3, spelled: { pan: '378282246310005', text: '378282246310005' } }]]]),
      );
      const customers = await listAll('/customers', 'customer_id', merchant);
      expect(customers).toEqual([]);
      const payments = await listAll('/payments', 'payment_id', merchant);
      expect(payments).toEqual([]);
    }, 180_000);

    test('legitimate values with long digit runs (timestamps, phones, NUBANs, e-mails, amounts, order ids) are accepted in every field', async () => {
      const merchant = await api.newMerchantKey();
      const corpus = legitimateCorpus(20_261_121, 1_000).map((c) => c.value); // the corpus of test/unit/card-detector.test.ts
      const value = fc.constantFrom(...corpus);
      const phone = fc.constantFrom(...corpus.filter((v) => /^\+[1-9]\d{6,14}$/.test(v)));
      const email = fc.constantFrom(...corpus.filter((v) => /^[a-z0-9._+]+@[a-z.]+$/.test(v)));
      const customer = fc.record({ name: value, description: value, phone, email, metadata: fc.record({ ref: value, note: value }) });
      await fc.assert(
        fc.asyncProperty(fc.array(customer, { minLength: 1, maxLength: BATCH }), async (batch) => {
          const answers = await all(batch.map((body) => send('POST', '/customers', { json: body }, merchant)));
          answers.forEach((res, i) => {
            if (res.status !== 200) throw new Error(`${res.status} for ${JSON.stringify(batch[i])}: ${res.text}`);
          });
        }),
        params(50),
      );
    }, 180_000);
  });
}
