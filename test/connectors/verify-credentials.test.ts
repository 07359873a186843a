/**
 * `Connector.verifyCredentials` of every adapter against a local server (node:http on 127.0.0.1, never the
 * network): the one read-only call each sends (Stripe `GET /v1/balance`, Paystack `GET /balance`, Flutterwave
 * `GET /v3/balances`; the sandbox sends nothing), and how each answer is read: the documented balance answer →
 * resolves; 401/403 (and Paystack's `Invalid key`) → `ConnectorRequestError('invalid_credentials')`; another 4xx
 * → the processor's code; 5xx, timeout, nothing listening, or a 2xx that is not the balance answer →
 * `ConnectorTechnicalError`. The key never appears in any error, even when the processor's body quotes it.
 *
 * Answers are the processors' own samples (fixtures/SOURCES.md, "Credential check"):
 * - Stripe: `resources.balance` of stripe/openapi `openapi/fixtures3.json` (tag v2436, commit f6c2a48fbac2), kept as
 *   fixtures/stripe/openapi-fixtures3/balance.extract.json; the 401 body fixtures/stripe/error.invalid_api_key.json.
 * - Paystack: PaystackOSS/doc-code-snippets (commit 94af513d752d) `src/api/transfers-control/balance/response.json`
 *   and PaystackOSS/openapi (commit 9678dea922a9) `components/responses/Unauthorized.yaml` (`Invalid key`),
 *   `NotFound.yaml`, both `$ref`ed by `paths/balance.yaml`.
 * - Flutterwave: flutterwave-node-v3 1.4.1 `documentation/misc.md` "Get all wallet balances" (read from
 *   node_modules), the 401 body of https://developer.flutterwave.com/docs/integration-guides/errors
 *   (fixtures/flutterwave/error-authorization-required.json) and the 503 body of fixtures/flutterwave/error-server.json.
 * Bodies marked "the test's own" are the processor's documented error envelope with a text of ours.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { type Connector, ConnectorRequestError, ConnectorTechnicalError } from '../../shared/connectors/connector';
import { INVALID_CREDENTIALS_CODE } from '../../shared/connectors/connector-http';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_TIMEOUTS_MS } from '../../shared/connectors/flutterwave/timeouts';
import { PaystackConnector } from '../../shared/connectors/paystack/paystack-connector';
import { isInvalidKeyAnswer } from '../../shared/connectors/paystack/responses';
import { PAYSTACK_TIMEOUTS_MS } from '../../shared/connectors/paystack/timeouts';
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/api-version';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { STRIPE_TIMEOUTS_MS } from '../../shared/connectors/stripe/timeouts';

const FIXTURES = join(__dirname, 'fixtures');
const json = (file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
const openapiExample = (file: string): unknown =>
  (yaml.load(readFileSync(join(FIXTURES, 'paystack', 'openapi', 'components', 'responses', file), 'utf8')) as any).content[
    'application/json'
  ].example;

/** The "Sample Response" of a `## ` section of flutterwave-node-v3's documentation/misc.md. */
function flutterwaveSdkSample(section: string): unknown {
  const file = join(require.resolve('flutterwave-node-v3/package.json'), '..', 'documentation', 'misc.md');
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(`## ${section}`);
  const m = /Sample Response\s*\n+```(?:javascript|json)?\n([\s\S]*?)\n```/.exec(text.slice(at));
  if (at < 0 || !m) throw new Error(`misc.md has no sample under "${section}"`);
  return JSON.parse(m[1]!);
}

const STRIPE_KEY = 'sk_test_51VerifyCredentialsFixtureKeyNeverReal0123456789abcdefABCDEF';
const PAYSTACK_KEY = 'sk_test_0f1e2d3c4b5a69788796a5b4c3d2e1f0a1b2c3d4';
const FLUTTERWAVE_KEY = 'FLWSECK_TEST-0f1e2d3c4b5a69788796a5b4c3d2e1f0-X';
const FLUTTERWAVE_ENCRYPTION_KEY = 'FLWSECK_TEST0f1e2d3c4b5a';

/* ------------------------------------------------------------------------------------------------
 * Local server
 * --------------------------------------------------------------------------------------------- */

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
/** An answer: `body` sent as JSON, `raw` as it is (not JSON); `hang` never answers. */
type Reply = { status: number; body?: unknown; raw?: string } | 'hang';

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let reply: Reply = { status: 500, body: {} };
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (reply === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': reply.raw === undefined ? 'application/json' : 'text/html' });
      res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  requests = [];
  reply = { status: 500, body: {} };
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The rejection of a promise (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(outcome instanceof Error)) throw new Error('expected a rejection');
  return outcome;
}

/** Everything an error carries that could reach a log or a client: its class fields and message. */
const exposed = (err: Error): string => JSON.stringify({ ...err, message: err.message, name: err.name });

