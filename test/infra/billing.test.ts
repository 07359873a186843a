import { Match } from 'aws-cdk-lib/assertions';
import { BILLING_WORKER } from '../../lib/background/background-work';
import { STAGES } from '../../lib/config/stage-config';
import { apiFunctionLogGroupName, functionGroup } from '../../lib/function-groups';
import { ROUTES } from '../../shared/api/routes';
import { DISPUTE_LOG_MESSAGES } from '../../shared/observability/dispute-log';

import { functionId, type Resource, synthStage } from './synth-stage';

/**
 * The renewal worker in the API stack, per stage: its own function (not the reconciler's, so billing's
 * volume or failures never delay settling payments), its every-minute EventBridge Scheduler schedule with a
 * dead-letter queue, its dunning settings from the stage config, and its alarms. And disputes, which the
 * same worker polls and expires: the dispute routes in their own group, the Contributor Insights rules over the log
 * groups where disputes are recorded (counting by connector account), the two alarms and the dashboard row. (One
 * file: each stage is synthesized once for both.)
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

  // Disputes.
  const rules = Object.values(t.api.findResources('AWS::CloudWatch::InsightRule')) as Resource[];
  const body = (name: string) => {
    const r = rules.find((x) => x.Properties.RuleName === `switchyard-${stage}-accounts-by-${name}`);
    expect(r).toBeDefined();
    return JSON.parse(JSON.stringify(r!.Properties.RuleBody)) as unknown;
  };

  test('three rules, one per dispute log line, counting by account over the receivers, the answers and the worker', () => {
    for (const [name, message] of [
      ['disputes-opened', DISPUTE_LOG_MESSAGES.opened],
      ['disputes-near-deadline', DISPUTE_LOG_MESSAGES.reminded],
      ['disputes-expired', DISPUTE_LOG_MESSAGES.expired],
    ] as const) {
      const text = JSON.stringify(body(name));
      expect(text).toContain('\\"$.account\\"');
      expect(text).toContain(message);
      for (const route of ROUTES.filter((r) => r.path.startsWith('/webhooks/') || r.path.startsWith('/disputes/'))) {
        expect(text).toContain(apiFunctionLogGroupName(stage, functionGroup(route), route.name));
      }
      expect(text).toContain(BILLING_WORKER.name);
    }
  });

  test('alarms: an account with many disputes opened in an hour, and any dispute expiring; each to the topic with its runbook', () => {
    const alarms = Object.values(t.api.findResources('AWS::CloudWatch::Alarm')) as Resource[];
    const named = (n: string) => alarms.find((a) => a.Properties.AlarmName === `Switchyard-${stage}-Disputes-${n}-Warning`)!.Properties;
    const opened = named('AccountOpened');
    expect(opened).toMatchObject({ Threshold: config.alarms.accountDisputesOpened, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    expect(named('Expired')).toMatchObject({ Threshold: 1 });
    for (const a of [opened, named('Expired')]) {
      expect(JSON.stringify(a.AlarmDescription)).toContain('Runbook: docs/operations.md#disputes-of-a-connector-account');
      expect(a.AlarmActions).toHaveLength(1);
      expect(JSON.stringify(a.Metrics)).toContain('MaxContributorValue');
    }
  });

  test('the dispute routes are their own group (nested stack)', () => {
    for (const r of ROUTES.filter((x) => x.path.startsWith('/disputes') || x.path.startsWith('/files'))) {
      expect(functionGroup(r)).toBe('Disputes');
    }
    expect(t.groups.has('Disputes')).toBe(true);
  });
});
