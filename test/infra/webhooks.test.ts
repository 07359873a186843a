import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RECONCILER } from '../../lib/background/background-work';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS, STAGES } from '../../lib/config/stage-config';
import { tableStreamArnParameterName } from '../../lib/data-stack';
import {
  WEBHOOK_DELIVERY,
  WEBHOOK_DELIVERY_QUEUE,
  WEBHOOK_DELIVERY_STREAM,
  WEBHOOK_DELIVERY_WORKER,
} from '../../lib/delivery/webhook-delivery';
import { TABLE_ACTIONS } from '../../lib/functions/table-access';
import { WEBHOOK_ITERATOR_AGE_ALARM_MS } from '../../lib/monitoring/background-functions-section';
import { RUNBOOK } from '../../lib/monitoring/runbooks';
import { WEBHOOK_DELIVERY_OUTCOMES, WEBHOOK_METRICS } from '../../lib/monitoring/webhooks-section';
import { buildApp } from '../../lib/switchyard-app';
import { FAN_OUT_LANES } from '../../shared/webhooks/delivery-queue';
import { DEFAULT_DELIVERY_TIMEOUT_MS, WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE } from '../../shared/webhooks/delivery-settings';
import {
  functionId,
  type Resource,
  stageDashboard,
  synthStage,
  WEBHOOK_DELIVERY_STUB_ENTRY,
  webhookDeliveryHandlerExists,
} from './synth-stage';

/**
 * Webhook delivery in the stacks, per stage: the table's stream (data stack) and how the API
 * stack finds it without a CloudFormation export; the WebhookDelivery function (on the stream: queues
 * each new event for fan-out), its least-privilege role, its stream event source
 * mapping (filter, partial batch failures, bounded retries, on-failure queue); the delivery queue
 * (SQS FIFO, high throughput per message group) and its dead-letter queue; the WebhookDeliveryWorker
 * function (fans events out and sends), its least-privilege role and its queue event source mapping (stage maximum
 * concurrency); the reconciler's retry schedule and its hand-over to the queue; the "Webhooks"
 * dashboard section and alarms, with the per-merchant failed-attempts Contributor Insights rule.
 * The functions are built from the real handler modules when they exist, else from a stub
 * (synth-stage.ts): the templates are otherwise the same.
 */

const FIVE_MINUTES = 300;

/** A dashboard widget, as far as these tests read it. */
type Widget = { type: string; properties: { title?: string; markdown?: string; metrics?: unknown[] } };

/** An IAM policy statement, as far as these tests read it. */
type Statement = { Effect?: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** A statement's actions as a list. */
const actionsOf = (s: Statement): string[] => [s.Action].flat();

test('stage defaults: the delivery code retry schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h ×7: about 3 days); open-delivery alarm one hour past it', () => {
  expect(DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000, 36000, 36000, 36000, 36000, 36000]);
  const total = DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0);
  expect(total).toBeGreaterThan(3 * 24 * 3600);
  for (const config of Object.values(STAGES)) {
    expect(config.webhookRetryScheduleSeconds).toEqual(DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS);
    expect(config.alarms.undeliveredEventMaxAgeSeconds).toBe(total + 3600);
  }
});