/* ------------------------------------------------------------------------------------------------
 * One table per processor
 * --------------------------------------------------------------------------------------------- */

interface Processor {
  name: 'stripe' | 'paystack' | 'flutterwave';
  key: string;
  path: string;
  /** The adapter on the local server; `timeoutMs` undefined → its table applies. */
  adapter: (base: string, timeoutMs?: number) => Connector;
  /** The documented 200 answer of the balance read. */
  ok: () => unknown;
  /** The documented 401 answer. */
  unauthorized: () => unknown;
  /** An error body quoting the key, in the processor's envelope (the test's own: no processor documents one). */
  echoing: (key: string) => unknown;
  tableTimeout: number;
  /** Headers every call must carry besides the bearer key. */
  headers: Record<string, string>;
}

const PROCESSORS: Processor[] = [
  {
    name: 'stripe',
    key: STRIPE_KEY,
    path: '/v1/balance',
    adapter: (base, timeoutMs) => new StripeConnector({ baseUrl: base, secretKey: STRIPE_KEY, webhookSecret: '', timeoutMs }),
    ok: () => (json('stripe/openapi-fixtures3/balance.extract.json') as { resources: { balance: unknown } }).resources.balance,
    unauthorized: () => json('stripe/error.invalid_api_key.json'),
    echoing: (key) => ({ error: { message: `Invalid API Key provided: ${key}`, type: 'invalid_request_error' } }),
    tableTimeout: STRIPE_TIMEOUTS_MS.verifyCredentials,
    headers: { 'stripe-version': STRIPE_API_VERSION },
  },
  {
    name: 'paystack',
    key: PAYSTACK_KEY,
    path: '/balance',
    adapter: (base, timeoutMs) => new PaystackConnector({ baseUrl: base, secretKey: PAYSTACK_KEY, webhookSecret: '', timeoutMs }),
    ok: () => (json('paystack/doc-code-snippets/src/api/transfers-control/balance/response.json') as any)['200'].data,
    unauthorized: () => openapiExample('Unauthorized.yaml'),
    echoing: (key) => ({ status: false, message: `Key ${key} is not allowed here` }),
    tableTimeout: PAYSTACK_TIMEOUTS_MS.verifyCredentials,
    headers: {},
  },
  {
    name: 'flutterwave',
    key: FLUTTERWAVE_KEY,
    path: '/v3/balances',
    adapter: (base, timeoutMs) =>
      new FlutterwaveConnector({
        baseUrl: base,
        secretKey: FLUTTERWAVE_KEY,
        encryptionKey: FLUTTERWAVE_ENCRYPTION_KEY,
        webhookSecret: '',
        timeoutMs,
      }),
    ok: () => flutterwaveSdkSample('Get all wallet balances'),
    unauthorized: () => json('flutterwave/error-authorization-required.json'),
    echoing: (key) => ({ status: 'error', message: `Key ${key} is not allowed here`, data: null }),
    tableTimeout: FLUTTERWAVE_TIMEOUTS_MS.verifyCredentials,
    headers: { accept: 'application/json' },
  },
];

