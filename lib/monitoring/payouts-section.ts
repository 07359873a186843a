import { GraphWidget, LegendPosition } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { perSeriesAlarm, perSeriesMetric, perSeriesQuery } from './per-account-alarm';
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
  return perSeriesQuery({
    namespace,
    serviceName,
    metricName: BUSINESS_METRICS.payoutOutcomes,
    aggregate: 'SUM',
    schema: scope === 'account' ? ['connector', 'merchant_connector_id', 'outcome'] : ['connector', 'outcome'],
    where: `(${outcomes})`,
    groupBy: scope === 'account' ? ['connector', 'merchant_connector_id'] : ['connector'],
  });
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
      metric: perSeriesMetric(
        payoutFailuresQuery(props.metrics.namespace, props.metrics.serviceName, s),
        s === 'account' ? 'failed or reversed (account)' : 'failed or reversed (platform)',
      ),
    }));
    for (const q of queries) {
      const name = q.scope === 'account' ? 'Accounts' : 'Platform';
      perSeriesAlarm(sectionResourceScope(this), `PayoutFailures${name}`, {
        alarmName: `Switchyard-${stage}-Payouts-FailedOrReversed-${name}-Critical`,
        alarmDescription: `${q.scope === 'account' ? 'A merchant connector account' : "A connector on the stage's own account"} had ${threshold} or more payouts fail or come back reversed in 5 minutes, on 2 of 3 periods (PayoutOutcomes outcome=failed or reversed, Sum, ${q.scope === 'account' ? 'per merchant_connector_id' : 'per connector'}: the alarm's contributors name them). ${runbookRef(RUNBOOK.payoutFailures)}`,
        metric: q.metric,
        threshold,
        alarmTopic: props.alarmTopic,
      });
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
