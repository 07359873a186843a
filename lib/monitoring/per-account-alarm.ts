import { Alarm, ComparisonOperator, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { BUSINESS_ALARM_EVALUATION } from './alarm-evaluation';

/** What {@link perSeriesQuery} selects: one metric, one aggregate, the series' dimensions and filter. */
export interface PerSeriesQuery {
  /** The stage's business metrics namespace (`Switchyard/<stage>`). */
  namespace: string;
  /** The `service` dimension's value; the query keeps only the series of this service. */
  serviceName: string;
  /** The metric name (shared/observability/metrics.ts `BUSINESS_METRICS`). */
  metricName: string;
  /** The Metrics Insights aggregate: `SUM` for counts, `AVG` for a value whose mean is a rate. */
  aggregate: 'SUM' | 'AVG';
  /**
   * Every dimension of the series besides `service` (the dimension set the code emits: `SCHEMA` keeps only the
   * series with exactly these keys plus `service`), in the order the query names them.
   */
  schema: readonly string[];
  /** Conditions joined before `service = '…'` with AND (e.g. `outcome = 'technical_error'`); none when empty. */
  where?: string;
  /** The dimensions that make one series (one alarm contributor). */
  groupBy: readonly string[];
  /** `DESC` (the default) puts the largest values first, `ASC` the smallest. */
  order?: 'DESC' | 'ASC';
  /** At most this many series (Metrics Insights returns at most 500 whatever this says). */
  limit?: number;
}

/**
 * A Metrics Insights query returning one series per group, for a multi-time-series alarm or a chart:
 * `SELECT <aggregate>(<metric>) FROM SCHEMA("<namespace>", <dims…, service>) WHERE [<where> AND] service = '<service>'
 * GROUP BY <groups> ORDER BY <aggregate>() <order> [LIMIT n]` ("Query components and syntax in CloudWatch Metrics
 * Insights", https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/cloudwatch-metrics-insights-querylanguage.html).
 * A query returns at most 500 series, chosen by its `ORDER BY` ("Limits", alarm-limits.html): an alarm's query orders
 * by the value that breaches first, so the series that could alarm are the ones returned, whatever the other
 * series' volume.
 */
export function perSeriesQuery(q: PerSeriesQuery): string {
  const where = q.where ? `${q.where} AND service = '${q.serviceName}'` : `service = '${q.serviceName}'`;
  return [
    `SELECT ${q.aggregate}(${q.metricName})`,
    `FROM SCHEMA("${q.namespace}", ${[...q.schema, 'service'].join(', ')})`,
    `WHERE ${where}`,
    `GROUP BY ${q.groupBy.join(', ')}`,
    `ORDER BY ${q.aggregate}() ${q.order ?? 'DESC'}`,
    ...(q.limit === undefined ? [] : [`LIMIT ${q.limit}`]),
  ].join(' ');
}

/** A query as a dashboard or alarm metric over 5-minute periods (the business alarms' period). */
export function perSeriesMetric(expression: string, label: string): MathExpression {
  return new MathExpression({ expression, usingMetrics: {}, period: BUSINESS_ALARM_EVALUATION.period, label });
}

/** What {@link perSeriesAlarm} builds. */
export interface PerSeriesAlarmProps {
  /** The alarm's full name (`Switchyard-<stage>-…-Critical`). */
  alarmName: string;
  /** What breached, how it is measured, and the runbook reference as the last sentence. */
  alarmDescription: string;
  /** The query's metric ({@link perSeriesMetric}). */
  metric: MathExpression;
  threshold: number;
  /** Default: at or above the threshold. */
  comparisonOperator?: ComparisonOperator;
  /** The stage's alarm topic, notified on ALARM. */
  alarmTopic: ITopic;
}

/**
 * One multi-time-series alarm on a Metrics Insights query with `GROUP BY`: "For multi-time series queries, each
 * returned time series becomes a contributor to the alarm … The alarm activates when any contributor enters the
 * ALARM state" (CloudWatch user guide, "Create an alarm based on a Multi Time Series Metrics Insights query",
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/multi-time-series-alarm.html). So every series
 * (every merchant connector account) is watched on its own numbers, without being named at synth time: one
 * merchant's volume neither hides another's account nor trips its alarm. Evaluated on 5-minute periods, 2 of 3
 * breaching, a period without data not breaching; notifies `alarmTopic`.
 * Limits: 200 Metrics Insights alarms per account and Region by default, the latest 3 hours of data, at most 100
 * contributors in ALARM, partial data past 500 series ("Limits", alarm-limits.html). aws-cdk-lib declares it as an
 * `Alarm` on a `MathExpression` whose expression is the query (its identifier check skips `SELECT` expressions),
 * rendered as `Metrics[].Expression` with `Period`.
 * @param scope where the alarm is declared (its logical id derives from this path)
 */
export function perSeriesAlarm(scope: Construct, id: string, props: PerSeriesAlarmProps): Alarm {
  const alarm = new Alarm(scope, id, {
    alarmName: props.alarmName,
    alarmDescription: props.alarmDescription,
    metric: props.metric,
    threshold: props.threshold,
    comparisonOperator: props.comparisonOperator ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: BUSINESS_ALARM_EVALUATION.evaluationPeriods,
    datapointsToAlarm: 2,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  alarm.addAlarmAction(new SnsAction(props.alarmTopic));
  return alarm;
}
