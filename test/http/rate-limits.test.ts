/**
 * Per-merchant rate limits through the local gateway against DynamoDB Local (
 * docs/rate-limits.md): the 429 body and headers, read and write budgets, isolation between
 * merchants, two containers sharing one budget through the table's counters, no idempotency record
 * for a 429, and fail-open when the lease write fails. The limiter's clock is the test's
 * (`setRateLimitClock`), so windows are deterministic; every answer is checked against
 * docs/openapi.json by the harness.
 */
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { RateLimiter, setRateLimitClock, setRateLimiter } from '../../shared/http/rate-limit';
import { logger } from '../../shared/observability/logger';
import { findApiKey, listApiKeys, putApiKey, setRateLimits } from '../../shared/storage/api-keys-repository';
import { baseClient, documentClient } from '../../shared/storage/client';
import { leaseTokens } from '../../shared/storage/rate-limit-repository';
import { tableName } from '../../shared/storage/table-definition';
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

jest.setTimeout(240_000);

let api: LocalApi;
/** The limiter's clock: a window far from the real one, moved by the tests only. */
let nowMs = (Math.floor(Date.now() / 1000) + 100_000) * 1000 + 100;
/** Fail the lease writes (UpdateItem on a counter item) while true. */
let failLeases = false;

/** Lease timeout of this file's limiters: generous, so a slow DynamoDB Local on a busy machine is not taken for an outage (fail open). */
const LEASE_TIMEOUT_MS = 15_000;

beforeAll(async () => {
  setRateLimitClock(() => nowMs);
  setRateLimiter(new RateLimiter({ leaseTimeoutMs: LEASE_TIMEOUT_MS }));
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      // The key may reach this step marshalled or not, depending on the command's own middleware: matched as text.
      const key = JSON.stringify((args.input as { Key?: unknown }).Key ?? {});
      if (failLeases && /^Update(Item)?Command$/.test(String(context.commandName)) && key.includes('"RATELIMIT#')) {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'leaseFaults' },
  );
  api = await startLocalApi();
});
afterAll(async () => {
  setRateLimitClock();
  setRateLimiter();
  await api.close();
});

/** Moves the limiter's clock to 100 ms into the next window. */
function nextWindow(): void {
  nowMs = (Math.floor(nowMs / 1000) + 1) * 1000 + 100;
}

/** A merchant with its own key and, when given, its own limits (set before the key is first used, so no cache holds the old ones). */
async function merchant(limits?: { read?: number; write?: number }): Promise<{ merchantId: string; key: string }> {
  const merchantId = `mer_${randomUUID().replace(/-/g, '')}`;
  const key = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(key, merchantId, 'rate limits');
  if (limits) await setRateLimits(merchantId, limits);
  return { merchantId, key };
}

/** Asserts a 429 of the given class and limit: the error body, Retry-After and the RateLimit fields. */
function expectRateLimited(res: TestResponse, operationClass: 'read' | 'write', limit: number): void {
  const error = expectError(res, 429, 'rate_limit_exceeded');
  expect(error.type).toBe('rate_limit_error');
  expect(error.message).toMatch(/Retry-After/);
  expect(error.message).toContain(`${limit} per second`);
  expect(res.headers.get('retry-after')).toBe('1');
  expect(res.headers.get('ratelimit')).toBe(`"${operationClass}";r=0;t=1`);
  expect(res.headers.get('ratelimit-policy')).toBe(`"${operationClass}";q=${limit};w=1`);
  expect(res.headers.get('idempotent-replayed')).toBeNull();
}

