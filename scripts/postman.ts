/**
 * `npm run postman` — converts `docs/openapi.json` into a Postman collection and an environment
 * for the local stack:
 *
 *   clients/postman/switchyard.postman_collection.json   (Postman Collection v2.1)
 *   clients/postman/local.postman_environment.json       (baseUrl http://localhost:3000, apiKey empty)
 *
 * The collection holds what a merchant calls with an API key, once each, so that it stays small
 * (about 6.5 KB a request, 250 KB in all, instead of 1.9 MB): the converter repeats a request's URL, headers and body under
 * every response example, and every operation documents about ten error answers. Before the
 * conversion the spec is pruned ({@link merchantSpec}):
 * - routes a merchant does not call are left out ({@link EXCLUDED_ROUTES}): the payer's pages
 *   (`/pay/…`), the sandbox's pages (`/sandbox/…`), the processors' inbound webhooks
 *   (`/webhooks/{connector}`, `/webhooks/{connector}/{merchant_connector_id}`) and the reference routes (`/docs…`, `/openapi.json`: the document
 *   itself, imported into Postman by its URL rather than sent as a request);
 * - each operation keeps only its success answer (its first 2xx, the `200` everywhere today), so
 *   each request carries one example response; the error answers are in the reference (`/docs`,
 *   docs/api.md "Errors");
 * - tags no operation uses any more are dropped (no empty folders).
 * After it, each example's copy of its request (`originalRequest`) loses the descriptions the
 * request itself carries ({@link slimExamples}).
 * openapi-to-postmanv2's `requestParametersResolution` / `exampleParametersResolution` are options
 * of its v1 `convert` only; `convertV2` has `parametersResolution` (here `Example`), and no option
 * to leave responses out, hence the pruning of the spec.
 *
 * The conversion is openapi-to-postmanv2 6.3.3 (`convertV2`: folders by tag, request and response
 * bodies from the spec's examples, faked from the schema where it has none). Its output is made
 * deterministic, so the committed files can be checked against a fresh conversion
 * (clients/typescript/test/postman.test.ts):
 * - the converter's random ids (`info._postman_id`, every item's and response's `id`, uuid v4) are
 *   removed — Postman assigns its own on import;
 * - its schema faker (json-schema-faker, which draws from `Math.random` and fakes `date-time`s
 *   relative to now) runs with a seeded generator (mulberry32) and a clock frozen at the spec's
 *   version date, for the duration of the conversion only.
 * Then, for a collection that behaves like the SDK:
 * - every `Idempotency-Key` header gets the value `{{$guid}}` (a new UUID per send; set your own to
 *   retry a request);
 * - a collection-level pre-request script sets `Switchyard-Version` to the spec's `info.version`;
 * - the API key comes from the `{{apiKey}}` variable (the spec's `api-key` security scheme).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertV2 } from 'openapi-to-postmanv2';

/** Where the spec is read and the two files are written, relative to the repository root. */
export const POSTMAN_PATHS = {
  spec: 'docs/openapi.json',
  collection: 'clients/postman/switchyard.postman_collection.json',
  environment: 'clients/postman/local.postman_environment.json',
} as const;

/** The converter's options (openapi-to-postmanv2 OPTIONS.md). */
const CONVERTER_OPTIONS = {
  folderStrategy: 'Tags',
  requestNameSource: 'Fallback',
  parametersResolution: 'Example',
  includeWebhooks: false,
  enableOptionalParameters: false,
  alwaysInheritAuthentication: true,
  includeDeprecated: true,
} as const;

/**
 * Routes left out of the collection, each with the reason: none is called by a merchant with an API
 * key. A spec path is left out when it equals `path` or lies under it (`/pay` covers `/pay/{payment_id}/return`).
 */
export const EXCLUDED_ROUTES: readonly { path: string; why: string }[] = [
  { path: '/pay', why: "payer pages: HTML forms for the payer's browser (3-D Secure, PIN/OTP, return)" },
  { path: '/sandbox', why: "sandbox pages: the sandbox connector's stand-in for a bank's page" },
  {
    path: '/webhooks',
    why: "processor webhooks (the stage's and each connector account's): sent by Paystack, Flutterwave and Stripe, signed with their secrets",
  },
  { path: '/docs', why: 'the rendered reference (Redoc) and its script: pages for a browser' },
  { path: '/openapi.json', why: 'the OpenAPI document itself: import it into Postman by its URL instead' },
];

