/**
 * The committed Postman collection and environment (clients/postman/) are what `npm run postman`
 * makes of docs/openapi.json today: the conversion (scripts/postman.ts) is deterministic, so a
 * difference means the spec changed without `npm run postman`. The collection holds every
 * merchant-facing operation once, with its success example only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPostmanFiles, EXCLUDED_ROUTES, isExcludedRoute, merchantSpec, POSTMAN_PATHS } from '../../../scripts/postman';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** A collection's item: a folder (`item`) or a request with its example responses. */
interface CollectionItem {
  item?: CollectionItem[];
  request?: { method: string; url: { path: string[] } };
  response?: { code: number; originalRequest?: unknown }[];
}

/** Every request of a collection, at any depth of folders. */
function requests(items: CollectionItem[]): CollectionItem[] {
  return items.flatMap((i) => (i.item ? requests(i.item) : [i]));
}

/** A spec path as the converter writes a request's URL path (`/payments/{payment_id}` → `payments/:payment_id`). */
const postmanPath = (path: string) => path.slice(1).replace(/\{([^}]+)\}/g, ':$1');

test('clients/postman equals a fresh conversion of docs/openapi.json (run `npm run postman` after changing the spec)', async () => {
  const fresh = await buildPostmanFiles(read(POSTMAN_PATHS.spec));
  expect(read(POSTMAN_PATHS.collection)).toBe(fresh.collection);
  expect(read(POSTMAN_PATHS.environment)).toBe(fresh.environment);
});

test('the environment points at the local stack with an empty key; the collection sends the key and the version', async () => {
  const environment = JSON.parse(read(POSTMAN_PATHS.environment)) as { values: { key: string; value: string }[] };
  expect(environment.values.map((v) => [v.key, v.value])).toEqual([
    ['baseUrl', 'http://localhost:3000'],
    ['apiKey', ''],
  ]);
  const collection = read(POSTMAN_PATHS.collection);
  const spec = JSON.parse(read(POSTMAN_PATHS.spec)) as { info: { version: string } };
  expect(collection).toContain(`value: '${spec.info.version}'`);
  expect(collection).toContain('{{apiKey}}');
  expect(collection).not.toMatch(/"_postman_id"|"id": "[0-9a-f]{8}-/);
});

test('the collection holds each merchant-facing operation once, with at most its success example, under 8 KB a request', () => {
  const text = read(POSTMAN_PATHS.collection);
  const spec = JSON.parse(read(POSTMAN_PATHS.spec)) as { paths: Record<string, Record<string, unknown>> };
  const expected = Object.entries(spec.paths)
    .filter(([path]) => !isExcludedRoute(path))
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((m) => ['get', 'put', 'post', 'delete', 'patch'].includes(m))
        .map((m) => `${m.toUpperCase()} ${postmanPath(path)}`),
    );
  const all = requests((JSON.parse(text) as { item: CollectionItem[] }).item);
  expect(all.map((r) => `${r.request?.method} ${r.request?.url.path.join('/')}`).sort()).toEqual(expected.sort());
  // About 6.5 KB a request today (39 requests, 250 KB); the whole spec converted, error examples included, is 1.9 MB.
  expect(Buffer.byteLength(text)).toBeLessThan(all.length * 8 * 1024);
  expect(expected).toEqual(
    expect.arrayContaining([
      'POST payments',
      'GET health',
      'POST webhook_endpoints/:webhook_endpoint_id/rotate_secret',
      'POST connector_accounts',
      'POST routing/:routing_algorithm_id/activate',
      'PUT routing/default',
    ]),
  );
  for (const r of all) {
    expect(r.response?.length ?? 0).toBeLessThanOrEqual(1);
    for (const example of r.response ?? []) expect(example.code).toBeGreaterThanOrEqual(200);
    for (const example of r.response ?? []) expect(example.code).toBeLessThan(300);
  }
});

test('the excluded routes: payer and sandbox pages, processor webhooks, the reference; the spec given is not changed', () => {
  expect(EXCLUDED_ROUTES.map((r) => r.path)).toEqual(['/pay', '/sandbox', '/webhooks', '/docs', '/openapi.json']);
  for (const path of [
    '/pay/{payment_id}/authenticate',
    '/sandbox/{kind}/{payment_id}',
    '/webhooks/{connector}',
    '/webhooks/{connector}/{merchant_connector_id}',
    '/docs',
    '/openapi.json',
  ]) {
    expect({ path, excluded: isExcludedRoute(path) }).toEqual({ path, excluded: true });
  }
  for (const path of [
    '/payments',
    '/webhook_endpoints/{webhook_endpoint_id}',
    '/health',
    '/payments/{payment_id}/refunds',
    '/connector_accounts/{merchant_connector_id}',
    '/routing/default',
  ]) {
    expect({ path, excluded: isExcludedRoute(path) }).toEqual({ path, excluded: false });
  }
  const spec = {
    tags: [{ name: 'Payments' }, { name: 'Payer pages' }],
    paths: {
      '/payments': { post: { tags: ['Payments'], responses: { '400': {}, '200': { description: 'ok' }, '201': {} } } },
      '/pay/{payment_id}/return': { get: { tags: ['Payer pages'], responses: { '200': {} } } },
    },
  };
  const before = JSON.stringify(spec);
  expect(merchantSpec(spec)).toEqual({
    tags: [{ name: 'Payments' }],
    paths: { '/payments': { post: { tags: ['Payments'], responses: { '200': { description: 'ok' } } } } },
  });
  expect(JSON.stringify(spec)).toBe(before);
});
