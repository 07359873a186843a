/**
 * The SDK as a merchant's project gets it: `npm pack` of clients/typescript (its `prepack` builds
 * dist, ESM and CommonJS), installed into a fresh project under os.tmpdir(), outside this repository,
 * then used from an ES module, from CommonJS, and by examples/walkthrough.ts copied there unchanged and
 * run against the local API. The tarball runs nothing when installed (no install-time script: npm 11
 * warns about one), ships the TypeScript sources its source maps and declaration maps point at, and is
 * ignored by git where `npm pack` writes it.
 *
 * Installing: `npm install <tarball>` needs the registry's metadata of the SDK's dependencies
 * (openapi-fetch, standardwebhooks), which `npm ci` does not put in the npm cache (it fetches tarballs
 * by the lockfile's URLs), so it cannot run offline in CI. What npm would do is done by hand instead:
 * the tarball is unpacked into the project's node_modules/@switchyard/client, and each dependency its
 * package.json declares is linked from this repository's node_modules (same pinned versions). Nothing
 * of the repository but those dependencies is reachable from the project.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type LocalApi, startLocalApi } from '../../../test/helpers/local-api';

const run = promisify(execFile);
const sdkDir = resolve(__dirname, '..');
const repoRoot = resolve(sdkDir, '../..');

let work: string;
let app: string;
/** Where the tarball is unpacked: the merchant project's node_modules/@switchyard/client. */
let installed: string;
let packed: { filename: string; files: { path: string }[] };
let api: LocalApi;
/** A local port nothing listens on: a connection to it is refused (port 9, say, fetch blocks itself as a "bad port"). */
let closedPort: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'switchyard-sdk-'));
  app = join(work, 'merchant-app');
  // `npm pack` runs `prepack` (the build) first, so the tarball always carries a fresh dist.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: sdkDir, maxBuffer: 16 * 1024 * 1024 });
  const json = stdout.slice(stdout.search(/^\[/m)); // lifecycle output may come first
  packed = (JSON.parse(json) as (typeof packed)[])[0]!;

  installed = join(app, 'node_modules', '@switchyard', 'client');
  mkdirSync(installed, { recursive: true });
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'merchant-app', version: '1.0.0', private: true }, null, 2)}\n`);
  await run('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies)) {
    mkdirSync(join(app, 'node_modules', name, '..'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules', name), join(app, 'node_modules', name), 'junction');
  }
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  closedPort = (server.address() as { port: number }).port;
  await new Promise((ok) => server.close(ok));
  api = await startLocalApi();
}, 360_000);

afterAll(async () => {
  await api?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the tarball carries the ESM and CommonJS builds with their types and the sources they map to, nothing else', () => {
  const files = packed.files.map((f) => f.path).sort();
  expect(packed.filename).toBe('switchyard-client-0.1.0.tgz');
  for (const f of [
    'package.json',
    'README.md',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/cjs/index.js',
    'dist/cjs/index.d.ts',
    'dist/cjs/package.json',
  ]) {
    expect(files).toContain(f);
  }
  expect(files).toContain('src/index.ts');
  expect(files.filter((f) => !f.startsWith('dist/') && !f.startsWith('src/') && f !== 'package.json' && f !== 'README.md')).toEqual([]);
  expect(files.filter((f) => f.startsWith('src/') && !f.endsWith('.ts'))).toEqual([]);
  expect(JSON.parse(readFileSync(join(app, 'node_modules/@switchyard/client/dist/cjs/package.json'), 'utf8'))).toEqual({
    type: 'commonjs',
  });
});

/**
 * The lifecycle scripts `npm install` runs for a package it installs (npm docs, "scripts", Life Cycle
 * Operation Order, `npm install`: https://docs.npmjs.com/cli/v11/using-npm/scripts#npm-install). `prepare`
 * is among them (run for git and directory installs), and npm 11 warns about any of them in a tarball it
 * installs (`install-scripts ... not yet covered by allowScripts`).
 */
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

test('the packed package.json has no script that runs when the tarball is installed', () => {
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  expect(Object.keys(manifest.scripts ?? {}).filter((name) => INSTALL_SCRIPTS.includes(name))).toEqual([]);
});

test('every source map and declaration map in the tarball resolves its sources inside the tarball', () => {
  const files = new Set(packed.files.map((f) => f.path));
  const maps = [...files].filter((f) => f.endsWith('.js.map') || f.endsWith('.d.ts.map'));
  expect(maps).toEqual(expect.arrayContaining(['dist/index.js.map', 'dist/index.d.ts.map', 'dist/cjs/index.js.map']));
  const unresolved: string[] = [];
  for (const map of maps) {
    const { sources, sourceRoot, sourcesContent } = JSON.parse(readFileSync(join(installed, map), 'utf8')) as {
      sources: string[];
      sourceRoot?: string;
      sourcesContent?: (string | null)[];
    };
    sources.forEach((source, i) => {
      if (typeof sourcesContent?.[i] === 'string') return; // embedded
      const path = posix.normalize(posix.join(posix.dirname(map), sourceRoot ?? '', source));
      if (!files.has(path)) unresolved.push(`${map} → ${source}`);
    });
  }
  expect(unresolved).toEqual([]);
});

test('git ignores the tarball npm pack writes into the package directory', async () => {
  // `git check-ignore` exits 1 (the promise rejects) when the path is not ignored: git status would list it.
  await expect(run('git', ['check-ignore', '--quiet', join(sdkDir, packed.filename)], { cwd: repoRoot })).resolves.toBeDefined();
});

/** A script using the installed package: resolves it, verifies a signed delivery and a tampered one, and makes a call nobody answers. */
function script(importLine: string, resolveExpr: string): string {
  return `${importLine}