/** Whether the spec path `path` is one of {@link EXCLUDED_ROUTES} or under one. */
export function isExcludedRoute(path: string): boolean {
  return EXCLUDED_ROUTES.some((r) => path === r.path || path.startsWith(`${r.path}/`));
}

/** The HTTP methods of an OpenAPI path item (its other keys are `parameters`, `summary`, …). */
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The parts of an OpenAPI document {@link merchantSpec} reads. */
interface OpenApiDocument {
  info?: { title?: string; version?: string };
  tags?: { name: string }[];
  paths?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

/**
 * The spec the collection is converted from: `spec` without {@link EXCLUDED_ROUTES}, each operation
 * with only its first success answer (the lowest `2xx`; none when it has none), and without the tags
 * no remaining operation uses. `spec` is not changed.
 * @param spec the parsed OpenAPI document
 * @returns a pruned copy
 */
export function merchantSpec(spec: OpenApiDocument): OpenApiDocument {
  const pruned = structuredClone(spec);
  const paths: Record<string, Record<string, unknown>> = {};
  const usedTags = new Set<string>();
  for (const [path, item] of Object.entries(pruned.paths ?? {})) {
    if (isExcludedRoute(path)) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method) || typeof operation !== 'object' || operation === null) continue;
      const op = operation as { responses?: Record<string, unknown>; tags?: string[] };
      const success = Object.keys(op.responses ?? {})
        .filter((status) => /^2\d\d$/.test(status))
        .sort()[0];
      op.responses = success !== undefined && op.responses ? { [success]: op.responses[success] } : {};
      for (const tag of op.tags ?? []) usedTags.add(tag);
    }
    paths[path] = item;
  }
  pruned.paths = paths;
  if (pruned.tags) pruned.tags = pruned.tags.filter((t) => usedTags.has(t.name));
  return pruned;
}

/** Seed of the generator that stands in for `Math.random` during the conversion. */
const FAKER_SEED = 0x5317c4;

/** mulberry32: a small seeded generator of floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The converter's bundled json-schema-faker (its option registry is what the converter fakes with). */
interface SchemaFaker {
  option(name: 'random'): () => number;
  option(options: { random: () => number }): void;
}

/**
 * A `Date` whose "now" is `fixedMs` (`new Date()` and `Date.now()`); any other construction is the
 * real one. json-schema-faker fakes a `date-time` as now minus a random span.
 */
function frozenDate(fixedMs: number): DateConstructor {
  const RealDate = Date;
  class FrozenDate extends RealDate {
    constructor(...args: unknown[]) {
      super(...((args.length === 0 ? [fixedMs] : args) as [number]));
    }
    static override now(): number {
      return fixedMs;
    }
  }
  return FrozenDate as DateConstructor;
}

/**
 * Runs `convertV2` with its randomness seeded and its clock frozen at `nowMs`, and restores both
 * afterwards. json-schema-faker keeps the `Math.random` it saw when it was loaded as its `random`
 * option, so that option is set too; RandExp (patterns) calls `Math.random` itself. The faker is
 * loaded by a computed specifier: it has no types, and a deep require resolves to the same module
 * instance the converter uses.
 */
async function convert(specText: string, nowMs: number): Promise<Record<string, unknown>> {
  const fakerPath = 'openapi-to-postmanv2/assets/json-schema-faker.js';
  const loaded = (await import(fakerPath)) as { default?: SchemaFaker } & SchemaFaker;
  const faker: SchemaFaker = typeof loaded.option === 'function' ? loaded : (loaded.default as SchemaFaker);
  const originalRandom = Math.random;
  const originalDate = globalThis.Date;
  const fakerRandom = faker.option('random');
  const seeded = mulberry32(FAKER_SEED);
  Math.random = seeded;
  faker.option({ random: seeded });
  globalThis.Date = frozenDate(nowMs);
  try {
    return await new Promise((resolve, reject) => {
      convertV2({ type: 'string', data: specText }, CONVERTER_OPTIONS, (err, result) => {
        if (err) return reject(new Error(`openapi-to-postmanv2: ${err.message}`));
        const data = result?.output?.[0]?.data;
        if (!result?.result || !data) return reject(new Error(`openapi-to-postmanv2: ${result?.reason ?? 'no collection produced'}`));
        resolve(data as Record<string, unknown>);
      });
    });
  } finally {
    globalThis.Date = originalDate;
    Math.random = originalRandom;
    faker.option({ random: fakerRandom });
  }
}

