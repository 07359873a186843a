import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { buildSync } from 'esbuild';
import { stageRoutes } from '../../lib/api/route-functions';
import { BILLING_WORKER, RECONCILER } from '../../lib/background/background-work';
import { STAGES } from '../../lib/config/stage-config';
import { WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_WORKER } from '../../lib/delivery/webhook-delivery';
import { FUNCTION_ESBUILD_OPTIONS } from '../../lib/function-bundling';
import { FALLBACK_GROUP, groupRoutes } from '../../lib/function-groups';
import { FALLBACK_ROUTE } from '../../shared/api/routes';
import { TEST_ALARM_CONTEXT, webhookDeliveryHandlerExists } from './synth-stage';

const run = promisify(execFile);

/**
 * The handler module of every function prod deploys: its routes (no sandbox pages or test clocks), the `$default` 404,
 * the reconciler and the renewal worker, and webhook delivery's stream function and queue worker (two handler modules)
 * once its handler exists. The canaries' scripts are inline, not assets.
 */
const prodFunctionEntries = (): string[] => [
  ...stageRoutes(STAGES.prod!).map((route) => route.entry),
  FALLBACK_ROUTE.entry,
  RECONCILER.entry,
  BILLING_WORKER.entry,
  ...(webhookDeliveryHandlerExists() ? [WEBHOOK_DELIVERY.entry, WEBHOOK_DELIVERY_WORKER.entry] : []),
];

/**
 * The deploy path, run for real: the pinned CDK CLI runs the app (cdk.json's `app`: bin/switchyard.ts through tsx,
 * cdk-nag included) for the prod stage with no AWS credentials (and an alarm e-mail, without which prod refuses to
 * synthesize), and writes every template and asset manifest.
 *
 * `--exclusively Switchyard-prod-Data` makes the CLI bundle the data stack's assets only (it has none; the CLI passes
 * the selected stacks as `aws:cdk:bundling-stacks`): esbuild-bundling the API stack's 90 functions one by one costs
 * about 90 CPU-seconds, 80 % of this file, and proves per function what the next test proves for all of them in one
 * esbuild build. The bundling code path itself (CDK asset staging, lib/functions/function-code.ts, esbuild, the
 * cold-start merge, then the bundle loaded and run as Lambda runs it) is exercised by test/infra/stacks.test.ts
 * ("bundled as the stack bundles them"). `npx tsx scripts/cfn-lint.ts --cdk-cli` bundles every function through the
 * CLI. The 480 s bound only stops a hung CLI, it is not a speed check.
 */
test('`cdk synth -c stage=prod` succeeds without AWS credentials: both stacks, one nested template per function group, one code asset per function', async () => {
  const out = mkdtempSync(join(tmpdir(), 'switchyard-synth-'));
  try {
    const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_CLI_TELEMETRY: 'true' };
    await run(
      'npx',
      [
        'cdk',
        'synth',
        '-c',
        'stage=prod',
        '-c',
        `alarmEmail=${TEST_ALARM_CONTEXT.alarmEmail}`,
        '--quiet',
        '--exclusively',
        '--output',
        out,
        'Switchyard-prod-Data',
      ],
      { env, timeout: 480_000 },
    );
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['Switchyard-prod-Data.template.json', 'Switchyard-prod-Api.template.json']));
    // One nested template per function group (lib/function-groups.ts).
    const groups = groupRoutes(stageRoutes(STAGES.prod!), { [FALLBACK_GROUP]: 1 });
    expect(files.filter((f) => f.endsWith('.nested.template.json'))).toHaveLength(groups.size);
    // The API stack's file assets: its nested templates and one code asset per function (bundled from the repository).
    const manifest = JSON.parse(readFileSync(join(out, 'Switchyard-prod-Api.assets.json'), 'utf8')) as {
      files: Record<string, { source: { path: string; packaging?: string } }>;
    };
    const code = Object.values(manifest.files).filter((asset) => !asset.source.path.endsWith('.template.json'));
    expect(code.length).toBe(prodFunctionEntries().length);
    for (const asset of code) expect(asset.source).toEqual({ path: process.cwd(), packaging: 'zip' });
  } finally {
    // Retried: when the CLI was stopped at the bound, its app process may still be writing for a moment, and an
    // ENOTEMPTY here would hide the CLI's own error.
    rmSync(out, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
  }
}, 490_000);

/**
 * Every function prod deploys bundles with the stack's esbuild options (lib/function-bundling.ts
 * `FUNCTION_ESBUILD_OPTIONS`: ESM for Node.js 22, minified, source maps, the aliases, code splitting), all entries in
 * one build: esbuild resolves, parses and checks each module once for all of them, where the stack's per-function
 * builds parse the same 1,400-odd modules ninety times. A handler that does not bundle (a missing module, an import
 * the aliases do not satisfy, a syntax esbuild refuses) fails the build, naming it. Each entry's output starts with
 * the `require` banner that CommonJS dependencies in an ESM bundle need.
 */
test('every function prod deploys bundles with the stack esbuild options (one build, all entries), each with the require banner', () => {
  const entries = prodFunctionEntries();
  expect(new Set(entries).size).toBe(entries.length);
  const root = process.cwd();
  const out = mkdtempSync(join(tmpdir(), 'switchyard-bundles-'));
  try {
    const result = buildSync({
      ...FUNCTION_ESBUILD_OPTIONS,
      alias: { ...FUNCTION_ESBUILD_OPTIONS.alias },
      mainFields: [...FUNCTION_ESBUILD_OPTIONS.mainFields],
      // One output per entry (the stack names each function's entry `index`, in a directory of its own).
      entryNames: '[dir]/[name]',
      absWorkingDir: root,
      entryPoints: entries,
      outdir: out,
      metafile: true,
      write: false,
    });
    expect(result.errors).toEqual([]);
    const byEntry = new Map(
      Object.entries(result.metafile.outputs)
        .filter(([, output]) => output.entryPoint)
        .map(([file, output]) => [resolve(root, output.entryPoint!), resolve(root, file)]),
    );
    const text = new Map(result.outputFiles.map((file) => [file.path, file.text]));
    for (const entry of entries) {
      const file = byEntry.get(resolve(root, entry));
      expect(file).toBeDefined();
      expect(text.get(file!)).toContain("import { createRequire as __createRequire } from 'node:module';");
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 120_000);
