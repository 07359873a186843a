/**
 * Merchant connector accounts, through the local gateway against DynamoDB Local and the
 * loopback Stripe stand-in with many accounts (test/helpers/stripe-stand-in.ts: the secret key names
 * the account, a ledger per account, a wrong key 401):
 * - two merchants each connect their own Stripe account; each one's payments, captures and refunds land
 *   in its own account's ledger and nowhere else (not in the other's, not in the platform's);
 * - a refused key, a live key on a test stage, an unreachable processor: nothing stored;
 * - another merchant's account is 404 everywhere, and cannot be pinned;
 * - a disabled account takes no new payment but refunds its old ones;
 * - a webhook signed with another account's secret is refused and changes nothing; its own is applied;
 * - delete: refused while it holds an authorized payment, then its credentials are destroyed;
 * - no secret in any response, event, log line or table item (a dump of the table).
 */
// First: the whole file logs at DEBUG with event logging on, and ends checking the log for secrets.
import '../helpers/secret-log-check';
import { createHmac, randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { containsCardNumber } from '../../shared/domain/card';
import { logger } from '../../shared/observability/logger';
import { circuitFor } from '../../shared/processor-call/circuit-breaker';
import { resetCircuits } from '../../shared/processor-call/circuit-registry';
import { idempotentId } from '../../shared/security/keyed-hash';
import { findApiKey, putApiKey } from '../../shared/storage/api-keys-repository';
import { baseClient, documentClient } from '../../shared/storage/client';
import { getConnectorAccount } from '../../shared/storage/connector-accounts-repository';
import { tableName } from '../../shared/storage/table-definition';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';
import { expectNoSecretInLog } from '../helpers/secret-log-check';
import { type StripeStandIn, type StripeStandInAccount, startStripeStandIn, stripeEnv } from '../helpers/stripe-stand-in';

let api: LocalApi;
let stripe: StripeStandIn;
let keyB: string;
let accountA: StripeStandInAccount;
let accountB: StripeStandInAccount;
const env = scopedEnv();
const logged: string[] = [];

beforeAll(async () => {
  stripe = await startStripeStandIn();
  accountA = stripe.addAccount();
  accountB = stripe.addAccount();
  // The platform's own Stripe account is the stand-in's default one: merchants with accounts must never reach it.
  env.set({
    // No test here makes the stand-in hang: the timeout decides no verdict, and is generous for a loaded machine.
    ...stripeEnv(stripe, { timeoutMs: 10_000 }),
    CONNECTOR_CONFIG_CACHE_MS: '0',
  });
  // Every log line of this file is captured (and checked for secrets): the run's level is SILENT otherwise.
  logger.setLogLevel('DEBUG');
  api = await startLocalApi();
  keyB = await api.newMerchantKey();
  const write = process.stdout.write.bind(process.stdout);
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
    logged.push(String(chunk));
    return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest) || true;
  });
  jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  jest.spyOn(console, 'info').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  jest.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
});
afterAll(async () => {
  logger.setLogLevel((process.env.POWERTOOLS_LOG_LEVEL as 'SILENT' | undefined) ?? 'SILENT');
  jest.restoreAllMocks();
  await api.close();
  await stripe.close();
  env.restore();
});

/** Every secret the test hands out: none may appear in a response, event, log line or item. */
const secrets = () => [accountA.secretKey, accountB.secretKey, accountA.webhookSecret, accountB.webhookSecret];

async function connect(account: StripeStandInAccount, key?: string, extra: Record<string, unknown> = {}) {
  return api.request('POST', '/connector_accounts', {
    key: key ?? api.apiKey,
    body: {
      connector_name: 'stripe',
      connector_account_details: { api_key: account.secretKey },
      connector_webhook_details: { merchant_secret: account.webhookSecret },
      ...extra,
    },
  });
}

async function pay(key: string, body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/payments', {
    key,
    body: { amount: 25_000, currency: 'USD', confirm: true, payment_method_data: card('4242424242424242'), ...body },
  });
  return res;
}

