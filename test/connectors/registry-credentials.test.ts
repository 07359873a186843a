/**
 * The registry's two paths to an adapter (shared/processor-call/connector-registry.ts): `connectorWithCredentials` (a merchant's
 * own account) and `CONNECTOR_FACTORIES` / `configuredConnector` (the platform's), sharing one construction per
 * connector. A local server (node:http on 127.0.0.1) answers each processor's balance read with its documented
 * sample (sources in fixtures/SOURCES.md, "Credential check") and records what it receives, so the tests see which
 * key, base URL, API version and timeout an adapter really uses.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ConnectorTechnicalError, WebhookSignatureError } from '../../shared/connectors/connector';
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { STRIPE_API_VERSION } from '../../shared/connectors/stripe/api-version';
import type { ConnectorCredentials, ConnectorName } from '../../shared/domain/connector-account';
import { logger } from '../../shared/observability/logger';
import {
  CONNECTOR_FACTORIES,
  type ConnectorSettings,
  configuredConnector,
  connectorWithCredentials,
  STAGE_CONNECTOR_SETTING_NAMES,
} from '../../shared/processor-call/connector-registry';
import { scopedEnv } from '../helpers/scoped-env';

const FIXTURES = join(__dirname, 'fixtures');
const json = (file: string): unknown => JSON.parse(readFileSync(join(FIXTURES, file), 'utf8'));
/** The balance answer of each processor's documented read, by path. */
const BALANCES: Record<string, unknown> = {
  '/v1/balance': (json('stripe/openapi-fixtures3/balance.extract.json') as { resources: { balance: unknown } }).resources.balance,
  '/balance': (json('paystack/doc-code-snippets/src/api/transfers-control/balance/response.json') as any)['200'].data,
  '/v3/balances': {
    status: 'success',
    message: 'Wallet balances fetched',
    data: [{ currency: 'NGN', available_balance: 0, ledger_balance: 0 }],
  },
};

const ACCOUNT: Record<Exclude<ConnectorName, 'sandbox'>, ConnectorCredentials> = {
  stripe: { api_key: 'sk_test_51AccountKeyOfTheMerchant0123456789', webhook_secret: 'whsec_accountSigningSecret0123' },
  paystack: { api_key: 'sk_test_accountkeyofthemerchant0123456789abcd' },
  flutterwave: {
    api_key: 'FLWSECK_TEST-accountkeyofthemerchant0123-X',
    key1: 'FLWSECK_TESTaccount01234',
    webhook_secret: 'merchant-chosen-secret-hash',
  },
};
/** The platform's own keys, present in the same settings: never used for an account. */
const PLATFORM = {
  STRIPE_SECRET_KEY: 'sk_test_51PlatformKeyNeverForAccounts000000',
  STRIPE_WEBHOOK_SECRET: 'whsec_platformSigningSecret',
  PAYSTACK_SECRET_KEY: 'sk_test_platformkeyneverforaccounts00000000',
  FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-platformkeyneverforaccounts-X',
  FLUTTERWAVE_ENCRYPTION_KEY: 'FLWSECK_TESTplatform0123',
  FLUTTERWAVE_WEBHOOK_HASH: 'platform-secret-hash',
};

