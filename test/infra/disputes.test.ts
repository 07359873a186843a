import { BILLING_WORKER } from '../../lib/api-stack';
import { STAGES } from '../../lib/config/stage-config';
import { apiFunctionLogGroupName, functionGroup } from '../../lib/function-groups';
import { ROUTES } from '../../shared/api/routes';
import { DISPUTE_LOG_MESSAGES } from '../../shared/observability/dispute-log';
import { type Resource, synthStage } from './synth-stage';

/**
 * Disputes in the stacks (issue 25): the dispute routes in their own group, the Contributor Insights rules over the
 * log groups where disputes are recorded (counting by connector account), the two alarms and the dashboard row.
 */
describe.each(['dev', 'prod'])('%s stage', (stage) => {
  const t = synthStage(stage);
  const config = STAGES[stage]!;
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