/** Every item of the table (a test's dump: Scan, page after page). */
async function tableDump(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

function expectNoSecret(text: string) {
  for (const s of secrets()) expect(text).not.toContain(s);
}

describe('connecting accounts', () => {
  let mcaA: string;
  let mcaB: string;

  test('a refused key stores nothing: 400 connector_credentials_invalid', async () => {
    const res = await api.request('POST', '/connector_accounts', {
      body: { connector_name: 'stripe', connector_account_details: { api_key: 'sk_test_notAnAccountOfTheStandIn000000000000' } },
    });
    const err = expectError(res, 400, 'connector_credentials_invalid');
    expect(err.param).toBe('connector_account_details.api_key');
    expect(res.text).not.toContain('notAnAccountOfTheStandIn');
    expect((await api.request('GET', '/connector_accounts')).body.data).toEqual([]);
  });

  test('a live key on a test stage stores nothing, and the processor is not even asked', async () => {
    const before = stripe.requests.length;
    const res = await api.request('POST', '/connector_accounts', {
      body: { connector_name: 'stripe', connector_account_details: { api_key: 'sk_live_51LiveKeyNeverOnATestStage000000000000' } },
    });
    expectError(res, 400, 'connector_credentials_mode');
    expect(stripe.requests.length).toBe(before);
    expect((await api.request('GET', '/connector_accounts')).body.data).toEqual([]);
  });

  test('the sandbox cannot be an account on a stage without it (prod): 400 connector_not_available', async () => {
    env.set({ SANDBOX_CONNECTOR_ENABLED: 'false', STAGE: 'prod' });
    try {
      const res = await api.request('POST', '/connector_accounts', { body: { connector_name: 'sandbox' } });
      expect(expectError(res, 400, 'connector_not_available').param).toBe('connector_name');
    } finally {
      env.set({ SANDBOX_CONNECTOR_ENABLED: 'true', STAGE: 'local' });
    }
    expect((await api.request('GET', '/connector_accounts')).body.data).toEqual([]);
  });

  test('a credential field the connector does not use is refused, naming the field, and nothing is stored (create and update)', async () => {
    const merchant = await api.newMerchantKey();
    const before = stripe.requests.length;
    const flutterwaveKey1 = 'abcdefghijklmnopqrstuvwx';
    // Each connector's unused fields (docs/api.md "Connector accounts", credentials per connector): the sandbox takes
    // none; Stripe no key1; Paystack no key1 and no webhook secret; Flutterwave uses all three.
    const cases: [Record<string, unknown>, string][] = [
      [
        { connector_name: 'sandbox', connector_account_details: { api_key: 'sk_test_pastedIntoTheSandbox' } },
        'connector_account_details.api_key',
      ],
      [
        { connector_name: 'sandbox', connector_account_details: { auth_type: 'HeaderKey', api_key: 'x', key1: flutterwaveKey1 } },
        'connector_account_details.api_key',
      ],
      [
        { connector_name: 'sandbox', connector_webhook_details: { merchant_secret: 'whsec_pasted' } },
        'connector_webhook_details.merchant_secret',
      ],
      [
        { connector_name: 'stripe', connector_account_details: { api_key: accountA.secretKey, key1: flutterwaveKey1 } },
        'connector_account_details.key1',
      ],
      [
        { connector_name: 'paystack', connector_account_details: { api_key: 'sk_test_paystackShaped000', key1: flutterwaveKey1 } },
        'connector_account_details.key1',
      ],
      [
        {
          connector_name: 'paystack',
          connector_account_details: { api_key: 'sk_test_paystackShaped000' },
          connector_webhook_details: { merchant_secret: 'pasted-secret' },
        },
        'connector_webhook_details.merchant_secret',
      ],
    ];
    for (const [body, param] of cases) {
      const res = await api.request('POST', '/connector_accounts', { key: merchant, body });
      expect({ body, param: expectError(res, 400, 'parameter_invalid').param }).toEqual({ body, param });
      expect(res.text).toContain('Nothing was stored');
      expect(res.text).not.toMatch(/pasted|sk_test_|abcdefghijklmnop/);
    }
    expect((await api.request('GET', '/connector_accounts', { key: merchant })).body.data).toEqual([]);
    expect(stripe.requests.length).toBe(before);
    // The same rule on a change: the account is left as it was.
    const sandbox = await api.request('POST', '/connector_accounts', { key: merchant, body: { connector_name: 'sandbox' } });
    expect(sandbox.status).toBe(200);
    const mca = sandbox.body.merchant_connector_id;
    const put = await api.request('PUT', `/connector_accounts/${mca}`, {
      key: merchant,
      body: { connector_label: 'renamed', connector_account_details: { api_key: 'sk_test_pastedIntoTheSandbox' } },
    });
    expect(expectError(put, 400, 'parameter_invalid').param).toBe('connector_account_details.api_key');
    expect((await api.request('GET', `/connector_accounts/${mca}`, { key: merchant })).body).toMatchObject({
      connector_label: sandbox.body.connector_label,
      updated_at: sandbox.body.updated_at,
    });
  });

  test('an unreachable processor stores nothing: 503', async () => {
    stripe.setDown(true);
    try {
      expectError(await connect(accountA), 503, 'connector_unreachable');
    } finally {
      stripe.setDown(false);
    }
    expect((await api.request('GET', '/connector_accounts')).body.data).toEqual([]);
  });

  test('each merchant connects its own account, verified with one GET /v1/balance, credentials masked', async () => {
    const before = stripe.requests.length;
    const a = await connect(accountA, undefined, { connector_label: 'Stripe US' });
    expect(a.status).toBe(200);
    const verify = stripe.requests.slice(before);
    expect(verify.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/balance']);
    expect(a.body).toMatchObject({
      connector_name: 'stripe',
      connector_label: 'Stripe US',
      disabled: false,
      status: 'active',
      test_mode: true,
      connector_webhook_details: { merchant_secret_set: true },
    });
    expect(a.body.connector_account_details.api_key).toBe(`sk_test_…${accountA.secretKey.slice(-4)}`);
    expect(a.body.webhook_url).toMatch(new RegExp(`/webhooks/stripe/${a.body.merchant_connector_id}$`));
    expectNoSecret(a.text);
    mcaA = a.body.merchant_connector_id;
    const b = await connect(accountB, keyB);
    expect(b.status).toBe(200);
    mcaB = b.body.merchant_connector_id;
    expect(mcaB).not.toBe(mcaA);
  });

  test('storage failing after the account was written: the retry with the same Idempotency-Key answers that account, connected once', async () => {
    const extra = stripe.addAccount();
    const merchant = await api.newMerchantKey();
    let armed = true;
    baseClient().middlewareStack.add(
      (next, context) => async (args) => {
        const lands = await next(args);
        if (armed && context.commandName === 'TransactWriteItemsCommand' && JSON.stringify(args.input).includes('#CONNECTOR_CONFIG')) {
          armed = false;
          // The write landed; its answer is lost (a timeout after the commit).
          throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', $metadata: {} });
        }
        return lands;
      },
      { step: 'initialize', name: 'accountWriteLost' },
    );
    try {
      const headers = { 'Idempotency-Key': `connect-${Date.now()}` };
      const body = { connector_name: 'stripe', connector_label: 'lost answer', connector_account_details: { api_key: extra.secretKey } };
      const first = await api.request('POST', '/connector_accounts', { key: merchant, body, headers });
      expect(expectError(first, 503, 'service_unavailable').message).toMatch(/may have been connected/);
      const retry = await api.request('POST', '/connector_accounts', { key: merchant, body, headers });
      expect(retry.status).toBe(200);
      const list = await api.request('GET', '/connector_accounts', { key: merchant });
      expect(list.body.data.map((a: { merchant_connector_id: string }) => a.merchant_connector_id)).toEqual([
        retry.body.merchant_connector_id,
      ]);
      // And the account works: a payment lands in that account's ledger.
      const paid = await pay(merchant);
      expect(paid.body.merchant_connector_id).toBe(retry.body.merchant_connector_id);
      expect(Object.keys(stripe.ledgerOf(extra.secretKey))).toEqual([paid.body.payment_id]);
    } finally {
      baseClient().middlewareStack.remove('accountWriteLost');
    }
  });

  test('an account whose id holds a card-number-shaped digit run is answered with its whole webhook_url, first time and on replay', async () => {
    // The id is derived from the Idempotency-Key (shared/security/keyed-hash.ts `idempotentId`): find a key whose
    // id reads as a card number to the detector, as random hex does about twice in 10,000. A merchant of its own,
    // whose id the test knows.
    const merchantId = `mer_${randomUUID().replace(/-/g, '')}`;
    const apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
    await putApiKey(apiKey, merchantId, 'test');
    let key = '';
    let mca = '';
    for (let i = 0; !containsCardNumber(mca); i += 1) {
      key = `card-shaped-${i}`;
      mca = await idempotentId('mca', merchantId, 'connector_accounts', key);
    }
    const extra = stripe.addAccount();
    const body = { connector_name: 'stripe', connector_account_details: { api_key: extra.secretKey } };
    const headers = { 'Idempotency-Key': key };
    const first = await api.request('POST', '/connector_accounts', { key: apiKey, body, headers });
    expect(first.status).toBe(200);
    expect(first.body.merchant_connector_id).toBe(mca);
    expect(first.body.webhook_url).toMatch(new RegExp(`/webhooks/stripe/${mca}$`));
    const replay = await api.request('POST', '/connector_accounts', { key: apiKey, body, headers });
    expect(replay.status).toBe(200);
    expect(replay.body.webhook_url).toBe(first.body.webhook_url);
  });

  test('labels are unique per merchant, not across merchants', async () => {
    expectError(await connect(accountA, undefined, { connector_label: 'stripe us' }), 409, 'connector_label_taken');
    const other = await connect(accountB, keyB, { connector_label: 'Stripe US' });
    expect(other.status).toBe(200);
    // Clean up the second account of merchant B so routing below has one account per merchant.
    expect((await api.request('DELETE', `/connector_accounts/${other.body.merchant_connector_id}`, { key: keyB })).status).toBe(200);
  });

  test("another merchant's account is 404 everywhere and cannot be pinned", async () => {
    for (const [method, body] of [
      ['GET', undefined],
      ['PUT', { disabled: true }],
      ['DELETE', undefined],
    ] as const) {
      expectError(await api.request(method, `/connector_accounts/${mcaB}`, { body }), 404, 'resource_missing');
    }
    const pinned = await pay(api.apiKey, { merchant_connector_id: mcaB });
    expect(expectError(pinned, 400, 'resource_missing').param).toBe('merchant_connector_id');
    const list = await api.request('GET', '/connector_accounts');
    expect(list.body.data.map((a: { merchant_connector_id: string }) => a.merchant_connector_id)).toEqual([mcaA]);
    const filtered = await api.request('GET', '/connector_accounts?connector_name=paystack');
    expect(filtered.body.data).toEqual([]);
  });

  describe('money lands in the merchant’s own account only', () => {
    test('payments, captures and refunds of each merchant land in its own ledger and nowhere else', async () => {
      const before = stripe.requests.length;
      const pa = await pay(api.apiKey);
      expect(pa.status).toBe(200);
      expect(pa.body).toMatchObject({ status: 'Succeeded', connector: 'stripe', merchant_connector_id: mcaA });
      expect(pa.body.attempts.at(-1)).toMatchObject({ connector: 'stripe', merchant_connector_id: mcaA });
      const pb = await pay(keyB, { capture_method: 'manual', amount: 40_000 });
      expect(pb.body).toMatchObject({ status: 'RequiresCapture', merchant_connector_id: mcaB });
      const captured = await api.request('POST', `/payments/${pb.body.payment_id}/capture`, {
        key: keyB,
        body: { amount_to_capture: 30_000 },
      });
      expect(captured.body).toMatchObject({ status: 'Succeeded', amount_captured: 30_000 });
      const refund = await api.request('POST', `/payments/${pa.body.payment_id}/refund`, { body: { amount: 5_000 } });
      expect(refund.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: mcaA });

      const ledgerA = stripe.ledgerOf(accountA.secretKey);
      const ledgerB = stripe.ledgerOf(accountB.secretKey);
      expect(Object.keys(ledgerA)).toEqual([pa.body.payment_id]);
      expect(Object.keys(ledgerB)).toEqual([pb.body.payment_id]);
      expect(stripe.ledger()).toEqual({});
      expect(ledgerA[pa.body.payment_id]).toMatchObject({ amount: 25_000, amountCaptured: 25_000 });
      expect(ledgerA[pa.body.payment_id]!.refunds.map((r) => r.amount)).toEqual([5_000]);
      expect(ledgerB[pb.body.payment_id]).toMatchObject({ amount: 40_000, amountCaptured: 30_000 });
      expect(ledgerB[pb.body.payment_id]!.refunds).toEqual([]);
      expectNoSecret(JSON.stringify([pa.body, pb.body, captured.body, refund.body]));
      // Every call went with the key of the payment's own account: none with the platform's.
      const calls = stripe.requests.slice(before);
      expect(calls.length).toBeGreaterThan(0);
      expect(new Set(calls.map((c) => c.accountId))).toEqual(new Set([accountA.accountId, accountB.accountId]));
    });
  });

  test('a disabled account takes no new payment but refunds the ones it holds', async () => {
    const p = await pay(api.apiKey);
    expect(p.body.merchant_connector_id).toBe(mcaA);
    const disabled = await api.request('PUT', `/connector_accounts/${mcaA}`, { body: { disabled: true } });
    expect(disabled.body).toMatchObject({ disabled: true, status: 'inactive' });
    const refused = await pay(api.apiKey);
    expectError(refused, 400, 'no_connector_available');
    const refund = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: {} });
    expect(refund.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: mcaA });
    expect(stripe.ledgerOf(accountA.secretKey)[p.body.payment_id]!.refunds.map((r) => r.amount)).toEqual([25_000]);
    const events = await api.request('GET', '/events?type=connector_account.disabled');
    expect(events.body.data[0].data).toMatchObject({ merchant_connector_id: mcaA, disabled: true });
    expect((await api.request('PUT', `/connector_accounts/${mcaA}`, { body: { disabled: false } })).body.status).toBe('active');
  });

  test("one merchant's failing account opens only its own circuit: another merchant's account keeps taking payments", async () => {
    resetCircuits();
    env.set({ CIRCUIT_FAILURE_THRESHOLD: '2', CIRCUIT_HALF_OPEN_AFTER_MS: '600000' });
    try {
      // Merchant A's Stripe account fails technically (500 before doing anything) on every authorization.
      stripe.failNext({ method: 'POST', path: '/v1/payment_methods', secretKey: accountA.secretKey }, 'error_500_before_work', {
        times: 10,
      });
      for (let i = 0; i < 2; i += 1) {
        // A 500 is a technical failure: the outcome is unknown, the payment stays Processing for the reconciler.
        const res = await pay(api.apiKey);
        expect(res.body).toMatchObject({ status: 'Processing', error_code: 'connector_unreachable', merchant_connector_id: mcaA });
      }
      expect(circuitFor({ name: 'stripe', merchantConnectorId: mcaA }).routingView(Date.now(), false)).toBe('open');
      // A's only account is open: 503 with nothing sent.
      const refused = await pay(api.apiKey);
      expectError(refused, 503, 'connector_unavailable');
      // B's account, at the same processor, is untouched.
      expect(circuitFor({ name: 'stripe', merchantConnectorId: mcaB }).routingView(Date.now(), false)).toBe('closed');
      const other = await pay(keyB);
      expect(other.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: mcaB });
    } finally {
      stripe.reset();
      resetCircuits();
      env.set({ CIRCUIT_FAILURE_THRESHOLD: '5' });
    }
  });

  describe('webhooks per account', () => {
    /** A Stripe `payment_intent.succeeded` event for one of our payments, signed with `secret`. */
    function signedEvent(paymentId: string, intentId: string, amount: number, secret: string) {
      const raw = JSON.stringify({
        id: `evt_${paymentId.slice(4, 28)}`,
        object: 'event',
        type: 'payment_intent.succeeded',
        api_version: '2026-07-29.dahlia',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: {
          object: {
            id: intentId,
            object: 'payment_intent',
            amount,
            amount_received: amount,
            currency: 'usd',
            status: 'succeeded',
            capture_method: 'automatic',
            metadata: { payment_id: paymentId },
          },
        },
      });
      const t = Math.floor(Date.now() / 1000);
      const sig = createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
      return { raw, headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${sig}` } };
    }

    test("a webhook signed with another account's secret is refused and changes nothing", async () => {
      const p = await pay(api.apiKey, { capture_method: 'manual' });
      expect(p.body.status).toBe('RequiresCapture');
      const event = signedEvent(p.body.payment_id, p.body.connector_transaction_id, p.body.amount, accountB.webhookSecret);
      const res = await api.request('POST', `/webhooks/stripe/${mcaA}`, { key: null, raw: event.raw, headers: event.headers });
      expectError(res, 401, 'invalid_signature');
      // B's own URL verifies B's secret, but the payment is A's: acknowledged, not applied.
      const onB = await api.request('POST', `/webhooks/stripe/${mcaB}`, { key: null, raw: event.raw, headers: event.headers });
      expect(onB.status).toBe(200);
      expect(onB.body.applied).toBe(false);
      // The platform's URL verifies the platform's secret only.
      const platform = await api.request('POST', '/webhooks/stripe', { key: null, raw: event.raw, headers: event.headers });
      expectError(platform, 401, 'invalid_signature');
      const after = await api.request('GET', `/payments/${p.body.payment_id}`);
      expect(after.body.status).toBe('RequiresCapture');
      expect(after.body.attempts).toEqual(p.body.attempts);
      // Its own account's secret on its own URL is verified (and applied when it changes something).
      const own = signedEvent(p.body.payment_id, p.body.connector_transaction_id, p.body.amount, accountA.webhookSecret);
      const ok = await api.request('POST', `/webhooks/stripe/${mcaA}`, { key: null, raw: own.raw, headers: own.headers });
      expect(ok.status).toBe(200);
      expect(ok.body.received).toBe(true);
    });

    test('an unknown account in the URL is 404', async () => {
      const res = await api.request('POST', '/webhooks/stripe/mca_00000000000000000000000000000000', {
        key: null,
        raw: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 404, 'resource_missing');
    });
  });

  test('a key change is refused while payments are in flight and the current key works; allowed once it is revoked', async () => {
    const old = stripe.addAccount();
    const next = stripe.addAccount();
    const merchant = await api.newMerchantKey();
    const connected = await connect(old, merchant, { connector_label: 'rolling' });
    const mca = connected.body.merchant_connector_id;
    const held = await pay(merchant, { capture_method: 'manual' });
    expect(held.body).toMatchObject({ status: 'RequiresCapture', merchant_connector_id: mca });
    const change = { connector_account_details: { api_key: next.secretKey } };
    const refused = await api.request('PUT', `/connector_accounts/${mca}`, { key: merchant, body: change });
    expect(expectError(refused, 409, 'connector_account_in_use').param).toBe('connector_account_details.api_key');
    // The old key revoked at the processor: nothing can be settled with it, so it may be replaced.
    stripe.removeAccount(old.secretKey);
    const replaced = await api.request('PUT', `/connector_accounts/${mca}`, { key: merchant, body: change });
    expect(replaced.status).toBe(200);
    expect(replaced.body.connector_account_details.api_key).toBe(`sk_test_…${next.secretKey.slice(-4)}`);
    const paid = await pay(merchant);
    expect(Object.keys(stripe.ledgerOf(next.secretKey))).toEqual([paid.body.payment_id]);
  });

  test('an update while a delete runs is refused (409), and the delete finishes', async () => {
    const merchant = await api.newMerchantKey();
    const first = await connect(stripe.addAccount(), merchant);
    expect(first.body.connector_label).toBe('stripe_1');
    expect((await connect(stripe.addAccount(), merchant)).body.connector_label).toBe('stripe_2');
    const mca = first.body.merchant_connector_id;
    // The delete marks the account, then waits the configuration cache period plus 1 s before it checks and deletes.
    // The update is sent once the mark is stored (on a loaded machine a fixed wait may end before the mark, or after the
    // delete), and the cache period is raised to 5 s for this test so that the update lands well inside the window.
    env.set({ CONNECTOR_CONFIG_CACHE_MS: '5000' });
    try {
      const merchantId = (await findApiKey(merchant))!.merchant_id;
      const deleting = api.request('DELETE', `/connector_accounts/${mca}`, { key: merchant });
      const markedBy = Date.now() + 20_000;
      while (!(await getConnectorAccount(merchantId, mca))?.deleting_since) {
        if (Date.now() > markedBy) throw new Error('the delete did not mark the account within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const update = await api.request('PUT', `/connector_accounts/${mca}`, { key: merchant, body: { metadata: { k: 'v' } } });
      expectError(update, 409, 'connector_account_changed');
      expect((await deleting).body).toEqual({ merchant_connector_id: mca, deleted: true });
    } finally {
      env.set({ CONNECTOR_CONFIG_CACHE_MS: '0' });
    }
    // Its default label is free again: the next unlabelled Stripe account takes stripe_1 (stripe_2 is taken).
    const again = await connect(stripe.addAccount(), merchant);
    expect(again.body.connector_label).toBe('stripe_1');
  });

  test('delete is refused while the account holds an authorized payment; then its credentials are destroyed', async () => {
    const held = await pay(keyB, { capture_method: 'manual' });
    expect(held.body.status).toBe('RequiresCapture');
    const refused = await api.request('DELETE', `/connector_accounts/${mcaB}`, { key: keyB });
    expectError(refused, 409, 'connector_account_in_use');
    // Still usable after the refusal: the mark is cleared.
    expect((await pay(keyB)).body.merchant_connector_id).toBe(mcaB);
    await api.request('POST', `/payments/${held.body.payment_id}/cancel`, { key: keyB, body: {} });
    const deleted = await api.request('DELETE', `/connector_accounts/${mcaB}`, { key: keyB });
    expect(deleted.body).toEqual({ merchant_connector_id: mcaB, deleted: true });
    expectError(await api.request('GET', `/connector_accounts/${mcaB}`, { key: keyB }), 404, 'resource_missing');
    const items = (await tableDump()).filter((i) => i.merchant_connector_id === mcaB && i.entity === 'connector_account');
    expect(items).toHaveLength(1);
    expect(items[0]!.credentials_encrypted).toBeUndefined();
    expect(items[0]!.deleted_at).toEqual(expect.any(String));
    // With no account left, merchant B is back on the platform's rules (the sandbox here).
    expect((await pay(keyB)).body).toMatchObject({ connector: 'sandbox', merchant_connector_id: null });
  });

  test('no secret in any table item, event or log line', async () => {
    const items = await tableDump();
    expect(items.length).toBeGreaterThan(0);
    const accounts = items.filter((i) => i.entity === 'connector_account' && i.merchant_id === api.merchantId);
    expect(accounts.length).toBeGreaterThan(0);
    expectNoSecret(JSON.stringify(items));
    for (const key of [api.apiKey, keyB]) {
      const events = await api.request('GET', '/events?limit=100', { key });
      expect(events.body.data.length).toBeGreaterThan(0);
      expectNoSecret(events.text);
    }
    expect(logged.length).toBeGreaterThan(0);
    expectNoSecret(logged.join('\n'));
  });
});

test('the flows above logged their events at DEBUG, and no secret is in the log', () => expectNoSecretInLog(['POST /connector_accounts']));
