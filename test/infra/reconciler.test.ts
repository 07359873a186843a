import { Match } from 'aws-cdk-lib/assertions';
import { RECONCILER } from '../../lib/background/background-work';
import { RECONCILER_SCHEDULE } from '../../lib/background/reconciler-schedule';
import { STAGES } from '../../lib/config/stage-config';
import { OPEN_OPERATION_KINDS } from '../../lib/monitoring/open-operations-section';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { functionId, type Resource, stageDashboard, synthStage } from './synth-stage';

/**
 * The background reconciler in the API stack, per stage: its function, its every-minute
 * EventBridge Scheduler schedule with a dead-letter queue, and its dashboard section and alarms.
 * (IAM table actions, secrets and cdk-nag are asserted with the other functions in stacks.test.ts.)
 */

const FIVE_MINUTES = 300;

test('stage defaults: reconcile operations older than 60 s; alarm on one open longer than 30 minutes; 5-minute timeout', () => {
  for (const config of Object.values(STAGES)) {
    expect(config.reconcileMinAgeSeconds).toBe(60);
    expect(config.alarms.openOperationMaxAgeSeconds).toBe(1800);
    expect(config.reconcilerTimeoutSeconds).toBe(300);
  }
});

describe.each(['dev', 'prod'])('%s stage', (stage) => {
  const t = synthStage(stage);
  const config = STAGES[stage]!;
  const resources = t.api.toJSON().Resources as Record<string, Resource>;
  const reconcilerId = functionId(t.api, RECONCILER.name);
  /** The one resource of a type, or of a type whose logical id starts with `prefix`. */
  const idOf = (type: string, prefix = '') => {
    const ids = Object.keys(t.api.findResources(type)).filter((id) => id.startsWith(prefix));
    expect(ids).toHaveLength(1);
    return ids[0]!;
  };
  const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
  const alarmNamed = (name: string) => {
    const found = alarms.filter((a) => a.Properties.AlarmName === `Switchyard-${stage}-${name}`);
    expect(found).toHaveLength(1);
    return found[0]!.Properties;
  };
  const topicId = idOf('AWS::SNS::Topic');

  test('the Reconciler function: Node.js 22 arm64 with tracing, 5-minute timeout, stage memory, its environment, no Lambda retries', () => {
    const fn = resources[reconcilerId]!;
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      TracingConfig: { Mode: 'Active' },
      Timeout: 300,
      MemorySize: config.lambdaMemoryMb,
      LoggingConfig: { LogGroup: { Ref: expect.stringMatching(/^ReconcilerLogs/) } },
    });
    expect(fn.Properties.Environment.Variables).toEqual({
      TABLE_NAME: `switchyard-${stage}`,
      STAGE: stage,
      POWERTOOLS_SERVICE_NAME: 'switchyard',
      POWERTOOLS_METRICS_NAMESPACE: `Switchyard/${stage}`,
      POWERTOOLS_LOG_LEVEL: 'INFO',
      OPEN_INDEX_SHARDS: String(config.openIndexShards),
      CONNECTOR_SECRETS_ID: `switchyard-${stage}/connectors`,
      ROUTING_RULES: JSON.stringify(config.routingRules),
      CARD_FINGERPRINT_SECRET_ID: `switchyard-${stage}/card-fingerprint-key`,
      // Merchants' connector account credentials: the stage's KMS key, its ARN resolved from SSM at deploy time.
      CONNECTOR_ACCOUNTS_KMS_KEY_ARN: { Ref: expect.stringMatching(/^SsmParameterValueswitchyard.*connectoraccountskmskeyarn/) },
      RECONCILE_MIN_AGE_SECONDS: '60',
      // It hands the webhook retries that fall due, on the stage's schedule, to the delivery queue
      // (in the stage's lanes per endpoint), whose worker sends them.
      WEBHOOK_RETRY_SCHEDULE_SECONDS: config.webhookRetryScheduleSeconds.join(','),
      WEBHOOK_DELIVERY_QUEUE_URL: { Ref: expect.stringMatching(/^WebhookDeliveryQueue[0-9A-F]{8}$/) },
      WEBHOOK_DELIVERY_LANES: String(config.webhookDelivery.lanes),
      // Hosted step pages of payments whose step a sync changes are built on the API's own endpoint.
      PUBLIC_BASE_URL: { 'Fn::GetAtt': [expect.stringMatching(/^HttpApi/), 'ApiEndpoint'] },
      // Stages without the sandbox (prod): the sandbox connector is switched off.
      ...(config.sandbox ? {} : { SANDBOX_CONNECTOR_ENABLED: 'false' }),
    });
    expect(RECONCILER.entry).toBe('functions/reconciler/reconcile.ts');
    t.api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: reconcilerId }, MaximumRetryAttempts: 0 });
  });

  test('an EventBridge Scheduler schedule invokes it every minute, with a small retry policy and a dead-letter queue', () => {
    const queueId = idOf('AWS::SQS::Queue', 'ReconcilerSchedule');
    const roleId = Object.keys(t.api.findResources('AWS::IAM::Role')).find((id) => id.startsWith('ReconcilerScheduleRole'))!;
    // Two schedules: this one and the renewal worker's (billing.test.ts).
    t.api.resourceCountIs('AWS::Scheduler::Schedule', 2);
    t.api.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: `switchyard-${stage}-reconciler`,
      ScheduleExpression: 'rate(1 minute)',
      State: 'ENABLED',
      FlexibleTimeWindow: { Mode: 'OFF' },
      Target: {
        Arn: { 'Fn::GetAtt': [reconcilerId, 'Arn'] },
        RoleArn: { 'Fn::GetAtt': [roleId, 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 120 },
      },
    });
    expect(RECONCILER_SCHEDULE.retryAttempts).toBe(2);
    // The dead-letter queue: encrypted (SSE-SQS), TLS only.
    expect(resources[queueId]!.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    t.api.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]),
      },
    });
    // The scheduler's role: trusted by scheduler.amazonaws.com for this account's default group only;
    // may invoke the reconciler and write to the dead-letter queue, nothing else.
    expect(resources[roleId]!.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' }, 'aws:SourceArn': expect.anything() } },
      }),
    ]);
    expect(JSON.stringify(resources[roleId]!.Properties.AssumeRolePolicyDocument)).toContain(':schedule-group/default');
    const policies = Object.values(t.api.findResources('AWS::IAM::Policy')) as Resource[];
    const statements = policies
      .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
      .flatMap((p) => p.Properties.PolicyDocument.Statement);
    expect(statements.map((s: { Action: string }) => s.Action).sort()).toEqual(['lambda:InvokeFunction', 'sqs:SendMessage']);
    expect(JSON.stringify(statements.find((s: { Action: string }) => s.Action === 'lambda:InvokeFunction').Resource)).toContain(
      reconcilerId,
    );
  });

  test('alarm: an operation of any kind open past the bound (OldestOpenOperationAgeSeconds Maximum > bound, one 5-minute datapoint, missing data OK)', () => {
    for (const kind of OPEN_OPERATION_KINDS) {
      const a = alarmNamed(`OpenOperations-OldestOpenOperationAge-${kind}-Critical`);
      expect(a).toMatchObject({
        Threshold: config.alarms.openOperationMaxAgeSeconds,
        ComparisonOperator: 'GreaterThanThreshold',
        EvaluationPeriods: 1,
        DatapointsToAlarm: 1,
        TreatMissingData: 'notBreaching',
        AlarmActions: [{ Ref: topicId }],
      });
      expect(a.Metrics).toEqual([
        expect.objectContaining({
          MetricStat: {
            Metric: {
              Namespace: `Switchyard/${stage}`,
              MetricName: BUSINESS_METRICS.oldestOpenOperationAge,
              Dimensions: expect.arrayContaining([
                { Name: 'kind', Value: kind },
                { Name: 'service', Value: 'switchyard' },
              ]),
            },
            Period: FIVE_MINUTES,
            Stat: 'Maximum',
          },
        }),
      ]);
      expect(a.Metrics[0].MetricStat.Metric.Dimensions).toHaveLength(2);
    }
  });

  test('alarms: the reconciler failing (ReconcilerFailures Sum >= 1, and its Lambda Errors >= 1, in 5 minutes)', () => {
    const failures = alarmNamed('OpenOperations-ReconcilerFailures-Critical');
    expect(failures).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      TreatMissingData: 'notBreaching',
      AlarmActions: [{ Ref: topicId }],
    });
    expect(failures.Metrics[0].MetricStat).toEqual({
      Metric: {
        Namespace: `Switchyard/${stage}`,
        MetricName: BUSINESS_METRICS.reconcilerFailures,
        Dimensions: [{ Name: 'service', Value: 'switchyard' }],
      },
      Period: FIVE_MINUTES,
      Stat: 'Sum',
    });
    const errors = alarmNamed('Reconciler-Fault-Count-Critical');
    expect(errors).toMatchObject({
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      EvaluationPeriods: 1,
      DatapointsToAlarm: 1,
      AlarmActions: [{ Ref: topicId }],
    });
    expect(errors.Metrics[0].MetricStat).toEqual({
      Metric: { Namespace: 'AWS/Lambda', MetricName: 'Errors', Dimensions: [{ Name: 'FunctionName', Value: { Ref: reconcilerId } }] },
      Period: FIVE_MINUTES,
      Stat: 'Sum',
    });
    // The same throttles alarm as the API functions.
    expect(alarmNamed('Reconciler-Throttled-Count-Warning').Threshold).toBe(config.alarms.lambdaThrottles);
  });

  test("alarm: the schedule's dead-letter queue holds messages (ApproximateNumberOfMessagesVisible >= 1)", () => {
    const queueId = idOf('AWS::SQS::Queue', 'ReconcilerSchedule');
    const a = alarmNamed('ReconcilerScheduleDlq-Queue-Message-Count-Max-Critical');
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

  test('dashboard: an "Open operations" section with the four reconciler metrics, titles naming what and the unit', () => {
    const dashboard = stageDashboard(t.api, stage);
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    expect(body).toContain('### Open operations');
    for (const metric of [
      BUSINESS_METRICS.openOperations,
      BUSINESS_METRICS.oldestOpenOperationAge,
      BUSINESS_METRICS.operationsSettled,
      BUSINESS_METRICS.reconcilerFailures,
    ]) {
      expect(body).toContain(metric);
    }
    for (const title of [
      'Open operations by kind (count',
      'Oldest open operation age by kind (seconds',
      'Operations settled by kind and outcome (count',
      'Reconciler failures (failed runs, count',
    ]) {
      expect(body).toContain(title);
    }
  });
});