describe.each(PROCESSORS)('$name verifyCredentials', (p) => {
  const adapter = (timeoutMs: number | undefined = 2000) => p.adapter(baseUrl, timeoutMs);

  test('the documented balance answer → resolves, after exactly one authenticated GET of the documented path, no body', async () => {
    reply = { status: 200, body: p.ok() };
    await expect(adapter().verifyCredentials()).resolves.toBeUndefined();
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'GET', path: p.path, body: '' });
    expect(request!.headers.authorization).toBe(`Bearer ${p.key}`);
    expect(request!.headers).toMatchObject(p.headers);
    expect(request!.headers['content-type']).toBeUndefined();
  });

  test(`without an override, the call waits the table's verifyCredentials timeout (${p.tableTimeout} ms)`, async () => {
    expect(p.tableTimeout).toBe(10_000);
    const spy = jest.spyOn(AbortSignal, 'timeout');
    try {
      reply = { status: 200, body: p.ok() };
      await p.adapter(baseUrl).verifyCredentials();
      // Any call, not the last: other work of the worker process (a client socket timeout) may arm its own timer meanwhile.
      expect(spy).toHaveBeenCalledWith(10_000);
    } finally {
      spy.mockRestore();
    }
  });

  test.each([
    ['401, the documented body', () => ({ status: 401, body: p.unauthorized() })],
    ['403 (a key without permission for the read)', () => ({ status: 403, body: p.unauthorized() })],
    ['401 whose body is not JSON', () => ({ status: 401, raw: '<html>Unauthorized</html>' })],
    ['401 whose body quotes the key', () => ({ status: 401, body: p.echoing(p.key) })],
  ])('%s → ConnectorRequestError invalid_credentials, the key nowhere in it', async (_label, answer) => {
    reply = answer();
    const err = await rejection(adapter().verifyCredentials());
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(err).toMatchObject({ connector: p.name, code: INVALID_CREDENTIALS_CODE });
    expect(err.message).toMatch(/HTTP 40[13]/);
    expect(exposed(err)).not.toContain(p.key);
    expect(exposed(err)).not.toContain(p.key.slice(-12));
  });

  test("another 4xx (a 404 quoting the key) → ConnectorRequestError with the processor's code, not invalid_credentials; the key masked", async () => {
    reply = { status: 404, body: p.echoing(p.key) };
    const err = await rejection(adapter().verifyCredentials());
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect((err as ConnectorRequestError).code).not.toBe(INVALID_CREDENTIALS_CODE);
    expect(exposed(err)).not.toContain(p.key);
  });

  test.each([
    ['500', { status: 500, body: {} }],
    ['503 not JSON', { status: 503, raw: 'Service Unavailable' }],
    ['200 that is not the balance answer (a wrong base URL)', { status: 200, body: { hello: 'world' } }],
    ['200 not JSON', { status: 200, raw: '<html>ok</html>' }],
  ] as const)('%s → ConnectorTechnicalError (the key could not be checked)', async (_label, answer) => {
    reply = answer;
    const err = await rejection(adapter().verifyCredentials());
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect(exposed(err)).not.toContain(p.key);
  });

  test('a server that never answers → ConnectorTechnicalError after the timeout', async () => {
    reply = 'hang';
    const started = Date.now();
    const err = await rejection(adapter(200).verifyCredentials());
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    // A server that never answers holds the call until the test's end: giving up well within 10 s shows the timeout
    // fired (a generous ceiling: a loaded machine may take over a second to run a 200 ms timer).
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(exposed(err)).not.toContain(p.key);
  });

  test('nothing listening → ConnectorTechnicalError, not sent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await rejection(p.adapter(`http://127.0.0.1:${port}`, 500).verifyCredentials());
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
    expect(exposed(err)).not.toContain(p.key);
  });
});

describe('processor specifics', () => {
  const paystack = () => new PaystackConnector({ baseUrl, secretKey: PAYSTACK_KEY, webhookSecret: '', timeoutMs: 2000 });

  test("Paystack's `Invalid key` body under another 4xx (400) → invalid_credentials", async () => {
    reply = { status: 400, body: openapiExample('Unauthorized.yaml') };
    const err = await rejection(paystack().verifyCredentials());
    expect(err).toMatchObject({ code: INVALID_CREDENTIALS_CODE, message: 'paystack did not accept the API key (HTTP 400).' });
  });

  test("Paystack's documented 404 of /balance (NotFound.yaml) → its own code, not invalid_credentials", async () => {
    reply = { status: 404, body: openapiExample('NotFound.yaml') };
    const err = await rejection(paystack().verifyCredentials());
    expect(err).toMatchObject({ code: 'entity_not_found', message: 'Entity not found' });
  });

  test.each([
    [401, { status: false, message: 'Invalid key' }, true],
    [400, { status: false, message: 'invalid key.' }, true],
    [404, { status: false, message: 'Entity not found' }, false],
    [500, { status: false, message: 'Invalid key' }, false],
    [401, { status: true, message: 'Invalid key' }, false],
    [401, 'Invalid key', false],
  ])('isInvalidKeyAnswer(%s, %o) → %s', (status, body, expected) => {
    expect(isInvalidKeyAnswer(status, body)).toBe(expected);
  });

  test('Stripe 403 (restricted key without balance access) names the missing permission, not Stripe’s text', async () => {
    // The test's own body, in Stripe's error envelope (https://docs.stripe.com/api/errors: "403 Forbidden: The API
    // key doesn't have permissions to perform the request").
    reply = {
      status: 403,
      body: {
        error: { message: `The provided key '${STRIPE_KEY}' does not have the required permissions`, type: 'invalid_request_error' },
      },
    };
    const err = await rejection(
      new StripeConnector({ baseUrl, secretKey: STRIPE_KEY, webhookSecret: '', timeoutMs: 2000 }).verifyCredentials(),
    );
    expect(err).toMatchObject({
      code: INVALID_CREDENTIALS_CODE,
      message: 'stripe refused the API key (HTTP 403): the key may not make this read-only call.',
    });
  });

  test('Flutterwave 503 (its documented server error body) → ConnectorTechnicalError', async () => {
    reply = { status: 503, body: json('flutterwave/error-server.json') };
    const err = await rejection(
      new FlutterwaveConnector({
        baseUrl,
        secretKey: FLUTTERWAVE_KEY,
        encryptionKey: FLUTTERWAVE_ENCRYPTION_KEY,
        webhookSecret: '',
        timeoutMs: 2000,
      }).verifyCredentials(),
    );
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
  });

  test('the sandbox resolves and calls nothing', async () => {
    await expect(new SandboxConnector().verifyCredentials()).resolves.toBeUndefined();
    expect(requests).toHaveLength(0);
  });
});
