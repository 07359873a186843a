import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { AssetHashType, CfnOutput, DockerImage, Duration, NestedStack, RemovalPolicy, Stack, type StackProps, Token } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpIntegrationType,
  HttpMethod,
  HttpRouteIntegration,
  type HttpRouteIntegrationConfig,
  HttpStage,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { SlackChannelConfiguration } from 'aws-cdk-lib/aws-chatbot';
import { type ITableV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { type IGrantable, ManagedPolicy, PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Architecture,
  Code,
  FilterCriteria,
  FilterRule,
  type IFunction,
  Function as LambdaFunction,
  Runtime,
  StartingPosition,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { DeduplicationScope, FifoThroughputLimit, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import {
  answersHead,
  FALLBACK_ROUTE,
  isConnectorWebhookRoute,
  isSandboxRoute,
  ROUTES,
  type RouteDefinition,
  type RouteEnvironmentNeed,
  type TableAccess,
} from '../shared/api/routes';
import { TABLE_DEFINITION } from '../shared/storage/table-definition';
import { SyntheticChecks } from './canaries';
import { type StageConfig, stageConnectors } from './config/stage-config';
import { bundleFunction } from './function-bundling';
import { apiFunctionLogGroupName, apiLogGroupPrefix, FALLBACK_GROUP, functionGroup, groupRoutes } from './function-groups';
import { FUNCTION_NODE_OPTIONS } from './function-runtime';
import { FunctionGroupMonitoring } from './monitoring/function-group-monitoring';
import { ServiceMonitoring } from './monitoring/service-monitoring';
import { acknowledgeNagFindings, type NagAcknowledgement } from './nag-acknowledgements';
import { OperationsQueries } from './operations-queries';
import { ReconcilerSchedule } from './reconciler-schedule';

/**
 * Table access levels: the route table's (shared/api/routes.ts, `none` included) plus `settle`, the
 * background reconciler's, and `deliver`, the webhook delivery function's.
 */
export type TableAccessLevel = TableAccess | 'settle' | 'deliver';

/**
 * DynamoDB actions per access level: exactly what the repositories call (no wildcards); `none`
 * grants nothing (no table statement at all: the API reference routes).
 * `settle` is the background reconciler's: it reads and queries (its open-operations index,
 * GSI5, included), and settles with conditional puts, updates and deletes, some inside
 * TransactWriteItems, which IAM authorizes per item action (Put/Update/Delete/ConditionCheckItem;
 * DynamoDB developer guide, "Using IAM with DynamoDB transactions"). Not to be confused with
 * `reconcile`, the API's own retrieve-with-`force_sync`. `deliver` is the webhook delivery
 * function's: it reads events and endpoints (GetItem, Query, indexes included) and records
 * deliveries and endpoint state with PutItem/UpdateItem; it never deletes and writes no
 * transactions.
 */
export const TABLE_ACTIONS: Readonly<Record<TableAccessLevel, readonly string[]>> = {
  none: [],
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  reconcile: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  write: [
    'dynamodb:GetItem',
    'dynamodb:BatchGetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  settle: [
    'dynamodb:GetItem',
    'dynamodb:Query',
    'dynamodb:PutItem',
    'dynamodb:UpdateItem',
    'dynamodb:DeleteItem',
    'dynamodb:ConditionCheckItem',
  ],
  deliver: ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};

/**
 * The background reconciler function: its logical name and its handler module (from the
 * repository root, exporting `handler`). Not an HTTP route; run by {@link ReconcilerSchedule}.
 */
export const RECONCILER = { name: 'Reconciler', entry: 'functions/reconciler/reconcile.ts' } as const;

/**
 * The renewal worker (issue 24): renews subscriptions, retries failed renewals on the dunning schedule and sends
 * payment method expiry notices, every minute. Not an HTTP route; run by its own {@link ReconcilerSchedule}.
 */
export const BILLING_WORKER = { name: 'BillingWorker', entry: 'functions/billing/renewal-worker.ts' } as const;

/**
 * The webhook delivery function: its logical name, its handler module (a DynamoDB Streams batch
 * handler exporting `handler`, with Powertools Batch partial failures) and its timeout. Not an
 * HTTP route; fed by the table's stream through {@link WEBHOOK_DELIVERY_STREAM}.
 */
export const WEBHOOK_DELIVERY = {
  name: 'WebhookDelivery',
  entry: 'functions/webhook-delivery/stream-handler.ts',
  timeoutSeconds: 60,
} as const;

/**
 * The webhook delivery worker: its logical name, its handler module (an SQS batch handler
 * exporting `handler`, Powertools Batch partial failures) and its timeout: one attempt's 15 s
 * (`DEFAULT_DELIVERY_TIMEOUT_MS`) and its DynamoDB calls, with room. Fed by the delivery queue
 * through {@link WEBHOOK_DELIVERY_QUEUE}.
 */
export const WEBHOOK_DELIVERY_WORKER = {
  name: 'WebhookDeliveryWorker',
  entry: 'functions/webhook-delivery/queue-handler.ts',
  timeoutSeconds: 60,
} as const;

/**
 * The webhook delivery queue (shared/webhooks/delivery-queue.ts) and its event source mapping
 * (`Queue`, `SqsEventSource`, aws-cdk-lib 2.276.0; Amazon SQS developer guide, "FIFO queue
 * high throughput"; Lambda developer guide, "Using Lambda with Amazon SQS"):
 *
 * - FIFO, `DeduplicationScope.MESSAGE_GROUP` and `FifoThroughputLimit.PER_MESSAGE_GROUP_ID` (high
 *   throughput mode: the limits apply per message group, i.e. per merchant lane);
 * - `visibilityTimeout` 6 × the worker's timeout, as the Lambda guide advises for SQS sources, so a
 *   batch is never handed out again while an invocation still works on it;
 * - `maxReceiveCount` 5, then the message goes to a FIFO dead-letter queue (alarmed when not empty;
 *   the delivery record itself stays due and the reconciler hands it over again);
 * - `batchSize` 10 (the FIFO maximum), `reportBatchItemFailures`, and the stage's `maxConcurrency`.
 */
export const WEBHOOK_DELIVERY_QUEUE = {
  batchSize: 10,
  visibilityTimeout: Duration.seconds(6 * WEBHOOK_DELIVERY_WORKER.timeoutSeconds),
  maxReceiveCount: 5,
  retentionPeriod: Duration.days(4),
  deadLetterRetention: Duration.days(14),
} as const;

/**
 * The event source mapping from the table's stream to {@link WEBHOOK_DELIVERY}
 * (`DynamoEventSource`, aws-cdk-lib 2.276.0 `aws-lambda-event-sources`, `StreamEventSourceProps`;
 * Lambda developer guide, "Lambda parameters for Amazon DynamoDB event source mappings",
 * "Configuring partial batch response with DynamoDB and Lambda" and "Control which events Lambda
 * sends to your function"):
 *
 * - `startingPosition` TRIM_HORIZON: a new mapping starts at the oldest record the stream keeps
 *   (24 h), so events written while the mapping was being created are not skipped.
 * - `batchSize` 25 records (events) per invocation; `parallelizationFactor` left at 1, so the
 *   records of one shard (one item key range) are processed in order.
 * - `reportBatchItemFailures`: the handler answers `{ batchItemFailures: [{ itemIdentifier:
 *   <SequenceNumber> }] }` (Powertools Batch); Lambda retries from the first failed record only.
 * - `bisectBatchOnError`: a batch whose invocation fails as a whole (timeout, crash) is split
 *   in two and retried, isolating a poison record; `retryAttempts` 10 bounds the retries, and
 *   `maxRecordAge` 6 h bounds how old a record may be when it is (re)tried: well past the
 *   iterator-age (5 min) and backlog (1 h) alarms, well inside the stream's 24 h retention, so
 *   the shard and sequence range named by an on-failure message can still be read from the
 *   stream for hours. Records given up on are described (not copied) to the on-failure SQS
 *   queue; the events themselves stay in the table and can be redelivered
 *   (`POST /events/{id}/redeliver`).
 * - `filters`: only INSERTs of items with `entity = "event"` invoke the function (filtered
 *   records are dropped by Lambda, not billed as invocations).
 * - `failureQueueRetention`: how long on-failure messages wait for an operator (SQS maximum).
 */
export const WEBHOOK_DELIVERY_STREAM = {
  startingPosition: StartingPosition.TRIM_HORIZON,
  batchSize: 25,
  reportBatchItemFailures: true,
  bisectBatchOnError: true,
  retryAttempts: 10,
  maxRecordAge: Duration.hours(6),
  filters: [
    FilterCriteria.filter({
      eventName: FilterRule.isEqual('INSERT'),
      dynamodb: { NewImage: { entity: { S: FilterRule.isEqual('event') } } },
    }),
  ],
  failureQueueRetention: Duration.days(14),
} as const;

/** Environment variable naming the connector-accounts KMS key (key ARN) in the functions that use it. */
export const CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE = 'CONNECTOR_ACCOUNTS_KMS_KEY_ARN';

/**
 * KMS actions on the connector-accounts key ({@link ConnectorAccountsKeyGrant}): exactly what the AWS
 * Encryption SDK's KMS keyring calls with one key, the generator (shared/security/credential-encryption.ts:
 * `KmsKeyringNode` with `generatorKeyId`). Encrypt calls `GenerateDataKey` on the generator key and
 * `Encrypt` only on *additional* keys of the keyring, of which there are none; decrypt calls `Decrypt`.
 * Sources: AWS Encryption SDK developer guide, "AWS KMS keyrings", section "Required permissions for
 * AWS KMS keyrings" ("To encrypt with an AWS KMS keyring, you need kms:GenerateDataKey permission on
 * the generator key. You need kms:Encrypt permission on all additional keys … To decrypt …
 * kms:Decrypt", https://docs.aws.amazon.com/encryption-sdk/latest/developer-guide/use-kms-keyring.html),
 * and the keyring itself, @aws-crypto/kms-keyring 5.0.2 `KmsKeyringClass._onEncrypt` (generateDataKey
 * for the generator, encrypt for `keyIds`) and `_onDecrypt` (decrypt). `kms:Encrypt` is therefore not
 * granted: a keyring given additional keys would need it on those keys, not on this one.
 */
export const CONNECTOR_ACCOUNTS_KEY_ACTIONS = ['kms:GenerateDataKey', 'kms:Decrypt'] as const;

/**
 * The encryption context every use of the key must carry: whose account the credentials are
 * (shared/security/credential-encryption.ts, `CredentialContext`).
 */
export const CONNECTOR_ACCOUNTS_CONTEXT_KEYS = ['merchant_id', 'merchant_connector_id'] as const;

/**
 * Encryption-context keys the Encryption SDK adds itself: its default algorithm suite signs (ECDSA
 * P-384), and the SDK then puts the verification key under `aws-crypto-public-key` in the context it
 * sends to KMS with GenerateDataKey and Decrypt (Encryption SDK developer guide, "Concepts",
 * #encryption-context; @aws-crypto/material-management-node 5.0.2
 * `NodeDefaultCryptographicMaterialsManager._initializeEncryptionMaterial`, `ENCODED_SIGNER_KEY` of
 * @aws-crypto/serialize).
 */
export const ENCRYPTION_SDK_CONTEXT_KEYS = ['aws-crypto-public-key'] as const;

/**
 * The statement a function's role gets on the connector-accounts key: {@link CONNECTOR_ACCOUNTS_KEY_ACTIONS}
 * on that key only, and only when the request's encryption context names both an account's merchant and
 * its id (`Null` … `false` on `kms:EncryptionContext:merchant_id` and `…:merchant_connector_id`) and holds
 * no other key than those and the SDK's own (`ForAllValues:StringEquals` on `kms:EncryptionContextKeys`).
 * Both are KMS condition keys for GenerateDataKey and Decrypt (KMS developer guide, "AWS KMS condition
 * keys", kms:EncryptionContext:context-key and kms:EncryptionContextKeys,
 * https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html). `ForAllValues` alone would
 * also pass a request without any context (an empty set satisfies it), hence the `Null` checks.
 */
export function connectorAccountsKeyStatement(keyArn: string): PolicyStatement {
  return new PolicyStatement({
    actions: [...CONNECTOR_ACCOUNTS_KEY_ACTIONS],
    resources: [keyArn],
    conditions: {
      Null: Object.fromEntries(CONNECTOR_ACCOUNTS_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
      'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...CONNECTOR_ACCOUNTS_CONTEXT_KEYS, ...ENCRYPTION_SDK_CONTEXT_KEYS] },
    },
  });
}

/**
 * Whether a route's function gets the connector-accounts key (its ARN and {@link connectorAccountsKeyStatement}):
 * routes that call connectors (`connectors: true` in shared/api/routes.ts: they use a merchant's account,
 * and the account routes store its credentials) and the processors' webhook receiver. The reconciler gets
 * it too (lib/api-stack.ts); no other function does.
 */
export const usesConnectorAccountsKey = (route: Pick<RouteDefinition, 'connectors' | 'connectorWebhook'>): boolean =>
  route.connectors || isConnectorWebhookRoute(route);

/**
 * The code asset of one function: the handler bundled by {@link bundleFunction} (lib/function-bundling.ts: esbuild in
 * this process, minified ESM `index.mjs` holding what a cold start loads and chunks beside it loaded on first use (code splitting,
 * then lib/cold-start-merge.ts), source maps without sources, the route's
 * `assets` copied beside it), hashed on that output as LambdaFunction does (`AssetHashType.OUTPUT`). Bundling is
 * local only: the Docker image and command are named because CDK's `BundlingOptions` requires an image (and keys its
 * cache on them), and never run, since
 * `tryBundle` either bundles or throws esbuild's error. Under `aws:cdk:bundling-stacks: []` (tests, cfn-lint) CDK
 * skips bundling and hashes the asset's construct path instead.
 * @param root the repository root
 * @param entry the handler module, from `root`
 * @param assets files copied next to `index.mjs` (shared/api/routes.ts `assets`)
 * @returns the `code` of a Lambda function whose handler is `index.handler`
 */
export function functionCode(root: string, entry: string, assets: readonly string[] = []): Code {
  return Code.fromAsset(root, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      image: DockerImage.fromRegistry('local-esbuild-only'),
      // Never run (no Docker): it names what is bundled, because CDK keys its asset cache and bundling directory on
      // the bundling options' JSON, in which `local` (a function) is invisible; without it every function would
      // share the first one's bundle.
      command: ['esbuild', entry, ...assets],
      local: {
        tryBundle(outputDir: string): boolean {
          bundleFunction(root, entry, outputDir, assets);
          return true;
        },
      },
    },
  });
}

/** One function of the stack, built by the stack's shared function factory. */
interface FunctionSpec {
  /** Logical name (PascalCase); its log group is `<name>Logs`. */
  name: string;
  /** Handler module from the repository root; it exports `handler`. */
  entry: string;
  /** Table actions granted ({@link TABLE_ACTIONS}; `none`: no table statement). */
  access: TableAccessLevel;
  /** Whether it checks `api-key` headers (may note a key's last use on `APIKEY#` items). */
  apiKeys: boolean;
  /** Whether it computes keyed hashes (gets `CARD_FINGERPRINT_SECRET_ID` and read on that secret). */
  keyedHashes: boolean;
  /** Whether it calls connectors (gets `CONNECTOR_SECRETS_ID`, `ROUTING_RULES` and read on that secret). */
  connectors: boolean;
  /** Whether it encrypts or decrypts connector account credentials (gets the key's ARN and {@link connectorAccountsKeyStatement}). */
  connectorAccountsKey: boolean;
  /** Timeout in seconds; default the stage's `lambdaTimeoutSeconds`. */
  timeoutSeconds?: number;
  /** Lambda's retries of a failed asynchronous invocation (0–2); default Lambda's (2). */
  asyncRetryAttempts?: number;
  /** Environment added to the common one. */
  environment?: Record<string, string>;
  /** Files copied next to the bundle (see {@link functionCode}). */
  assets?: readonly string[];
}

const SERVICE_NAME = 'switchyard';

/**
 * The routes a stage deploys: every entry of shared/api/routes.ts, less the sandbox's own
 * ({@link isSandboxRoute}) where the stage has no sandbox (`sandbox: false`, prod).
 */
export function stageRoutes(config: Pick<StageConfig, 'sandbox'>, routes: readonly RouteDefinition[] = ROUTES): readonly RouteDefinition[] {
  return config.sandbox ? routes : routes.filter((route) => !isSandboxRoute(route));
}

/**
 * The environment a route's function gets for the stage settings its route definition names
 * (shared/api/route-definition.ts `environment`): `webhookRetrySchedule` → `WEBHOOK_RETRY_SCHEDULE_SECONDS`, the
 * stage's webhook retry schedule as comma-separated seconds.
 */
export function routeEnvironment(
  needs: readonly RouteEnvironmentNeed[],
  settings: { webhookRetrySchedule: string },
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const need of needs) {
    if (need === 'webhookRetrySchedule') environment.WEBHOOK_RETRY_SCHEDULE_SECONDS = settings.webhookRetrySchedule;
  }
  return environment;
}

/** Environment variable naming the evidence files bucket (shared/storage/file-store.ts). */
export const FILES_BUCKET_VARIABLE = 'FILES_BUCKET';

/**
 * What a route's function may do in the evidence files bucket (issue 25), by route name: `CreateFile` writes
 * a file's bytes (s3:PutObject), the dispute evidence routes (names starting `SubmitDisputeEvidence`) read them
 * to pass them to a processor (s3:GetObject); nothing else touches the bucket (`GetFile` answers metadata from
 * the table only), and no function may list or delete. Objects only (`<bucket>/*`); the functions with access
 * get `FILES_BUCKET`.
 */
export function filesBucketAccess(routeName: string): readonly string[] {
  if (routeName === 'CreateFile') return ['s3:PutObject'];
  if (routeName.startsWith('SubmitDisputeEvidence')) return ['s3:GetObject'];
  return [];
}

/** Props of {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  config: StageConfig;
  /** Name of the stage's table (from the data stack); imported by name so no CloudFormation export ties the stacks. */
  tableName: string;
  /** Name of the secret holding the keyed-hash key (from the data stack). */
  fingerprintSecretName: string;
  /** Name of the secret holding the processors' keys (from the data stack). */
  connectorSecretsName: string;
  /**
   * Name of the SSM parameter holding the table's stream ARN (from the data stack), resolved at
   * deploy time: see {@link DataStack}.
   */
  tableStreamArnParameterName: string;
  /**
   * Name of the SSM parameter holding the key ARN of the connector-accounts KMS key (from the data
   * stack), resolved at deploy time like the stream ARN.
   */
  connectorAccountsKeyArnParameterName: string;
  /**
   * Name of the evidence files bucket (from the data stack; see {@link filesBucketAccess}). Absent: no
   * function gets `FILES_BUCKET` or any S3 statement.
   */
  filesBucketName?: string;
  /**
   * The webhook delivery handler module, from the repository root. Default:
   * {@link WEBHOOK_DELIVERY}`.entry` if that file exists, else none. `false`: no webhook delivery
   * (no function, event source mapping, failure queue or webhook monitoring). Tests pass a stub.
   */
  webhookDeliveryEntry?: string | false;
  /**
   * The route table to deploy, before the stage's sandbox filter ({@link stageRoutes}). Default:
   * shared/api/routes.ts's `ROUTES`. Tests pass a longer one to check the stacks' room to grow.
   */
  routes?: readonly RouteDefinition[];
}

