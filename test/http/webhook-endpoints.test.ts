import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { EVENT_TYPES } from '../../shared/domain/events';
import { SECRET_ROTATION_OVERLAP_MS } from '../../shared/domain/webhook-endpoint';
import { documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { getStoredWebhookEndpoint, listEndpointsForDelivery } from '../../shared/storage/webhook-endpoints-repository';
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

// Every request event is logged (as in the card-data test), so the log check below sees them all.
process.env.POWERTOOLS_LOG_LEVEL = 'INFO';
process.env.POWERTOOLS_LOGGER_LOG_EVENT = 'true';

// Loaded in beforeAll, after the settings above: it imports the logger, which reads them once.
let signingSecrets: typeof import('../../shared/webhooks/endpoint-secrets').signingSecrets;

let api: LocalApi;
const logs: string[] = [];
let writeSpy: jest.SpyInstance;
/** Every secret this file was given, to look for in the table and the logs. */
const secretsSeen: string[] = [];

beforeAll(async () => {
  writeSpy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logs.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  });
  ({ signingSecrets } = await import('../../shared/webhooks/endpoint-secrets'));
  api = await startLocalApi();
});
afterAll(async () => {
  writeSpy.mockRestore();
  await api.close();
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;
const URL_LOCAL = 'http://127.0.0.1:4999/hooks';

function ok(res: TestResponse) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  return res.body;
}

async function newEndpoint(body: Record<string, unknown> = {}, key?: string) {
  const created = ok(await api.request('POST', '/webhook_endpoints', { body: { url: URL_LOCAL, ...body }, key }));
  secretsSeen.push(created.secret);
  return created;
}

/** Signs a message with one secret and checks which secrets verify it (Standard Webhooks, via the npm package). */
function verifies(signWith: string, verifyWith: string): boolean {
  const id = `evt_${randomUUID().replace(/-/g, '')}`;
  const now = new Date();
  const payload = JSON.stringify({ type: 'payment.succeeded', data: { id } });
  const headers = {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(signWith).sign(id, now, payload),
  };
  try {
    new Webhook(verifyWith).verify(payload, headers);
    return true;
  } catch {
    return false;
  }
}

describe('POST /webhook_endpoints', () => {
  test('answers the endpoint with defaults and a Standard Webhooks secret; GET and the list never show the secret', async () => {
    const before = Date.now();
    const e = await newEndpoint();
    expect(Object.keys(e)).toEqual([
      'webhook_endpoint_id',
      'url',
      'enabled_events',
      'description',
      'status',
      'disabled_reason',
      'secret',
      'created_at',
      'updated_at',
    ]);
    expect(e).toMatchObject({ url: URL_LOCAL, enabled_events: ['*'], description: null, status: 'enabled', disabled_reason: null });
    expect(e.webhook_endpoint_id).toMatch(/^we_[a-f0-9]{32}$/);
    expect(e.created_at).toMatch(ISO_UTC);
    expect(e.updated_at).toBe(e.created_at);
    expect(Date.parse(e.created_at)).toBeGreaterThanOrEqual(before - 5000);
    // whsec_ + base64 of 32 random bytes; the standardwebhooks package signs and verifies with it.
    expect(e.secret).toMatch(SECRET);
    expect(Buffer.from(e.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(verifies(e.secret, e.secret)).toBe(true);

    const got = ok(await api.request('GET', `/webhook_endpoints/${e.webhook_endpoint_id}`));
    const { secret: _secret, ...withoutSecret } = e;
    expect(got).toEqual(withoutSecret);
    expect(got).not.toHaveProperty('secret');
    const list = ok(await api.request('GET', '/webhook_endpoints?limit=100'));
    const listed = list.data.find((x: { webhook_endpoint_id: string }) => x.webhook_endpoint_id === e.webhook_endpoint_id);
    expect(listed).toEqual(withoutSecret);
    expect(JSON.stringify(list)).not.toContain('whsec_');

    const other = await newEndpoint();
    expect(other.secret).not.toBe(e.secret);
  });

  test('echoes enabled_events and description; duplicates are dropped', async () => {
    const e = await newEndpoint({
      enabled_events: ['payment.succeeded', 'refund.failed', 'payment.succeeded'],
      description: 'Order service',
    });
    expect(e).toMatchObject({ enabled_events: ['payment.succeeded', 'refund.failed'], description: 'Order service' });
    const all = await newEndpoint({ enabled_events: [...EVENT_TYPES] });
    expect(all.enabled_events).toEqual(EVENT_TYPES);
  });

  test('enabled_events: unknown types, "*" with others, empty lists and non-lists → 400 naming the entry, without echoing it', async () => {
    const key = await api.newMerchantKey();
    const post = (body: Record<string, unknown>) => api.request('POST', '/webhook_endpoints', { body: { url: URL_LOCAL, ...body }, key });
    const unknown = expectError(await post({ enabled_events: ['payment.succeeded', 'payment.exploded'] }), 400, 'parameter_invalid');
    expect(unknown.param).toBe('enabled_events.1');
    expect(unknown.message).not.toContain('exploded');
    expect(unknown.message).toContain('payment.succeeded'); // it lists the valid types
    const star = expectError(await post({ enabled_events: ['refund.created', '*'] }), 400);
    expect(star.param).toBe('enabled_events.1');
    expect(star.message).toContain('only entry');
    expect(expectError(await post({ enabled_events: [] }), 400).param).toBe('enabled_events');
    expect(expectError(await post({ enabled_events: 'payment.succeeded' }), 400, 'parameter_invalid_type').param).toBe('enabled_events');
    expect(expectError(await post({ enabled_events: [42] }), 400).param).toBe('enabled_events.0');
    expect(expectError(await post({ enabled_events: ['PAYMENT.SUCCEEDED'] }), 400).param).toBe('enabled_events.0');
    // nothing was created
    expect(ok(await api.request('GET', '/webhook_endpoints', { key })).data).toEqual([]);
  });

  test('url and unknown fields: missing, malformed, refused hosts, credentials, status on create → 400, nothing created', async () => {
    const key = await api.newMerchantKey();
    const post = (body: Record<string, unknown>) => api.request('POST', '/webhook_endpoints', { body, key });
    expect(expectError(await post({}), 400, 'parameter_missing').param).toBe('url');
    expect(expectError(await post({ url: 42 }), 400, 'parameter_invalid_type').param).toBe('url');
    expect(expectError(await post({ url: 'not a url' }), 400, 'parameter_invalid').param).toBe('url');
    expect(expectError(await post({ url: `https://example.com/${'a'.repeat(2100)}` }), 400).param).toBe('url');
    for (const url of [
      'http://10.0.0.1/hooks',
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://192.168.1.20:8080/x',
      'http://100.64.0.1/',
      'http://0.0.0.0:4000/',
    ]) {
      const err = expectError(await post({ url }), 400, 'url_not_allowed');
      expect(err.param).toBe('url');
      expect(err.message).not.toContain(new URL(url).hostname.replace(/^\[|\]$/g, ''));
      expect(err.message).toMatch(/public/);
    }
    const creds = expectError(await post({ url: 'http://user:hunter2@127.0.0.1:4000/' }), 400, 'url_not_allowed');
    expect(creds.message).not.toContain('hunter2');
    expect(expectError(await post({ url: 'ftp://127.0.0.1/' }), 400, 'url_not_allowed').param).toBe('url');
    expect(expectError(await post({ url: URL_LOCAL, status: 'disabled' }), 400, 'parameter_unknown').param).toBe('status');
    expect(expectError(await post({ url: URL_LOCAL, secret: 'my-own-secret' }), 400, 'parameter_unknown').param).toBe('secret');
    expect(expectError(await post({ url: URL_LOCAL, description: null }), 400).param).toBe('description');
    expect(ok(await api.request('GET', '/webhook_endpoints', { key })).data).toEqual([]);
  });

  test('a deployed stage (STAGE=dev) accepts only https to public hosts; the local stack also takes http and loopback', async () => {
    const key = await api.newMerchantKey();
    const post = (url: string) => api.request('POST', '/webhook_endpoints', { body: { url }, key });
    expect(ok(await post('http://127.0.0.1:4000/local')).url).toBe('http://127.0.0.1:4000/local');
    expect(ok(await post('http://[::1]:4000/local')).status).toBe('enabled');
    const previous = process.env.STAGE;
    process.env.STAGE = 'dev';
    try {
      const http = expectError(await post('http://1.1.1.1/hooks'), 400, 'url_not_allowed');
      expect(http.message).toMatch(/https/);
      expectError(await post('https://127.0.0.1/hooks'), 400, 'url_not_allowed');
      expectError(await post('https://[::ffff:127.0.0.1]/hooks'), 400, 'url_not_allowed');
      expectError(await post('https://10.0.0.1/hooks'), 400, 'url_not_allowed');
      expectError(await post('https://169.254.169.254/'), 400, 'url_not_allowed');
      const accepted = ok(await post('https://1.1.1.1/hooks'));
      secretsSeen.push(accepted.secret);
      expect(accepted.url).toBe('https://1.1.1.1/hooks');
      // PUT applies the same rules
      const put = await api.request('PUT', `/webhook_endpoints/${accepted.webhook_endpoint_id}`, {
        body: { url: 'http://1.1.1.1/hooks' },
        key,
      });
      expectError(put, 400, 'url_not_allowed');
    } finally {
      if (previous === undefined) delete process.env.STAGE;
      else process.env.STAGE = previous;
    }
    expect(ok(await api.request('GET', '/webhook_endpoints', { key })).data).toHaveLength(3);
  });
});

describe('PUT /webhook_endpoints/{id}', () => {
  test('sets only the fields given; status disabled and back; the secret stays and is never shown', async () => {
    const e = await newEndpoint({ description: 'first' });
    const path = `/webhook_endpoints/${e.webhook_endpoint_id}`;
    const moved = ok(await api.request('PUT', path, { body: { url: 'http://127.0.0.1:5000/new', enabled_events: ['customer.created'] } }));
    expect(moved).toMatchObject({
      webhook_endpoint_id: e.webhook_endpoint_id,
      url: 'http://127.0.0.1:5000/new',
      enabled_events: ['customer.created'],
      description: 'first',
      status: 'enabled',
      created_at: e.created_at,
    });
    expect(moved).not.toHaveProperty('secret');
    expect(Date.parse(moved.updated_at)).toBeGreaterThanOrEqual(Date.parse(e.updated_at));

    const disabled = ok(await api.request('PUT', path, { body: { status: 'disabled', description: 'paused' } }));
    expect(disabled).toMatchObject({ status: 'disabled', disabled_reason: null, description: 'paused', url: 'http://127.0.0.1:5000/new' });
    expect((await listEndpointsForDelivery(api.merchantId)).map((x) => x.webhook_endpoint_id)).not.toContain(e.webhook_endpoint_id);
    const enabled = ok(await api.request('PUT', path, { body: { status: 'enabled', enabled_events: ['*'] } }));
    expect(enabled).toMatchObject({ status: 'enabled', enabled_events: ['*'] });
    expect(ok(await api.request('GET', path))).toEqual(enabled);

    // the secret did not change
    const stored = await getStoredWebhookEndpoint(api.merchantId, e.webhook_endpoint_id);
    expect(await signingSecrets(stored!, Date.now())).toEqual([e.secret]);
  });

  test('an empty body changes only updated_at; invalid fields → 400 and nothing changes', async () => {
    const e = await newEndpoint({ enabled_events: ['payment.failed'] });
    const path = `/webhook_endpoints/${e.webhook_endpoint_id}`;
    expect(ok(await api.request('PUT', path, { body: {} }))).toMatchObject({
      url: URL_LOCAL,
      enabled_events: ['payment.failed'],
      status: 'enabled',
    });
    expect(expectError(await api.request('PUT', path, { body: { status: 'paused' } }), 400, 'parameter_invalid').param).toBe('status');
    expect(expectError(await api.request('PUT', path, { body: { url: null } }), 400).param).toBe('url');
    expect(expectError(await api.request('PUT', path, { body: { enabled_events: ['nope'] } }), 400).param).toBe('enabled_events.0');
    expect(expectError(await api.request('PUT', path, { body: { url: 'http://10.1.2.3/' } }), 400, 'url_not_allowed').param).toBe('url');
    expect(expectError(await api.request('PUT', path, { body: { disabled_reason: 'x' } }), 400, 'parameter_unknown').param).toBe(
      'disabled_reason',
    );
    expect(
      expectError(await api.request('PUT', path, { body: { status: 'disabled', webhook_endpoint_id: 'we_x' } }), 400, 'parameter_unknown')
        .param,
    ).toBe('webhook_endpoint_id');
    expect(ok(await api.request('GET', path))).toMatchObject({ url: URL_LOCAL, enabled_events: ['payment.failed'], status: 'enabled' });
  });
});

describe('DELETE and unknown ids', () => {
  test('DELETE answers {webhook_endpoint_id, deleted: true}; afterwards every route of it → 404 and it leaves the list', async () => {
    const e = await newEndpoint();
    const keep = await newEndpoint();
    const path = `/webhook_endpoints/${e.webhook_endpoint_id}`;
    expect(ok(await api.request('DELETE', path))).toEqual({ webhook_endpoint_id: e.webhook_endpoint_id, deleted: true });
    expectError(await api.request('GET', path), 404, 'resource_missing');
    expectError(await api.request('PUT', path, { body: { description: 'back' } }), 404);
    expectError(await api.request('DELETE', path), 404);
    expectError(await api.request('POST', `${path}/rotate_secret`), 404);
    expectError(await api.request('GET', path), 404); // the PUT did not bring it back
    const ids = ok(await api.request('GET', '/webhook_endpoints?limit=100')).data.map(
      (x: { webhook_endpoint_id: string }) => x.webhook_endpoint_id,
    );
    expect(ids).not.toContain(e.webhook_endpoint_id);
    expect(ids).toContain(keep.webhook_endpoint_id);
    expect(await getStoredWebhookEndpoint(api.merchantId, e.webhook_endpoint_id)).toBeUndefined();
  });

  test.each([
    'we_doesnotexist0000000000000000000',
    'not-an-endpoint',
    'cus_0123456789abcdef0123456789abcdef',
  ])('GET, PUT, DELETE and rotate_secret of %s → 404', async (id) => {
    const err = expectError(await api.request('GET', `/webhook_endpoints/${id}`), 404, 'resource_missing');
    expect(err.param).toBe('webhook_endpoint_id');
    expectError(await api.request('PUT', `/webhook_endpoints/${id}`, { body: { description: 'x' } }), 404);
    expectError(await api.request('DELETE', `/webhook_endpoints/${id}`), 404);
    expectError(await api.request('POST', `/webhook_endpoints/${id}/rotate_secret`), 404);
  });

  test('requests without a valid api-key → 401', async () => {
    expectError(await api.request('GET', '/webhook_endpoints', { key: null }), 401, 'invalid_api_key');
    expectError(
      await api.request('POST', '/webhook_endpoints', { body: { url: URL_LOCAL }, key: 'sk_test_neverissued000000' }),
      401,
      'invalid_api_key',
    );
  });
});

describe('GET /webhook_endpoints', () => {
  test('newest first, paged with limit and starting_after exactly like the other lists', async () => {
    const key = await api.newMerchantKey();
    const created: string[] = [];
    for (let i = 0; i < 5; i += 1) created.push((await newEndpoint({ description: `n${i}` }, key)).webhook_endpoint_id);
    const newestFirst = [...created].reverse();

    const all = ok(await api.request('GET', '/webhook_endpoints', { key }));
    expect(all).toEqual({ data: expect.any(Array), has_more: false });
    expect(all.data.map((x: { webhook_endpoint_id: string }) => x.webhook_endpoint_id)).toEqual(newestFirst);

    const seen: string[] = [];
    let after: string | undefined;
    const hasMore: boolean[] = [];
    do {
      const page = ok(await api.request('GET', `/webhook_endpoints?limit=2${after ? `&starting_after=${after}` : ''}`, { key }));
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((x: { webhook_endpoint_id: string }) => x.webhook_endpoint_id));
      hasMore.push(page.has_more);
      after = page.has_more ? page.data.at(-1).webhook_endpoint_id : undefined;
    } while (after);
    expect(seen).toEqual(newestFirst);
    expect(hasMore).toEqual([true, true, false]);

    const offset = ok(await api.request('GET', '/webhook_endpoints?limit=2&offset=3', { key }));
    expect(offset.data.map((x: { webhook_endpoint_id: string }) => x.webhook_endpoint_id)).toEqual(newestFirst.slice(3));

    expectError(await api.request('GET', '/webhook_endpoints?limit=0', { key }), 400);
    expectError(await api.request('GET', '/webhook_endpoints?limit=101', { key }), 400);
    expect(
      expectError(
        await api.request('GET', '/webhook_endpoints?starting_after=we_unknown00000000000000000000000', { key }),
        400,
        'resource_missing',
      ).param,
    ).toBe('starting_after');
    expect(expectError(await api.request('GET', '/webhook_endpoints?status=enabled', { key }), 400, 'parameter_unknown').param).toBe(
      'status',
    );
  });
});

describe('merchant isolation', () => {
  test('another merchant gets 404 for an endpoint, cannot change, rotate or delete it, and never lists it', async () => {
    const mine = await newEndpoint({ description: 'mine' });
    const other = await api.newMerchantKey();
    const path = `/webhook_endpoints/${mine.webhook_endpoint_id}`;
    expectError(await api.request('GET', path, { key: other }), 404);
    expectError(await api.request('PUT', path, { body: { url: 'http://127.0.0.1:6666/steal' }, key: other }), 404);
    expectError(await api.request('POST', `${path}/rotate_secret`, { key: other }), 404);
    expectError(await api.request('DELETE', path, { key: other }), 404);
    expect(ok(await api.request('GET', '/webhook_endpoints', { key: other })).data).toEqual([]);
    expectError(
      await api.request('GET', `/webhook_endpoints?starting_after=${mine.webhook_endpoint_id}`, { key: other }),
      400,
      'resource_missing',
    );
    // untouched for its owner
    expect(ok(await api.request('GET', path))).toMatchObject({ url: URL_LOCAL, description: 'mine', status: 'enabled' });
    const stored = await getStoredWebhookEndpoint(api.merchantId, mine.webhook_endpoint_id);
    expect(await signingSecrets(stored!, Date.now())).toEqual([mine.secret]);
  });
});

describe('rotate_secret', () => {
  test('returns a new secret; the previous one keeps signing for 24 h, then only the new one', async () => {
    const e = await newEndpoint();
    const rotatedAt = Date.now();
    const r = ok(await api.request('POST', `/webhook_endpoints/${e.webhook_endpoint_id}/rotate_secret`));
    secretsSeen.push(r.secret);
    const { secret: _s, ...rest } = r;
    expect(r.secret).toMatch(SECRET);
    expect(r.secret).not.toBe(e.secret);
    expect(rest).toMatchObject({ webhook_endpoint_id: e.webhook_endpoint_id, url: e.url, status: 'enabled', created_at: e.created_at });
    expect(ok(await api.request('GET', `/webhook_endpoints/${e.webhook_endpoint_id}`))).toEqual(rest);

    const stored = await getStoredWebhookEndpoint(api.merchantId, e.webhook_endpoint_id);
    expect(stored).toBeDefined();
    const expiresAt = Date.parse(stored!.previous_secret_expires_at!);
    expect(expiresAt).toBeGreaterThanOrEqual(rotatedAt + SECRET_ROTATION_OVERLAP_MS - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + SECRET_ROTATION_OVERLAP_MS + 1000);

    expect(await signingSecrets(stored!, Date.now())).toEqual([r.secret, e.secret]);
    expect(await signingSecrets(stored!, expiresAt - 1)).toEqual([r.secret, e.secret]);
    expect(await signingSecrets(stored!, expiresAt)).toEqual([r.secret]);
    expect(await signingSecrets(stored!, Date.now() + SECRET_ROTATION_OVERLAP_MS + 60_000)).toEqual([r.secret]);

    // During the overlap a receiver holding either secret verifies a delivery signed with both.
    const during = await signingSecrets(stored!, Date.now());
    const id = 'evt_rotation';
    const now = new Date();
    const payload = '{"type":"payment.succeeded"}';
    const header = during.map((s) => new Webhook(s).sign(id, now, payload)).join(' ');
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)), 'webhook-signature': header };
    expect(() => new Webhook(e.secret).verify(payload, headers)).not.toThrow();
    expect(() => new Webhook(r.secret).verify(payload, headers)).not.toThrow();
    const after = (await signingSecrets(stored!, expiresAt + 1)).map((s) => new Webhook(s).sign(id, now, payload)).join(' ');
    expect(() => new Webhook(e.secret).verify(payload, { ...headers, 'webhook-signature': after })).toThrow();
    expect(() => new Webhook(r.secret).verify(payload, { ...headers, 'webhook-signature': after })).not.toThrow();

    // A second rotation keeps the last two secrets only.
    const r2 = ok(await api.request('POST', `/webhook_endpoints/${e.webhook_endpoint_id}/rotate_secret`, { body: {} }));
    secretsSeen.push(r2.secret);
    const stored2 = await getStoredWebhookEndpoint(api.merchantId, e.webhook_endpoint_id);
    expect(await signingSecrets(stored2!, Date.now())).toEqual([r2.secret, r.secret]);
  });

  test('a body with fields → 400; a disabled endpoint can rotate too', async () => {
    const e = await newEndpoint();
    const path = `/webhook_endpoints/${e.webhook_endpoint_id}`;
    expect(
      expectError(await api.request('POST', `${path}/rotate_secret`, { body: { expires_in: 0 } }), 400, 'parameter_unknown').param,
    ).toBe('expires_in');
    ok(await api.request('PUT', path, { body: { status: 'disabled' } }));
    const r = ok(await api.request('POST', `${path}/rotate_secret`));
    secretsSeen.push(r.secret);
    expect(r.status).toBe('disabled');
  });
});

