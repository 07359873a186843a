/**
 * The published contract and the API version, through the local gateway and the real handlers:
 * - `GET /openapi.json` serves docs/openapi.json byte for byte; `GET /docs` is Redoc's page with a
 *   Content-Security-Policy that allows Redoc and nothing more, loading everything by relative URLs;
 *   `GET /docs/redoc.standalone.js` serves redoc's bundle; none of them needs an api-key;
 * - every JSON answer carries `Switchyard-Version`; a request naming another version is refused with
 *   400 `api_version_invalid` before anything is stored, and without repeating what it sent.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { API_REFERENCE_HTML, REDOC_VERSION } from '../../functions/docs/api-reference';
import { API_VERSION, API_VERSION_HEADER } from '../../shared/api/api-version';
import { OPENAPI_DOCUMENT_FILE, REDOC_SCRIPT_FILE } from '../../shared/api/routes';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

/** The script URL the page names, as it names it. */
const SCRIPT_URL = `docs/redoc.standalone.js?v=${REDOC_VERSION}`;

/** A Content-Security-Policy header as a map of directive → source list. */
function directives(csp: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (csp ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) out[name] = sources.join(' ');
  }
  return out;
}

/** Fetches a path of the gateway and returns its body as bytes (the helper decodes text). */
async function bytes(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Buffer; headers: Headers }> {
  const res = await fetch(`${api.url}${path}`, { headers });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

describe('GET /openapi.json', () => {
  test('the committed docs/openapi.json, byte for byte, as cacheable application/json; no api-key needed', async () => {
    const res = await bytes('/openapi.json');
    const file = readFileSync(resolve(OPENAPI_DOCUMENT_FILE));
    expect(res.status).toBe(200);
    expect(res.body.equals(file)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/json');
    const spec = JSON.parse(res.body.toString('utf8'));
    expect(spec.openapi).toMatch(/^3\.1\./);
    expect(spec.info.version).toBe(API_VERSION);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(res.headers.get(API_VERSION_HEADER)).toBe(API_VERSION);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('revalidation: 304 without a body for the current ETag (weak or in a list), 200 for another', async () => {
    const etag = (await bytes('/openapi.json')).headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await bytes('/openapi.json', { 'if-none-match': header });
      expect(res.status).toBe(304);
      expect(res.body.length).toBe(0);
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    }
    expect((await bytes('/openapi.json', { 'if-none-match': '"stale"' })).status).toBe(200);
  });

  test('an api-key, even an unknown one, changes nothing: the document is public', async () => {
    const withKey = await api.request('GET', '/openapi.json');
    const unknownKey = await api.request('GET', '/openapi.json', { key: 'sk_test_unknown' });
    const file = readFileSync(resolve(OPENAPI_DOCUMENT_FILE), 'utf8');
    expect([withKey.status, unknownKey.status]).toEqual([200, 200]);
    expect([withKey.text, unknownKey.text]).toEqual([file, file]);
  });
});

describe('GET /docs', () => {
  test('an HTML page rendering openapi.json with Redoc, every URL relative, nothing from another origin; no api-key needed', async () => {
    const res = await api.request('GET', '/docs', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toBe(API_REFERENCE_HTML);
    expect(res.text).toContain('<redoc spec-url="openapi.json"></redoc>');
    expect(res.text).toContain(`<script src="${SCRIPT_URL}"></script>`);
    // The <redoc> element comes first: the bundle renders the one it finds when it runs.
    expect(res.text.indexOf('<redoc ')).toBeLessThan(res.text.indexOf('<script '));
    expect(res.text).not.toMatch(/https?:|\/\/|src="\/|spec-url="\//);
    // Relative to the page: right at the root and under a stage path alike.
    expect(new URL('openapi.json', 'https://api.example.com/docs').pathname).toBe('/openapi.json');
    expect(new URL(SCRIPT_URL, 'https://api.example.com/prod/docs').pathname).toBe('/prod/docs/redoc.standalone.js');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  });

  test('a Content-Security-Policy allowing Redoc and nothing more, with the other security headers', async () => {
    const res = await api.request('GET', '/docs', { key: null });
    expect(directives(res.headers.get('content-security-policy'))).toEqual({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'unsafe-inline'",
      'worker-src': 'blob:',
      'connect-src': "'self'",
      'img-src': 'data:',
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('/docs/ redirects to /docs by a relative Location (the page reads its URLs relative to itself)', async () => {
    const res = await fetch(`${api.url}/docs/`, { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('../docs');
    expect(new URL('../docs', 'https://api.example.com/prod/docs/').pathname).toBe('/prod/docs');
  });
});

describe('GET /docs/redoc.standalone.js', () => {
  test('redoc 2.5.4 standalone bundle, byte for byte, as text/javascript cached for a year; no api-key needed', async () => {
    const res = await bytes(`/${SCRIPT_URL}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(readFileSync(resolve(REDOC_SCRIPT_FILE)))).toBe(true);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    // Without the version query too (the route ignores the query).
    expect((await bytes('/docs/redoc.standalone.js')).body.length).toBe(res.body.length);
  });

  test('the version in the page URL is the installed redoc (package.json pins it)', () => {
    const installed = JSON.parse(readFileSync(resolve('node_modules/redoc/package.json'), 'utf8')).version;
    const pinned = JSON.parse(readFileSync(resolve('package.json'), 'utf8')).devDependencies.redoc;
    expect([installed, pinned]).toEqual([REDOC_VERSION, REDOC_VERSION]);
  });
});

describe('Switchyard-Version', () => {
  const payment = { amount: 1000, currency: 'NGN', payment_method: 'card' };

  test('every JSON answer names the version: success, validation error, 401, unknown route (404), unknown id (404)', async () => {
    const answers = await Promise.all([
      api.request('GET', '/payments?limit=1'),
      api.request('GET', '/health', { key: null }),
      api.request('GET', '/payments?limit=0'),
      api.request('GET', '/payments', { key: null }),
      api.request('GET', '/no/such/route', { key: null }),
      api.request('DELETE', '/payments'),
      api.request('GET', '/payments/pay_doesnotexist'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 401, 404, 404, 404]);
    for (const r of answers) {
      expect(r.headers.get(API_VERSION_HEADER)).toBe(API_VERSION);
      expect(r.headers.get('content-type')).toBe('application/json');
    }
  });

  test('absent or equal to the current version: served alike', async () => {
    const without = await api.request('GET', '/payments?limit=1');
    const withIt = await api.request('GET', '/payments?limit=1', { headers: { [API_VERSION_HEADER]: API_VERSION } });
    const lowerCase = await api.request('GET', '/payments?limit=1', { headers: { 'switchyard-version': ` ${API_VERSION} ` } });
    expect([without.status, withIt.status, lowerCase.status]).toEqual([200, 200, 200]);
  });

  test.each([
    ['another date', '2019-06-01'],
    ['a future date', '2099-12-31'],
    ['a suffixed date', `${API_VERSION}.probe`],
    ['a list', `${API_VERSION}, ${API_VERSION}`],
    ['empty', ''],
    ['card-like text', '4242424242424242'],
  ])('%s → 400 api_version_invalid naming the supported version, never the value sent', async (_label, sent) => {
    const res = await api.request('GET', '/payments?limit=1', { headers: { [API_VERSION_HEADER]: sent } });
    const error = expectError(res, 400, 'api_version_invalid');
    expect(error.type).toBe('invalid_request_error');
    expect(error.param).toBe(API_VERSION_HEADER);
    expect(error.message).toContain(API_VERSION);
    if (sent) expect(res.text).not.toContain(sent);
    expect(res.headers.get(API_VERSION_HEADER)).toBe(API_VERSION);
  });

  test('checked first: before the api-key (401) and before body validation (400 parameter_*)', async () => {
    const noKey = await api.request('GET', '/payments', { key: null, headers: { [API_VERSION_HEADER]: '2019-06-01' } });
    expectError(noKey, 400, 'api_version_invalid');
    const badBody = await api.request('POST', '/payments', { body: { amount: 'x' }, headers: { [API_VERSION_HEADER]: '2019-06-01' } });
    expectError(badBody, 400, 'api_version_invalid');
  });

  test('a refused version stores nothing: the same Idempotency-Key then runs as a first request', async () => {
    const key = randomUUID();
    const refused = await api.request('POST', '/payments', {
      body: payment,
      headers: { 'Idempotency-Key': key, [API_VERSION_HEADER]: '2019-06-01' },
    });
    expectError(refused, 400, 'api_version_invalid');

    const first = await api.request('POST', '/payments', {
      body: payment,
      headers: { 'Idempotency-Key': key, [API_VERSION_HEADER]: API_VERSION },
    });
    expect(first.status).toBe(200);
    expect(first.body.payment_id).toMatch(/^pay_/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(first.headers.get(API_VERSION_HEADER)).toBe(API_VERSION);

    // The retry is a replay of that first answer, and names the version too.
    const retry = await api.request('POST', '/payments', { body: payment, headers: { 'Idempotency-Key': key } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.payment_id).toBe(first.body.payment_id);
    expect(retry.headers.get(API_VERSION_HEADER)).toBe(API_VERSION);

    // One payment only.
    const list = await api.request('GET', '/payments?limit=100');
    expect(list.body.data.filter((p: { payment_id: string }) => p.payment_id === first.body.payment_id)).toHaveLength(1);
  });
});
