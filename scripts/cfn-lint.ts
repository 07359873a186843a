/**
 * `npm run lint`'s CloudFormation check: synthesizes every stage of the CDK app to a
 * temporary directory and runs cfn-lint (`python3`'s `cfnlint` package) over every template the
 * synthesis writes (each stage's data and API stacks and the API stack's nested templates). Any
 * finding fails the lint (exit code 1); suppressions are in .cfnlintrc and below, each explained.
 *
 *   npm run lint                      # part of the lint
 *   npx tsx scripts/cfn-lint.ts       # alone
 *   npx tsx scripts/cfn-lint.ts --cdk-cli   # synthesize with the pinned CDK CLI instead (bundles every function: minutes)
 *
 * Synthesis: by default the app is run exactly as the CDK CLI runs it (cdk.json's `app` command, its
 * context, the CLI's own context keys: path and asset metadata, version reporting; the CLI's default
 * region) but with bundling skipped (`aws:cdk:bundling-stacks: []`). Bundling 70-odd functions takes
 * about 2 minutes per stage on 2 cores and changes nothing a linter reads: a CLI-synthesized template
 * differs only in its assets' S3 keys (content hashes). The CLI path itself is tested by
 * test/infra/cdk-cli-synth.test.ts. No AWS credentials are used or needed.
 *
 * Prod refuses to synthesize without an alarm destination (lib/config/stage-config.ts); the lint passes
 * an e-mail address and a Slack channel so both kinds of subscription are linted.
 *
 * cfn-lint must be importable by `python3` (`python3 -m cfnlint` does not run: the package has no
 * `__main__`, so the script calls its `cfnlint.runner.main`, which is what the `cfn-lint` command runs).
 * When it is missing the lint fails and says how to install it: CI (.ci/run) runs in the same image,
 * where it is installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ALARM_DESTINATION_KEYS, STAGES } from '../lib/config/stage-config';

const ROOT = resolve(import.meta.dirname, '..');
const PYTHON = process.env.PYTHON ?? 'python3';
const useCli = process.argv.includes('--cdk-cli');
/** The CDK CLI's region when none is configured; cfn-lint checks against the same one. */
const region = process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1';
/** Alarm destinations for the synthesis (placeholders: nothing is deployed). */
const ALARM_CONTEXT = {
  [ALARM_DESTINATION_KEYS.email.context]: 'alarms@example.com',
  [ALARM_DESTINATION_KEYS.slackWorkspaceId.context]: 'T00000000',
  [ALARM_DESTINATION_KEYS.slackChannelId.context]: 'C00000000',
};

function fail(message: string): never {
  console.error(`cfn-lint: ${message}`);
  process.exit(1);
}

/** The installed cfn-lint's version, or a failure saying how to get it. */
function cfnLintVersion(): string {
  const probe = spawnSync(PYTHON, ['-c', 'import cfnlint.version; print(cfnlint.version.__version__)'], { encoding: 'utf8' });
  if (probe.error) fail(`${PYTHON} is not installed or not on PATH (${probe.error.message}); cfn-lint needs it. Nothing was linted.`);
  if (probe.status !== 0)
    fail(
      `${PYTHON} cannot import cfnlint: install it with \`${PYTHON} -m pip install cfn-lint\`. Nothing was linted.\n${probe.stderr.trim()}`,
    );
  return probe.stdout.trim();
}

