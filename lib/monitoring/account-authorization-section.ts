import { GraphWidget, type HorizontalAnnotation, LegendPosition } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { ACCOUNT_AUTHORIZATION_RATE_FLOOR, BUSINESS_METRICS } from '../../shared/observability/metrics';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { perSeriesAlarm, perSeriesMetric, perSeriesQuery } from './per-account-alarm';
import { RUNBOOK, runbookRef } from './runbooks';

/** Accounts the authorization-rate panel draws: the lowest rates of the period. */
export const ACCOUNT_RATE_PANEL_ACCOUNTS = 20;

/** The dimensions of the per-account authorization series (shared/observability/metrics.ts `recordAuthorization`). */
const ACCOUNT_SERIES = ['connector', 'merchant_connector_id'] as const;

/**
 * The authorization rate (%) of each merchant connector account, the lowest first: the Average of
 * `AccountAuthorizationRate` (100 per approval, 0 per issuer decline) per `{connector, merchant_connector_id}`,
 * at most {@link ACCOUNT_RATE_PANEL_ACCOUNTS} series (the panel's).
 */
export function accountAuthorizationRateQuery(namespace: string, serviceName: string): string {
  return perSeriesQuery({
    namespace,
    serviceName,
    metricName: BUSINESS_METRICS.accountAuthorizationRate,
    aggregate: 'AVG',
    schema: ACCOUNT_SERIES,
    groupBy: ACCOUNT_SERIES,
    order: 'ASC',
    limit: ACCOUNT_RATE_PANEL_ACCOUNTS,
  });
}

/**
 * The per-account alarm's query: the Sum of `AccountAuthorizationShortfall` per `{connector,
 * merchant_connector_id}`, `attempts × (floor − rate)` in the period, the approvals an account lacked to reach
 * `ACCOUNT_AUTHORIZATION_RATE_FLOOR` (negative above it), the largest first. Why a shortfall rather than the
 * rate: a multi-time-series alarm is one query, and a query has one aggregate ("Query components and syntax in
 * CloudWatch Metrics Insights"), so "rate under the floor *and* enough answers to say so" cannot be two series; the
 * shortfall is both at once (2 declines of 2 answers are 1 approval short; 20 of 20 are 10), so a merchant's
 * one unlucky decline never fires it, and its value is the account's own, never diluted or raised by another
 * merchant's volume. Ordered by the shortfall, the accounts that can breach are always among the ≤ 500 series the
 * query returns, however many busy healthy accounts there are.
 */
export function accountAuthorizationShortfallQuery(namespace: string, serviceName: string): string {
  return perSeriesQuery({
    namespace,
    serviceName,
    metricName: BUSINESS_METRICS.accountAuthorizationShortfall,
    aggregate: 'SUM',
    schema: ACCOUNT_SERIES,
    groupBy: ACCOUNT_SERIES,
  });
}

/**
 * The "Authorization rate by connector account" section: the rate of the merchants' own accounts (the lowest
 * {@link ACCOUNT_RATE_PANEL_ACCOUNTS}), the shortfall below the floor the alarm reads, and one multi-time-series
 * alarm, `…-ConnectorAccounts-AuthorizationRate-Critical`: an account at or above
 * `alarms.accountAuthorizationShortfall` approvals short of `ACCOUNT_AUTHORIZATION_RATE_FLOOR` in a 5-minute period,
 * on 2 of 3 periods ({@link accountAuthorizationShortfallQuery}). The stage's own (platform) accounts are shared by
 * merchants and carry no account series: the per-connector success-rate alarms watch them. The alarm is declared in
 * the stage monitoring's scope ({@link sectionResourceScope}).
 */
export class AccountAuthorizationSection extends Construct {
  constructor(scope: Construct, id: string, props: DashboardSectionProps) {
    super(scope, id);
    const { alarms, stage } = props.config;
    const { namespace, serviceName } = props.metrics;
    const threshold = alarms.accountAuthorizationShortfall;
    const floorPercent = Math.round(ACCOUNT_AUTHORIZATION_RATE_FLOOR * 100);
    const rate = perSeriesMetric(accountAuthorizationRateQuery(namespace, serviceName), 'authorization rate');
    const shortfall = perSeriesMetric(accountAuthorizationShortfallQuery(namespace, serviceName), 'approvals short');
    perSeriesAlarm(sectionResourceScope(this), 'ConnectorAccountAuthorizationRate', {
      alarmName: `Switchyard-${stage}-ConnectorAccounts-AuthorizationRate-Critical`,
      alarmDescription: `A merchant connector account approved under ${floorPercent} % of its authorizations, by ${threshold} or more approvals, in 5 minutes, on 2 of 3 periods (AccountAuthorizationShortfall Sum = answers × (${ACCOUNT_AUTHORIZATION_RATE_FLOOR} − approval rate), per merchant_connector_id: one contributor per account, on its own answers only; the contributors name the accounts). ${runbookRef(RUNBOOK.accountAuthorizationRate)}`,
      metric: shortfall,
      threshold,
      alarmTopic: props.alarmTopic,
    });
    props.monitoring.addSmallHeader('Authorization rate by connector account');
    props.monitoring.addWidget(
      new GraphWidget({
        title: DASHBOARD_TITLES.accountAuthorizationRate,
        width: 12,
        height: 6,
        left: [rate],
        leftYAxis: { label: '%', min: 0, max: 100, showUnits: false },
        leftAnnotations: [{ value: floorPercent, label: `floor ${floorPercent} %` } satisfies HorizontalAnnotation],
        legendPosition: LegendPosition.RIGHT,
      }),
    );
    props.monitoring.addWidget(
      new GraphWidget({
        title: `${DASHBOARD_TITLES.accountAuthorizationShortfall} at ${threshold}`,
        width: 12,
        height: 6,
        left: [shortfall],
        leftYAxis: { label: 'approvals', showUnits: false },
        leftAnnotations: [{ value: threshold, label: 'alarm' } satisfies HorizontalAnnotation],
        legendPosition: LegendPosition.RIGHT,
      }),
    );
  }
}