interface Recorded {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let hang = false;
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
      if (hang) {
        hanging.push(res);
        return;
      }
      const body = BALANCES[req.url ?? ''];
      res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body ?? { status: false, message: 'Entity not found' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  requests = [];
  hang = false;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A stage's settings: every base URL on the local server, and the platform's keys beside them. */
const stage = (over: ConnectorSettings = {}): ConnectorSettings => ({
  STRIPE_BASE_URL: baseUrl,
  PAYSTACK_BASE_URL: baseUrl,
  FLUTTERWAVE_BASE_URL: baseUrl,
  ...PLATFORM,
  ...over,
});

describe('connectorWithCredentials', () => {
  test.each([
    ['stripe', '/v1/balance'],
    ['paystack', '/balance'],
    ['flutterwave', '/v3/balances'],
  ] as const)("%s: calls the stage's base URL with the account's key, never the platform's", async (name, path) => {
    const adapter = await connectorWithCredentials(name, ACCOUNT[name], stage());
    expect(adapter?.name).toBe(name);
    await adapter!.verifyCredentials();
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET ${path}`]);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${ACCOUNT[name].api_key}`);
    expect(JSON.stringify(requests[0]!.headers)).not.toMatch(/Platform|platform/);
  });

  test('a fresh adapter per call (the caller decides how long it keeps one)', async () => {
    expect(await connectorWithCredentials('stripe', ACCOUNT.stripe, stage())).not.toBe(
      await connectorWithCredentials('stripe', ACCOUNT.stripe, stage()),
    );
  });

  test("Stripe: the stage's STRIPE_API_VERSION is sent; an unusable one is ignored for the pinned version", async () => {
    await (await connectorWithCredentials(
      'stripe',
      ACCOUNT.stripe,
      stage({ STRIPE_API_VERSION: '2026-12-16.endive' }),
    ))!.verifyCredentials();
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      await (await connectorWithCredentials('stripe', ACCOUNT.stripe, stage({ STRIPE_API_VERSION: '2020-08-27' })))!.verifyCredentials();
    } finally {
      warn.mockRestore();
    }
    expect(requests.map((r) => r.headers['stripe-version'])).toEqual(['2026-12-16.endive', STRIPE_API_VERSION]);
  });

  test("the stage's CONNECTOR_TIMEOUT_MS applies to an account's adapter", async () => {
    hang = true;
    // The timeout applied is read from the call (not from how long it took: a loaded machine is slow either way);
    // without the stage's value the credential check would wait its default 10,000 ms.
    const timeouts = jest.spyOn(AbortSignal, 'timeout');
    try {
      const err = await (await connectorWithCredentials('paystack', ACCOUNT.paystack, stage({ CONNECTOR_TIMEOUT_MS: '150' })))!
        .verifyCredentials()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      // Only this call's timeouts count: the worker's process may still run another file's background work (a sandbox
      // redelivery, 5,000 ms) that calls AbortSignal.timeout meanwhile.
      const mine = timeouts.mock.calls.filter(([ms]) => ms !== 5000);
      expect(mine).toEqual([[150]]);
    } finally {
      timeouts.mockRestore();
    }
  });

  test.each([
    ['stripe', 'https://api.stripe.com/v1/balance', '/v1/balance'],
    ['paystack', 'https://api.paystack.co/balance', '/balance'],
    ['flutterwave', 'https://api.flutterwave.com/v3/balances', '/v3/balances'],
  ] as const)("%s without a base URL in the settings: the processor's production API (fetch stubbed, no network)", async (name, url, path) => {
    const spy = jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(BALANCES[path]), { status: 200 }));
    try {
      await (await connectorWithCredentials(name, ACCOUNT[name], {}))!.verifyCredentials();
      expect(spy.mock.calls.map((c) => c[0])).toEqual([url]);
    } finally {
      spy.mockRestore();
    }
  });

  test('the default settings are the environment', async () => {
    const env = scopedEnv();
    env.set({ FLUTTERWAVE_BASE_URL: baseUrl });
    try {
      await (await connectorWithCredentials('flutterwave', ACCOUNT.flutterwave))!.verifyCredentials();
      expect(requests.map((r) => r.path)).toEqual(['/v3/balances']);
    } finally {
      env.restore();
    }
  });

  test('only the stage settings reach the construction: the platform keys in the settings change nothing', async () => {
    expect([...STAGE_CONNECTOR_SETTING_NAMES].sort()).toEqual(
      ['CONNECTOR_TIMEOUT_MS', 'FLUTTERWAVE_BASE_URL', 'PAYSTACK_BASE_URL', 'STRIPE_API_VERSION', 'STRIPE_BASE_URL'].sort(),
    );
    const bare = { STRIPE_BASE_URL: baseUrl };
    for (const settings of [bare, { ...bare, ...PLATFORM }])
      await (await connectorWithCredentials('stripe', ACCOUNT.stripe, settings))!.verifyCredentials();
    expect(requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${ACCOUNT.stripe.api_key}`, `Bearer ${ACCOUNT.stripe.api_key}`]);
  });

  describe('webhooks of an account', () => {
    const body = JSON.stringify({ event: 'subscription.create', data: {} });

    test("Paystack: verified with the account's api_key (Paystack signs with the secret key); a stray webhook_secret is not used", async () => {
      const sign = (key: string) => createHmac('sha512', key).update(body, 'utf8').digest('hex');
      for (const credentials of [ACCOUNT.paystack, { ...ACCOUNT.paystack, webhook_secret: 'not-the-key' }]) {
        const adapter = (await connectorWithCredentials('paystack', credentials, stage()))!;
        await expect(
          adapter.parseWebhook({ rawBody: body, headers: { 'x-paystack-signature': sign(ACCOUNT.paystack.api_key) } }),
        ).resolves.toMatchObject({
          kind: 'ignored',
        });
        await expect(
          adapter.parseWebhook({ rawBody: body, headers: { 'x-paystack-signature': sign('not-the-key') } }),
        ).rejects.toBeInstanceOf(WebhookSignatureError);
        await expect(
          adapter.parseWebhook({ rawBody: body, headers: { 'x-paystack-signature': sign(PLATFORM.PAYSTACK_SECRET_KEY) } }),
        ).rejects.toBeInstanceOf(WebhookSignatureError);
      }
    });

    test("Stripe: verified with the account's whsec_; without one every webhook is refused (even one signed with an empty secret)", async () => {
      const t = Math.floor(Date.now() / 1000);
      const event = JSON.stringify({ id: 'evt_registry', type: 'customer.created', data: { object: { id: 'cus_1' } } });
      const signed = (secret: string) => ({
        'stripe-signature': `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${event}`, 'utf8').digest('hex')}`,
      });
      const withSecret = (await connectorWithCredentials('stripe', ACCOUNT.stripe, stage()))!;
      await expect(withSecret.parseWebhook({ rawBody: event, headers: signed(ACCOUNT.stripe.webhook_secret!) })).resolves.toMatchObject({
        kind: 'ignored',
      });
      await expect(withSecret.parseWebhook({ rawBody: event, headers: signed(PLATFORM.STRIPE_WEBHOOK_SECRET) })).rejects.toBeInstanceOf(
        WebhookSignatureError,
      );
      const without = (await connectorWithCredentials('stripe', { api_key: ACCOUNT.stripe.api_key }, stage()))!;
      for (const secret of ['', PLATFORM.STRIPE_WEBHOOK_SECRET])
        await expect(without.parseWebhook({ rawBody: event, headers: signed(secret) })).rejects.toBeInstanceOf(WebhookSignatureError);
    });

    test("Flutterwave: verified with the account's secret hash; without one every webhook is refused", async () => {
      const event = JSON.stringify({ event: 'transfer.completed', data: { id: 1 } });
      const withHash = (await connectorWithCredentials('flutterwave', ACCOUNT.flutterwave, stage()))!;
      await expect(
        withHash.parseWebhook({ rawBody: event, headers: { 'verif-hash': ACCOUNT.flutterwave.webhook_secret } }),
      ).resolves.toMatchObject({
        kind: 'ignored',
      });
      const without = (await connectorWithCredentials(
        'flutterwave',
        { api_key: ACCOUNT.flutterwave.api_key, key1: ACCOUNT.flutterwave.key1 },
        stage(),
      ))!;
      for (const hash of ['', PLATFORM.FLUTTERWAVE_WEBHOOK_HASH, ACCOUNT.flutterwave.webhook_secret!])
        await expect(without.parseWebhook({ rawBody: event, headers: { 'verif-hash': hash } })).rejects.toBeInstanceOf(
          WebhookSignatureError,
        );
      expect(requests).toHaveLength(0);
    });
  });

  test('credentials that cannot make an adapter (a Flutterwave key1 not 24 characters, no key1) → undefined, logged without any value', async () => {
    const error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      expect(await connectorWithCredentials('flutterwave', { ...ACCOUNT.flutterwave, key1: 'short' }, stage())).toBeUndefined();
      expect(await connectorWithCredentials('flutterwave', { api_key: ACCOUNT.flutterwave.api_key }, stage())).toBeUndefined();
      expect(await connectorWithCredentials('paystack', { api_key: '' }, stage())).toBeUndefined();
      expect(error).toHaveBeenCalledTimes(3);
      const logged = JSON.stringify(error.mock.calls);
      for (const value of [ACCOUNT.flutterwave.api_key, ACCOUNT.flutterwave.webhook_secret!, 'short']) expect(logged).not.toContain(value);
      expect(error.mock.calls[0]![1]).toMatchObject({ connector: 'flutterwave' });
    } finally {
      error.mockRestore();
    }
  });

  test('a name outside the vocabulary (from stored data) → undefined', async () => {
    expect(await connectorWithCredentials('adyen' as ConnectorName, { api_key: 'x' }, stage())).toBeUndefined();
    expect(await connectorWithCredentials('toString' as ConnectorName, { api_key: 'x' }, stage())).toBeUndefined();
  });

  test('the sandbox: its adapter, whatever the credentials; none where SANDBOX_CONNECTOR_ENABLED is false', async () => {
    const env = scopedEnv();
    try {
      env.set({ SANDBOX_CONNECTOR_ENABLED: 'true' });
      expect(await connectorWithCredentials('sandbox', { api_key: 'anything' }, stage())).toBeInstanceOf(SandboxConnector);
      env.set({ SANDBOX_CONNECTOR_ENABLED: 'false' });
      expect(await connectorWithCredentials('sandbox', { api_key: 'anything' }, stage())).toBeUndefined();
    } finally {
      env.restore();
    }
  });
});

