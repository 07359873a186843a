import { Stack } from 'aws-cdk-lib';
import { Alarm, CfnInsightRule, ComparisonOperator, GraphWidget, MathExpression, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { MetricStatistic } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE } from '../../shared/webhooks/delivery-settings';
import { BUSINESS_ALARM_EVALUATION, RECONCILER_ALARM_EVALUATION } from './alarm-evaluation';
import { type DashboardSectionProps, sectionResourceScope } from './dashboard-section';
import { RUNBOOK, runbookRef } from './runbooks';

/**
 * The webhook metrics the dashboard and alarms read (namespace `Switchyard/<stage>`, Powertools
 * Metrics, every series with the `service` dimension; names from shared/observability/metrics.ts,
 * `BUSINESS_METRICS`). Dimensions besides `service`:
 * - `WebhookDeliveryAttempts` (Count): one per delivery attempt, dimension `outcome`
 *   ({@link WEBHOOK_DELIVERY_OUTCOMES}: `delivered`, `retrying`, `failed` (retry schedule exhausted),
 *   `gone` (the endpoint answered 410)).
 * - `WebhookAttemptDuration` (Milliseconds): duration of one attempt, no other dimension.
 * - `OldestOpenOperationAgeSeconds` (Seconds), dimension `kind = webhook_delivery`: the reconciler's
 *   gauge of the oldest delivery still open. Alarms read one explicit series (they cannot read search
 *   expressions).
 */
export const WEBHOOK_METRICS = {
  deliveries: BUSINESS_METRICS.webhookDeliveryAttempts,
  deliveryLatency: BUSINESS_METRICS.webhookAttemptDuration,
  /** The reconciler's gauge for open deliveries (dimension kind = webhook_delivery). */
  oldestUndeliveredEventAge: BUSINESS_METRICS.oldestOpenOperationAge,
} as const;

/** Values of the `outcome` dimension of `WebhookDeliveryAttempts` ({@link WEBHOOK_METRICS}). */
export const WEBHOOK_DELIVERY_OUTCOMES = ['delivered', 'retrying', 'failed', 'gone'] as const;

/** Props of {@link WebhooksSection}. */
export interface WebhooksSectionProps extends DashboardSectionProps {
  /** The on-failure queue of the webhook delivery function's stream mapping. */
  failureQueue: IQueue;
  /** The delivery worker's log group: the per-merchant failures rule reads it. */
  workerLogGroup: ILogGroup;
  /** The delivery queue's dead-letter queue. */
  deadLetterQueue: IQueue;
}

/**
 * The "Webhooks" section, where webhook delivery is deployed: deliveries by outcome, delivery
 * latency, the undelivered backlog (alarmed above `alarms.undeliveredEventMaxAgeSeconds`), the most
 * overdue delivery (alarmed above `alarms.overdueWebhookDeliverySeconds`), open deliveries, and the
 * on-failure queue of the stream mapping (alarmed when it holds a message).
 *
 * Then a merchant whose endpoints are failing: a Contributor Insights rule counting the delivery
 * worker's "webhook delivery attempt failed" log lines by `merchant_id` (CloudWatch Logs rule syntax,
 * `LogFormat: JSON`; CloudWatch user guide, "Contributor Insights rule syntax in CloudWatch"), charted
 * as its top contributors, and one alarm on the rule's `MaxContributorValue` (metric math
 * `INSIGHT_RULE_METRIC`; user guide, "Setting an alarm on Contributor Insights data"): the merchant
 * with the most failed attempts in 5 minutes at or above `alarms.merchantWebhookFailures`, on 3 of 3
 * periods. No metric per merchant: cardinality stays one series however many merchants there are;
 * the rule's report names them. The rule and its alarm are declared in the stage monitoring's scope
 * ({@link sectionResourceScope}). Last, the delivery queue's dead-letter queue, alarmed when not empty.
 */
export class WebhooksSection extends Construct {
  constructor(scope: Construct, id: string, props: WebhooksSectionProps) {
    super(scope, id);
    this.addDeliveries(props);
    this.addMerchantFailures(props);
  }

