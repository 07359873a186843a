import { Match } from 'aws-cdk-lib/assertions';
import { BILLING_WORKER } from '../../lib/api-stack';
import { STAGES } from '../../lib/config/stage-config';
import { functionId, type Resource, synthStage } from './synth-stage';

/**
 * The renewal worker (issue 24) in the API stack, per stage: its own function (not the reconciler's, so billing's
 * volume or failures never delay settling payments), its every-minute EventBridge Scheduler schedule with a
 * dead-letter queue, its dunning settings from the stage config, and its alarms.
 */

test('stage defaults: 4 tries over 7 days (retries at 1, 3, 7 days), then canceled', () => {
  for (const config of Object.values(STAGES)) expect(config.billing).toEqual({ retryDays: [1, 3, 7], dunningFinal: 'canceled' });
});

describe.each(['dev', 'prod'])('%s stage', (stage) => {
  const t = synthStage(stage);
  const config = STAGES[stage]!;
  const resources = t.api.toJSON().Resources as Record<string, Resource>;
  const workerId = functionId(t.api, BILLING_WORKER.name);

  test('the BillingWorker function: its handler, no Lambda retries, the dunning settings and the API endpoint in its environment', () => {
    expect(BILLING_WORKER.entry).toBe('functions/billing/renewal-worker.ts');
    const fn = resources[workerId]!;
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Timeout: config.reconcilerTimeoutSeconds });
    expect(fn.Properties.Environment.Variables).toMatchObject({
      TABLE_NAME: `switchyard-${stage}`,
      BILLING_RETRY_DAYS: '1,3,7',
      BILLING_DUNNING_FINAL: 'canceled',
      PUBLIC_BASE_URL: { 'Fn::GetAtt': [expect.stringMatching(/^HttpApi/), 'ApiEndpoint'] },
    });
    t.api.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: workerId }, MaximumRetryAttempts: 0 });
  });

  test('its own schedule, every minute, with a dead-letter queue; a schedule apart from the reconciler’s', () => {
    t.api.hasResourceProperties('AWS::Scheduler::Schedule', {
      Name: `switchyard-${stage}-billing`,
      ScheduleExpression: 'rate(1 minute)',
      Target: {
        Arn: { 'Fn::GetAtt': [workerId, 'Arn'] },
        DeadLetterConfig: { Arn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^BillingScheduleDeadLetterQueue'), 'Arn'] } },
      },
    });
    const names = (Object.values(t.api.findResources('AWS::Scheduler::Schedule')) as Resource[]).map((s) => s.Properties.Name).sort();
    expect(names).toEqual([`switchyard-${stage}-billing`, `switchyard-${stage}-reconciler`]);
  });

  test('alarms: a failed run (one error in 5 minutes), throttles, and an undelivered invocation, each to the alarm topic with a runbook', () => {
    const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const named = (suffix: string) => alarms.filter((a) => a.Properties.AlarmName === `Switchyard-${stage}-${suffix}`);
    const fault = named(`${BILLING_WORKER.name}-Fault-Count-Critical`);
    expect(fault).toHaveLength(1);
    expect(fault[0]!.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(JSON.stringify(fault[0]!.Properties.AlarmDescription)).toContain('Runbook: docs/operations.md#renewals');
    expect(named(`${BILLING_WORKER.name}-Throttled-Count-Warning`)).toHaveLength(1);
    expect(alarms.filter((a) => String(a.Properties.AlarmName).includes('BillingScheduleDlq'))).toHaveLength(1);
    for (const a of [...fault, ...named(`${BILLING_WORKER.name}-Throttled-Count-Warning`)])
      expect(a.Properties.AlarmActions).toHaveLength(1);
  });
});
