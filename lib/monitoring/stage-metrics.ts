import { Duration } from 'aws-cdk-lib';
import { type IMetric, MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type CustomMetricSearch, MetricStatistic } from 'cdk-monitoring-constructs';
import { BUSINESS_ALARM_EVALUATION } from './alarm-evaluation';

/**
 * The stage's business metrics as the dashboard and alarms read them: namespace `Switchyard/<stage>`
 * (Powertools Metrics), every series with the `service` dimension besides its own
 * (shared/observability/metrics.ts).
 */
export class StageMetrics {
  /**
   * @param namespace CloudWatch namespace of the business metrics
   * @param serviceName the `service` dimension's value
   * @param minRateVolumePerPeriod fewest events a 5-minute period needs for a rate to exist ({@link StageMetrics.outcomeRate})
   */
  constructor(
    readonly namespace: string,
    readonly serviceName: string,
    private readonly minRateVolumePerPeriod: number,
  ) {}

  /**
   * One series of a business metric (Powertools single metric: `service` plus `dims`).
   * @param period default 1 minute
   */
  metric(
    metricName: string,
    statistic: MetricStatistic,
    dims: Record<string, string>,
    label: string,
    period = Duration.minutes(1),
  ): Metric {
    return new Metric({
      namespace: this.namespace,
      metricName,
      dimensionsMap: { service: this.serviceName, ...dims },
      statistic,
      label,
      period,
    });
  }

  /**
   * Every series of a business metric whose dimensions are `service` and `dims`' keys, a key set to
   * `undefined` matching any value (a dashboard search; alarms cannot read searches). Series are
   * labelled by `label`, which may name their dimension values with CloudWatch's dynamic labels
   * (`${PROP('Dim.<name>')}`, applied to every metric a search returns: CloudWatch user guide,
   * "Use dynamic labels").
   */
  search(metricName: string, statistic: MetricStatistic, dims: Record<string, string | undefined>, label: string): CustomMetricSearch {
    return {
      namespace: this.namespace,
      searchQuery: `MetricName="${metricName}"`,
      dimensionsMap: { service: this.serviceName, ...dims } as Record<string, string>,
      statistic,
      label,
    };
  }

  /**
   * A connector's rate, in percent, of the `numerator` outcomes over all `outcomes` of a count
   * metric with dimensions `{connector, outcome}` (metric math, 5-minute periods): each outcome's
   * series is `FILL(…, 0)`ed (an outcome absent in a period counts 0), and the rate exists only in
   * periods with at least `minRateVolumePerPeriod` events (`IF(total >= minVolume, …)`: a period with
   * no or little traffic has no datapoint rather than a rate of 0 or 100: the two-argument form of
   * IF, which returns nothing where the condition is false — the form cdk-monitoring-constructs
   * 10.2.0 itself builds for `minSampleCountToEvaluateDatapoint`, `IF(<count> > N, <metric>)`,
   * lib/common/alarm/AlarmFactory.js). CloudWatch user guide, "Use metric math" (FILL, IF).
   * @returns the expression (alarms read it; the dashboard charts it)
   */
  outcomeRate(
    metricName: string,
    connector: string,
    outcomes: readonly string[],
    numerator: readonly string[],
    label: string,
  ): MathExpression {
    // Ids unique per connector and metric, so several rates can share a graph.
    const ids = outcomes.map(
      (_, i) =>
        `${connector.replace(/[^a-z0-9]/g, '')}_${metricName
          .toLowerCase()
          .replace(/[^a-z]/g, '')
          .slice(0, 8)}${i}`,
    );
    const usingMetrics: Record<string, IMetric> = {};
    outcomes.forEach((outcome, i) => {
      usingMetrics[ids[i]!] = this.metric(
        metricName,
        MetricStatistic.SUM,
        { connector, outcome },
        outcome,
        BUSINESS_ALARM_EVALUATION.period,
      );
    });
    const filled = (id: string) => `FILL(${id}, 0)`;
    const total = `(${ids.map(filled).join(' + ')})`;
    const part = `(${outcomes.flatMap((o, i) => (numerator.includes(o) ? [filled(ids[i]!)] : [])).join(' + ')})`;
    return new MathExpression({
      expression: `IF(${total} >= ${this.minRateVolumePerPeriod}, 100 * ${part} / ${total})`,
      usingMetrics,
      label,
      period: BUSINESS_ALARM_EVALUATION.period,
    });
  }
}
