import { MetricStatistic } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import type { DashboardSectionProps } from './dashboard-section';

/**
 * The "Business metrics" section: payments by outcome per currency and connector, refunds (count
 * and amount in minor units) per currency, and connector latency p99: every series each metric has
 * (dashboard searches). Charts only.
 */
export class BusinessMetricsSection extends Construct {
  constructor(scope: Construct, id: string, props: DashboardSectionProps) {
    super(scope, id);
    const { metrics } = props;
    props.monitoring.monitorCustom({
      alarmFriendlyName: 'Business',
      humanReadableName: 'Business metrics',
      metricGroups: [
        {
          title: 'Payments by outcome (currency, connector)',
          metrics: [
            metrics.search(BUSINESS_METRICS.paymentsCreated, MetricStatistic.SUM, { currency: undefined, connector: undefined }, 'created'),
            metrics.search(
              BUSINESS_METRICS.paymentsSucceeded,
              MetricStatistic.SUM,
              { currency: undefined, connector: undefined },
              'succeeded',
            ),
            metrics.search(BUSINESS_METRICS.paymentsFailed, MetricStatistic.SUM, { currency: undefined, connector: undefined }, 'failed'),
          ],
        },
        {
          title: 'Refunds (count and amount in minor units, by currency)',
          metrics: [
            metrics.search(BUSINESS_METRICS.refunds, MetricStatistic.SUM, { currency: undefined }, 'refunds'),
            metrics.search(BUSINESS_METRICS.refundedAmount, MetricStatistic.SUM, { currency: undefined }, 'refunded amount'),
          ],
        },
        {
          title: 'Connector latency p99 (ms)',
          metrics: [
            metrics.search(BUSINESS_METRICS.connectorLatency, MetricStatistic.P99, { connector: undefined, operation: undefined }, 'p99'),
          ],
        },
      ],
    });
  }
}