  /** Deliveries, their latency, the backlog and the stream mapping's on-failure queue. */
  private addDeliveries(props: WebhooksSectionProps): void {
    const { monitoring, metrics } = props;
    const maxAge = props.config.alarms.undeliveredEventMaxAgeSeconds;
    const overdue = props.config.alarms.overdueWebhookDeliverySeconds;
    monitoring.monitorCustom({
      alarmFriendlyName: 'Webhooks',
      humanReadableName: 'Webhooks',
      description:
        'Deliveries of events to merchant endpoints (all sent by the WebhookDeliveryWorker from the delivery queue: first attempts fanned out from the table stream, retries handed over by the reconciler), their latency, and the oldest event still waiting for a delivery. A backlog past the bound alarms.',
      metricGroups: [
        {
          title: 'Webhook deliveries by outcome (count per minute)',
          metrics: WEBHOOK_DELIVERY_OUTCOMES.map((outcome) =>
            metrics.metric(WEBHOOK_METRICS.deliveries, MetricStatistic.SUM, { outcome }, outcome),
          ),
        },
        {
          title: 'Webhook delivery attempt duration (ms, p50 and p99)',
          graphWidgetAxis: { label: 'ms', min: 0 },
          metrics: [
            metrics.metric(WEBHOOK_METRICS.deliveryLatency, MetricStatistic.P50, {}, 'p50'),
            metrics.metric(WEBHOOK_METRICS.deliveryLatency, MetricStatistic.P99, {}, 'p99'),
          ],
        },
        {
          title: `Oldest open webhook delivery (seconds since its first failure, maximum; alarm above ${maxAge} s, past the whole retry schedule)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: [
            {
              metric: metrics.metric(
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
                  additionalDescription: `A webhook delivery has stayed open more than ${maxAge} s — longer than its whole retry schedule (OldestOpenOperationAgeSeconds, kind webhook_delivery, Maximum over 5 minutes): the retry machinery is stuck; check the reconciler, the WebhookDelivery and WebhookDeliveryWorker functions, the on-failure and dead-letter queues. ${runbookRef(RUNBOOK.webhookBacklog)}`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title: `Most overdue webhook delivery (seconds past its due time, maximum; alarm above ${overdue} s)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: [
            {
              metric: metrics.metric(BUSINESS_METRICS.oldestOverdueWebhookDelivery, MetricStatistic.MAX, {}, 'overdue'),
              alarmFriendlyName: 'OldestOverdueWebhookDelivery',
              addAlarm: {
                Critical: {
                  threshold: overdue,
                  comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
                  additionalDescription: `A webhook delivery has been due for more than ${overdue} s without being attempted (OldestOverdueWebhookDeliverySeconds, Maximum over 5 minutes): retries are not being handed to the delivery queue — the reconciler is stuck or behind. ${runbookRef(RUNBOOK.webhookOverdue)}`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title: 'Open webhook deliveries (count, per reconciler run)',
          metrics: [metrics.metric(BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind: 'webhook_delivery' }, 'open deliveries')],
        },
      ],
    });
    monitoring.monitorSqsQueue({
      queue: props.failureQueue,
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

  /** The merchant with the most failed attempts (rule, alarm, chart) and the delivery queue's dead-letter queue. */
  private addMerchantFailures(props: WebhooksSectionProps): void {
    const { stage, alarms } = props.config;
    const owner = sectionResourceScope(this);
    const ruleName = `switchyard-${stage}-merchants-by-failed-webhook-attempts`;
    const rule = new CfnInsightRule(owner, 'MerchantWebhookFailuresRule', {
      ruleName,
      ruleState: 'ENABLED',
      ruleBody: Stack.of(this).toJsonString({
        Schema: { Name: 'CloudWatchLogRule', Version: 1 },
        LogGroupNames: [props.workerLogGroup.logGroupName],
        LogFormat: 'JSON',
        Contribution: {
          Keys: ['$.merchant_id'],
          Filters: [{ Match: '$.message', In: [WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE] }],
        },
        AggregateOn: 'Count',
      }),
    });
    const worst = new MathExpression({
      expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")`,
      usingMetrics: {},
      period: BUSINESS_ALARM_EVALUATION.period,
      label: 'failed attempts of the most failing merchant',
    });
    const threshold = alarms.merchantWebhookFailures;
    const alarm = new Alarm(owner, 'MerchantWebhookFailures', {
      alarmName: `Switchyard-${stage}-Webhooks-MerchantFailures-Warning`,
      alarmDescription: `One merchant's webhook endpoints failed ${threshold} or more attempts in 5 minutes, on 3 of 3 periods (Contributor Insights rule ${ruleName}, MaxContributorValue; the rule's report names the merchant). Other merchants' deliveries are not delayed by it (delivery isolation); tell the merchant. ${runbookRef(RUNBOOK.merchantWebhookFailures)}`,
      metric: worst,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.node.addDependency(rule);
    alarm.addAlarmAction(new SnsAction(props.alarmTopic));
    props.monitoring.addWidget(
      new GraphWidget({
        title: `Failed webhook attempts of the most failing merchant (per 5 minutes; alarm at ${threshold})`,
        width: 24,
        height: 6,
        left: [worst],
        leftYAxis: { label: 'count', min: 0, showUnits: false },
      }),
    );
    props.monitoring.monitorSqsQueue({
      queue: props.deadLetterQueue,
      alarmFriendlyName: 'WebhookDeliveryDeadLetterQueue',
      humanReadableName: 'Webhook delivery dead-letter queue (messages the worker failed 5 times)',
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