describe("the platform's path shares the construction and is unchanged", () => {
  test('CONNECTOR_FACTORIES: the same names in the same order', async () => {
    expect(Object.keys(CONNECTOR_FACTORIES)).toEqual(['sandbox', 'flutterwave', 'paystack', 'stripe']);
  });

  test.each([
    ['stripe', PLATFORM.STRIPE_SECRET_KEY],
    ['paystack', PLATFORM.PAYSTACK_SECRET_KEY],
    ['flutterwave', PLATFORM.FLUTTERWAVE_SECRET_KEY],
  ] as const)("%s: built with the platform's key from the settings", async (name, key) => {
    await (await CONNECTOR_FACTORIES[name]!(stage()))!.verifyCredentials();
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
  });

  test('not configured without its keys (Flutterwave needs all three; the secret hash stays required for the platform)', async () => {
    expect(await CONNECTOR_FACTORIES.stripe!({ STRIPE_BASE_URL: baseUrl })).toBeUndefined();
    expect(await CONNECTOR_FACTORIES.paystack!({})).toBeUndefined();
    const { FLUTTERWAVE_WEBHOOK_HASH: _hash, ...withoutHash } = PLATFORM;
    expect(await CONNECTOR_FACTORIES.flutterwave!(withoutHash)).toBeUndefined();
    expect(await CONNECTOR_FACTORIES.sandbox!({})).toBeInstanceOf(SandboxConnector);
  });

  test("Paystack: PAYSTACK_WEBHOOK_SECRET, when set, replaces the secret key for the platform's webhooks (as before)", async () => {
    const body = JSON.stringify({ event: 'subscription.create', data: {} });
    const sign = (key: string) => createHmac('sha512', key).update(body, 'utf8').digest('hex');
    const platform = (await CONNECTOR_FACTORIES.paystack!(stage({ PAYSTACK_WEBHOOK_SECRET: 'platform-webhook-secret' })))!;
    await expect(
      platform.parseWebhook({ rawBody: body, headers: { 'x-paystack-signature': sign('platform-webhook-secret') } }),
    ).resolves.toMatchObject({
      kind: 'ignored',
    });
  });

  test('configuredConnector reads the environment', async () => {
    const env = scopedEnv();
    env.set({ STRIPE_SECRET_KEY: PLATFORM.STRIPE_SECRET_KEY, STRIPE_BASE_URL: baseUrl });
    try {
      await (await configuredConnector('stripe'))!.verifyCredentials();
      expect(requests[0]!.headers.authorization).toBe(`Bearer ${PLATFORM.STRIPE_SECRET_KEY}`);
    } finally {
      env.restore();
    }
  });
});
