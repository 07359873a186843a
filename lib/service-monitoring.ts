import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import {
  DefaultDashboardFactory,
  MetricStatistic,
  MonitoringFacade,
  SnsAlarmActionStrategy,
  type CustomMetricSearch,
} from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../shared/observability/metrics';
import type { StageConfig } from './config/stage-config';

/** Props of {@link ServiceMonitoring}. */
export interface ServiceMonitoringProps {
  config: StageConfig;
  api: IHttpApi;
  functions: { name: string; fn: IFunction }[];
  table: ITableV2;
  alarmTopic: ITopic;
  /** CloudWatch namespace of the business metrics (Powertools Metrics). */
  metricsNamespace: string;
  serviceName: string;
}

/**
 * The stage's CloudWatch dashboard and alarms, built with cdk-monitoring-constructs:
 * API requests, 4xx/5xx, p50/p90/p99 latency; per function errors, duration p99,
 * throttles and concurrency; DynamoDB capacity, throttles and latency; business
 * metrics. Alarms (5xx rate, p99 latency, Lambda errors and throttles, DynamoDB
 * throttles) notify the alarm topic.
 */
export class ServiceMonitoring extends Construct {
  /** Name of the CloudWatch dashboard. */
  readonly dashboardName: string;

  constructor(scope: Construct, id: string, props: ServiceMonitoringProps) {
    super(scope, id);
    const { config } = props;
    this.dashboardName = `Switchyard-${config.stage}`;
    const dashboards = new DefaultDashboardFactory(this, 'Dashboards', {
      dashboardNamePrefix: this.dashboardName,
      createDashboard: true,
      createSummaryDashboard: false,
      createAlarmDashboard: false,
    });
    const monitoring = new MonitoringFacade(this, 'Monitoring', {
      alarmFactoryDefaults: {
        alarmNamePrefix: `Switchyard-${config.stage}`,
        actionsEnabled: true,
        action: new SnsAlarmActionStrategy({ onAlarmTopic: props.alarmTopic }),
        datapointsToAlarm: 3,
        evaluationPeriods: 5,
      },
      metricFactoryDefaults: { period: Duration.minutes(1) },
      dashboardFactory: dashboards,
    });

    monitoring.addLargeHeader(`Switchyard ${config.stage}`);
    monitoring.monitorApiGatewayV2HttpApi({
      api: props.api,
      alarmFriendlyName: 'Api',
      add5xxRateAlarm: { Critical: { maxErrorRate: config.alarms.api5xxRate } },
      addLatencyP99Alarm: { Warning: { maxLatency: Duration.millis(config.alarms.apiLatencyP99Ms) } },
    });
    for (const { name, fn } of props.functions) {
      monitoring.monitorLambdaFunction({
        lambdaFunction: fn,
        alarmFriendlyName: name,
        humanReadableName: name,
        addFaultCountAlarm: { Critical: { maxErrorCount: config.alarms.lambdaErrors } },
        addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
      });
    }
    monitoring.monitorDynamoTable({
      table: props.table,
      alarmFriendlyName: 'Table',
      addReadThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: config.alarms.dynamoThrottles } },
      addWriteThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: config.alarms.dynamoThrottles } },
    });

    const search = (metricName: string, statistic: MetricStatistic, dims: Record<string, string | undefined>, label: string): CustomMetricSearch => ({
      namespace: props.metricsNamespace,
      searchQuery: `MetricName="${metricName}"`,
      dimensionsMap: { service: props.serviceName, ...dims } as Record<string, string>,
      statistic,
      label,
    });
    monitoring.monitorCustom({
      alarmFriendlyName: 'Business',
      humanReadableName: 'Business metrics',
      metricGroups: [
        {
          title: 'Payments by outcome (currency, connector)',
          metrics: [
            search(BUSINESS_METRICS.paymentsCreated, MetricStatistic.SUM, { currency: undefined, connector: undefined }, 'created'),
            search(BUSINESS_METRICS.paymentsSucceeded, MetricStatistic.SUM, { currency: undefined, connector: undefined }, 'succeeded'),
            search(BUSINESS_METRICS.paymentsFailed, MetricStatistic.SUM, { currency: undefined, connector: undefined }, 'failed'),
          ],
        },
        {
          title: 'Refunds (count and amount in minor units, by currency)',
          metrics: [
            search(BUSINESS_METRICS.refunds, MetricStatistic.SUM, { currency: undefined }, 'refunds'),
            search(BUSINESS_METRICS.refundedAmount, MetricStatistic.SUM, { currency: undefined }, 'refunded amount'),
          ],
        },
        {
          title: 'Connector latency p99 (ms)',
          metrics: [search(BUSINESS_METRICS.connectorLatency, MetricStatistic.P99, { connector: undefined, operation: undefined }, 'p99')],
        },
      ],
    });
  }
}
