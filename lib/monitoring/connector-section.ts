import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import {
  type CustomMetric,
  type CustomMetricWithAlarm,
  type CustomMetricWithAnomalyDetection,
  MetricStatistic,
} from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { AUTHORIZATION_OUTCOMES, BUSINESS_METRICS, CONNECTOR_CALL_OUTCOMES } from '../../shared/observability/metrics';
import { BUSINESS_ALARM_EVALUATION } from './alarm-evaluation';
import type { DashboardSectionProps } from './dashboard-section';
import { DASHBOARD_TITLES } from './dashboard-titles';
import { RUNBOOK, RUNBOOK_DOC, runbookRef } from './runbooks';

/** Props of {@link ConnectorSection}. */
export interface ConnectorSectionProps extends DashboardSectionProps {
  /** The connector (a name of the stage's routing rules). */
  connector: string;
}

/**
 * The section of one connector of the stage: authorization success rate (alarm: below its CloudWatch
 * anomaly detection band), technical error rate (alarm: above `alarms.connectorTechnicalErrorRate`),
 * latency p50/p99 by operation, circuit state and skips, and refunds failed at the processor
 * (alarm: at or above `alarms.refundFailuresPerPeriod`).
 *
 * The success rate is a metric-math expression; CloudWatch anomaly detection accepts one as its
 * input ("MetricMathAnomalyDetector": "the designated math expression must return a single time
 * series", CloudWatch API reference / CloudFormation `AWS::CloudWatch::AnomalyDetector`), and
 * cdk-monitoring-constructs 10.2.0 builds the alarm (`CustomMetricWithAnomalyDetection`,
 * `AnomalyDetectionMathExpression`: `ANOMALY_DETECTION_BAND(<expression>, <stdDevs>)` as the
 * alarm's `ThresholdMetricId`, comparison `LessThanLowerThreshold`), so the "usual level" is
 * learned per connector instead of a fixed per-stage floor.
 */
export class ConnectorSection extends Construct {
  constructor(scope: Construct, id: string, props: ConnectorSectionProps) {
    super(scope, id);
    const { connector, metrics } = props;
    const { alarms } = props.config;
    const successRate = metrics.outcomeRate(
      BUSINESS_METRICS.authorizations,
      connector,
      AUTHORIZATION_OUTCOMES,
      ['succeeded'],
      'success rate',
    );
    const errorRate = metrics.outcomeRate(
      BUSINESS_METRICS.connectorCalls,
      connector,
      CONNECTOR_CALL_OUTCOMES,
      ['technical_error'],
      'technical errors',
    );
    const errorRatePercent = Math.round(alarms.connectorTechnicalErrorRate * 10_000) / 100;
    const band: CustomMetricWithAnomalyDetection = {
      metric: successRate,
      anomalyDetectionStandardDeviationToRender: alarms.authorizationSuccessBandStdDevs,
      alarmFriendlyName: 'AuthorizationSuccessRate',
      addAlarmOnAnomaly: {
        Critical: {
          standardDeviationForAlarm: alarms.authorizationSuccessBandStdDevs,
          alarmWhenAboveTheBand: false,
          alarmWhenBelowTheBand: true,
          additionalDescription: `${connector}'s authorization success rate (Authorizations succeeded / all outcomes, 5-minute periods with at least ${alarms.minRateVolumePerPeriod} attempts) is below its usual level (anomaly band of ${alarms.authorizationSuccessBandStdDevs} standard deviations) on 3 of 3 periods. ${runbookRef(RUNBOOK.connectorSuccessRate)}`,
          ...BUSINESS_ALARM_EVALUATION,
          datapointsToAlarm: 3,
        },
      },
    };
    const technical: CustomMetricWithAlarm = {
      metric: errorRate,
      alarmFriendlyName: 'TechnicalErrorRate',
      addAlarm: {
        Critical: {
          threshold: errorRatePercent,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          additionalDescription: `More than ${errorRatePercent} % of the calls to ${connector} ended in a technical error (ConnectorCalls technical_error / all outcomes, 5-minute periods with at least ${alarms.minRateVolumePerPeriod} calls) on 2 of 3 periods. ${runbookRef(RUNBOOK.connectorTechnicalErrors)}`,
          ...BUSINESS_ALARM_EVALUATION,
          datapointsToAlarm: 2,
        },
      },
    };
    const refundFailures: CustomMetricWithAlarm = {
      metric: metrics.metric(
        BUSINESS_METRICS.refundOutcomes,
        MetricStatistic.SUM,
        { connector, outcome: 'failed' },
        'failed refunds',
        BUSINESS_ALARM_EVALUATION.period,
      ),
      alarmFriendlyName: 'RefundFailures',
      addAlarm: {
        Critical: {
          threshold: alarms.refundFailuresPerPeriod,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          additionalDescription: `${connector} failed ${alarms.refundFailuresPerPeriod} or more refunds in 5 minutes (RefundOutcomes outcome=failed, Sum) on 2 of 3 periods. ${runbookRef(RUNBOOK.refundFailures)}`,
          ...BUSINESS_ALARM_EVALUATION,
          datapointsToAlarm: 2,
        },
      },
    };
    // CloudWatch's dynamic label syntax (escaped, not a JS substitution): the series' operation.
    const latency = (statistic: MetricStatistic, stat: string) =>
      metrics.search(
        BUSINESS_METRICS.connectorLatency,
        statistic,
        { connector, operation: undefined },
        `\${PROP('Dim.operation')} ${stat}`,
      );
    const metricGroups: { title: string; graphWidgetAxis?: { label: string; min: number; max?: number }; metrics: CustomMetric[] }[] = [
      { title: DASHBOARD_TITLES.connectorSuccessRate(connector), graphWidgetAxis: { label: '%', min: 0, max: 100 }, metrics: [band] },
      {
        title: `${DASHBOARD_TITLES.connectorTechnicalErrors(connector)}; alarm above ${errorRatePercent} %`,
        graphWidgetAxis: { label: '%', min: 0 },
        metrics: [technical],
      },
      {
        title: DASHBOARD_TITLES.connectorLatency(connector),
        graphWidgetAxis: { label: 'ms', min: 0 },
        metrics: [latency(MetricStatistic.P50, 'p50'), latency(MetricStatistic.P99, 'p99')],
      },
      {
        title: DASHBOARD_TITLES.connectorCircuit(connector),
        graphWidgetAxis: { label: 'state / count', min: 0 },
        metrics: [
          metrics.metric(BUSINESS_METRICS.circuitState, MetricStatistic.MAX, { connector }, 'circuit state'),
          metrics.metric(BUSINESS_METRICS.circuitSkips, MetricStatistic.SUM, { connector }, 'skipped (circuit open)'),
        ],
      },
      {
        title: `${DASHBOARD_TITLES.connectorRefundFailures(connector)}; alarm at ${alarms.refundFailuresPerPeriod}`,
        graphWidgetAxis: { label: 'count', min: 0 },
        metrics: [refundFailures],
      },
    ];
    props.monitoring.monitorCustom({
      alarmFriendlyName: `Connector-${connector}`,
      humanReadableName: `Connector: ${connector}`,
      description: `Authorizations, processor calls, latency, circuit breaker and refunds of ${connector}. Runbooks: ${RUNBOOK_DOC}#${RUNBOOK.connectorSuccessRate}, #${RUNBOOK.connectorTechnicalErrors}, #${RUNBOOK.refundFailures}.`,
      metricGroups,
    });
  }
}
