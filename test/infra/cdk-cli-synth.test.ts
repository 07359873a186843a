import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stageRoutes } from '../../lib/api/route-functions';
import { STAGES } from '../../lib/config/stage-config';
import { FALLBACK_GROUP, groupRoutes } from '../../lib/function-groups';
import { TEST_ALARM_CONTEXT, webhookDeliveryHandlerExists } from './synth-stage';

const run = promisify(execFile);

/**
 * The done-criterion of the deploy issue, exercised for real: the pinned CDK CLI
 * synthesizes the prod stage (esbuild bundling of every function and cdk-nag
 * included) with no AWS credentials (and an alarm e-mail, without which prod refuses to synthesize). The webhook delivery functions (the stream fan-out and the
 * delivery queue's worker, functions/webhook-delivery/queue-handler.ts) are bundled when the stream
 * handler module exists (functions/webhook-delivery/stream-handler.ts). Bundling every function (about 90)
 * takes about two minutes on 2 cores while the other test files run beside it, and over four when
 * other work shares the machine: the 480 s bound only stops a hung CLI, it is not a speed check.
 */
test('`cdk synth -c stage=prod` succeeds without AWS credentials and bundles one asset per function (routes, 404, reconciler, renewal worker, webhook delivery and its worker)', async () => {
  const out = mkdtempSync(join(tmpdir(), 'switchyard-synth-'));
  try {
    const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_CLI_TELEMETRY: 'true' };
    await run(
      'npx',
      ['cdk', 'synth', '-c', 'stage=prod', '-c', `alarmEmail=${TEST_ALARM_CONTEXT.alarmEmail}`, '--quiet', '--output', out],
      { env, timeout: 480_000 },
    );
    const files = readdirSync(out);
    expect(files).toEqual(expect.arrayContaining(['Switchyard-prod-Data.template.json', 'Switchyard-prod-Api.template.json']));
    // One nested template per function group (lib/function-groups.ts).
    const groups = groupRoutes(stageRoutes(STAGES.prod!), { [FALLBACK_GROUP]: 1 });
    expect(files.filter((f) => f.endsWith('.nested.template.json'))).toHaveLength(groups.size);
    const bundles = files.filter((f) => f.startsWith('asset.'));
    // prod's routes (no sandbox pages or test clocks) + the $default 404, the reconciler and the renewal worker, + webhook delivery's
    // stream function and queue worker (two handler modules) once its handler exists; the canaries'
    // scripts are inline, not assets
    expect(bundles.length).toBe(stageRoutes(STAGES.prod!).length + 3 + (webhookDeliveryHandlerExists() ? 2 : 0));
    const sample = readFileSync(join(out, bundles[0]!, 'index.mjs'), 'utf8');
    expect(sample).toContain('createRequire');
  } finally {
    // Retried: when the CLI was stopped at the bound, its app process may still be writing an asset for a moment, and
    // an ENOTEMPTY here would hide the CLI's own error.
    rmSync(out, { recursive: true, force: true, maxRetries: 10, retryDelay: 500 });
  }
}, 490_000);