describe.each(['dev', 'prod'])('%s stage', (stage) => {
  const t = synthStage(stage);
  const config = STAGES[stage]!;
  const api = t.api.toJSON();
  const resources = api.Resources as Record<string, Resource>;
  const fnId = functionId(t.api, WEBHOOK_DELIVERY.name);
  const fn = resources[fnId]!;
  const workerId = functionId(t.api, WEBHOOK_DELIVERY_WORKER.name);
  const worker = resources[workerId]!;
  const reconcilerId = functionId(t.api, RECONCILER.name);
  const policies = Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[];
  const roleOf = (id: string) => resources[id]!.Properties.Role['Fn::GetAtt'][0] as string;
  /** Every statement of the policies attached to a role. */
  const statementsOfRole = (role: string): Statement[] =>
    policies
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
  const roleId = roleOf(fnId);
  const statements = statementsOfRole(roleId);
  const workerStatements = statementsOfRole(roleOf(workerId));
  /** The one queue whose logical id is `name` followed by CDK's 8-digit hash. */
  const queueIdOf = (name: string) => {
    const ids = Object.keys(t.api.findResources('AWS::SQS::Queue')).filter((id) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id));
    expect(ids).toHaveLength(1);
    return ids[0]!;
  };
  const queueId = queueIdOf('WebhookDeliveryFailureQueue');
  const deliveryQueueId = queueIdOf('WebhookDeliveryQueue');
  const deadLetterQueueId = queueIdOf('WebhookDeliveryDeadLetterQueue');
  const mappings = t.api.findResources('AWS::Lambda::EventSourceMapping') as Record<string, Resource>;
  /** The one event source mapping of a function. */
  const mappingOf = (id: string) => {
    const found = Object.values(mappings).filter((m) => m.Properties.FunctionName?.Ref === id);
    expect(found).toHaveLength(1);
    return found[0]!.Properties;
  };
  const workerLogGroupId = worker.Properties.LoggingConfig.LogGroup.Ref as string;
  const ruleName = `switchyard-${stage}-merchants-by-failed-webhook-attempts`;
  const streamParameterId = Object.keys(api.Parameters).find((id) => /^SsmParameterValue.*tablestreamarn/i.test(id))!;
  const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  const alarmResourceNamed = (name: string) => {
    const found = alarms.filter((a) => a.Properties.AlarmName === `Switchyard-${stage}-${name}`);
    expect(found).toHaveLength(1);
    return found[0]! as Resource & { DependsOn?: string[] };
  };
  const alarmNamed = (name: string) => alarmResourceNamed(name).Properties;
  const topicId = Object.keys(t.api.findResources('AWS::SNS::Topic'))[0]!;

  test('data stack: the table streams NEW_IMAGE records, and its stream ARN is in an SSM parameter and an output', () => {
    t.data.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      TableName: `switchyard-${stage}`,
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
    const tableId = Object.keys(t.data.findResources('AWS::DynamoDB::GlobalTable'))[0]!;
    // Two parameters: this one and the connector-accounts key's ARN (stacks.test.ts).
    t.data.resourceCountIs('AWS::SSM::Parameter', 2);
    t.data.hasResourceProperties('AWS::SSM::Parameter', {
      Name: `/switchyard/${stage}/table-stream-arn`,
      Type: 'String',
      Value: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
    });
    expect(tableStreamArnParameterName(stage)).toBe(`/switchyard/${stage}/table-stream-arn`);
    t.data.hasOutput('TableStreamArn', { Value: { 'Fn::GetAtt': [tableId, 'StreamArn'] } });
  });

  test('the API stack resolves the stream ARN from that SSM parameter at deploy time: no CloudFormation export couples the stacks', () => {
    expect(api.Parameters[streamParameterId]).toEqual({
      Type: 'AWS::SSM::Parameter::Value<String>',
      Default: `/switchyard/${stage}/table-stream-arn`,
    });
    expect(JSON.stringify(api)).not.toContain('Fn::ImportValue');
    expect(t.data.toJSON().Outputs.TableStreamArn.Export).toBeUndefined();
    expect(JSON.stringify(t.data.toJSON().Outputs)).not.toContain('Export');
  });

  test('the WebhookDelivery function: Node.js 22 arm64 with tracing, 60 s timeout, stage memory, its environment (the delivery queue; no keyed-hash key)', () => {
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      Timeout: 60,
      MemorySize: config.lambdaMemoryMb,
      LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/^WebhookDeliveryLogs/) } },
    });
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: `switchyard-${stage}`,
      STAGE: stage,
      POWERTOOLS_SERVICE_NAME: 'switchyard',
      POWERTOOLS_METRICS_NAMESPACE: `Switchyard/${stage}`,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      OPEN_INDEX_SHARDS: String(config.openIndexShards),
      // It hands new events to the delivery queue (the worker fans them out and sends); it neither signs
      // (no keyed-hash key) nor schedules retries, and its fan-out lanes are fixed (FAN_OUT_LANES).
      WEBHOOK_DELIVERY_QUEUE_URL: { Ref: deliveryQueueId },
    });
    expect(WEBHOOK_DELIVERY.entry).toBe('functions/webhook-delivery/stream-handler.ts');
  });

  test('least privilege: no table access (it only queues a fan-out per event); read of the stream; send to the delivery queue and to its on-failure queue; no keyed-hash key; X-Ray', () => {
    const actions = statements.flatMap((s) => [s.Action].flat());
    expect(actions.filter((a) => a.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(a))).toEqual([]);
    expect([...TABLE_ACTIONS.deliver].sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(actions.sort()).toEqual(
      [
        'dynamodb:DescribeStream',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        // grantSendMessages, once on the delivery queue and once on the on-failure queue (SqsDlq).
        'sqs:GetQueueAttributes',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // No DeleteItem, no transactions, no API-key statement.
    expect(statements.filter((s) => s.Condition)).toHaveLength(0);
    // Stream actions on the stream (the SSM-resolved ARN) only; the queues' on each queue only: the
    // delivery queue and the on-failure queue, never the delivery queue's dead-letter queue.
    for (const s of statements.filter((s) => [s.Action].flat().some((a) => /Stream|GetRecords|GetShardIterator/.test(a)))) {
      expect(s.Resource).toEqual({ Ref: streamParameterId });
    }
    const sqs = statements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqs.map((s) => actionsOf(s).sort())).toEqual([
      ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
      ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'],
    ]);
    expect(sqs.map((s) => s.Resource)).toEqual(
      expect.arrayContaining([{ 'Fn::GetAtt': [deliveryQueueId, 'Arn'] }, { 'Fn::GetAtt': [queueId, 'Arn'] }]),
    );
    // The keyed-hash key is the worker's (it signs); no secret at all here.
    expect(statements.filter((s) => actionsOf(s).some((a) => a.startsWith('secretsmanager:')))).toEqual([]);
    expect(JSON.stringify(statements)).not.toContain('card-fingerprint-key');
    expect(JSON.stringify(statements)).not.toContain(`switchyard-${stage}/connectors`);
    expect(JSON.stringify(statements)).not.toContain(deadLetterQueueId);
  });

  test('event source mapping on the table stream: TRIM_HORIZON, 25 per batch, partial batch failures, bisect, 10 retries, 6 h max record age, on-failure queue', () => {
    // Two mappings: this one, and the delivery queue's to the worker (below).
    t.api.resourceCountIs('AWS::Lambda::EventSourceMapping', 2);
    const mapping = mappingOf(fnId);
    expect(mapping).toMatchObject({
      FunctionName: { Ref: fnId },
      EventSourceArn: { Ref: streamParameterId },
      StartingPosition: 'TRIM_HORIZON',
      BatchSize: 25,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
    });
    // Bounded: finite retries, a record age below the stream's 24 h retention.
    expect(WEBHOOK_DELIVERY_STREAM.retryAttempts).toBeGreaterThan(0);
    expect(mapping.MaximumRecordAgeInSeconds).toBeLessThan(24 * 3600);
    // One shard's records in order.
    expect(mapping.ParallelizationFactor).toBeUndefined();
  });

  test('filter: only INSERTs of items with entity = "event" invoke the function', () => {
    const mapping = mappingOf(fnId);
    expect(mapping.FilterCriteria.Filters).toHaveLength(1);
    const pattern = JSON.parse(mapping.FilterCriteria.Filters[0].Pattern);
    expect(pattern).toEqual({ eventName: ['INSERT'], dynamodb: { NewImage: { entity: { S: ['event'] } } } });
  });

  test('the on-failure queue: encrypted (SSE-SQS), TLS only, 14-day retention', () => {
    expect(resources[queueId]!.Properties).toEqual({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    t.api.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    t.api.hasOutput('WebhookDeliveryFailureQueueUrl', { Value: { Ref: queueId } });
  });

  test("the reconciler (which hands the retries that fall due to the delivery queue) gets the stage's retry schedule, the queue and the lanes, and may send to that queue only", () => {
    const env = resources[reconcilerId]!.Properties.Environment.Variables;
    expect(env.WEBHOOK_RETRY_SCHEDULE_SECONDS).toBe(config.webhookRetryScheduleSeconds.join(','));
    expect(env.WEBHOOK_DELIVERY_QUEUE_URL).toEqual({ Ref: deliveryQueueId });
    expect(env.WEBHOOK_DELIVERY_LANES).toBe(String(config.webhookDelivery.lanes));
    const sqs = statementsOfRole(roleOf(reconcilerId)).filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqs).toEqual([
      {
        Effect: 'Allow',
        Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
        Resource: { 'Fn::GetAtt': [deliveryQueueId, 'Arn'] },
      },
    ]);
  });

  test('the delivery queue: FIFO in high throughput mode (deduplication per message group, throughput limit per message group), SSE-SQS, visibility 6 × the worker timeout, 4-day retention, redrive to its dead-letter queue after 5 receives', () => {
    expect(resources[deliveryQueueId]!.Properties).toEqual({
      FifoQueue: true,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 6 * WEBHOOK_DELIVERY_WORKER.timeoutSeconds,
      MessageRetentionPeriod: 4 * 24 * 3600,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [deadLetterQueueId, 'Arn'] }, maxReceiveCount: 5 },
    });
    // Lambda developer guide: a source queue's visibility timeout at least 6 × the function's timeout.
    expect(resources[deliveryQueueId]!.Properties.VisibilityTimeout).toBe(360);
    expect(WEBHOOK_DELIVERY_QUEUE.maxReceiveCount).toBe(5);
    expect(WEBHOOK_DELIVERY_QUEUE.visibilityTimeout.toSeconds()).toBe(360);
    // No content-based deduplication and no customer key: the producers set the deduplication ids; SSE-SQS.
    expect(resources[deliveryQueueId]!.Properties.ContentBasedDeduplication).toBeUndefined();
    expect(resources[deliveryQueueId]!.Properties.KmsMasterKeyId).toBeUndefined();
  });

  test("the delivery queue's dead-letter queue: FIFO (a FIFO queue's must be), SSE-SQS, 14-day retention, no redrive of its own; its URL is an output", () => {
    expect(resources[deadLetterQueueId]!.Properties).toEqual({
      FifoQueue: true,
      SqsManagedSseEnabled: true,
      MessageRetentionPeriod: 14 * 24 * 3600,
    });
    t.api.hasOutput('WebhookDeliveryDeadLetterQueueUrl', { Value: { Ref: deadLetterQueueId } });
    // The reconciler schedule's dead-letter queue, the stream's on-failure queue, the delivery queue and its dead-letter queue.
    // With the reconciler's and the renewal worker's schedules' dead-letter queues.
    t.api.resourceCountIs('AWS::SQS::Queue', 5);
  });

  test.each([
    ['delivery queue', 'WebhookDeliveryQueue'],
    ['dead-letter queue', 'WebhookDeliveryDeadLetterQueue'],
  ])('the %s is TLS only: its queue policy is the one Deny of aws:SecureTransport false, nothing allowed to anyone', (_label, name) => {
    const id = queueIdOf(name);
    const queuePolicies = (Object.values(t.api.findResources('AWS::SQS::QueuePolicy')) as Resource[]).filter((p) =>
      p.Properties.Queues.some((q: { Ref: string }) => q.Ref === id),
    );
    expect(queuePolicies).toHaveLength(1);
    expect(queuePolicies[0]!.Properties.Queues).toEqual([{ Ref: id }]);
    expect(queuePolicies[0]!.Properties.PolicyDocument.Statement).toEqual([
      {
        Effect: 'Deny',
        Principal: { AWS: '*' },
        Action: 'sqs:*',
        Resource: { 'Fn::GetAtt': [id, 'Arn'] },
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ]);
  });

  test('the WebhookDeliveryWorker function: Node.js 22 arm64 with tracing, 60 s timeout, stage memory, its own log group, its environment (retry schedule, keyed-hash key, the queue and lanes), in the parent API stack', () => {
    expect(worker.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      Timeout: 60,
      MemorySize: config.lambdaMemoryMb,
      LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/^WebhookDeliveryWorkerLogs[0-9A-F]{8}$/) } },
    });
    expect(resources[workerLogGroupId]).toMatchObject({
      Type: 'AWS::Logs::LogGroup',
      Properties: { RetentionInDays: config.logRetentionDays },
    });
    expect(worker.Properties.Environment.Variables).toEqual({
      TABLE_NAME: `switchyard-${stage}`,
      STAGE: stage,
      POWERTOOLS_SERVICE_NAME: 'switchyard',
      POWERTOOLS_METRICS_NAMESPACE: `Switchyard/${stage}`,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      OPEN_INDEX_SHARDS: String(config.openIndexShards),
      // It signs (endpoint secrets are stored encrypted under the keyed-hash key), schedules retries, and
      // queues the deliveries of the events it fans out and moves a slow endpoint's deliveries to the
      // merchant's slow lanes (the queue, the lanes per merchant and the slow lanes per merchant).
      CARD_FINGERPRINT_SECRET_ID: `switchyard-${stage}/card-fingerprint-key`,
      WEBHOOK_RETRY_SCHEDULE_SECONDS: config.webhookRetryScheduleSeconds.join(','),
      WEBHOOK_DELIVERY_QUEUE_URL: { Ref: deliveryQueueId },
      WEBHOOK_DELIVERY_LANES: String(config.webhookDelivery.lanes),
      WEBHOOK_SLOW_DELIVERY_LANES: String(config.webhookDelivery.slowLanes),
    });
    expect(WEBHOOK_DELIVERY_WORKER).toEqual({
      name: 'WebhookDeliveryWorker',
      entry: 'functions/webhook-delivery/queue-handler.ts',
      timeoutSeconds: 60,
    });
    // Room for one attempt's timeout and its DynamoDB calls.
    expect(WEBHOOK_DELIVERY_WORKER.timeoutSeconds * 1000).toBeGreaterThan(DEFAULT_DELIVERY_TIMEOUT_MS);
    // A background function: in the parent API stack, beside the queue, not in a function group's nested stack.
    expect(Object.keys(t.apiParent.findResources('AWS::Lambda::Function'))).toContain(workerId);
  });

  test("the worker's least privilege: the deliver table actions on the table and its indexes, read of the keyed-hash key, consumption of and sending to the delivery queue only, X-Ray; nothing else", () => {
    expect(workerStatements.flatMap(actionsOf).sort()).toEqual(
      [
        ...TABLE_ACTIONS.deliver,
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
        'sqs:ChangeMessageVisibility',
        'sqs:DeleteMessage',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:GetQueueUrl',
        'sqs:ReceiveMessage',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // No leading-key conditions (no API-key statement), no stream read, no KMS, no connectors' secret.
    expect(workerStatements.filter((s) => s.Condition)).toHaveLength(0);
    const dynamo = workerStatements.filter((s) => actionsOf(s).some((a) => a.startsWith('dynamodb:')));
    expect(dynamo).toHaveLength(1);
    expect(JSON.stringify(dynamo[0]!.Resource)).toContain(`:table/switchyard-${stage}`);
    expect(JSON.stringify(dynamo[0]!.Resource)).not.toContain(streamParameterId);
    const secrets = workerStatements.filter((s) => actionsOf(s).some((a) => a.startsWith('secretsmanager:')));
    expect(secrets).toHaveLength(1);
    expect(JSON.stringify(secrets[0]!.Resource)).toContain(`:secret:switchyard-${stage}/card-fingerprint-key-??????`);
    expect(JSON.stringify(workerStatements)).not.toContain(`switchyard-${stage}/connectors`);
    // SQS: consume and send to the delivery queue, on its ARN only; nothing on the other queues.
    const sqs = workerStatements.filter((s) => actionsOf(s).some((a) => a.startsWith('sqs:')));
    expect(sqs).toHaveLength(2);
    for (const statement of sqs) expect(statement.Resource).toEqual({ 'Fn::GetAtt': [deliveryQueueId, 'Arn'] });
    expect(JSON.stringify(workerStatements)).not.toContain(deadLetterQueueId);
    expect(JSON.stringify(workerStatements)).not.toContain(queueId);
  });

  test('who may touch the delivery queues: send the stream function, the worker and the reconciler, consume only the worker; no role touches the dead-letter queue', () => {
    const grants = policies.flatMap((p) =>
      (p.Properties.PolicyDocument.Statement as Statement[]).map((s) => ({ roles: p.Properties.Roles as { Ref: string }[], s })),
    );
    const rolesWith = (action: string, queue: string) =>
      grants
        .filter(({ s }) => actionsOf(s).includes(action) && JSON.stringify(s.Resource).includes(queue))
        .flatMap(({ roles }) => roles.map((r) => r.Ref))
        .sort();
    expect(rolesWith('sqs:SendMessage', deliveryQueueId)).toEqual([roleOf(fnId), roleOf(reconcilerId), roleOf(workerId)].sort());
    expect(rolesWith('sqs:ReceiveMessage', deliveryQueueId)).toEqual([roleOf(workerId)]);
    expect(rolesWith('sqs:DeleteMessage', deliveryQueueId)).toEqual([roleOf(workerId)]);
    expect(grants.filter(({ s }) => JSON.stringify(s.Resource).includes(deadLetterQueueId))).toEqual([]);
  });

  test('the worker, which queues the deliveries of the events it fans out, knows the delivery queue and may send to it', () => {
    expect(worker.Properties.Environment.Variables).toMatchObject({
      WEBHOOK_DELIVERY_QUEUE_URL: { Ref: deliveryQueueId },
      WEBHOOK_DELIVERY_LANES: String(config.webhookDelivery.lanes),
    });
    expect(
      workerStatements.filter(
        (s) =>
          actionsOf(s).includes('sqs:SendMessage') &&
          JSON.stringify(s.Resource) === JSON.stringify({ 'Fn::GetAtt': [deliveryQueueId, 'Arn'] }),
      ),
    ).toHaveLength(1);
  });

  test("the worker's event source mapping on the delivery queue: 10 per batch (the FIFO maximum), partial batch failures, the stage's maximum concurrency", () => {
    expect(mappingOf(workerId)).toEqual({
      FunctionName: { Ref: workerId },
      EventSourceArn: { 'Fn::GetAtt': [deliveryQueueId, 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: config.webhookDelivery.maxConcurrency },
    });
    expect(WEBHOOK_DELIVERY_QUEUE.batchSize).toBe(10);
    // dev 20 batches in flight, a merchant 3 lanes and 1 slow lane; prod 200, 8 and 2.
    expect(config.webhookDelivery).toEqual(
      stage === 'prod' ? { maxConcurrency: 200, lanes: 8, slowLanes: 2 } : { maxConcurrency: 20, lanes: 3, slowLanes: 1 },
    );
    // Lambda's bounds for an SQS mapping's maximum concurrency: 2 to 1000.
    expect(config.webhookDelivery.maxConcurrency).toBeGreaterThanOrEqual(2);
    expect(config.webhookDelivery.maxConcurrency).toBeLessThanOrEqual(1000);
    // One merchant's delivery and slow lanes (its 2 fan-out lanes too) take at most a third of the worker.
    expect(3 * (FAN_OUT_LANES + config.webhookDelivery.lanes + config.webhookDelivery.slowLanes)).toBeLessThanOrEqual(
      config.webhookDelivery.maxConcurrency,
    );
  });

  test("Contributor Insights: the worker's failed-attempt log lines counted by merchant_id (JSON, one rule over the worker's log group)", () => {
    const rules = (Object.entries(t.api.findResources('AWS::CloudWatch::InsightRule')) as [string, Resource][]).filter(
      ([, r]) => r.Properties.RuleName === ruleName,
    );
    expect(rules).toHaveLength(1);
    const [ruleId, rule] = rules[0]!;
    expect(Object.keys(t.apiParent.findResources('AWS::CloudWatch::InsightRule'))).toContain(ruleId);
    expect(rule.Properties.RuleState).toBe('ENABLED');
    // The body is JSON text with the worker's (generated) log group name joined in: parse it with a placeholder.
    const [separator, parts] = rule.Properties.RuleBody['Fn::Join'] as [string, unknown[]];
    expect(separator).toBe('');
    const references = parts.filter((p) => typeof p !== 'string');
    expect(references).toEqual([{ Ref: workerLogGroupId }]);
    const body = JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'WORKER_LOG_GROUP')).join(''));
    expect(body).toEqual({
      Schema: { Name: 'CloudWatchLogRule', Version: 1 },
      LogGroupNames: ['WORKER_LOG_GROUP'],
      LogFormat: 'JSON',
      Contribution: { Keys: ['$.merchant_id'], Filters: [{ Match: '$.message', In: ['webhook delivery attempt failed'] }] },
      AggregateOn: 'Count',
    });
    // The message the worker logs for every attempt that did not deliver (shared/webhooks/delivery-settings.ts).
    expect(WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE).toBe('webhook delivery attempt failed');
  });

  test("alarm: the most failing merchant's failed attempts (INSIGHT_RULE_METRIC MaxContributorValue) at or above the stage bound on 3 of 3 five-minute periods, to the topic, with its runbook", () => {
    const resource = alarmResourceNamed('Webhooks-MerchantFailures-Warning');
    const a = resource.Properties;
    expect(config.alarms.merchantWebhookFailures).toBe(100);
    expect(a).toMatchObject({
      Threshold: config.alarms.merchantWebhookFailures,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    // One metric math series: no metric per merchant.
    expect(a.MetricName).toBeUndefined();
    expect(a.Metrics).toEqual([
      {
        Id: expect.any(String),
        Expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")`,
        Label: 'failed attempts of the most failing merchant',
        Period: FIVE_MINUTES,
        ReturnData: true,
      },
    ]);
    // Created after the rule it reads.
    const ruleId = Object.entries(t.api.findResources('AWS::CloudWatch::InsightRule')).find(
      ([, r]) => r.Properties.RuleName === ruleName,
    )![0];
    expect(resource.DependsOn).toContain(ruleId);
    expect(a.AlarmDescription).toContain(ruleName);
    expect(RUNBOOK.merchantWebhookFailures).toBe('a-merchants-webhook-endpoints-are-failing');
    expect(a.AlarmDescription).toMatch(/Runbook: docs\/operations\.md#a-merchants-webhook-endpoints-are-failing$/);
    expect(Object.values(t.apiParent.findResources('AWS::CloudWatch::Alarm')).map((r) => r.Properties.AlarmName)).toContain(
      `Switchyard-${stage}-Webhooks-MerchantFailures-Warning`,
    );
  });

  test("alarm: the delivery queue's dead-letter queue holds a message (ApproximateNumberOfMessagesVisible >= 1)", () => {
    const a = alarmNamed('WebhookDeliveryDeadLetterQueue-Queue-Message-Count-Max-Critical');
    expect(a).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.Metrics[0].MetricStat.Metric).toEqual({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [deadLetterQueueId, 'QueueName'] } }],
    });
    // The delivery queue itself is not alarmed on its depth: a backlog there is the backlog alarms' (age, overdue).
    expect(alarms.filter((x) => JSON.stringify(x.Properties.Metrics ?? '').includes(`"${deliveryQueueId}"`))).toHaveLength(0);
  });

  test("alarms: the worker's errors and throttles, as the other functions'; no stream lag alarm of its own", () => {
    const fault = alarmNamed('WebhookDeliveryWorker-Fault-Count-Critical');
    expect(fault.Threshold).toBe(config.alarms.lambdaErrors);
    expect(fault.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(fault.Metrics[0].MetricStat.Metric).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: workerId } }],
    });
    const throttles = alarmNamed('WebhookDeliveryWorker-Throttled-Count-Warning');
    expect(throttles.Threshold).toBe(config.alarms.lambdaThrottles);
    expect(throttles.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(throttles.Metrics[0].MetricStat.Metric).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'Throttles',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: workerId } }],
    });
    expect(alarms.filter((x) => /^Switchyard-[a-z]+-WebhookDeliveryWorker-Iterator/.test(x.Properties.AlarmName))).toHaveLength(0);
  });

  test('alarm: a delivery open past its whole retry schedule (OldestOpenOperationAgeSeconds kind webhook_delivery, Maximum > bound, one 5-minute datapoint, missing data OK)', () => {
    const a = alarmNamed('Webhooks-OldestUndeliveredEventAge-Critical');
    expect(a).toMatchObject({
      Threshold: config.alarms.undeliveredEventMaxAgeSeconds,
      ComparisonOperator: 'GreaterThanThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.Metrics[0].MetricStat).toEqual({
      Metric: {
        Namespace: `Switchyard/${stage}`,
        MetricName: 'OldestOpenOperationAgeSeconds',
        Dimensions: [
          { Name: 'kind', Value: 'webhook_delivery' },
          { Name: 'service', Value: 'switchyard' },
        ],
      },
      Period: FIVE_MINUTES,
      Stat: 'Maximum',
    });
  });

  test('alarm: the on-failure queue holds a message (ApproximateNumberOfMessagesVisible >= 1)', () => {
    const a = alarmNamed('WebhookDeliveryFailureQueue-Queue-Message-Count-Max-Critical');
    expect(a).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      AlarmActions: [{ Ref: topicId }],
    });
    expect(a.Metrics[0].MetricStat.Metric).toEqual({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [queueId, 'QueueName'] } }],
    });
  });

  test('alarms: stream lag (IteratorAge Maximum > 5 minutes), and the same errors and throttles alarms as the API functions', () => {
    const lag = alarms.filter((a) => JSON.stringify(a.Properties.Metrics ?? '').includes('"MetricName":"IteratorAge"'));
    expect(lag).toHaveLength(1);
    const a = lag[0]!.Properties;
    expect(a.AlarmName).toMatch(new RegExp(`^Switchyard-${stage}-WebhookDelivery-`));
    expect(a).toMatchObject({
      Threshold: WEBHOOK_ITERATOR_AGE_ALARM_MS,
      ComparisonOperator: 'GreaterThanThreshold',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(WEBHOOK_ITERATOR_AGE_ALARM_MS).toBe(5 * 60 * 1000);
    expect(a.Metrics[0].MetricStat).toMatchObject({
      Metric: { Namespace: 'AWS/Lambda', MetricName: 'IteratorAge', Dimensions: [{ Name: 'FunctionName', Value: { Ref: fnId } }] },
      Stat: 'Maximum',
    });
    expect(alarmNamed('WebhookDelivery-Fault-Count-Critical').Threshold).toBe(config.alarms.lambdaErrors);
    expect(alarmNamed('WebhookDelivery-Throttled-Count-Warning').Threshold).toBe(config.alarms.lambdaThrottles);
  });

  test('dashboard: WebhookDelivery and WebhookDeliveryWorker panels and a "Webhooks" section (deliveries by outcome, latency p50/p99, oldest undelivered event age, the most failing merchant, the dead-letter queue)', () => {
    const dashboard = stageDashboard(t.api, stage);
    // The body is an Fn::Join of JSON text and references: join it with placeholders and parse it.
    const parts = dashboard.Properties.DashboardBody['Fn::Join'][1] as unknown[];
    const widgets = (JSON.parse(parts.map((p) => (typeof p === 'string' ? p : 'REF')).join('')) as { widgets: Widget[] }).widgets;
    const markdown = widgets.map((w) => w.properties.markdown ?? '');
    const titled = (title: string) => {
      const found = widgets.filter((w) => w.properties.title === title);
      expect(found).toHaveLength(1);
      return found[0]!.properties.metrics!;
    };
    expect(markdown).toContain('### Webhooks');
    expect(markdown.some((m) => m.includes('WebhookDelivery (table stream)'))).toBe(true);
    expect(markdown.some((m) => m.includes('Webhook delivery on-failure queue'))).toBe(true);
    expect(markdown.some((m) => m.includes('WebhookDeliveryWorker (delivery queue)'))).toBe(true);
    expect(markdown.some((m) => m.includes('Webhook delivery dead-letter queue'))).toBe(true);
    expect(
      titled(`Failed webhook attempts of the most failing merchant (per 5 minutes; alarm at ${config.alarms.merchantWebhookFailures})`),
    ).toEqual([[expect.objectContaining({ expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")` })]]);
    const ns = `Switchyard/${stage}`;
    expect(WEBHOOK_METRICS).toEqual({
      deliveries: 'WebhookDeliveryAttempts',
      deliveryLatency: 'WebhookAttemptDuration',
      oldestUndeliveredEventAge: 'OldestOpenOperationAgeSeconds',
    });
    expect(WEBHOOK_DELIVERY_OUTCOMES).toEqual(['delivered', 'retrying', 'failed', 'gone']);
    expect(titled('Webhook deliveries by outcome (count per minute)')).toEqual(
      WEBHOOK_DELIVERY_OUTCOMES.map((outcome) => [
        ns,
        'WebhookDeliveryAttempts',
        'outcome',
        outcome,
        'service',
        'switchyard',
        expect.objectContaining({ stat: 'Sum', label: outcome }),
      ]),
    );
    expect(titled('Webhook delivery attempt duration (ms, p50 and p99)')).toEqual(
      ['p50', 'p99'].map((stat) => [ns, 'WebhookAttemptDuration', 'service', 'switchyard', expect.objectContaining({ stat })]),
    );
    expect(
      titled(
        `Oldest open webhook delivery (seconds since its first failure, maximum; alarm above ${config.alarms.undeliveredEventMaxAgeSeconds} s, past the whole retry schedule)`,
      ),
    ).toEqual([
      [
        ns,
        'OldestOpenOperationAgeSeconds',
        'kind',
        'webhook_delivery',
        'service',
        'switchyard',
        expect.objectContaining({ stat: 'Maximum' }),
      ],
    ]);
    expect(titled('Open webhook deliveries (count, per reconciler run)')).toEqual([
      [ns, 'OpenOperations', 'kind', 'webhook_delivery', 'service', 'switchyard', expect.objectContaining({ stat: 'Maximum' })],
    ]);
    // The function's own panels include its iterator age.
    expect(JSON.stringify(widgets.filter((w) => w.properties.title === 'Iterator'))).toContain('IteratorAge');
  });
});

test('without the handler module, the API stack has no webhook delivery: no function, mapping, queue, stream parameter, webhook alarms or rule', () => {
  const t = synthStage('dev', { webhookDeliveryEntry: false });
  const api = t.api.toJSON();
  expect(Object.keys(t.api.findResources('AWS::Lambda::Function')).some((id) => id.startsWith(WEBHOOK_DELIVERY.name))).toBe(false);
  t.api.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
  t.api.resourceCountIs('AWS::SQS::Queue', 2); // the reconciler's and the renewal worker's schedules' dead-letter queues
  expect(Object.keys(api.Parameters).filter((id) => /^SsmParameterValue.*tablestreamarn/i.test(id))).toHaveLength(0);
  expect(JSON.stringify(api)).not.toMatch(/Webhooks|WebhookDelivery|OldestUndelivered|failed-webhook-attempts/);
  // The reconciler has no queue to hand deliveries to, and no SQS grant.
  expect(resourcesEnv(t.api, RECONCILER.name).WEBHOOK_DELIVERY_QUEUE_URL).toBeUndefined();
  expect(resourcesEnv(t.api, RECONCILER.name).WEBHOOK_DELIVERY_LANES).toBeUndefined();
  // Requests by merchant (operations.test.ts) and the three dispute rules (billing.test.ts).
  t.api.resourceCountIs('AWS::CloudWatch::InsightRule', 4);
  const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  expect(alarms.filter((a) => JSON.stringify(a.Properties.Metrics ?? '').includes('"MetricName":"IteratorAge"'))).toHaveLength(0);
  // The reconciler still gets the schedule; the data stack still streams.
  expect(resourcesEnv(t.api, RECONCILER.name).WEBHOOK_RETRY_SCHEDULE_SECONDS).toBe(
    '5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000,36000',
  );
  t.data.hasResourceProperties('AWS::DynamoDB::GlobalTable', { StreamSpecification: { StreamViewType: 'NEW_IMAGE' } });
});

test('by default the stack adds webhook delivery exactly when functions/webhook-delivery/stream-handler.ts exists', () => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  const { api } = buildApp(app, 'dev');
  // Both mappings (table stream → WebhookDelivery, delivery queue → WebhookDeliveryWorker) or neither.
  const mappings = Object.keys(Template.fromStack(api).findResources('AWS::Lambda::EventSourceMapping')).length;
  expect(mappings).toBe(webhookDeliveryHandlerExists() ? 2 : 0);
  expect(WEBHOOK_DELIVERY_STUB_ENTRY).not.toBe(WEBHOOK_DELIVERY.entry);
});

function resourcesEnv(api: Template, name: string): Record<string, string> {
  return (api.toJSON().Resources as Record<string, Resource>)[functionId(api, name)]!.Properties.Environment.Variables;
}