const key = Buffer.from('0123456789abcdef0123456789abcdef');
const secret = 'whsec_' + key.toString('base64');
const body = JSON.stringify({ event_id: 'evt_1', type: 'payment.succeeded', created_at: '2026-01-01T00:00:00.000Z', data: { payment_id: 'pay_1' } });
const id = 'evt_1';
const timestamp = String(Math.floor(Date.now() / 1000));
const sign = (text) => 'v1,' + require_crypto.createHmac('sha256', key).update(id + '.' + timestamp + '.' + text).digest('base64');
const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': sign(body) };
const event = sdk.verifyWebhook(body, headers, secret);
let tampered;
try { sdk.verifyWebhook(body.replace('pay_1', 'pay_2'), headers, secret); } catch (err) { tampered = err instanceof sdk.WebhookVerificationError && err.code; }
const client = new sdk.Switchyard({ apiKey: 'sk_test_offline', baseUrl: 'http://127.0.0.1:' + process.env.CLOSED_PORT, retryDelay: { initialMs: 1, maxMs: 1 } });
client.customers.create({ name: 'offline' }).then(
  () => { throw new Error('expected a connection error'); },
  (err) => console.log(JSON.stringify({
    resolved: ${resolveExpr},
    apiVersion: sdk.API_VERSION,
    event: event.type + ' ' + event.data.payment_id,
    tampered,
    connection: err instanceof sdk.SwitchyardConnectionError && err.code,
    message: err.message,
  })),
);
`;
}

const expected = (build: string) => ({
  resolved: expect.stringMatching(new RegExp(`node_modules/@switchyard/client/${build}index\\.js$`)),
  apiVersion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  event: 'payment.succeeded pay_1',
  tampered: 'no_matching_signature',
  connection: 'network_error',
  message: expect.stringMatching(/was not received .*nothing was done; retry\.$/),
});

test('import from an ES module resolves dist/index.js', async () => {
  writeFileSync(
    join(app, 'esm.mjs'),
    script(
      "import * as sdk from '@switchyard/client';\nimport * as require_crypto from 'node:crypto';",
      "new URL(import.meta.resolve('@switchyard/client')).pathname",
    ),
  );
  const { stdout } = await run(process.execPath, ['esm.mjs'], { cwd: app, env: { ...process.env, CLOSED_PORT: String(closedPort) } });
  expect(JSON.parse(stdout)).toEqual(expected('dist/'));
});

test('require() from CommonJS resolves dist/cjs/index.js', async () => {
  writeFileSync(
    join(app, 'cjs.cjs'),
    script(
      "const sdk = require('@switchyard/client');\nconst require_crypto = require('node:crypto');",
      "require.resolve('@switchyard/client')",
    ),
  );
  const { stdout } = await run(process.execPath, ['cjs.cjs'], { cwd: app, env: { ...process.env, CLOSED_PORT: String(closedPort) } });
  expect(JSON.parse(stdout)).toEqual(expected('dist/cjs/'));
});

test('examples/walkthrough.ts, copied unchanged, runs against the installed package and the local API', async () => {
  cpSync(join(repoRoot, 'examples', 'walkthrough.ts'), join(app, 'walkthrough.ts'));
  const { stdout } = await run(process.execPath, [join(repoRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'walkthrough.ts'], {
    cwd: app,
    env: { ...process.env, SWITCHYARD_BASE_URL: api.url, SWITCHYARD_API_KEY: api.apiKey, SWITCHYARD_URL: '', API_KEY: '' },
  });
  expect(stdout).toMatch(/^3\. confirmed +Succeeded/m);
  expect(stdout).toMatch(/^ {3}after the OTP +Succeeded/m);
  expect(relative(repoRoot, app).startsWith('..')).toBe(true);
}, 120_000);
