import { resolve } from 'node:path';
import { CfnOutput, Duration, Stack, Token, type StackProps } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { TABLE_DEFINITION } from '../shared/storage/table-definition';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { acknowledgeNagFindings } from './nag-acknowledgements';
import { FALLBACK_ROUTE, ROUTES, type TableAccess } from '../shared/api/routes';
import type { StageConfig } from './config/stage-config';
import { ReconcilerSchedule } from './reconciler-schedule';
import { ServiceMonitoring } from './service-monitoring';

/**
 * Table access levels: the route table's (shared/api/routes.ts) plus `settle`, the background
 * reconciler's.
 */
export type TableAccessLevel = TableAccess | 'settle';

/**
 * DynamoDB actions per access level: exactly what the repositories call (no wildcards).
 * `settle` is the background reconciler's: it reads and queries (its open-operations index,
 * GSI5, included), and settles with conditional puts, updates and deletes, some inside
 * TransactWriteItems, which IAM authorizes per item action (Put/Update/Delete/ConditionCheckItem;
 * DynamoDB developer guide, "Using IAM with DynamoDB transactions"). Not to be confused with
 * `reconcile`, the API's own retrieve-with-`force_sync`.
 */
export const TABLE_ACTIONS: Readonly<Record<TableAccessLevel, readonly string[]>> = {
  read: ['dynamodb:GetItem', 'dynamodb:Query'],
  reconcile: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  write: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
  settle: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
};

/**
 * The background reconciler function: its logical name and its handler module (from the
 * repository root, exporting `handler`). Not an HTTP route; run by {@link ReconcilerSchedule}.
 */
export const RECONCILER = { name: 'Reconciler', entry: 'functions/reconciler/reconcile.ts' } as const;

/** One function of the stack, built by the stack's shared function factory. */
interface FunctionSpec {
  /** Logical name (PascalCase); its log group is `<name>Logs`. */
  name: string;
  /** Handler module from the repository root; it exports `handler`. */
  entry: string;
  /** Table actions granted ({@link TABLE_ACTIONS}), or none. */
  access: TableAccessLevel | 'none';
  /** Whether it checks `api-key` headers (may note a key's last use on `APIKEY#` items). */
  apiKeys: boolean;
  /** Whether it computes keyed hashes (gets `CARD_FINGERPRINT_SECRET_ID` and read on that secret). */
  keyedHashes: boolean;
  /** Whether it calls connectors (gets `CONNECTOR_SECRETS_ID`, `ROUTING_RULES` and read on that secret). */
  connectors: boolean;
  /** Timeout in seconds; default the stage's `lambdaTimeoutSeconds`. */
  timeoutSeconds?: number;
  /** Lambda's retries of a failed asynchronous invocation (0–2); default Lambda's (2). */
  asyncRetryAttempts?: number;
  /** Environment added to the common one. */
  environment?: Record<string, string>;
}

const SERVICE_NAME = 'switchyard';

/** Props of {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  config: StageConfig;
  /** Name of the stage's table (from the data stack); imported by name so no CloudFormation export ties the stacks. */
  tableName: string;
  /** Name of the secret holding the keyed-hash key (from the data stack). */
  fingerprintSecretName: string;
  /** Name of the secret holding the processors' keys (from the data stack). */
  connectorSecretsName: string;
}

