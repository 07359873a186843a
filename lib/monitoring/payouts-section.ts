import { Alarm, ComparisonOperator, GraphWidget, LegendPosition, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { BUSINESS_ALARM_EVALUATION } from './alarm-evaluation';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { RUNBOOK, runbookRef } from './runbooks';

/** The payout outcomes the alarms count: a payout the processor failed, and one the receiving bank returned. */
export const ALARMED_PAYOUT_OUTCOMES = ['failed', 'reversed'] as const;

/**
 * A Metrics Insights query of failed and reversed payouts (`PayoutOutcomes`, Sum per period), one series per
 * merchant connector account (`scope: 'account'`: the dimension set `{service, connector, outcome,
 * merchant_connector_id}` shared/observability/metrics.ts `recordPayoutOutcome` adds for a merchant's own account) or
 * per connector for the stage's own accounts (`scope: 'platform'`: `{service, connector, outcome}`). As the connector
 * accounts' technical-error alarm (./connector-accounts-section.ts), a multi-time-series alarm on it watches every
 * account without naming it at synth time.
 */
export function payoutFailuresQuery(namespace: string, serviceName: string, scope: 'account' | 'platform'): string {
  const outcomes = ALARMED_PAYOUT_OUTCOMES.map((o) => `outcome = '${o}'`).join(' OR ');
  return [
    `SELECT SUM(${BUSINESS_METRICS.payoutOutcomes})`,
    scope === 'account'
      ? `FROM SCHEMA("${namespace}", connector, merchant_connector_id, outcome, service)`
      : `FROM SCHEMA("${namespace}", connector, outcome, service)`,
    `WHERE (${outcomes}) AND service = '${serviceName}'`,
    scope === 'account' ? 'GROUP BY connector, merchant_connector_id' : 'GROUP BY connector',
    'ORDER BY SUM() DESC',
  ].join(' ');
}

/**
 * The "Payouts" section: failed and reversed payouts per connector account (and per connector for the stage's own
 * accounts), charted and alarmed by two multi-time-series alarms, `…-Payouts-FailedOrReversed-Accounts-Critical` and
 * `…-Payouts-FailedOrReversed-Platform-Critical`: at or above `alarms.payoutFailuresPerPeriod` in a 5-minute period
 * on 2 of 3 periods. Runbook: docs/operations.md "Payouts failing or reversed".
 */
export class PayoutsSection extends Construct {
  constructor(scope: Construct, id: string, props: DashboardSectionProps) {
    super(scope, id);
    const { alarms, stage } = props.config;
    const threshold = alarms.payoutFailuresPerPeriod;
    const queries = (['account', 'platform'] as const).map((s) => ({
      scope: s,
      metric: new MathExpression({
        expression: payoutFailuresQuery(props.metrics.namespace, props.metrics.serviceName, s),
        usingMetrics: {},
        period: BUSINESS_ALARM_EVALUATION.period,
        label: s === 'account' ? 'failed or reversed (account)' : 'failed or reversed (platform)',
      }),
    }));
    for (const q of queries) {
      const name = q.scope === 'account' ? 'Accounts' : 'Platform';
      const alarm = new Alarm(sectionResourceScope(this), `PayoutFailures${name}`, {
        alarmName: `Switchyard-${stage}-Payouts-FailedOrReversed-${name}-Critical`,
        alarmDescription: `${q.scope === 'account' ? 'A merchant connector account' : "A connector on the stage's own account"} had ${threshold} or more payouts fail or come back reversed in 5 minutes, on 2 of 3 periods (PayoutOutcomes outcome=failed or reversed, Sum, ${q.scope === 'account' ? 'per merchant_connector_id' : 'per connector'}: the alarm's contributors name them). ${runbookRef(RUNBOOK.payoutFailures)}`,
        metric: q.metric,
        threshold,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: BUSINESS_ALARM_EVALUATION.evaluationPeriods,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(new SnsAction(props.alarmTopic));
    }
    props.monitoring.addSmallHeader('Payouts');
    props.monitoring.addWidget(
      new GraphWidget({
        title: `Failed or reversed payouts (count per 5 min, per account and per connector; alarm at ${threshold})`,
        width: 24,
        height: 6,
        left: queries.map((q) => q.metric),
        leftYAxis: { label: 'count', min: 0, showUnits: false },
        legendPosition: LegendPosition.RIGHT,
      }),
    );
  }
}
