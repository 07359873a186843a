import { Duration } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import {
  type CustomMetricSearch,
  type CustomMetricWithAlarm,
  DefaultDashboardFactory,
  MetricStatistic,
  MonitoringFacade,
  SnsAlarmActionStrategy,
} from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { CONNECTOR_FACTORIES } from '../shared/connectors/registry';
import { BUSINESS_METRICS } from '../shared/observability/metrics';
import type { StageConfig } from './config/stage-config';

/**
 * Values of the `kind` dimension of the reconciler's open-operation metrics that are alarmed on
 * (shared/storage/open-items-repository.ts). `awaiting_payer` (payments in `RequiresAction`,
 * open until the payer acts) is charted with the others but never alarmed on.
 */
export const OPEN_OPERATION_KINDS = ['payment', 'refund', 'customer_delete'] as const;

/**
 * Evaluation of the reconciler's alarms: one 5-minute period, one datapoint breaching. The
 * reconciler runs every minute, so a period holds up to five runs; a silent period (no runs,
 * no open operations, an idle queue) is treated as not breaching.
 */
export const RECONCILER_ALARM_EVALUATION = {
  period: Duration.minutes(5),
  datapointsToAlarm: 1,
  evaluationPeriods: 1,
  treatMissingDataOverride: TreatMissingData.NOT_BREACHING,
} as const;

/**
 * The webhook metrics the dashboard and alarms read (namespace `Switchyard/<stage>`, Powertools
 * Metrics, every series with the `service` dimension). The names are written here as strings:
 * shared/observability/metrics.ts (BUSINESS_METRICS) is to list them too. Dimensions besides
 * `service`:
 * - `WebhookDeliveries` (Count): one per delivery attempt, dimension `outcome` — `delivered`
 *   (2xx in time), `failed_attempt` (to be retried), `failed` (retry schedule exhausted),
 *   `refused` (URL rules refused the endpoint's host at delivery time).
 * - `WebhookDeliveryLatency` (Milliseconds): duration of one attempt, no other dimension.
 * - `OldestUndeliveredEventAgeSeconds` (Seconds): age of the oldest event with a delivery still
 *   pending. The alarm reads the series with no other dimension (alarms cannot read search
 *   expressions); a per-merchant series (dimension `merchant_id`) is charted when emitted.
 */
export const WEBHOOK_METRICS = {
  deliveries: BUSINESS_METRICS.webhookDeliveryAttempts,
  deliveryLatency: BUSINESS_METRICS.webhookAttemptDuration,
  /** The reconciler's gauge for open deliveries (dimension kind = webhook_delivery). */
  oldestUndeliveredEventAge: BUSINESS_METRICS.oldestOpenOperationAge,
} as const;

/** Values of the `outcome` dimension of `WebhookDeliveries` ({@link WEBHOOK_METRICS}). */
export const WEBHOOK_DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed', 'gone'] as const;

/**
 * Stream lag of the webhook delivery function that alarms: Lambda's `IteratorAge` (age of the
 * last record read, Maximum) above 5 minutes.
 */
export const WEBHOOK_ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

/** Props of {@link ServiceMonitoring}. */
export interface ServiceMonitoringProps {
  config: StageConfig;
  api: IHttpApi;
  /** The API's functions (one per route, plus the 404). */
  functions: { name: string; fn: IFunction }[];
  /** The background reconciler and the dead-letter queue of its schedule. */
  reconciler: { name: string; fn: IFunction; deadLetterQueue: IQueue };
  /** The webhook delivery function (fed by the table's stream) and its on-failure queue, when deployed. */
  webhookDelivery?: { name: string; fn: IFunction; failureQueue: IQueue };
  table: ITableV2;
  alarmTopic: ITopic;
  /** CloudWatch namespace of the business metrics (Powertools Metrics). */
  metricsNamespace: string;
  serviceName: string;
}