/** The counter items of a merchant's class in one window (a test-only Scan). */
async function counters(merchantId: string, operationClass: string, window: number): Promise<Record<string, any>[]> {
  const items: Record<string, any>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(PK, :p)',
        ExpressionAttributeValues: { ':p': `RATELIMIT#${merchantId}#${operationClass}#${window}#` },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

test('over the write limit: 429 with the error body, Retry-After and RateLimit fields; served again in the next window', async () => {
  const m = await merchant({ write: 5, read: 8 });
  const marker = `marker-${randomUUID()}`;
  for (let i = 0; i < 5; i++) expect((await api.request('POST', '/customers', { key: m.key, body: { name: `n${i}` } })).status).toBe(200);
  const refused = await api.request('POST', '/customers', { key: m.key, body: { name: marker } });
  expectRateLimited(refused, 'write', 5);
  expect(refused.text).not.toContain(marker); // nothing the caller sent is echoed
  expect(refused.text).not.toContain(m.merchantId);
  // Invalid requests count too (the limit runs before body parsing): still refused.
  expectRateLimited(await api.request('POST', '/customers', { key: m.key, raw: '{not json' }), 'write', 5);
  // The window's counters hold exactly the limit, and expire by the table's TTL.
  const window = Math.floor(nowMs / 1000);
  const items = await counters(m.merchantId, 'write', window);
  expect(items.reduce((s, i) => s + Number(i.used), 0)).toBe(5);
  for (const i of items) expect(i.expires_at).toBeGreaterThan(window);
  nextWindow();
  expect((await api.request('POST', '/customers', { key: m.key, body: {} })).status).toBe(200);
});

test('reads have their own budget', async () => {
  const m = await merchant({ write: 2, read: 4 });
  for (let i = 0; i < 2; i++) expect((await api.request('POST', '/customers', { key: m.key, body: {} })).status).toBe(200);
  expectRateLimited(await api.request('DELETE', '/customers/cus_nope', { key: m.key }), 'write', 2);
  for (let i = 0; i < 4; i++) expect((await api.request('GET', '/customers', { key: m.key })).status).toBe(200);
  expectRateLimited(await api.request('GET', '/customers', { key: m.key }), 'read', 4);
  nextWindow();
  expect((await api.request('GET', '/customers', { key: m.key })).status).toBe(200);
});

test('another merchant is unaffected; a merchant without limits of its own gets the defaults', async () => {
  const small = await merchant({ write: 1 });
  const other = await merchant();
  expect((await api.request('POST', '/customers', { key: small.key, body: {} })).status).toBe(200);
  expectRateLimited(await api.request('POST', '/customers', { key: small.key, body: {} }), 'write', 1);
  for (let i = 0; i < 10; i++) expect((await api.request('POST', '/customers', { key: other.key, body: {} })).status).toBe(200);
  expectRateLimited(await api.request('POST', '/customers', { key: small.key, body: {} }), 'write', 1);
});

test('two containers share one budget through the table: together at most the limit + one request each in a window', async () => {
  const limit = 20;
  const m = await merchant({ read: limit });
  const containerB = new RateLimiter({ clock: () => nowMs, leaseTimeoutMs: LEASE_TIMEOUT_MS });
  const viaGateway = Promise.all(Array.from({ length: 30 }, () => api.request('GET', '/customers', { key: m.key })));
  const viaB = Promise.all(
    Array.from({ length: 30 }, async () => {
      const d = await containerB.admit(m.merchantId, 'read', limit);
      await d.settled;
      return d.allowed;
    }),
  );
  const [answers, decisions] = await Promise.all([viaGateway, viaB]);
  for (const r of answers) if (r.status !== 200) expectRateLimited(r, 'read', limit);
  const admittedA = answers.filter((r) => r.status === 200).length;
  const admittedB = decisions.filter(Boolean).length;
  expect(admittedA + admittedB).toBeLessThanOrEqual(limit + 2);
  expect(admittedA + admittedB).toBeGreaterThanOrEqual(limit - 2); // only leased-but-unused tokens are lost (lease size ≤ 2 here)
  const items = await counters(m.merchantId, 'read', Math.floor(nowMs / 1000));
  expect(items.reduce((s, i) => s + Number(i.used), 0)).toBeLessThanOrEqual(limit);
  // Three more containers in the next window, bursting together: still bounded.
  nextWindow();
  const more = [
    containerB,
    new RateLimiter({ clock: () => nowMs, leaseTimeoutMs: LEASE_TIMEOUT_MS }),
    new RateLimiter({ clock: () => nowMs, leaseTimeoutMs: LEASE_TIMEOUT_MS }),
  ];
  const burst = await Promise.all(
    more.flatMap((c) =>
      Array.from({ length: 15 }, async () => {
        const d = await c.admit(m.merchantId, 'read', limit);
        await d.settled;
        return d.allowed;
      }),
    ),
  );
  expect(burst.filter(Boolean).length).toBeLessThanOrEqual(limit + more.length);
});

test('a 429 with an Idempotency-Key stores nothing: the retry after the window runs and creates exactly one payment', async () => {
  const m = await merchant({ write: 2 });
  for (let i = 0; i < 2; i++) expect((await api.request('POST', '/customers', { key: m.key, body: {} })).status).toBe(200);
  const headers = { 'Idempotency-Key': `rl-${randomUUID()}` };
  const body = { amount: 1500, currency: 'NGN' };
  expectRateLimited(await api.request('POST', '/payments', { key: m.key, body, headers }), 'write', 2);
  expectRateLimited(await api.request('POST', '/payments', { key: m.key, body, headers }), 'write', 2); // not a replay
  nextWindow();
  const created = await api.request('POST', '/payments', { key: m.key, body, headers });
  expect(created.status).toBe(200);
  expect(created.headers.get('idempotent-replayed')).toBeNull(); // it ran: no stored 429 was replayed
  const replay = await api.request('POST', '/payments', { key: m.key, body, headers });
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.body.payment_id).toBe(created.body.payment_id);
  const list = await api.request('GET', '/payments', { key: m.key });
  expect(list.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual([created.body.payment_id]);
});

test('a failing lease write fails open: requests are admitted, one warning per window, and limiting resumes when storage does', async () => {
  const m = await merchant({ write: 1 });
  const warn = jest.spyOn(logger, 'warn');
  failLeases = true;
  try {
    nextWindow();
    for (let i = 0; i < 4; i++) expect((await api.request('POST', '/customers', { key: m.key, body: {} })).status).toBe(200);
  } finally {
    failLeases = false;
  }
  const failOpen = warn.mock.calls.filter(([message]) => String(message).includes('fail open'));
  expect(failOpen).toHaveLength(1);
  expect(JSON.stringify(failOpen[0])).not.toContain(m.key);
  warn.mockRestore();
  nextWindow();
  expect((await api.request('POST', '/customers', { key: m.key, body: {} })).status).toBe(200);
  expectRateLimited(await api.request('POST', '/customers', { key: m.key, body: {} }), 'write', 1);
});

test('the lease write against DynamoDB: granted while the shard has room; refused with what it had out (ALL_OLD) otherwise', async () => {
  const ref = { merchantId: `mer_${randomUUID().replace(/-/g, '')}`, operationClass: 'write', window: Math.floor(nowMs / 1000), shard: 0 };
  expect(await leaseTokens(ref, 4, 5)).toEqual({ granted: 4, used: 4 });
  expect(await leaseTokens(ref, 3, 5)).toEqual({ granted: 0, used: 4, refused: true });
  expect(await leaseTokens(ref, 1, 5)).toEqual({ granted: 1, used: 5 });
  expect(await leaseTokens(ref, 1, 5)).toEqual({ granted: 0, used: 5, refused: true });
  expect(await leaseTokens({ ...ref, shard: 1 }, 5, 5)).toEqual({ granted: 5, used: 5 }); // another shard, its own count
});

test("a merchant's limits live on every key: a new key copies them, `null` goes back to the default, bad values are refused", async () => {
  const m = await merchant({ write: 7, read: 9 });
  const second = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(second, m.merchantId, 'second');
  expect((await findApiKey(second))?.rate_limits).toEqual({ read: 9, write: 7 });
  const after = await setRateLimits(m.merchantId, { write: null });
  expect(after.map((k) => k.rate_limits)).toEqual([{ read: 9 }, { read: 9 }]);
  expect((await listApiKeys(m.merchantId)).every((k) => k.rate_limits.write === undefined)).toBe(true);
  await expect(setRateLimits(m.merchantId, { read: 0 })).rejects.toThrow(/integer from 1/);
  await expect(setRateLimits(m.merchantId, { read: 100_001 })).rejects.toThrow(/integer from 1/);
  await expect(setRateLimits(m.merchantId, {})).rejects.toThrow(/at least one/);
  await expect(setRateLimits('mer_nobody_here', { read: 5 })).rejects.toThrow(/no API key/);
});

test('unauthenticated routes are not limited', async () => {
  await merchant({ read: 1 });
  for (let i = 0; i < 5; i++) expect((await api.request('GET', '/health', { key: null })).status).toBe(200);
});