describe('idempotency', () => {
  test('a create retried with the same Idempotency-Key replays the same endpoint and secret; another body → 422', async () => {
    const key = await api.newMerchantKey();
    const idem = `we-create-${randomUUID()}`;
    const body = { url: URL_LOCAL, enabled_events: ['payment.succeeded'] };
    const first = await api.request('POST', '/webhook_endpoints', { body, key, headers: { 'Idempotency-Key': idem } });
    const again = await api.request('POST', '/webhook_endpoints', { body, key, headers: { 'Idempotency-Key': idem } });
    const e = ok(first);
    secretsSeen.push(e.secret);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(ok(again)).toEqual(e);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(e.secret).toMatch(SECRET);
    expectError(
      await api.request('POST', '/webhook_endpoints', {
        body: { ...body, description: 'other' },
        key,
        headers: { 'Idempotency-Key': idem },
      }),
      422,
      'idempotency_key_reused',
    );
    expect(ok(await api.request('GET', '/webhook_endpoints', { key })).data).toHaveLength(1);
  });

  test('a rotate retried with the same Idempotency-Key rotates once and replays the same new secret', async () => {
    const e = await newEndpoint();
    const idem = `we-rotate-${randomUUID()}`;
    const path = `/webhook_endpoints/${e.webhook_endpoint_id}/rotate_secret`;
    const first = ok(await api.request('POST', path, { headers: { 'Idempotency-Key': idem } }));
    const again = await api.request('POST', path, { headers: { 'Idempotency-Key': idem } });
    secretsSeen.push(first.secret);
    expect(ok(again).secret).toBe(first.secret);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const stored = await getStoredWebhookEndpoint(api.merchantId, e.webhook_endpoint_id);
    expect(await signingSecrets(stored!, Date.now())).toEqual([first.secret, e.secret]);
  });
});

