/**
 * The committed Postman collection and environment (clients/postman/) are what `npm run postman`
 * makes of docs/openapi.json today: the conversion (scripts/postman.ts) is deterministic, so a
 * difference means the spec changed without `npm run postman`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildPostmanFiles, POSTMAN_PATHS } from '../../../scripts/postman';

const root = join(__dirname, '..', '..', '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

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
