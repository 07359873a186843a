import { Alarm, ComparisonOperator, GraphWidget, LegendPosition, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { BUSINESS_ALARM_EVALUATION } from './alarm-evaluation';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { RUNBOOK, runbookRef } from './runbooks';

/**
 * The per-connector-account alarm: one CloudWatch alarm on a Metrics Insights query with
 * `GROUP BY merchant_connector_id`, a *multi time series* alarm: "For multi-time series queries, each
 * returned time series becomes a contributor to the alarm … The alarm activates when any contributor
 * enters the ALARM state" (CloudWatch user guide, "Create a CloudWatch alarm based on a Metrics Insights
 * query", https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/Create_Metrics_Insights_Alarm.html,
 * and "Create an alarm based on a Multi Time Series Metrics Insights query", multi-time-series-alarm.html:
 * the query has GROUP BY and ORDER BY). So every account is watched without being named at synth time.
 *
 * It counts technical errors (`ConnectorCalls` with `outcome = 'technical_error'`, Sum per 5 minutes)
 * per account, on the dimension set `{service, connector, outcome, merchant_connector_id}` the code adds
 * for calls on a merchant's own account (shared/observability/metrics.ts, `recordConnectorCall`; `SCHEMA`
 * restricts the query to series with exactly those dimensions). It is a count, not a rate: a Metrics
 * Insights query aggregates one metric with one function (SELECT FUNCTION(metric) … WHERE …, "Query
 * components and syntax in CloudWatch Metrics Insights"), so technical errors / all calls cannot be one
 * query, and the documented multi-time-series alarm is on one query, not on math between two grouped
 * ones. The per-connector rate alarms (`Connector-<c>-TechnicalErrorRate-Critical`) keep the rate.
 * Limits: 200 Metrics Insights alarms per account and Region by default, the latest 3 hours of data,
 * at most 100 contributors in ALARM, partial data past 500 series ("Limits", alarm-limits.html).
 * aws-cdk-lib 2.276 declares it as an `Alarm` on a `MathExpression` whose expression is the query (its
 * identifier check skips `SELECT` expressions), rendered as `Metrics[].Expression` with `Period`.
 */
export function connectorAccountTechnicalErrorsQuery(namespace: string, serviceName: string): string {
  return [
    `SELECT SUM(${BUSINESS_METRICS.connectorCalls})`,
    `FROM SCHEMA("${namespace}", connector, merchant_connector_id, outcome, service)`,
    `WHERE outcome = 'technical_error' AND service = '${serviceName}'`,
    'GROUP BY connector, merchant_connector_id',
    'ORDER BY SUM() DESC',
  ].join(' ');
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
    const perAccount = new MathExpression({
      expression: connectorAccountTechnicalErrorsQuery(props.metrics.namespace, props.metrics.serviceName),
      usingMetrics: {},
      period: BUSINESS_ALARM_EVALUATION.period,
      label: 'technical errors',
    });
    const threshold = alarms.connectorAccountTechnicalErrors;
    const alarm = new Alarm(sectionResourceScope(this), 'ConnectorAccountTechnicalErrors', {
      alarmName: `Switchyard-${stage}-ConnectorAccounts-TechnicalErrors-Critical`,
      alarmDescription: `A merchant connector account had ${threshold} or more processor calls end in a technical error (timeout, network failure, 5xx, unreadable answer) in 5 minutes, on 2 of 3 periods (ConnectorCalls outcome=technical_error, Sum, per merchant_connector_id: one contributor per account; the alarm's contributors name the accounts). ${runbookRef(RUNBOOK.connectorTechnicalErrors)}`,
      metric: perAccount,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: BUSINESS_ALARM_EVALUATION.evaluationPeriods,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(new SnsAction(props.alarmTopic));
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