/**
 * The stateless stack: one NodejsFunction per route-table entry (plus the
 * `$default` 404 function), the HTTP API with stage throttling and JSON access
 * logs, the background reconciler function with its every-minute schedule and
 * dead-letter queue, the alarm topic, and the dashboard and alarms.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const table = TableV2.fromTableAttributes(this, 'Table', {
      tableName: props.tableName,
      globalIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((g) => g.indexName),
    });
    const root = process.cwd();
    const metricsNamespace = `Switchyard/${config.stage}`;
    const retention = RetentionDays[`${['ONE_WEEK', 'TWO_WEEKS', 'ONE_MONTH', 'THREE_MONTHS', 'ONE_YEAR'][[7, 14, 30, 90, 365].indexOf(config.logRetentionDays)]}` as keyof typeof RetentionDays];

    const fingerprintKey = Secret.fromSecretNameV2(this, 'CardFingerprintKey', props.fingerprintSecretName);
    const connectorSecrets = Secret.fromSecretNameV2(this, 'ConnectorSecrets', props.connectorSecretsName);

    // How cdk-nag spells the table's index ARN in its finding id: unresolved tokens become <AWS::...>.
    const region = Token.isUnresolved(this.region) ? '<AWS::Region>' : this.region;
    const account = Token.isUnresolved(this.account) ? '<AWS::AccountId>' : this.account;
    const indexArnPattern = `arn:<AWS::Partition>:dynamodb:${region}:${account}:table/${props.tableName}/index/*`;

    /** Builds one function with the service's conventions; see {@link FunctionSpec}. */
    const makeFunction = (spec: FunctionSpec) => {
      const { name } = spec;
      const logGroup = new LogGroup(this, `${name}Logs`, { retention });
      const fn = new NodejsFunction(this, name, {
        entry: resolve(root, spec.entry),
        handler: 'handler',
        projectRoot: root,
        depsLockFilePath: resolve(root, 'package-lock.json'),
        runtime: Runtime.NODEJS_22_X,
        architecture: Architecture.ARM_64,
        memorySize: config.lambdaMemoryMb,
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
          NODE_OPTIONS: '--enable-source-maps',
          ...spec.environment,
        },
        bundling: {
          minify: true,
          sourceMap: true,
          format: OutputFormat.ESM,
          target: 'node22',
          mainFields: ['module', 'main'],
          bundleAwsSDK: true,
          // ESM bundles still meet CommonJS dependencies that call require().
          banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
        },
      });
      if (spec.access !== 'none') table.grant(fn, ...TABLE_ACTIONS[spec.access]);
      if (spec.connectors) {
        // Processor keys and the stage's routing rules.
        fn.addEnvironment('CONNECTOR_SECRETS_ID', props.connectorSecretsName);
        fn.addEnvironment('ROUTING_RULES', JSON.stringify(config.routingRules));
        connectorSecrets.grantRead(fn);
      }
      if (spec.keyedHashes) {
        // Card fingerprints and idempotency body hashes need the HMAC key.
        fn.addEnvironment('CARD_FINGERPRINT_SECRET_ID', props.fingerprintSecretName);
        fingerprintKey.grantRead(fn);
      }
      if (spec.apiKeys) {
        // The api-key check notes a key's last use: UpdateItem on API-key items only (leading key APIKEY#…).
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['APIKEY#*'] } },
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
          reason: 'Node.js 22 is the runtime chosen for this service (the LTS its toolchain targets); moving to a newer runtime is a deliberate upgrade.',
        },
        {
          id: `AwsSolutions-IAM5[Resource::${indexArnPattern}]`,
          reason: `Lists Query this table's own indexes (${TABLE_DEFINITION.globalSecondaryIndexes.map((g) => g.indexName).join(', ')}); the grant names the table and only the listed, non-wildcard actions.`,
        },
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${props.fingerprintSecretName}-??????]`,
          reason: 'A secret imported by name is addressed with the 6-character suffix Secrets Manager appends; the grant names this one secret.',
        },
        {
          id: `AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:secretsmanager:${region}:${account}:secret:${props.connectorSecretsName}-??????]`,
          reason: 'A secret imported by name is addressed with the 6-character suffix Secrets Manager appends; the grant names this one secret.',
        },
        {
          id: 'AwsSolutions-IAM5[Resource::*]',
          reason: 'X-Ray PutTraceSegments/PutTelemetryRecords do not support resource-level permissions; AWS requires "*".',
        },
      ]);
      return fn;
    };

    const functions = ROUTES.map((route) => ({
      route,
      fn: makeFunction({ name: route.name, entry: route.entry, access: route.access, apiKeys: route.auth, keyedHashes: route.method === 'POST', connectors: route.connectors }),
    }));
    const notFound = makeFunction({ name: FALLBACK_ROUTE.name, entry: FALLBACK_ROUTE.entry, access: 'none', apiKeys: false, keyedHashes: false, connectors: false });

    // The background reconciler: settles operations left open (GSI5), every minute.
    const reconciler = makeFunction({
      name: RECONCILER.name,
      entry: RECONCILER.entry,
      access: 'settle',
      apiKeys: false,
      keyedHashes: true,
      connectors: true,
      timeoutSeconds: config.reconcilerTimeoutSeconds,
      // A failed run is not retried by Lambda: the next scheduled run, a minute later, is the retry.
      asyncRetryAttempts: 0,
      environment: { RECONCILE_MIN_AGE_SECONDS: String(config.reconcileMinAgeSeconds) },
    });
    const reconcilerSchedule = new ReconcilerSchedule(this, 'ReconcilerSchedule', { fn: reconciler, stage: config.stage });

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `switchyard-${config.stage}`,
      createDefaultStage: false,
      defaultIntegration: new HttpLambdaIntegration('NotFoundIntegration', notFound),
    });
    for (const { route, fn } of functions) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${route.name}Integration`, fn),
      });
    }
    const accessLogs = new LogGroup(this, 'AccessLogs', { retention });
    const stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
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
      { id: 'AwsSolutions-APIG4', reason: 'Authorization is the api-key header checked by every handler against hashed keys in the table (see shared/http/authentication.ts); /health is public by design.' },
    ]);

    const alarmTopic = new Topic(this, 'AlarmTopic', { displayName: `Switchyard ${config.stage} alarms`, enforceSSL: true });
    acknowledgeNagFindings(alarmTopic, [
      { id: 'AwsSolutions-SNS2', reason: 'Alarm notifications carry no customer data; server-side encryption with a customer KMS key is not needed.' },
    ]);

    const monitoring = new ServiceMonitoring(this, 'Observability', {
      config,
      api: this.api,
      functions: [...functions.map(({ route, fn }) => ({ name: route.name, fn })), { name: FALLBACK_ROUTE.name, fn: notFound }],
      reconciler: { name: RECONCILER.name, fn: reconciler, deadLetterQueue: reconcilerSchedule.deadLetterQueue },
      table,
      alarmTopic,
      metricsNamespace,
      serviceName: SERVICE_NAME,
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${monitoring.dashboardName}`,
      description: 'CloudWatch dashboard of this stage',
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarmTopic.topicArn, description: 'SNS topic the alarms notify: subscribe on-call here' });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'DynamoDB table of this stage' });
    new CfnOutput(this, 'ReconcilerDeadLetterQueueUrl', {
      value: reconcilerSchedule.deadLetterQueue.queueUrl,
      description: 'Reconciler invocations EventBridge Scheduler could not deliver (alarmed when not empty)',
    });
  }
}
