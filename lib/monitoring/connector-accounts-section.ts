import { GraphWidget, LegendPosition } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { perSeriesAlarm, perSeriesMetric, perSeriesQuery } from './per-account-alarm';
import { RUNBOOK, runbookRef } from './runbooks';

/**
 * The per-connector-account alarm's query: one series per merchant connector account, for a *multi time series*
 * alarm (./per-account-alarm.ts `perSeriesAlarm`), so every account is watched without being named at synth time.
 *
 * It counts technical errors (`ConnectorCalls` with `outcome = 'technical_error'`, Sum per 5 minutes)
 * per account, on the dimension set `{service, connector, outcome, merchant_connector_id}` the code adds
 * for calls on a merchant's own account (shared/observability/metrics.ts, `recordConnectorCall`; `SCHEMA`
 * restricts the query to series with exactly those dimensions). It is a count, not a rate: a Metrics
 * Insights query aggregates one metric with one function (SELECT FUNCTION(metric) … WHERE …, "Query
 * components and syntax in CloudWatch Metrics Insights"), so technical errors / all calls cannot be one
 * query, and the documented multi-time-series alarm is on one query, not on math between two grouped
 * ones. The per-connector rate alarms (`Connector-<c>-TechnicalErrorRate-Critical`) keep the rate.
 */
export function connectorAccountTechnicalErrorsQuery(namespace: string, serviceName: string): string {
  return perSeriesQuery({
    namespace,
    serviceName,
    metricName: BUSINESS_METRICS.connectorCalls,
    aggregate: 'SUM',
    schema: ['connector', 'merchant_connector_id', 'outcome'],
    where: "outcome = 'technical_error'",
    groupBy: ['connector', 'merchant_connector_id'],
  });
}

/**
 * The "Connector accounts" section: technical errors per merchant connector account, charted (top
 * accounts) and alarmed per account by one multi-time-series alarm
 * ({@link connectorAccountTechnicalErrorsQuery}): `…-ConnectorAccounts-TechnicalErrors-Critical`, at or
 * above `alarms.connectorAccountTechnicalErrors` in a 5-minute period on 2 of 3 periods; its runbook is
 * the connector technical error one (the account's processor, seen through one account). The alarm is
 * declared in the stage monitoring's scope ({@link sectionResourceScope}).
 */
export class ConnectorAccountsSection extends Construct {
  constructor(scope: Construct, id: string, props: DashboardSectionProps) {
    super(scope, id);
    const { alarms, stage } = props.config;
    const perAccount = perSeriesMetric(
      connectorAccountTechnicalErrorsQuery(props.metrics.namespace, props.metrics.serviceName),
      'technical errors',
    );
    const threshold = alarms.connectorAccountTechnicalErrors;
    perSeriesAlarm(sectionResourceScope(this), 'ConnectorAccountTechnicalErrors', {
      alarmName: `Switchyard-${stage}-ConnectorAccounts-TechnicalErrors-Critical`,
      alarmDescription: `A merchant connector account had ${threshold} or more processor calls end in a technical error (timeout, network failure, 5xx, unreadable answer) in 5 minutes, on 2 of 3 periods (ConnectorCalls outcome=technical_error, Sum, per merchant_connector_id: one contributor per account; the alarm's contributors name the accounts). ${runbookRef(RUNBOOK.connectorTechnicalErrors)}`,
      metric: perAccount,
      threshold,
      alarmTopic: props.alarmTopic,
    });
    props.monitoring.addSmallHeader('Connector accounts');
    props.monitoring.addWidget(
      new GraphWidget({
        title: `${DASHBOARD_TITLES.connectorAccountTechnicalErrors} at ${threshold}`,
        width: 24,
        height: 6,
        left: [perAccount],
        leftYAxis: { label: 'count', min: 0, showUnits: false },
        legendPosition: LegendPosition.RIGHT,
      }),
    );
  }
}
