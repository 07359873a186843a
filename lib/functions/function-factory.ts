import { Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import { type ITableV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Function as LambdaFunction, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { type ILogGroup, LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { TABLE_DEFINITION } from '../../shared/storage/table-definition';
import type { StageConfig } from '../config/stage-config';
import { apiFunctionLogGroupName } from '../function-groups';
import { FUNCTION_NODE_OPTIONS } from '../function-runtime';
import { acknowledgeNagFindings } from '../nag-acknowledgements';
import { CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE, connectorAccountsKeyStatement } from './connector-accounts-key';
import { functionCode } from './function-code';
import { TABLE_ACTIONS, type TableAccessLevel } from './table-access';

/** The service name every function logs and traces under (Powertools `POWERTOOLS_SERVICE_NAME`). */
export const SERVICE_NAME = 'switchyard';

/** One function of the stack, built by {@link FunctionFactory.makeFunction}. */
export interface FunctionSpec {
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

/** Props of {@link FunctionFactory}: the stage and what the data stack made, by name. */
export interface FunctionFactoryProps {
  config: StageConfig;
  /** The repository root: handler modules and assets are named from it. */
  root: string;
  /** Name of the stage's table; imported by name so no CloudFormation export ties the stacks. */
  tableName: string;
  /** Name of the secret holding the keyed-hash key. */
  fingerprintSecretName: string;
  /** Name of the secret holding the processors' keys. */
  connectorSecretsName: string;
  /**
   * Name of the SSM parameter holding the table's stream ARN, when a function reads the stream
   * (webhook delivery); absent: the imported table has no stream ARN and the template no parameter for it.
   */
  tableStreamArnParameterName?: string;
  /** Name of the SSM parameter holding the key ARN of the connector-accounts KMS key. */
  connectorAccountsKeyArnParameterName: string;
}

/**
 * The function factory of the API stack: what every function of the stage is built from, and
 * {@link FunctionFactory.makeFunction}, which builds one with the service's conventions (Node.js 22 on
 * arm64, X-Ray tracing, the common environment, its own log group, the grants its {@link FunctionSpec}
 * names, the cdk-nag findings every function shares acknowledged on it). It holds the data stack's
 * resources imported by name (the table, with its stream ARN when something reads the stream; the
 * keyed-hash and processor-key secrets), the connector-accounts key ARN (SSM-resolved at deploy time,
 * once, in the stack; CloudFormation passes it on to the nested stacks that use it as a parameter),
 * and each function's log group by function name ({@link FunctionFactory.logGroups}).
 *
 * It declares nothing of its own: the imports, the SSM parameters and the log groups' references are
 * declared in its stack, and each function in the scope it is made in, so that their logical ids
 * are those the stack has always given them (a deploy updates them in place).
 */
export class FunctionFactory extends Construct {
  /** The stage's table, imported by name (with its stream ARN when the factory was given its parameter). */
  readonly table: ITableV2;
  /** How long every function's logs are kept (the stage's `logRetentionDays`); the API's access logs too. */
  readonly retention: RetentionDays;
  /** CloudWatch namespace of the business metrics (Powertools Metrics): `Switchyard/<stage>`. */
  readonly metricsNamespace: string;
  private readonly props: FunctionFactoryProps;
  private readonly connectorAccountsKeyArn: string;
  private readonly fingerprintKey: ISecret;
  private readonly connectorSecrets: ISecret;
  private readonly indexArnPattern: string;
  private readonly region: string;
  private readonly account: string;
  private readonly functionLogGroups = new Map<string, ILogGroup>();

  constructor(scope: Stack, id: string, props: FunctionFactoryProps) {
    super(scope, id);
    const { config } = props;
    this.props = props;
    this.table = TableV2.fromTableAttributes(scope, 'Table', {
      tableName: props.tableName,
      globalIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((g) => g.indexName),
      // The stream ARN, from the data stack's SSM parameter, resolved by CloudFormation at deploy
      // time (only when something reads the stream).
      tableStreamArn: props.tableStreamArnParameterName
        ? StringParameter.valueForStringParameter(scope, props.tableStreamArnParameterName)
        : undefined,
    });
    this.connectorAccountsKeyArn = StringParameter.valueForStringParameter(scope, props.connectorAccountsKeyArnParameterName);
    this.metricsNamespace = `Switchyard/${config.stage}`;
    this.retention =
      RetentionDays[
        `${['ONE_WEEK', 'TWO_WEEKS', 'ONE_MONTH', 'THREE_MONTHS', 'ONE_YEAR'][[7, 14, 30, 90, 365].indexOf(config.logRetentionDays)]}` as keyof typeof RetentionDays
      ];
    this.fingerprintKey = Secret.fromSecretNameV2(scope, 'CardFingerprintKey', props.fingerprintSecretName);
    this.connectorSecrets = Secret.fromSecretNameV2(scope, 'ConnectorSecrets', props.connectorSecretsName);
    // How cdk-nag spells the table's index ARN in its finding id: unresolved tokens become <AWS::...>.
    this.region = Token.isUnresolved(scope.region) ? '<AWS::Region>' : scope.region;
    this.account = Token.isUnresolved(scope.account) ? '<AWS::AccountId>' : scope.account;
    this.indexArnPattern = `arn:<AWS::Partition>:dynamodb:${this.region}:${this.account}:table/${props.tableName}/index/*`;
  }

  /**
   * Each function's log group, by function name, as the stack sees it (the saved queries and the
   * Contributor Insights rules read them): a route function's by its name, known at synth time, so the
   * nested stack needs no output for it.
   */
  get logGroups(): ReadonlyMap<string, ILogGroup> {
    return this.functionLogGroups;
  }

  /**
   * Builds one function with the service's conventions, in `scope` (the stack or a group's nested
   * stack); see {@link FunctionSpec}.
   * @param group the route function's group, whose functions' log groups are named under
   *   `apiLogGroupPrefix` (lib/function-groups.ts; removed with the stack where the stage destroys its table, like dev;
   *   retained elsewhere, as unnamed log groups are); none: a background function's log group (generated name)
   * @returns the function, its grants and environment in place
   */
  makeFunction(scope: Construct, spec: FunctionSpec, group?: string): LambdaFunction {
    const props = this.props;
    const { config } = props;
    const { table, region, account } = this;
    const stack = Stack.of(this);
    const { name } = spec;
    const logGroupName = group === undefined ? undefined : apiFunctionLogGroupName(config.stage, group, name);
    const logGroup = new LogGroup(scope, `${name}Logs`, {
      retention: this.retention,
      ...(logGroupName
        ? { logGroupName, removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY }
        : {}),
    });
    this.functionLogGroups.set(name, logGroupName ? LogGroup.fromLogGroupName(stack, `${name}LogGroupName`, logGroupName) : logGroup);
    const fn = new LambdaFunction(scope, name, {
      code: functionCode(props.root, spec.entry, spec.assets),
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
        POWERTOOLS_METRICS_NAMESPACE: this.metricsNamespace,
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
      this.connectorSecrets.grantRead(fn);
    }
    if (spec.connectorAccountsKey) {
      // Merchants' connector account credentials: encrypted and decrypted with the stage's KMS key
      // (shared/security/credential-encryption.ts), bound to the account by the encryption context.
      fn.addEnvironment(CONNECTOR_ACCOUNTS_KEY_ARN_VARIABLE, this.connectorAccountsKeyArn);
      fn.addToRolePolicy(connectorAccountsKeyStatement(this.connectorAccountsKeyArn));
    }
    if (spec.keyedHashes) {
      // Card fingerprints and idempotency body hashes need the HMAC key.
      fn.addEnvironment('CARD_FINGERPRINT_SECRET_ID', props.fingerprintSecretName);
      this.fingerprintKey.grantRead(fn);
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
        id: `AwsSolutions-IAM5[Resource::${this.indexArnPattern}]`,
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
  }
}