describe('listEndpointsForDelivery (for the delivery worker)', () => {
  test("every enabled endpoint of the merchant with its sealed secrets, optionally by event type; never another merchant's", async () => {
    const other = await api.newMerchantKey();
    const foreign = await newEndpoint({}, other);
    const paid = await newEndpoint({ enabled_events: ['payment.succeeded'] });
    const everything = await newEndpoint({ enabled_events: ['*'] });
    const off = await newEndpoint({});
    ok(await api.request('PUT', `/webhook_endpoints/${off.webhook_endpoint_id}`, { body: { status: 'disabled' } }));

    const all = await listEndpointsForDelivery(api.merchantId);
    const ids = all.map((x) => x.webhook_endpoint_id);
    expect(ids).toEqual(expect.arrayContaining([paid.webhook_endpoint_id, everything.webhook_endpoint_id]));
    expect(ids).not.toContain(off.webhook_endpoint_id);
    expect(ids).not.toContain(foreign.webhook_endpoint_id);
    for (const endpoint of all) {
      expect(endpoint).toMatchObject({ status: 'enabled', merchant_id: api.merchantId });
      expect(endpoint.secret_encrypted).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
      expect((await signingSecrets(endpoint, Date.now()))[0]).toMatch(SECRET);
    }
    const paidSecrets = await signingSecrets(all.find((x) => x.webhook_endpoint_id === paid.webhook_endpoint_id)!, Date.now());
    expect(paidSecrets).toEqual([paid.secret]);

    const forPayments = (await listEndpointsForDelivery(api.merchantId, 'payment.succeeded')).map((x) => x.webhook_endpoint_id);
    expect(forPayments).toEqual(expect.arrayContaining([paid.webhook_endpoint_id, everything.webhook_endpoint_id]));
    const forRefunds = (await listEndpointsForDelivery(api.merchantId, 'refund.failed')).map((x) => x.webhook_endpoint_id);
    expect(forRefunds).toContain(everything.webhook_endpoint_id);
    expect(forRefunds).not.toContain(paid.webhook_endpoint_id);
    expect(forRefunds).not.toContain(off.webhook_endpoint_id);
  });
});

