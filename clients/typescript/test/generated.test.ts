/**
 * The SDK's generated types are what openapi-typescript makes of docs/openapi.json today (the same
 * call its CLI makes for `npm run sdk:generate`), and the constants the SDK keeps beside them agree
 * with the spec: the version it sends, which POSTs take an Idempotency-Key, the error types.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { components } from '../src/generated/schema';
import { API_VERSION, type SwitchyardErrorType, UNKEYED_POST_PATHS } from '../src/index';

const root = join(__dirname, '..', '..', '..');
const specPath = join(root, 'docs', 'openapi.json');
const spec = JSON.parse(readFileSync(specPath, 'utf8')) as OpenApiDocument;

interface OpenApiParameter {
  name?: string;
  in?: string;
  $ref?: string;
}
interface OpenApiDocument {
  info: { version: string };
  paths: Record<string, Record<string, { parameters?: OpenApiParameter[] }>>;
  components?: { parameters?: Record<string, OpenApiParameter> };
}

/** A parameter with its `$ref` (to `#/components/parameters/…`) resolved. */
function resolve(p: OpenApiParameter): OpenApiParameter {
  const name = p.$ref?.replace('#/components/parameters/', '');
  return name !== undefined ? (spec.components?.parameters?.[name] ?? p) : p;
}

/** The POST routes the SDK calls. */
const SDK_POSTS = [
  '/payments',
  '/payments/{payment_id}/confirm',
  '/payments/{payment_id}/authenticate',
  '/payments/{payment_id}/capture',
  '/payments/{payment_id}/cancel',
  '/payments/{payment_id}/refund',
  '/customers',
  '/webhook_endpoints',
  '/webhook_endpoints/{webhook_endpoint_id}/rotate_secret',
  '/events/{event_id}/redeliver',
  '/connector_accounts',
  '/routing',
  '/routing/{routing_algorithm_id}/activate',
  '/routing/deactivate',
];

/**
 * openapi-typescript's programmatic API, as its CLI calls it (`COMMENT_HEADER + astToString(await
 * openapiTS(url))`), run in a child Node process: the package's CommonJS build requires `parse-json`,
 * which is ESM only, so it cannot load inside jest's CommonJS runtime; Node's own loader can.
 */
function generateTypes(spec: string): string {
  const program = [
    "import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';",
    'const ast = await openapiTS(new URL(process.argv[1]), { silent: true });',
    'process.stdout.write(COMMENT_HEADER + astToString(ast));',
  ].join('\n');
  return execFileSync(process.execPath, ['--input-type=module', '-e', program, pathToFileURL(spec).href], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

test('src/generated/schema.ts equals a fresh openapi-typescript generation (run `npm run sdk:generate` after changing the spec)', () => {
  expect(readFileSync(join(__dirname, '..', 'src', 'generated', 'schema.ts'), 'utf8')).toBe(generateTypes(specPath));
});

test('the SDK sends the version the types were generated from (info.version)', () => {
  expect(API_VERSION).toBe(spec.info.version);
});

test('every POST the SDK calls declares an Idempotency-Key header, except the unkeyed ones', () => {
  for (const path of SDK_POSTS) {
    const parameters = (spec.paths[path]?.post?.parameters ?? []).map(resolve);
    const keyed = parameters.some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');
    expect({ path, keyed }).toEqual({ path, keyed: !UNKEYED_POST_PATHS.includes(path) });
  }
});

test('the SDK knows every error type of the spec (a type-level check, made by tsc)', () => {
  type SpecErrorType = components['schemas']['ErrorType'];
  const unknownToSdk: [Exclude<SpecErrorType, SwitchyardErrorType>] extends [never] ? true : false = true;
  const unknownToSpec: [Exclude<SwitchyardErrorType, SpecErrorType | 'connection_error'>] extends [never] ? true : false = true;
  expect([unknownToSdk, unknownToSpec]).toEqual([true, true]);
});