/** Removes the converter's random ids and sets each `Idempotency-Key` header to `{{$guid}}`, in place, at any depth. */
function normalise(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) normalise(n);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  if (typeof o.id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(o.id)) delete o.id;
  delete o._postman_id;
  if (typeof o.key === 'string' && o.key.toLowerCase() === 'idempotency-key' && 'value' in o) o.value = '{{$guid}}';
  for (const v of Object.values(o)) normalise(v);
}

/** Removes every `description` at any depth, in place. */
function dropDescriptions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) dropDescriptions(n);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const o = node as Record<string, unknown>;
  delete o.description;
  for (const v of Object.values(o)) dropDescriptions(v);
}

/**
 * Slims each example response, in place, at any depth of folders: its `originalRequest` (the
 * converter's copy of the request) loses the descriptions of the request and of its parameters and
 * headers, which the request itself shows; the response's headers lose their empty descriptions.
 */
function slimExamples(items: unknown): void {
  if (!Array.isArray(items)) return;
  for (const item of items as { item?: unknown; response?: { originalRequest?: unknown; header?: unknown }[] }[]) {
    slimExamples(item.item);
    for (const response of item.response ?? []) {
      dropDescriptions(response.originalRequest);
      if (!Array.isArray(response.header)) continue;
      for (const h of response.header as { description?: { content?: string } }[]) {
        if (h.description?.content === '') delete h.description;
      }
    }
  }
}

/** The two files' contents, as written (2-space JSON, final newline). */
export interface PostmanFiles {
  collection: string;
  environment: string;
}

/**
 * Converts an OpenAPI document into the collection (of its merchant-facing operations, with their
 * success example: {@link merchantSpec}) and the local environment.
 * @param specText the OpenAPI 3.1 document (JSON text), e.g. `docs/openapi.json`
 * @returns both files' text; the same input always gives the same output
 * @throws Error when the document is not JSON or the converter refuses it
 */
export async function buildPostmanFiles(specText: string): Promise<PostmanFiles> {
  const spec = JSON.parse(specText) as OpenApiDocument;
  const version = spec.info?.version ?? '';
  // The faker's "now": the version's date (2026-11-24), so the output changes only with the spec.
  const versionDate = Date.parse(version);
  const collection = await convert(JSON.stringify(merchantSpec(spec)), Number.isNaN(versionDate) ? 0 : versionDate);
  normalise(collection);
  slimExamples(collection.item);
  collection.event = [
    {
      listen: 'prerequest',
      script: {
        type: 'text/javascript',
        exec: [
          `// The API version this collection was generated from (docs/openapi.json info.version).`,
          `pm.request.headers.upsert({ key: 'Switchyard-Version', value: '${version}' });`,
        ],
      },
    },
  ];
  const environment = {
    name: 'Switchyard local',
    values: [
      { key: 'baseUrl', value: 'http://localhost:3000', type: 'default', enabled: true },
      { key: 'apiKey', value: '', type: 'secret', enabled: true },
    ],
    _postman_variable_scope: 'environment',
  };
  return { collection: `${JSON.stringify(collection, null, 2)}\n`, environment: `${JSON.stringify(environment, null, 2)}\n` };
}

/** Reads the spec and writes both files under `root` (the repository root). */
export async function writePostmanFiles(root: string = process.cwd()): Promise<PostmanFiles> {
  const files = await buildPostmanFiles(readFileSync(join(root, POSTMAN_PATHS.spec), 'utf8'));
  mkdirSync(join(root, 'clients/postman'), { recursive: true });
  writeFileSync(join(root, POSTMAN_PATHS.collection), files.collection);
  writeFileSync(join(root, POSTMAN_PATHS.environment), files.environment);
  return files;
}

// Run only as `tsx scripts/postman.ts` (jest imports this file for its check; no import.meta, which CommonJS lacks).
if (/[\\/]scripts[\\/]postman\.ts$/.test(process.argv[1] ?? '')) {
  const started = Date.now();
  writePostmanFiles()
    .then(() => {
      process.stdout.write(`postman: wrote ${POSTMAN_PATHS.collection} and ${POSTMAN_PATHS.environment} in ${Date.now() - started} ms\n`);
    })
    .catch((err: unknown) => {
      process.stderr.write(`postman: ${(err as Error).message}\n`);
      process.exit(1);
    });
}
