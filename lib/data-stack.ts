import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { type Attribute, AttributeType, Billing, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { type KeyAttribute, TABLE_DEFINITION } from '../shared/storage/table-definition';
import type { StageConfig } from './config/stage-config';
import { acknowledgeNagFindings } from './nag-acknowledgements';

const attribute = (k: KeyAttribute): Attribute => ({ name: k.name, type: k.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER });

/**
 * Name of the SSM parameter (String) holding the table's stream ARN, `/switchyard/<stage>/table-stream-arn`.
 * The data stack writes it; the API stack reads it at deploy time (see {@link DataStack}).
 */
export const tableStreamArnParameterName = (stage: string) => `/switchyard/${stage}/table-stream-arn`;

/** Props of {@link DataStack}. */
export interface DataStackProps extends StackProps {
  config: StageConfig;
}

/**
 * The stateful stack: the single DynamoDB table, declared from the shared
 * table definition (keys, indexes, TTL). On-demand billing, point-in-time
 * recovery, AWS-managed encryption; RETAIN and deletion protection per stage.
 *
 * DynamoDB Streams is on with `NEW_IMAGE` records (TableV2 `dynamoStream`; aws-cdk-lib 2.276.0
 * `TablePropsV2.dynamoStream`, `StreamViewType`): the webhook delivery function reads new `event`
 * items (the outbox) from it. The stream's ARN (`arn:…:table/<name>/stream/<timestamp label>`)
 * cannot be derived from the table name, so the stack writes it to the SSM parameter
 * {@link tableStreamArnParameterName} (and a `TableStreamArn` output). The API stack resolves that
 * parameter at deploy time (`StringParameter.valueForStringParameter`, a CloudFormation parameter
 * of type `AWS::SSM::Parameter::Value<String>`) instead of importing a CloudFormation export: no
 * `Fn::ImportValue` locks the stream in this stack, so either stack deploys on its own, and a
 * changed stream (stream turned off and on, view type changed) reaches the API stack on its next
 * deploy. Turning the stream on is an in-place update ("No interruption"), and stream settings
 * can be changed only while the global table has a single replica, as this one has
 * (CloudFormation template reference, `AWS::DynamoDB::GlobalTable` `StreamSpecification`).
 */
export class DataStack extends Stack {
  /** The table every function reads and writes. */
  readonly table: TableV2;
  /** The table's physical name, `switchyard-<stage>`. */
  readonly tableName: string;
  /** Name of the Secrets Manager secret holding the key of keyed hashes (card fingerprints). */
  readonly fingerprintSecretName: string;
  /** Name of the Secrets Manager secret holding the processors' keys (JSON: PAYSTACK_SECRET_KEY, STRIPE_SECRET_KEY, …). */
  readonly connectorSecretsName: string;
  /** Name of the SSM parameter holding the table's stream ARN ({@link tableStreamArnParameterName}). */
  readonly tableStreamArnParameterName: string;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { config } = props;
    this.tableName = `switchyard-${config.stage}`;
    this.table = new TableV2(this, 'Table', {
      tableName: this.tableName,
      partitionKey: attribute(TABLE_DEFINITION.partitionKey),
      sortKey: attribute(TABLE_DEFINITION.sortKey),
      globalSecondaryIndexes: TABLE_DEFINITION.globalSecondaryIndexes.map((g) => ({
        indexName: g.indexName,
        partitionKey: attribute(g.partitionKey),
        sortKey: attribute(g.sortKey),
      })),
      timeToLiveAttribute: TABLE_DEFINITION.timeToLiveAttribute,
      // Webhook delivery reads new event items from the stream (only the new image is needed).
      dynamoStream: StreamViewType.NEW_IMAGE,
      billing: Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryptionV2.awsManagedKey(),
      deletionProtection: config.tableDeletionProtection,
      removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledgeNagFindings(this.table, [
      { id: 'AwsSolutions-DDB3', reason: 'Point-in-time recovery is enabled through pointInTimeRecoverySpecification (TableV2).' },
    ]);
    // The key of card fingerprints and idempotency body hashes: generated once, never in code.
    // Stateful like the table: replacing it would change every fingerprint.
    this.fingerprintSecretName = `switchyard-${config.stage}/card-fingerprint-key`;
    const fingerprintKey = new Secret(this, 'CardFingerprintKey', {
      secretName: this.fingerprintSecretName,
      description: 'HMAC key for card fingerprints and idempotency body hashes (PCI DSS 3.5.1.1 keyed hashes)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledgeNagFindings(fingerprintKey, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'Rotating the fingerprint key would change every stored card fingerprint; it is rotated deliberately with a re-fingerprinting job, not on a schedule.',
      },
    ]);
    // The processors' keys: created empty here, filled by an operator (never in code or templates).
    this.connectorSecretsName = `switchyard-${config.stage}/connectors`;
    const connectorSecrets = new Secret(this, 'ConnectorSecrets', {
      secretName: this.connectorSecretsName,
      description:
        'Processor keys as JSON: PAYSTACK_SECRET_KEY, FLUTTERWAVE_SECRET_KEY, FLUTTERWAVE_ENCRYPTION_KEY, FLUTTERWAVE_WEBHOOK_HASH, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET',
      generateSecretString: { secretStringTemplate: '{}', generateStringKey: 'unused', excludePunctuation: true },
      removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    acknowledgeNagFindings(connectorSecrets, [
      {
        id: 'AwsSolutions-SMG4',
        reason:
          "Processor keys are rotated in the processors' dashboards and then written here by an operator; Secrets Manager cannot rotate them itself.",
      },
    ]);
    // The stream's ARN for the API stack, without a CloudFormation export (see the class comment).
    this.tableStreamArnParameterName = tableStreamArnParameterName(config.stage);
    new StringParameter(this, 'TableStreamArnParameter', {
      parameterName: this.tableStreamArnParameterName,
      description: `Stream ARN of the DynamoDB table ${this.tableName} (read by the Switchyard ${config.stage} API stack at deploy time)`,
      stringValue: this.table.tableStreamArn!,
    });
    new CfnOutput(this, 'TableStreamArn', {
      value: this.table.tableStreamArn!,
      description: 'DynamoDB stream of the table (feeds webhook delivery)',
    });
    new CfnOutput(this, 'ConnectorSecretsName', { value: this.connectorSecretsName, description: 'Put the processor keys here (JSON)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'DynamoDB table of this stage' });
  }
}