/**
 * The stage's CloudWatch dashboard and alarms, built with cdk-monitoring-constructs:
 * API requests, 4xx/5xx, p50/p90/p99 latency; per function errors, duration p99,
 * throttles and concurrency (the reconciler's too); DynamoDB capacity, throttles and
 * latency; business metrics; open operations (the reconciler's metrics) and the
 * reconciler schedule's dead-letter queue. Alarms (5xx rate, p99 latency, Lambda errors
 * and throttles, DynamoDB throttles; an operation open too long, per kind; reconciler
 * failures and errors; undelivered reconciler invocations) notify the alarm topic.
 * With webhook delivery: its function's panels (iterator age included), a "Webhooks" section
 * ({@link WEBHOOK_METRICS}), and alarms on the undelivered backlog, on its stream lag
 * (`IteratorAge`) and on its on-failure queue holding messages.
 *
 * Sources: cdk-monitoring-constructs 10.2.0 (`MonitoringFacade.monitorCustom` with
 * `CustomMetricWithAlarm` — alarms cannot be set on search expressions, hence one explicit
 * metric, and alarm, per `kind`; `monitorLambdaFunction`; `monitorSqsQueue` with
 * `addQueueMaxSizeAlarm`, on `ApproximateNumberOfMessagesVisible`; `monitorLambdaFunction` with
 * `isIterator` and `addMaxIteratorAgeAlarm`, on `IteratorAge` Maximum — Lambda developer guide,
 * "Using CloudWatch metrics with Lambda": IteratorAge is the age of the last record in each
 * batch, for stream event sources).
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
    // The reconciler: the same panels and alarms, but its errors alarm fires on one error in
    // 5 minutes (it runs about once a minute, so the API functions' per-minute count never would).
    monitoring.monitorLambdaFunction({
      lambdaFunction: props.reconciler.fn,
      alarmFriendlyName: props.reconciler.name,
      humanReadableName: `${props.reconciler.name} (every minute)`,
      addFaultCountAlarm: {
        Critical: {
          maxErrorCount: 1,
          comparisonOperatorOverride: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          ...RECONCILER_ALARM_EVALUATION,
        },
      },
      addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
    });
    // Webhook delivery: the API functions' alarms, plus its stream lag.
    if (props.webhookDelivery) {
      monitoring.monitorLambdaFunction({
        lambdaFunction: props.webhookDelivery.fn,
        alarmFriendlyName: props.webhookDelivery.name,
        humanReadableName: `${props.webhookDelivery.name} (table stream)`,
        isIterator: true,
        addFaultCountAlarm: { Critical: { maxErrorCount: config.alarms.lambdaErrors } },
        addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
        addMaxIteratorAgeAlarm: {
          Critical: {
            maxAgeInMillis: WEBHOOK_ITERATOR_AGE_ALARM_MS,
            alarmDescriptionOverride:
              'The webhook delivery function lags the table stream by more than 5 minutes (IteratorAge, Maximum): events wait for their first delivery. Look for errors, throttles or timeouts of the function.',
          },
        },
      });
    }
    monitoring.monitorDynamoTable({
      table: props.table,
      alarmFriendlyName: 'Table',
      addReadThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: config.alarms.dynamoThrottles } },
      addWriteThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: config.alarms.dynamoThrottles } },
    });

    const search = (
      metricName: string,
      statistic: MetricStatistic,
      dims: Record<string, string | undefined>,
      label: string,
    ): CustomMetricSearch => ({
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

    // Open operations: what the reconciler sees and does (shared/observability/metrics.ts).
    // Powertools single metrics carry the `service` dimension besides their own. Search series
    // are labelled by their dimension values (CloudWatch dynamic labels, `${PROP('Dim.<name>')}`,
    // which apply to every metric a search returns: CloudWatch user guide, "Use dynamic labels").
    const metric = (metricName: string, statistic: MetricStatistic, dims: Record<string, string>, label: string) =>
      new Metric({
        namespace: props.metricsNamespace,
        metricName,
        dimensionsMap: { service: props.serviceName, ...dims },
        statistic,
        label,
        period: Duration.minutes(1),
      });
    const oldestByKind: CustomMetricWithAlarm[] = OPEN_OPERATION_KINDS.map((kind) => ({
      metric: metric(BUSINESS_METRICS.oldestOpenOperationAge, MetricStatistic.MAX, { kind }, kind),
      alarmFriendlyName: `OldestOpenOperationAge-${kind}`,
      addAlarm: {
        Critical: {
          threshold: config.alarms.openOperationMaxAgeSeconds,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          additionalDescription: `A ${kind} operation has been open for more than ${config.alarms.openOperationMaxAgeSeconds} s (OldestOpenOperationAgeSeconds, Maximum over 5 minutes): the reconciler cannot settle it. Look it up on GSI5 and in the reconciler's logs.`,
          ...RECONCILER_ALARM_EVALUATION,
        },
      },
    }));
    monitoring.monitorCustom({
      alarmFriendlyName: 'OpenOperations',
      humanReadableName: 'Open operations',
      description:
        'Payments, refunds and customer deletes left open (GSI5), as the reconciler sees them on its every-minute run, and what it settles. An operation open past the bound, or a failing reconciler, alarms.',
      metricGroups: [
        {
          title: 'Open operations by kind (count, per reconciler run)',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudWatch's dynamic label syntax, not a JS template
          metrics: [search(BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind: undefined }, "${PROP('Dim.kind')}")],
        },
        {
          title: `Oldest open operation age by kind (seconds, maximum; alarm above ${config.alarms.openOperationMaxAgeSeconds} s)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: oldestByKind,
        },
        {
          title: 'Operations settled by kind and outcome (count per minute)',
          metrics: [
            search(
              BUSINESS_METRICS.operationsSettled,
              MetricStatistic.SUM,
              { kind: undefined, outcome: undefined },
              // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudWatch's dynamic label syntax, not a JS template
              "${PROP('Dim.kind')} ${PROP('Dim.outcome')}",
            ),
          ],
        },
        {
          title: 'Reconciler failures (failed runs, count per minute; alarm at 1 in 5 minutes)',
          metrics: [
            {
              metric: metric(BUSINESS_METRICS.reconcilerFailures, MetricStatistic.SUM, {}, 'failed runs'),
              alarmFriendlyName: 'ReconcilerFailures',
              addAlarm: {
                Critical: {
                  threshold: 1,
                  comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                  additionalDescription:
                    "A reconciler run failed as a whole (ReconcilerFailures, Sum over 5 minutes): see the reconciler's logs.",
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title:
            'Money mismatches: processor reports contradicting a closed payment or refund (count per minute, by connector; alarm at 1)',
          metrics: Object.keys(CONNECTOR_FACTORIES).map((connector) => ({
            metric: metric(BUSINESS_METRICS.moneyMismatch, MetricStatistic.SUM, { connector }, connector),
            alarmFriendlyName: `MoneyMismatch-${connector}`,
            addAlarm: {
              Critical: {
                threshold: 1,
                comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                additionalDescription: `${connector} reported money on a payment or refund we closed (MoneyMismatch): settle it at the processor (docs/money-safety.md, runbook "Duplicate money").`,
                ...RECONCILER_ALARM_EVALUATION,
              },
            },
          })),
        },
      ],
    });
    monitoring.monitorSqsQueue({
      queue: props.reconciler.deadLetterQueue,
      alarmFriendlyName: 'ReconcilerScheduleDlq',
      humanReadableName: 'Reconciler schedule dead-letter queue (invocations not delivered)',
      addQueueMaxSizeAlarm: {
        Critical: {
          maxMessageCount: 1,
          comparisonOperatorOverride: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          ...RECONCILER_ALARM_EVALUATION,
        },
      },
    });
    if (props.webhookDelivery) this.addWebhooksSection(monitoring, props, props.webhookDelivery.failureQueue, metric, search);
  }

  /**
   * The "Webhooks" section: deliveries by outcome, delivery latency, the undelivered backlog
   * (alarmed above `alarms.undeliveredEventMaxAgeSeconds`, and charted per merchant) and the
   * on-failure queue of the stream mapping (alarmed when it holds a message).
   */
  private addWebhooksSection(
    monitoring: MonitoringFacade,
    props: ServiceMonitoringProps,
    failureQueue: IQueue,
    metric: (metricName: string, statistic: MetricStatistic, dims: Record<string, string>, label: string) => Metric,
    _search: (
      metricName: string,
      statistic: MetricStatistic,
      dims: Record<string, string | undefined>,
      label: string,
    ) => CustomMetricSearch,
  ): void {
    const maxAge = props.config.alarms.undeliveredEventMaxAgeSeconds;
    monitoring.monitorCustom({
      alarmFriendlyName: 'Webhooks',
      humanReadableName: 'Webhooks',
      description:
        'Deliveries of events to merchant endpoints (first attempts from the table stream, retries from the reconciler), their latency, and the oldest event still waiting for a delivery. A backlog past the bound alarms.',
      metricGroups: [
        {
          title: 'Webhook deliveries by outcome (count per minute)',
          metrics: WEBHOOK_DELIVERY_OUTCOMES.map((outcome) =>
            metric(WEBHOOK_METRICS.deliveries, MetricStatistic.SUM, { outcome }, outcome),
          ),
        },
        {
          title: 'Webhook delivery attempt duration (ms, p50 and p99)',
          graphWidgetAxis: { label: 'ms', min: 0 },
          metrics: [
            metric(WEBHOOK_METRICS.deliveryLatency, MetricStatistic.P50, {}, 'p50'),
            metric(WEBHOOK_METRICS.deliveryLatency, MetricStatistic.P99, {}, 'p99'),
          ],
        },
        {
          title: `Oldest open webhook delivery (seconds since its first failure, maximum; alarm above ${maxAge} s, past the whole retry schedule)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: [
            {
              metric: metric(
                WEBHOOK_METRICS.oldestUndeliveredEventAge,
                MetricStatistic.MAX,
                { kind: 'webhook_delivery' },
                'webhook deliveries',
              ),
              alarmFriendlyName: 'OldestUndeliveredEventAge',
              addAlarm: {
                Critical: {
                  threshold: maxAge,
                  comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
                  additionalDescription: `A webhook delivery has stayed open more than ${maxAge} s — longer than its whole retry schedule (OldestOpenOperationAgeSeconds, kind webhook_delivery, Maximum over 5 minutes): the retry machinery is stuck; check the reconciler, the WebhookDelivery function and its on-failure queue.`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title: 'Open webhook deliveries (count, per reconciler run)',
          metrics: [metric(BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind: 'webhook_delivery' }, 'open deliveries')],
        },
      ],
    });
    monitoring.monitorSqsQueue({
      queue: failureQueue,
      alarmFriendlyName: 'WebhookDeliveryFailureQueue',
      humanReadableName: 'Webhook delivery on-failure queue (stream records given up on)',
      addQueueMaxSizeAlarm: {
        Critical: {
          maxMessageCount: 1,
          comparisonOperatorOverride: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          ...RECONCILER_ALARM_EVALUATION,
        },
      },
    });
  }
}
