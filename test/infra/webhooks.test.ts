import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { RECONCILER, TABLE_ACTIONS, WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_STREAM } from '../../lib/api-stack';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_SECONDS, STAGES } from '../../lib/config/stage-config';
import { tableStreamArnParameterName } from '../../lib/data-stack';
import { WEBHOOK_DELIVERY_OUTCOMES, WEBHOOK_ITERATOR_AGE_ALARM_MS, WEBHOOK_METRICS } from '../../lib/service-monitoring';
import { buildApp } from '../../lib/switchyard-app';
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
 * stack finds it without a CloudFormation export; the WebhookDelivery function, its least-privilege
 * role, its stream event source mapping (filter, partial batch failures, bounded retries, on-failure
 * queue); the reconciler's retry schedule; and the "Webhooks" dashboard section and alarms.
 * The function is built from the real handler module when it exists, else from a stub
 * (synth-stage.ts): the templates are otherwise the same.
 */

const FIVE_MINUTES = 300;

/** A dashboard widget, as far as these tests read it. */
type Widget = { type: string; properties: { title?: string; markdown?: string; metrics?: unknown[] } };

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
  const roleId = fn.Properties.Role['Fn::GetAtt'][0] as string;
  const statements = (Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[])
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement) as { Action: string | string[]; Resource: unknown; Condition?: unknown }[];
  const queueId = Object.keys(t.api.findResources('AWS::SQS::Queue')).find((id) => id.startsWith('WebhookDeliveryFailureQueue'))!;
  const streamParameterId = Object.keys(api.Parameters).find((id) => /^SsmParameterValue.*tablestreamarn/i.test(id))!;
  const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  const alarmNamed = (name: string) => {
    const found = alarms.filter((a) => a.Properties.AlarmName === `Switchyard-${stage}-${name}`);
    expect(found).toHaveLength(1);
    return found[0]!.Properties;
  };
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

  test('the WebhookDelivery function: Node.js 22 arm64 with tracing, 60 s timeout, stage memory, its environment', () => {
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
      CARD_FINGERPRINT_SECRET_ID: `switchyard-${stage}/card-fingerprint-key`,
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '5,300,1800,7200,18000,36000,36000,36000,36000,36000,36000,36000',
    });
    expect(WEBHOOK_DELIVERY.entry).toBe('functions/webhook-delivery/stream-handler.ts');
  });

  test('least privilege: GetItem, BatchGetItem (consistent endpoint reads), Query, PutItem, UpdateItem on the table and its indexes; read of the keyed-hash key; read of the stream; send to its on-failure queue; X-Ray', () => {
    const actions = statements.flatMap((s) => [s.Action].flat());
    expect(actions.filter((a) => a.startsWith('dynamodb:') && !/Stream|GetRecords|GetShardIterator/.test(a)).sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect([...TABLE_ACTIONS.deliver].sort()).toEqual([
      'dynamodb:BatchGetItem',
      'dynamodb:GetItem',
      'dynamodb:PutItem',
      'dynamodb:Query',
      'dynamodb:UpdateItem',
    ]);
    expect(actions.sort()).toEqual(
      [
        'dynamodb:BatchGetItem',
        'dynamodb:DescribeStream',
        'dynamodb:GetItem',
        'dynamodb:GetRecords',
        'dynamodb:GetShardIterator',
        'dynamodb:ListStreams',
        'dynamodb:PutItem',
        'dynamodb:Query',
        'dynamodb:UpdateItem',
        'secretsmanager:DescribeSecret',
        'secretsmanager:GetSecretValue',
        'sqs:GetQueueAttributes',
        'sqs:GetQueueUrl',
        'sqs:SendMessage',
        'xray:PutTelemetryRecords',
        'xray:PutTraceSegments',
      ].sort(),
    );
    // No DeleteItem, no transactions, no API-key statement.
    expect(statements.filter((s) => s.Condition)).toHaveLength(0);
    // Stream actions on the stream (the SSM-resolved ARN) only; the queue's on the queue only.
    for (const s of statements.filter((s) => [s.Action].flat().some((a) => /Stream|GetRecords|GetShardIterator/.test(a)))) {
      expect(s.Resource).toEqual({ Ref: streamParameterId });
    }
    expect(statements.find((s) => [s.Action].flat().includes('sqs:SendMessage'))!.Resource).toEqual({ 'Fn::GetAtt': [queueId, 'Arn'] });
    expect(JSON.stringify(statements.find((s) => [s.Action].flat().includes('secretsmanager:GetSecretValue'))!.Resource)).toContain(
      `:secret:switchyard-${stage}/card-fingerprint-key-??????`,
    );
    expect(JSON.stringify(statements)).not.toContain(`switchyard-${stage}/connectors`);
  });

  test('event source mapping on the table stream: TRIM_HORIZON, 25 per batch, partial batch failures, bisect, 10 retries, 6 h max record age, on-failure queue', () => {
    t.api.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    const mapping = (Object.values(t.api.findResources('AWS::Lambda::EventSourceMapping')) as Resource[])[0]!.Properties;
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
    const mapping = (Object.values(t.api.findResources('AWS::Lambda::EventSourceMapping')) as Resource[])[0]!.Properties;
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

  test("the reconciler (which sends the retries that fall due) gets the stage's retry schedule", () => {
    const env = resources[functionId(t.api, RECONCILER.name)]!.Properties.Environment.Variables;
    expect(env.WEBHOOK_RETRY_SCHEDULE_SECONDS).toBe(config.webhookRetryScheduleSeconds.join(','));
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

  test('dashboard: WebhookDelivery panels and a "Webhooks" section (deliveries by outcome, latency p50/p99, oldest undelivered event age)', () => {
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

test('without the handler module, the API stack has no webhook delivery: no function, mapping, queue, stream parameter or webhook alarms', () => {
  const t = synthStage('dev', { webhookDeliveryEntry: false });
  const api = t.api.toJSON();
  expect(Object.keys(t.api.findResources('AWS::Lambda::Function')).some((id) => id.startsWith(WEBHOOK_DELIVERY.name))).toBe(false);
  t.api.resourceCountIs('AWS::Lambda::EventSourceMapping', 0);
  t.api.resourceCountIs('AWS::SQS::Queue', 1); // the reconciler schedule's dead-letter queue
  expect(Object.keys(api.Parameters).filter((id) => /^SsmParameterValue.*tablestreamarn/i.test(id))).toHaveLength(0);
  expect(JSON.stringify(api)).not.toMatch(/Webhooks|WebhookDelivery|OldestUndelivered/);
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
  const present = Object.keys(Template.fromStack(api).findResources('AWS::Lambda::EventSourceMapping')).length === 1;
  expect(present).toBe(webhookDeliveryHandlerExists());
  expect(WEBHOOK_DELIVERY_STUB_ENTRY).not.toBe(WEBHOOK_DELIVERY.entry);
});

function resourcesEnv(api: Template, name: string): Record<string, string> {
  return (api.toJSON().Resources as Record<string, Resource>)[functionId(api, name)]!.Properties.Environment.Variables;
}