describe('secrets never rest or log in clear', () => {
  async function scanAll(): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      // A full table dump: test-only inspection of what rests in storage.
      const out = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }

  test('the table (endpoints and stored idempotent answers) holds no secret this file was given, and no whsec_ at all', async () => {
    // one more keyed create, so a stored replay is certainly in the dump
    const e = ok(
      await api.request('POST', '/webhook_endpoints', { body: { url: URL_LOCAL }, headers: { 'Idempotency-Key': `dump-${randomUUID()}` } }),
    );
    secretsSeen.push(e.secret);
    expect(secretsSeen.length).toBeGreaterThan(10);
    const items = await scanAll();
    const endpointItems = items.filter((i) => i.entity === 'webhook_endpoint');
    // Stored idempotent answers of this file's keyed creates and rotations.
    const idempotencyItems = items.filter(
      (i) => String(i.PK).startsWith('idempotency#') && JSON.stringify(i).includes('webhook_endpoint_id'),
    );
    expect(endpointItems.length).toBeGreaterThan(5);
    expect(idempotencyItems.length).toBeGreaterThan(0);
    const dump = JSON.stringify(items);
    for (const secret of secretsSeen) {
      expect(dump).not.toContain(secret);
      expect(dump).not.toContain(secret.slice('whsec_'.length));
    }
    expect(JSON.stringify([...endpointItems, ...idempotencyItems])).not.toContain('whsec_');
    const item = endpointItems.find((i) => i.webhook_endpoint_id === e.webhook_endpoint_id)!;
    expect(item).not.toHaveProperty('secret');
    expect(Buffer.from(String(item.secret_encrypted), 'base64').length).toBe(12 + e.secret.length + 16);
  });

  test('the captured logs of this file (every event logged) hold no secret', () => {
    const text = logs.join('');
    expect(text.length).toBeGreaterThan(0);
    for (const secret of secretsSeen) expect(text).not.toContain(secret.slice('whsec_'.length));
    expect(text).not.toContain('whsec_');
  });
});
