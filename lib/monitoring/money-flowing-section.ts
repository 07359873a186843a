import { Duration } from 'aws-cdk-lib';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { MetricStatistic } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { AUTHORIZATION_OUTCOMES, BUSINESS_METRICS } from '../../shared/observability/metrics';
import type { DashboardSectionProps } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { OPEN_OPERATION_KINDS } from './open-operations-section';
import { RUNBOOK_DOC } from './runbooks';

/** Props of {@link MoneyFlowingSection}. */
export interface MoneyFlowingSectionProps extends DashboardSectionProps {
  /** The connectors of the stage's routing rules: one success-rate series each. */
  connectors: string[];
  /** Whether webhook delivery is deployed (then the row charts its backlog). */
  webhookDelivery: boolean;
}

/**
 * The dashboard's top row, "Is money flowing?": payments per minute by status, authorization success
 * rate per connector, open operations and the oldest open one by kind, and (with webhook delivery) the
 * webhook backlog. Charts only; the alarms are on the sections below.
 */
export class MoneyFlowingSection extends Construct {
  constructor(scope: Construct, id: string, props: MoneyFlowingSectionProps) {
    super(scope, id);
    const { metrics } = props;
    // A total over every currency/connector series: SUM of a SEARCH (CloudWatch user guide,
    // "Use search expressions in graphs"); dashboards may search, alarms may not.
    const total = (metricName: string, label: string) =>
      new MathExpression({
        expression: `SUM(SEARCH('{${metrics.namespace},connector,currency,service} MetricName="${metricName}" service="${metrics.serviceName}"', 'Sum', 60))`,
        usingMetrics: {},
        label,
        period: Duration.minutes(1),
      });
    const kinds = [...OPEN_OPERATION_KINDS, 'awaiting_payer'];
    const metricGroups = [
      {
        title: DASHBOARD_TITLES.paymentsPerMinute,
        graphWidgetAxis: { label: 'count/min', min: 0 },
        metrics: [
          total(BUSINESS_METRICS.paymentsCreated, 'created'),
          total(BUSINESS_METRICS.paymentsSucceeded, 'succeeded'),
          total(BUSINESS_METRICS.paymentsFailed, 'failed'),
        ],
      },
      {
        title: DASHBOARD_TITLES.successRateByConnector,
        graphWidgetAxis: { label: '%', min: 0, max: 100 },
        metrics: props.connectors.map((c) =>
          metrics.outcomeRate(BUSINESS_METRICS.authorizations, c, AUTHORIZATION_OUTCOMES, ['succeeded'], c),
        ),
      },
      {
        title: DASHBOARD_TITLES.openOperationsNow,
        graphWidgetAxis: { label: 'count', min: 0 },
        metrics: kinds.map((kind) => metrics.metric(BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind }, kind)),
      },
      {
        title: DASHBOARD_TITLES.oldestOpenNow,
        graphWidgetAxis: { label: 'seconds', min: 0 },
        metrics: kinds.map((kind) => metrics.metric(BUSINESS_METRICS.oldestOpenOperationAge, MetricStatistic.MAX, { kind }, kind)),
      },
      ...(props.webhookDelivery
        ? [
            {
              title: DASHBOARD_TITLES.webhookBacklog,
              graphWidgetAxis: { label: 'seconds', min: 0 },
              metrics: [
                metrics.metric(
                  BUSINESS_METRICS.oldestOpenOperationAge,
                  MetricStatistic.MAX,
                  { kind: 'webhook_delivery' },
                  'oldest undelivered',
                ),
              ],
            },
          ]
        : []),
    ];
    props.monitoring.monitorCustom({
      alarmFriendlyName: 'MoneyFlowing',
      humanReadableName: 'Is money flowing?',
      description: `Payments by status, each connector's authorization success rate, and what is still open. Runbooks: ${RUNBOOK_DOC}.`,
      metricGroups,
    });
  }
}