/** Synthesizes one stage into `out`, as the CLI would (see the header). */
function synthesize(stage: string, out: string): void {
  const env = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', CDK_DISABLE_CLI_TELEMETRY: 'true' };
  const context = { stage, ...ALARM_CONTEXT };
  if (useCli) {
    const args = ['cdk', 'synth', ...Object.entries(context).flatMap(([k, v]) => ['-c', `${k}=${v}`]), '--quiet', '--output', out];
    execFileSync('npx', args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
    return;
  }
  const cdkJson = JSON.parse(readFileSync(join(ROOT, 'cdk.json'), 'utf8')) as { app: string; context?: Record<string, unknown> };
  const appContext = {
    ...cdkJson.context,
    ...context,
    'aws:cdk:bundling-stacks': [],
    'aws:cdk:enable-path-metadata': true,
    'aws:cdk:enable-asset-metadata': true,
    'aws:cdk:version-reporting': true,
  };
  execFileSync(cdkJson.app, {
    cwd: ROOT,
    shell: true,
    env: { ...env, CDK_OUTDIR: out, CDK_CONTEXT_JSON: JSON.stringify(appContext), CDK_DEFAULT_REGION: region },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/**
 * Registry schemas for resource types whose schema in the installed cfn-lint is older than the CDK's
 * (a directory for `--registry-schemas`), or none.
 *
 * AWS::CloudWatch::Dashboard: CloudFormation takes `Tags` on a dashboard (CloudFormation template
 * reference, "AWS::CloudWatch::Dashboard",
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cloudwatch-dashboard.html:
 * "Tags: [ Tag, ... ]", up to 50), and aws-cdk-lib's CfnDashboard, generated from that schema, tags
 * every dashboard with the app's `service` tag; cfn-lint 1.51's bundled schema predates it (E3002
 * "'Tags' was unexpected" on each dashboard). The installed schema is taken as is and only `Tags` is
 * added, so every other check of a dashboard still runs; with a cfn-lint that knows the property,
 * nothing is patched.
 */
function schemaPatches(dir: string): string | undefined {
  const patch = `
import json, sys
from cfnlint.schema import PROVIDER_SCHEMA_MANAGER
schema = PROVIDER_SCHEMA_MANAGER.get_resource_schema(sys.argv[1], "AWS::CloudWatch::Dashboard").schema
if "Tags" in schema["properties"]:
    print("")
else:
    schema = json.loads(json.dumps(schema))
    schema.setdefault("definitions", {})["Tag"] = {
        "type": "object", "additionalProperties": False, "required": ["Key", "Value"],
        "properties": {"Key": {"type": "string", "minLength": 1, "maxLength": 128}, "Value": {"type": "string", "maxLength": 256}},
    }
    schema["properties"]["Tags"] = {"type": "array", "maxItems": 50, "items": {"$ref": "#/definitions/Tag"}}
    schema["tagging"] = {"taggable": True, "tagOnCreate": True, "tagUpdatable": True, "cloudFormationSystemTags": True, "tagProperty": "/properties/Tags"}
    print(json.dumps(schema))
`;
  const schema = execFileSync(PYTHON, ['-c', patch, region], { encoding: 'utf8' }).trim();
  if (schema === '') return undefined;
  writeFileSync(join(dir, 'aws-cloudwatch-dashboard.json'), schema);
  return dir;
}

const version = cfnLintVersion();
const work = mkdtempSync(join(tmpdir(), 'switchyard-cfn-lint-'));
let failed = false;
try {
  const schemas = schemaPatches(mkdtempSync(join(work, 'schemas-')));
  for (const stage of Object.keys(STAGES)) {
    const out = join(work, stage);
    synthesize(stage, out);
    const templates = readdirSync(out)
      .filter((f) => f.endsWith('.template.json'))
      .map((f) => join(out, f));
    if (templates.length === 0) fail(`the ${stage} synthesis wrote no template.`);
    const args = ['--regions', region, ...(schemas ? ['--registry-schemas', schemas] : []), '--', ...templates];
    // cfn-lint reads .cfnlintrc from the working directory (the repository root).
    const lint = spawnSync(PYTHON, ['-c', 'import sys; from cfnlint.runner import main; sys.exit(main())', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (lint.error) fail(lint.error.message);
    const report = `${lint.stdout}${lint.stderr}`.trim();
    if (lint.status === 0) console.log(`cfn-lint ${version}: ${stage}: ${templates.length} templates clean (${region})`);
    else {
      failed = true;
      console.error(`cfn-lint ${version}: ${stage}: findings (exit ${lint.status}):\n${report}`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
if (failed) process.exit(1);
