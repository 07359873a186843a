import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { type Attribute, AttributeType, Billing, StreamViewType, TableEncryptionV2, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { type KeyAttribute, TABLE_DEFINITION } from '../shared/storage/table-definition';
import type { StageConfig } from './config/stage-config';
import { acknowledgeNagFindings } from './nag-acknowledgements';

const attribute = (k: KeyAttribute): Attribute => ({ name: k.name, type: k.type === 'S' ? AttributeType.STRING : AttributeType.NUMBER });

/**
 * Name of the SSM parameter (String) holding the table's stream ARN, `/switchyard/<stage>/table-stream-arn`.
 * The data stack writes it; the API stack reads it at deploy time (see {@link DataStack}).
 */
export const tableStreamArnParameterName = (stage: string) => `/switchyard/${stage}/table-stream-arn`;

/**
 * Name of the SSM parameter (String) holding the key ARN of the stage's connector-accounts KMS key,
 * `/switchyard/<stage>/connector-accounts-kms-key-arn`: written by the data stack, resolved by the API
 * stack at deploy time, like {@link tableStreamArnParameterName}.
 */
export const connectorAccountsKeyArnParameterName = (stage: string) => `/switchyard/${stage}/connector-accounts-kms-key-arn`;

/** Alias of the stage's connector-accounts KMS key (for operators and CloudTrail; the functions use the key ARN). */
export const connectorAccountsKeyAlias = (stage: string) => `alias/switchyard-${stage}/connector-accounts`;

/**
 * The evidence files bucket (shared/storage/file-store.ts): how long objects are kept, in days. Equal to
 * shared/domain/file.ts `FILE_RETENTION_DAYS` (the files' `expires_at`, the metadata items' TTL): longer than
 * Stripe keeps `dispute_evidence` files (9 months, Stripe "File upload guide"), so evidence outlives a dispute
 * through pre-arbitration. Incomplete multipart uploads (the SDK's, never used for files of 4 MiB) are aborted
 * after a day; server access logs are kept as long as the files.
 */
export const FILES_BUCKET_LIFECYCLE = { expirationDays: 400, abortIncompleteMultipartUploadDays: 1, accessLogDays: 400 } as const;

/** Props of {@link DataStack}. */
export interface DataStackProps extends StackProps {
  config: StageConfig;
}

/**
 * The stateful stack: the single DynamoDB table, declared from the shared
 * table definition (keys, indexes, TTL). On-demand billing, point-in-time
 * recovery, AWS-managed encryption; RETAIN and deletion protection per stage. Also the stage's
 * secrets and the customer-managed KMS key of connector account credentials (its ARN in the SSM
 * parameter {@link connectorAccountsKeyArnParameterName}).
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
  /**
   * The customer-managed KMS key that wraps merchant connector accounts' processor credentials
   * (shared/security/credential-encryption.ts: AWS Encryption SDK, KMS keyring with this key as generator).
   */
  readonly connectorAccountsKey: Key;
  /** Name of the SSM parameter holding that key's ARN ({@link connectorAccountsKeyArnParameterName}). */
  readonly connectorAccountsKeyArnParameterName: string;
  /** The private bucket of uploaded files' bytes (dispute evidence; see {@link FILES_BUCKET_LIFECYCLE}). */
  readonly filesBucket: Bucket;
  /**
   * Its name, `switchyard-<stage>-files-<account>-<region>` (bucket names are global): known without a
   * CloudFormation export (the account and region are the API stack's own pseudo parameters), like the table's.
   */
  readonly filesBucketName: string;

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
    // The connector-accounts key: stateful like the table (what it wrapped is unreadable without it),
    // so RETAIN where the table is retained (prod); on a stage that destroys its table, deleting the stack
    // schedules the key's deletion (KMS waits the pending window, 30 days by default, before deleting).
    // Automatic rotation (yearly by default) keeps the key ARN and decrypts what older key material
    // wrapped, so stored credentials need no re-encryption (KMS developer guide, "Rotate AWS KMS keys";
    // aws-cdk-lib 2.276 `aws-kms` `KeyProps.enableKeyRotation`). The default key policy lets the account's
    // IAM policies grant use of the key, so each function's role gets exactly its own statement
    // (lib/functions/connector-accounts-key.ts, CONNECTOR_ACCOUNTS_KEY_ACTIONS) and nothing else can use it.
    this.connectorAccountsKey = new Key(this, 'ConnectorAccountsKey', {
      description: `Switchyard ${config.stage}: wraps merchant connector accounts' processor credentials (AWS Encryption SDK data keys)`,
      enableKeyRotation: true,
      alias: connectorAccountsKeyAlias(config.stage),
      removalPolicy: config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    this.connectorAccountsKeyArnParameterName = connectorAccountsKeyArnParameterName(config.stage);
    new StringParameter(this, 'ConnectorAccountsKeyArnParameter', {
      parameterName: this.connectorAccountsKeyArnParameterName,
      description: `Key ARN of the KMS key of connector account credentials (read by the Switchyard ${config.stage} API stack at deploy time)`,
      stringValue: this.connectorAccountsKey.keyArn,
    });
    new CfnOutput(this, 'ConnectorAccountsKeyArn', {
      value: this.connectorAccountsKey.keyArn,
      description: 'KMS key wrapping connector account credentials',
    });
    // Evidence files: private, SSE-S3, TLS only, no versions (a file is written once and never
    // replaced; a deleted one must be gone), expired after FILES_BUCKET_LIFECYCLE.expirationDays. Stateful
    // like the table: retained where the table is. Its server access logs go to a second private bucket
    // (cdk-nag AwsSolutions-S1), delivered under a bucket policy for logging.s3.amazonaws.com (the feature
    // flag below, set on this scope only: no ACLs on either bucket).
    const files = new Construct(this, 'Files');
    files.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const removalPolicy = config.tableRemoval === 'RETAIN' ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const privateBucket = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      versioned: false,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy,
    } as const;
    const accessLogs = new Bucket(files, 'AccessLogsBucket', {
      ...privateBucket,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(FILES_BUCKET_LIFECYCLE.accessLogDays) }],
    });
    acknowledgeNagFindings(accessLogs, [
      {
        id: 'AwsSolutions-S1',
        reason: 'This bucket holds the evidence files bucket’s server access logs; logging it too would log the logs.',
      },
    ]);
    this.filesBucketName = `switchyard-${config.stage}-files-${this.account}-${this.region}`;
    this.filesBucket = new Bucket(files, 'Bucket', {
      ...privateBucket,
      bucketName: this.filesBucketName,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'files/',
      lifecycleRules: [
        {
          id: 'expire-files',
          expiration: Duration.days(FILES_BUCKET_LIFECYCLE.expirationDays),
          abortIncompleteMultipartUploadAfter: Duration.days(FILES_BUCKET_LIFECYCLE.abortIncompleteMultipartUploadDays),
        },
      ],
    });
    new CfnOutput(this, 'FilesBucketName', { value: this.filesBucket.bucketName, description: 'Private bucket of dispute evidence files' });
    new CfnOutput(this, 'ConnectorSecretsName', { value: this.connectorSecretsName, description: 'Put the processor keys here (JSON)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'DynamoDB table of this stage' });
  }
}
