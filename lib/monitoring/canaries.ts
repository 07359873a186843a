import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CfnElement, Duration, Stack, Token } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Canary, Code, Runtime, Schedule, Test } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import { acknowledgeNagFindings } from '../nag-acknowledgements';

/**
 * The synthetic checks (CloudWatch Synthetics canaries, aws-cdk-lib 2.276 `aws-synthetics`
 * `Canary` with `Code.fromInline`, whose handler must be `index.handler`): their script files
 * (canaries/, plain CommonJS read at synth time), schedule and runtime. The scripts use no browser;
 * `syn-nodejs-puppeteer-13.0` (Lambda Node.js 22: global `fetch`, the AWS SDK v3) is the newest
 * Node.js runtime of this CDK whose script format (`require('Synthetics')`, `executeStep`) is the
 * documented one ("Writing a Node.js canary script using the Puppeteer runtime", CloudWatch user guide).
 */
export const CANARIES = {
  health: { name: 'health', script: 'canaries/health.js' },
  sandboxPayment: { name: 'sandbox-payment', script: 'canaries/sandbox-payment.js' },
  schedule: Duration.minutes(5),
  runtime: Runtime.SYNTHETICS_NODEJS_PUPPETEER_13_0,
  /** Runs and their artifacts (screenshots none, logs and HAR-less reports) kept this long. */
  retention: Duration.days(14),
} as const;

/**
 * Name of the Secrets Manager secret holding the sandbox payment canary's API key: the operator
 * creates it (docs/operations.md, "Sandbox payment canary failing" → provisioning).
 */
export const canaryApiKeySecretName = (stage: string): string => `switchyard-${stage}/canary-api-key`;

/** Canary names: lower case, at most 21 characters (Synthetics' limit), unique per account and Region. */
export const canaryName = (stage: string, check: string): string => `sy-${stage}-${check}`.slice(0, 21);

/** Props of {@link SyntheticChecks}. */
export interface SyntheticChecksProps {
  config: StageConfig;
  /** Base URL of the API (the `$default` stage's URL, without a trailing slash). */
  apiUrl: string;
}

/**
 * The stage's canaries: `GET /health` every 5 minutes on every stage, and, where the stage config
 * enables it (`canaries.sandboxPayment`, sandbox stages only), a sandbox payment created and
 * confirmed every 5 minutes with an API key read at run time from {@link canaryApiKeySecretName}.
 * Their alarms are in lib/monitoring/canaries-section.ts (SuccessPercent < 100).
 */
export class SyntheticChecks extends Construct {
  /** The `/health` canary. */
  readonly health: Canary;
  /** The sandbox payment canary, where enabled. */
  readonly sandboxPayment?: Canary;

  constructor(scope: Construct, id: string, props: SyntheticChecksProps) {
    super(scope, id);
    const { stage } = props.config;
    this.health = this.canary('Health', canaryName(stage, CANARIES.health.name), CANARIES.health.script, { API_URL: props.apiUrl });
    if (props.config.canaries.sandboxPayment) {
      const secretName = canaryApiKeySecretName(stage);
      this.sandboxPayment = this.canary('SandboxPayment', canaryName(stage, CANARIES.sandboxPayment.name), CANARIES.sandboxPayment.script, {
        API_URL: props.apiUrl,
        API_KEY_SECRET_ID: secretName,
      });
      Secret.fromSecretNameV2(this, 'CanaryApiKey', secretName).grantRead(this.sandboxPayment.role);
      const stack = Stack.of(this);
      // How cdk-nag spells unresolved tokens in its finding ids (as in lib/functions/function-factory.ts).
      const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
      const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
      acknowledgeNagFindings(this.sandboxPayment.role, [
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${secretName}-??????]`,
          reason:
            'A secret imported by name is addressed with the 6-character suffix Secrets Manager appends; the grant names this one secret (the canary API key).',
        },
      ]);
    }
  }

  private canary(id: string, name: string, script: string, environment: Record<string, string>): Canary {
    const canary = new Canary(this, id, {
      canaryName: name,
      runtime: CANARIES.runtime,
      test: Test.custom({ code: Code.fromInline(readFileSync(resolve(process.cwd(), script), 'utf8')), handler: 'index.handler' }),
      schedule: Schedule.rate(CANARIES.schedule),
      environmentVariables: environment,
      timeout: Duration.minutes(1),
      successRetentionPeriod: CANARIES.retention,
      failureRetentionPeriod: CANARIES.retention,
      artifactsBucketLifecycleRules: [{ expiration: CANARIES.retention }],
      // The Lambda function and layer Synthetics creates are deleted with the canary.
      provisionedResourceCleanup: true,
    });
    const stack = Stack.of(this);
    const bucketId = stack.getLogicalId(canary.artifactsBucket.node.defaultChild as CfnElement);
    // How cdk-nag spells the region and account in its finding ids: tokens as <AWS::…>, else the value
    // (`cdk synth` with a default environment resolves them).
    const nagRegion = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
    const nagAccount = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
    acknowledgeNagFindings(canary.artifactsBucket, [
      {
        id: 'AwsSolutions-S1',
        reason:
          "The canary's own artifacts bucket (run reports, 14-day lifecycle; KMS-managed encryption and TLS-only from the Canary construct): written only by the canary's role, holding no customer data; access logging it would add a bucket per canary for no audit value.",
      },
    ]);
    acknowledgeNagFindings(canary.role, [
      {
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          "The Canary construct's default role: s3:ListAllMyBuckets (no resource-level permission exists) and cloudwatch:PutMetricData, which supports no resource but is conditioned to the CloudWatchSynthetics namespace.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`,
        reason: "s3:PutObject on the objects of this canary's own artifacts bucket only.",
      },
      {
        id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:${nagRegion}:${nagAccount}:log-group:/aws/lambda/cwsyn-*]`,
        reason:
          "Log groups of the Lambda functions Synthetics creates for canaries (named cwsyn-<canary>-<random>, unknown until the canary exists): the Canary construct's default role.",
      },
    ]);
    return canary;
  }
}