/**
 * A Lambda proxy integration (payload format 2.0) of an HTTP API route that adds no permission.
 * `HttpLambdaIntegration` (aws-cdk-lib 2.276 `aws-apigatewayv2-integrations`) adds the function's
 * invoke permission in the *route's* scope (`handler.addPermission(…, { scope: options.scope })`), so
 * with the function in a nested stack every route would still bring a permission to the parent
 * template; the stack declares the same permission next to the function instead (`allowApiInvoke`).
 * The integration keeps `HttpLambdaIntegration`'s construct id (`<name>Integration`), hence its logical
 * id: routes and integrations are updated in place, never recreated (a route key cannot exist twice in
 * an API, so a recreated route would collide with the old one during the update).
 */
class LambdaProxyIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
  ) {
    super(id);
  }

  override bind(): HttpRouteIntegrationConfig {
    return { type: HttpIntegrationType.AWS_PROXY, uri: this.handler.functionArn, payloadFormatVersion: PayloadFormatVersion.VERSION_2_0 };
  }
}

/**
 * The stateless stack: one Lambda function per route-table entry the stage deploys
 * ({@link stageRoutes}: no sandbox pages without the sandbox) plus the `$default` 404 function,
 * the HTTP API with stage throttling and JSON access logs, the background reconciler function
 * with its every-minute schedule and dead-letter queue, the webhook delivery function fed by the
 * table's stream (with its on-failure queue), the alarm topic, the dashboard and alarms, the canaries
 * (lib/canaries.ts), and the saved Logs Insights queries and Contributor Insights rule
 * (lib/operations-queries.ts).
 *
 * The route functions live in nested stacks, one per function group (lib/function-groups.ts): each
 * function with its role, policy, log group (`/switchyard/<stage>/api/<group>/<function>`) and invoke
 * permission, and the group's monitoring (lib/monitoring/function-group-monitoring.ts): a
 * dashboard of its functions (`Switchyard-<stage>-Functions-<group>`) and their errors and throttles
 * alarms (`Switchyard-<stage>-<group>-<function>-…`). This stack keeps what has a fixed name or must
 * stay in one place: the HTTP API, its routes and integrations (their logical ids unchanged by the
 * split, so they are updated in place), the stage dashboard and the business and background alarms
 * (fixed names: never moved between stacks), the canaries, the saved queries, the Contributor Insights
 * rule, and the background functions (the reconciler, whose named schedule is here, and webhook
 * delivery). It reads the route functions only through their ARNs (integrations), which
 * CloudFormation passes from each nested stack as outputs; the nested stacks get the API's id, the
 * alarm topic and the SSM-resolved key ARN as parameters. Sizes per template: test/infra/capacity.test.ts.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  /** The nested stack of each function group, by group name. */
  readonly functionGroups: ReadonlyMap<string, NestedStack>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const root = process.cwd();
    const webhookDeliveryEntry =
      props.webhookDeliveryEntry ?? (existsSync(resolve(root, WEBHOOK_DELIVERY.entry)) ? WEBHOOK_DELIVERY.entry : false);
    const table = TableV2.fromTableAttributes(this, 'Table', {
      tableName: props.tableName,
      globalIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((g) => g.indexName),
      // The stream ARN, from the data stack's SSM parameter, resolved by CloudFormation at deploy
      // time (only when something reads the stream).
      tableStreamArn: webhookDeliveryEntry ? StringParameter.valueForStringParameter(this, props.tableStreamArnParameterName) : undefined,
    });
    // The connector-accounts key's ARN, from the data stack's SSM parameter (resolved at deploy time,
    // once, here; CloudFormation passes it on to the nested stacks that use it as a parameter).
    const connectorAccountsKeyArn = StringParameter.valueForStringParameter(this, props.connectorAccountsKeyArnParameterName);
    const metricsNamespace = `Switchyard/${config.stage}`;
    const retention =
      RetentionDays[
        `${['ONE_WEEK', 'TWO_WEEKS', 'ONE_MONTH', 'THREE_MONTHS', 'ONE_YEAR'][[7, 14, 30, 90, 365].indexOf(config.logRetentionDays)]}` as keyof typeof RetentionDays
      ];

    const fingerprintKey = Secret.fromSecretNameV2(this, 'CardFingerprintKey', props.fingerprintSecretName);
    const connectorSecrets = Secret.fromSecretNameV2(this, 'ConnectorSecrets', props.connectorSecretsName);

    // How cdk-nag spells the table's index ARN in its finding id: unresolved tokens become <AWS::...>.
    const region = Token.isUnresolved(this.region) ? '<AWS::Region>' : this.region;
    const account = Token.isUnresolved(this.account) ? '<AWS::AccountId>' : this.account;
    const indexArnPattern = `arn:<AWS::Partition>:dynamodb:${region}:${account}:table/${props.tableName}/index/*`;

    /**
     * Each function's log group, by function name, as this stack sees it (the saved queries and the
     * Contributor Insights rule read them): a route function's by its name, known at synth time, so the
     * nested stack needs no output for it.
     */
    const logGroups = new Map<string, ILogGroup>();
    /**
     * Builds one function with the service's conventions, in `scope` (this stack or a group's nested
     * stack); see {@link FunctionSpec}. `group`: the route function's group, whose functions' log groups
     * are named under {@link apiLogGroupPrefix} (removed with the stack where the stage destroys its table,
     * like dev; retained elsewhere, as unnamed log groups are); none: a background function's log group
     * (generated name).
     */
    const makeFunction = (scope: Construct, spec: FunctionSpec, group?: string) => {
      const { name } = spec;
      const logGroupName = group === undefined ? undefined : apiFunctionLogGroupName(config.stage, group, name);
      const logGroup = new LogGroup(scope, `${name}Logs`, {
        retention,
        ...(logGroupName
          ? { logGroupName, removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY }
          : {}),
      });
      logGroups.set(name, logGroupName ? LogGroup.fromLogGroupName(this, `${name}LogGroupName`, logGroupName) : logGroup);
      const fn = new LambdaFunction(scope, name, {
        code: functionCode(root, spec.entry, spec.assets),
        handler: 'index.handler',
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: config.functionMemoryMb?.[name] ?? config.lambdaMemoryMb,
        timeout: Duration.seconds(spec.timeoutSeconds ?? config.lambdaTimeoutSeconds),
        tracing: Tracing.ACTIVE,
        logGroup,
        retryAttempts: spec.asyncRetryAttempts,
        environment: {
          TABLE_NAME: table.tableName,
          STAGE: config.stage,
          POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
          POWERTOOLS_METRICS_NAMESPACE: metricsNamespace,
          POWERTOOLS_LOG_LEVEL: 'INFO',
          // Partitions of the open-operations index (GSI5): shared/storage/item-keys.ts, docs/capacity.md.
          OPEN_INDEX_SHARDS: String(config.openIndexShards),
          // No --enable-source-maps: logged errors are mapped lazily (lib/function-runtime.ts).
          ...(FUNCTION_NODE_OPTIONS ? { NODE_OPTIONS: FUNCTION_NODE_OPTIONS } : {}),
          ...spec.environment,
        },
      });
      const tableActions = TABLE_ACTIONS[spec.access];
      if (tableActions.length) table.grant(fn, ...tableActions);
      if (spec.connectors) {
        // Processor keys and the stage's routing rules.
        fn.addEnvironment('CONNECTOR_SECRETS_ID', props.connectorSecretsName);
        fn.addEnvironment('ROUTING_RULES', JSON.stringify(config.routingRules));
        // Stages without the sandbox (prod): shared/processor-call/connector-registry.ts treats `sandbox` as not configured.
        if (!config.sandbox) fn.addEnvironment('SANDBOX_CONNECTOR_ENABLED', 'false');
        connectorSecrets.grantRead(fn);
      }
      if (spec.connectorAccountsKey) {
        // Merchants' connector account credentials: encrypted and decrypted with the stage's KMS key
        // (shared/security/credential-encryption.ts), bound to the account by the encryption context.
        fn.addEnvironment(CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE, connectorAccountsKeyArn);
        fn.addToRolePolicy(connectorAccountsKeyStatement(connectorAccountsKeyArn));
      }
      if (spec.keyedHashes) {
        // Card fingerprints and idempotency body hashes need the HMAC key.
        fn.addEnvironment('CARD_FINGERPRINT_SECRET_ID', props.fingerprintSecretName);
        fingerprintKey.grantRead(fn);
      }
      if (spec.apiKeys) {
        // The api-key check notes a key's last use, and the rate limiter leases tokens from its
        // per-second counters (shared/storage/rate-limit-repository.ts): UpdateItem on those items
        // only (leading keys APIKEY#… and RATELIMIT#…), also for functions that otherwise only read.
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*', 'RATELIMIT#*'] } },
          }),
        );
      }
      acknowledgeNagFindings(fn, [
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: "AWSLambdaBasicExecutionRole is AWS's managed policy for a function writing its own logs.",
        },
        {
          id: 'AwsSolutions-L1',
          reason:
            'Node.js 22 is the runtime chosen for this service (the LTS its toolchain targets); moving to a newer runtime is a deliberate upgrade.',
        },
        {
          id: `AwsSolutions-IAM5[Resource::${indexArnPattern}]`,
          reason: `Lists Query this table's own indexes (${TABLE_DEFINITION.globalSecondaryIndexes.map((g) => g.indexName).join(', ')}); the grant names the table and only the listed, non-wildcard actions.`,
        },
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${props.fingerprintSecretName}-??????]`,
          reason:
            'A secret imported by name is addressed with the 6-character suffix Secrets Manager appends; the grant names this one secret.',
        },
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${props.connectorSecretsName}-??????]`,
          reason:
            'A secret imported by name is addressed with the 6-character suffix Secrets Manager appends; the grant names this one secret.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'X-Ray PutTraceSegments/PutTelemetryRecords do not support resource-level permissions; AWS requires "*".',
        },
      ]);
      return fn;
    };

    // The route functions, by group: one nested stack per group (lib/function-groups.ts), the 404 in FALLBACK_GROUP.
    const routes = stageRoutes(config, props.routes);
    const groups = groupRoutes(routes, { [FALLBACK_GROUP]: 1 });
    const groupStacks = new Map<string, NestedStack>();
    for (const group of groups.keys()) {
      groupStacks.set(
        group,
        new NestedStack(this, `${group}Functions`, { description: `Switchyard ${config.stage}: ${group} functions of the HTTP API` }),
      );
    }
    this.functionGroups = groupStacks;
    const webhookRetrySchedule = config.webhookRetryScheduleSeconds.join(',');
    const functions = routes.map((route) => ({
      route,
      group: functionGroup(route),
      fn: makeFunction(
        groupStacks.get(functionGroup(route))!,
        {
          name: route.name,
          entry: route.entry,
          access: route.access,
          apiKeys: route.auth,
          keyedHashes: route.method === 'POST',
          connectors: route.connectors,
          connectorAccountsKey: usesConnectorAccountsKey(route),
          assets: route.assets,
          ...(route.environment?.length ? { environment: routeEnvironment(route.environment, { webhookRetrySchedule }) } : {}),
        },
        functionGroup(route),
      ),
    }));
    const notFound = makeFunction(
      groupStacks.get(FALLBACK_GROUP)!,
      {
        name: FALLBACK_ROUTE.name,
        entry: FALLBACK_ROUTE.entry,
        access: 'none',
        apiKeys: false,
        keyedHashes: false,
        connectors: false,
        connectorAccountsKey: false,
      },
      FALLBACK_GROUP,
    );
    // Evidence files (issue 25): each route function's own statement on the bucket's objects (filesBucketAccess).
    if (props.filesBucketName) {
      const filesObjects = this.formatArn({ service: 's3', region: '', account: '', resource: props.filesBucketName, resourceName: '*' });
      for (const { route, fn } of functions) {
        const actions = filesBucketAccess(route.name);
        if (!actions.length) continue;
        fn.addEnvironment(FILES_BUCKET_VARIABLE, props.filesBucketName);
        (fn as IGrantable).grantPrincipal.addToPrincipalPolicy(new PolicyStatement({ actions: [...actions], resources: [filesObjects] }));
        acknowledgeNagFindings(fn, [
          {
            id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::${props.filesBucketName.replace(/\$\{Token\[AWS\.AccountId\.\d+\]\}/, '<AWS::AccountId>').replace(/\$\{Token\[AWS\.Region\.\d+\]\}/, '<AWS::Region>')}/*]`,
            reason:
              "Each file is its own object, `<merchant_id>/<file_id>`: the grant names this bucket's objects and only the route's own action.",
          },
        ]);
      }
    }
    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `switchyard-${config.stage}`,
      createDefaultStage: false,
      defaultIntegration: new LambdaProxyIntegration('NotFoundIntegration', notFound),
    });
    /**
     * API Gateway's permission to invoke a route's function (`path`; none: the `$default` route), scoped
     * as HttpLambdaIntegration scopes it (source ARN `…:<api id>/*\/*<path>`: any stage and method),
     * but declared in the function's own stack: see LambdaProxyIntegration.
     */
    const allowApiInvoke = (fn: LambdaFunction, path?: string) =>
      fn.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: this.formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: `*/*${path ?? ''}` }),
      });
    allowApiInvoke(notFound);

    // The background reconciler: settles operations left open (GSI5), every minute. In this stack,
    // beside its named schedule.
    const reconciler = makeFunction(this, {
      name: RECONCILER.name,
      entry: RECONCILER.entry,
      access: 'settle',
      apiKeys: false,
      keyedHashes: true,
      connectors: true,
      connectorAccountsKey: true,
      timeoutSeconds: config.reconcilerTimeoutSeconds,
      // A failed run is not retried by Lambda: the next scheduled run, a minute later, is the retry.
      asyncRetryAttempts: 0,
      // It also sends the webhook retries that fall due, on the stage's schedule.
      environment: {
        RECONCILE_MIN_AGE_SECONDS: String(config.reconcileMinAgeSeconds),
        WEBHOOK_RETRY_SCHEDULE_SECONDS: webhookRetrySchedule,
      },
    });
    const reconcilerSchedule = new ReconcilerSchedule(this, 'ReconcilerSchedule', { fn: reconciler, stage: config.stage });

    // Webhook delivery: new event items (the outbox) from the table's stream, at least once.
    const webhookDelivery = webhookDeliveryEntry
      ? this.addWebhookDelivery(makeFunction, table, webhookDeliveryEntry, webhookRetrySchedule, config, reconciler)
      : undefined;

    // The reconciler has no request to take the public URL from: a payment's hosted step page, should a
    // sync name a new step, is built on the API's own endpoint ($default stage: no stage path).
    reconciler.addEnvironment('PUBLIC_BASE_URL', this.api.apiEndpoint);

    // The renewal worker (issue 24): its own function and schedule, so billing's volume or failures never
    // delay the reconciler's settling of open payments (and the reverse).
    const billingWorker = makeFunction(this, {
      name: BILLING_WORKER.name,
      entry: BILLING_WORKER.entry,
      access: 'settle',
      apiKeys: false,
      keyedHashes: true,
      connectors: true,
      connectorAccountsKey: true,
      timeoutSeconds: config.reconcilerTimeoutSeconds,
      asyncRetryAttempts: 0,
      environment: {
        PUBLIC_BASE_URL: this.api.apiEndpoint,
        BILLING_RETRY_DAYS: config.billing.retryDays.join(','),
        BILLING_DUNNING_FINAL: config.billing.dunningFinal,
      },
    });
    const billingSchedule = new ReconcilerSchedule(this, 'BillingSchedule', {
      fn: billingWorker,
      stage: config.stage,
      job: 'billing',
      description: 'Runs the Switchyard renewal worker: renewals, dunning retries and payment method expiry notices that fell due.',
    });
    new CfnOutput(this, 'BillingDeadLetterQueueUrl', {
      value: billingSchedule.deadLetterQueue.queueUrl,
      description: 'Renewal worker invocations EventBridge Scheduler could not deliver',
    });
    for (const { route, fn } of functions) {
      allowApiInvoke(fn, route.path);
      this.api.addRoutes({
        path: route.path,
        // An HTTP API route takes only its own method, so a public GET page gets its HEAD route too
        // (same function; shared/api/routes.ts `answersHead`), or HEAD would reach `$default`'s 404.
        methods: answersHead(route) ? [HttpMethod[route.method], HttpMethod.HEAD] : [HttpMethod[route.method]],
        integration: new LambdaProxyIntegration(`${route.name}Integration`, fn),
      });
    }
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      // The stage's limits; the account's regional API Gateway quota caps them (PROD_THROTTLE in
      // lib/config/stage-config.ts). Per-merchant limits: docs/rate-limits.md.
      throttle: config.throttle,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            method: '$context.httpMethod',
            routeKey: '$context.routeKey',
            path: '$context.path',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    acknowledgeNagFindings(this.api, [
      {
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is the api-key header checked by every handler against hashed keys in the table (see shared/http/authentication.ts); /health, /openapi.json and /docs (the API reference) are public by design.',
      },
    ]);

    const alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `Switchyard ${config.stage} alarms`, enforceSSL: true });
    acknowledgeNagFindings(alarmTopic, [
      {
        id: 'AwsSolutions-SNS2',
        reason: 'Alarm notifications carry no customer data; server-side encryption with a customer KMS key is not needed.',
      },
    ]);
    // Who is woken (issue 26): the stage's alarm destinations, read at synth (lib/config/stage-config.ts, withAlarmDestinations).
    for (const email of config.alarmDestinations.emails) alarmTopic.addSubscription(new EmailSubscription(email));
    if (config.alarmDestinations.slack)
      new SlackChannelConfiguration(this, 'AlarmSlackChannel', {
        slackChannelConfigurationName: `switchyard-${config.stage}-alarms`,
        slackWorkspaceId: config.alarmDestinations.slack.workspaceId,
        slackChannelId: config.alarmDestinations.slack.channelId,
        notificationTopics: [alarmTopic],
        // Notifications only: the channel role has no policy, and the guardrail caps what a channel member could run.
        guardrailPolicies: [ManagedPolicy.fromAwsManagedPolicyName('CloudWatchReadOnlyAccess')],
      });

    const canaries = new SyntheticChecks(this, 'SyntheticChecks', { config, apiUrl: this.api.apiEndpoint });
    // Each group's dashboard and alarms of its functions, in the group's nested stack (see FunctionGroupMonitoring).
    const groupFunctions = new Map<string, { name: string; fn: IFunction }[]>();
    for (const { route, group, fn } of functions)
      groupFunctions.set(group, [...(groupFunctions.get(group) ?? []), { name: route.name, fn }]);
    groupFunctions.set(FALLBACK_GROUP, [...(groupFunctions.get(FALLBACK_GROUP) ?? []), { name: FALLBACK_ROUTE.name, fn: notFound }]);
    const groupMonitoring = [...groupFunctions].map(
      ([group, members]) =>
        new FunctionGroupMonitoring(groupStacks.get(group)!, `${group}Monitoring`, { config, group, functions: members, alarmTopic }),
    );
    const monitoring = new ServiceMonitoring(this, 'Observability', {
      config,
      api: this.api,
      functionDashboards: groupMonitoring.map((m) => m.dashboardName),
      reconciler: { name: RECONCILER.name, fn: reconciler, deadLetterQueue: reconcilerSchedule.deadLetterQueue },
      billing: { name: BILLING_WORKER.name, fn: billingWorker, deadLetterQueue: billingSchedule.deadLetterQueue },
      // Where disputes are recorded (issue 25): the processors' webhook receivers, the dispute answers and the worker.
      disputeLogGroups: [
        ...functions
          .filter(({ route }) => route.path.startsWith('/webhooks/') || route.path.startsWith('/disputes/'))
          .map(({ route }) => logGroups.get(route.name)!),
        logGroups.get(BILLING_WORKER.name)!,
      ],
      webhookDelivery: webhookDelivery && {
        name: WEBHOOK_DELIVERY.name,
        fn: webhookDelivery.fn,
        failureQueue: webhookDelivery.failureQueue,
        workerName: WEBHOOK_DELIVERY_WORKER.name,
        worker: webhookDelivery.worker,
        workerLogGroup: logGroups.get(WEBHOOK_DELIVERY_WORKER.name)!,
        deadLetterQueue: webhookDelivery.deadLetterQueue,
      },
      table,
      alarmTopic,
      metricsNamespace,
      serviceName: SERVICE_NAME,
      connectors: stageConnectors(config),
      canaries: { health: canaries.health, sandboxPayment: canaries.sandboxPayment },
    });
    new OperationsQueries(this, 'OperationsQueries', {
      stage: config.stage,
      apiLogGroups: functions.filter(({ route }) => route.auth).map(({ route }) => logGroups.get(route.name)!),
      paymentLogGroups: functions
        .filter(({ route }) => /^\/(payments|refunds|pay|sandbox|webhooks)(\/|$)/.test(route.path))
        .map(({ route }) => logGroups.get(route.name)!),
      connectorLogGroups: functions.filter(({ route }) => route.connectors).map(({ route }) => logGroups.get(route.name)!),
      apiLogGroupPrefix: apiLogGroupPrefix(config.stage),
      backgroundLogGroups: [logGroups.get(RECONCILER.name)!],
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${monitoring.dashboardName}`,
      description: 'CloudWatch dashboard of this stage',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarmTopic.topicArn,
      description: 'SNS topic the alarms notify: subscribe on-call here',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'DynamoDB table of this stage' });
    new CfnOutput(this, 'ReconcilerDeadLetterQueueUrl', {
      value: reconcilerSchedule.deadLetterQueue.queueUrl,
      description: 'Reconciler invocations EventBridge Scheduler could not deliver (alarmed when not empty)',
    });
    if (webhookDelivery) {
      new CfnOutput(this, 'WebhookDeliveryDeadLetterQueueUrl', {
        value: webhookDelivery.deadLetterQueue.queueUrl,
        description: 'Webhook delivery messages the worker failed 5 times (the deliveries stay due in the table; alarmed when not empty)',
      });
      new CfnOutput(this, 'WebhookDeliveryFailureQueueUrl', {
        value: webhookDelivery.failureQueue.queueUrl,
        description: 'Stream records the webhook delivery function gave up on (shard and sequence ranges; alarmed when not empty)',
      });
    }
  }

  /**
   * Webhook delivery (issue 23, "Delivery isolation"): the `WebhookDelivery` function
   * ({@link WEBHOOK_DELIVERY}) on the table's stream ({@link WEBHOOK_DELIVERY_STREAM}, with an
   * on-failure SQS queue), which records deliveries and queues them; the delivery queue and its
   * dead-letter queue ({@link WEBHOOK_DELIVERY_QUEUE}); and the `WebhookDeliveryWorker` function
   * ({@link WEBHOOK_DELIVERY_WORKER}) on that queue, which sends. Queues: SSE-SQS, TLS only.
   * Grants: the worker the `deliver` table actions, read of the keyed-hash key (endpoint secrets
   * are stored encrypted under it) and consumption of the queue; the stream function no table
   * access; the stream function, the worker (its fan-outs queue deliveries) and the reconciler
   * `sqs:SendMessage` on the queue (`grantSendMessages`); the stream
   * function, through `DynamoEventSource`, stream read (`grantStreamRead`: DescribeStream,
   * GetRecords, GetShardIterator and ListStreams, on the stream's ARN only, as in the DynamoDB
   * developer guide's "IAM policy to grant read access for a DynamoDB stream only").
   */
  private addWebhookDelivery(
    makeFunction: (scope: Construct, spec: FunctionSpec) => LambdaFunction,
    table: ITableV2,
    entry: string,
    retrySchedule: string,
    config: StageConfig,
    reconciler: LambdaFunction,
  ): { fn: LambdaFunction; failureQueue: Queue; worker: LambdaFunction; queue: Queue; deadLetterQueue: Queue } {
    const q = WEBHOOK_DELIVERY_QUEUE;
    const deadLetterQueue = new Queue(this, 'WebhookDeliveryDeadLetterQueue', {
      fifo: true,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: q.deadLetterRetention,
    });
    acknowledgeNagFindings(deadLetterQueue, [
      {
        id: 'AwsSolutions-SQS3',
        reason: "This queue is itself a dead-letter queue: the webhook delivery queue's, for messages its worker failed 5 times.",
      },
    ]);
    const queue = new Queue(this, 'WebhookDeliveryQueue', {
      fifo: true,
      deduplicationScope: DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: q.visibilityTimeout,
      retentionPeriod: q.retentionPeriod,
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: q.maxReceiveCount },
    });
    const queueEnvironment = {
      WEBHOOK_DELIVERY_QUEUE_URL: queue.queueUrl,
      WEBHOOK_DELIVERY_LANES: String(config.webhookDelivery.lanes),
    };
    const fn = makeFunction(this, {
      name: WEBHOOK_DELIVERY.name,
      entry,
      // It only queues one fan-out message per event: no table access.
      access: 'none',
      apiKeys: false,
      keyedHashes: false,
      connectors: false,
      connectorAccountsKey: false,
      timeoutSeconds: WEBHOOK_DELIVERY.timeoutSeconds,
      environment: { WEBHOOK_DELIVERY_QUEUE_URL: queue.queueUrl },
    });
    const worker = makeFunction(this, {
      name: WEBHOOK_DELIVERY_WORKER.name,
      // The stream handler's own module means the real pair; a stub (tests) stands for both.
      entry: entry === WEBHOOK_DELIVERY.entry ? WEBHOOK_DELIVERY_WORKER.entry : entry,
      access: 'deliver',
      apiKeys: false,
      keyedHashes: true,
      connectors: false,
      connectorAccountsKey: false,
      timeoutSeconds: WEBHOOK_DELIVERY_WORKER.timeoutSeconds,
      // Its fan-outs queue the deliveries they make, and it moves a slow endpoint's deliveries to the
      // merchant's slow lanes: it sends to its own queue too.
      environment: {
        WEBHOOK_RETRY_SCHEDULE_SECONDS: retrySchedule,
        ...queueEnvironment,
        WEBHOOK_SLOW_DELIVERY_LANES: String(config.webhookDelivery.slowLanes),
      },
    });
    queue.grantSendMessages(fn);
    queue.grantSendMessages(worker);
    queue.grantSendMessages(reconciler);
    for (const [name, value] of Object.entries(queueEnvironment)) reconciler.addEnvironment(name, value);
    worker.addEventSource(
      new SqsEventSource(queue, {
        batchSize: q.batchSize,
        reportBatchItemFailures: true,
        maxConcurrency: config.webhookDelivery.maxConcurrency,
      }),
    );
    const failureQueue = new Queue(this, 'WebhookDeliveryFailureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: WEBHOOK_DELIVERY_STREAM.failureQueueRetention,
    });
    const queueAcknowledgements: NagAcknowledgement[] = [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is itself a dead-letter queue: the on-failure destination of the webhook delivery function's stream event source mapping (cdk-nag only recognises DLQs of SQS queues and Lambda functions).",
      },
    ];
    acknowledgeNagFindings(failureQueue, queueAcknowledgements);
    const s = WEBHOOK_DELIVERY_STREAM;
    fn.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: s.startingPosition,
        batchSize: s.batchSize,
        reportBatchItemFailures: s.reportBatchItemFailures,
        bisectBatchOnError: s.bisectBatchOnError,
        retryAttempts: s.retryAttempts,
        maxRecordAge: s.maxRecordAge,
        onFailure: new SqsDlq(failureQueue),
        filters: [...s.filters],
      }),
    );
    return { fn, failureQueue, worker, queue, deadLetterQueue };
  }
}
