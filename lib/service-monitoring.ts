import { Duration, Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  CfnInsightRule,
  ComparisonOperator,
  GraphWidget,
  type IMetric,
  LegendPosition,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import {
  type CustomMetric,
  type CustomMetricSearch,
  type CustomMetricWithAlarm,
  type CustomMetricWithAnomalyDetection,
  DefaultDashboardFactory,
  MetricStatistic,
  MonitoringFacade,
  SnsAlarmActionStrategy,
} from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { DISPUTE_LOG_MESSAGES } from '../shared/observability/dispute-log';
import { AUTHORIZATION_OUTCOMES, BUSINESS_METRICS, CONNECTOR_CALL_OUTCOMES } from '../shared/observability/metrics';
import { CONNECTOR_FACTORIES } from '../shared/processor-call/connector-registry';
import { WEBHOOK_ATTEMPT_FAILED_LOG_MESSAGE } from '../shared/webhooks/delivery-settings';
import type { StageConfig } from './config/stage-config';

/** The runbook every alarm description points to (an anchor of it per alarm: {@link RUNBOOK}). */
export const RUNBOOK_DOC = 'docs/operations.md';

/**
 * Anchors of docs/operations.md, one runbook section per alarm (GitHub's heading slugs; the
 * template tests check each exists in the file).
 */
export const RUNBOOK = {
  connectorSuccessRate: 'connector-success-rate-below-its-usual-level',
  connectorTechnicalErrors: 'connector-technical-error-rate-high',
  openOperationAge: 'operation-open-longer-than-30-minutes',
  webhookBacklog: 'webhook-deliveries-stuck',
  webhookOverdue: 'webhook-deliveries-overdue',
  merchantWebhookFailures: 'a-merchants-webhook-endpoints-are-failing',
  refundFailures: 'refunds-failing-at-the-processor',
  moneyMismatch: 'money-mismatch',
  healthCanary: 'health-canary-failing',
  sandboxPaymentCanary: 'sandbox-payment-canary-failing',
  renewals: 'renewals',
  disputes: 'disputes-of-a-connector-account',
} as const;

/** `Runbook: docs/operations.md#<anchor>`, the last sentence of every business alarm's description. */
export const runbookRef = (anchor: string): string => `Runbook: ${RUNBOOK_DOC}#${anchor}`;

/**
 * Evaluation of the business rate alarms (success rate, technical error rate, refund failures):
 * 5-minute periods; a period without traffic (or below the volume guard) has no datapoint and is
 * treated as not breaching. The success-rate band alarm needs 3 of 3 periods (a quarter hour),
 * the technical error rate and refund failures 2 of 3.
 */
export const BUSINESS_ALARM_EVALUATION = {
  period: Duration.minutes(5),
  evaluationPeriods: 3,
  treatMissingDataOverride: TreatMissingData.NOT_BREACHING,
} as const;

/**
 * Titles of the dashboard widgets this file adds for the business view (what each shows and its unit); the
 * per-connector ones take the connector's name.
 */
export const DASHBOARD_TITLES = {
  paymentsPerMinute: 'Payments per minute by status (count/min, all currencies and connectors)',
  successRateByConnector: 'Authorization success rate by connector (%, succeeded / all Authorizations outcomes, 5-min)',
  openOperationsNow: 'Open operations by kind (count, latest reconciler run)',
  oldestOpenNow: 'Oldest open operation by kind (seconds, maximum)',
  webhookBacklog: 'Webhook backlog: oldest undelivered delivery (seconds since first failure, maximum)',
  connectorSuccessRate: (c: string) => `${c}: authorization success rate (%, 5-min; alarm below the anomaly band)`,
  connectorTechnicalErrors: (c: string) => `${c}: technical error rate (%, ConnectorCalls technical_error / all calls, 5-min)`,
  connectorLatency: (c: string) => `${c}: processor call latency (ms, p50 and p99 by operation)`,
  connectorCircuit: (c: string) => `${c}: circuit state (0 closed, 1 half-open, 2 open; maximum) and skips (count/min)`,
  connectorRefundFailures: (c: string) => `${c}: refunds failed at the processor (count per 5 min)`,
  canaries: 'Synthetic checks: success (%, per 5-minute run; alarm below 100)',
  connectorAccountTechnicalErrors: 'Technical errors by connector account (count per 5 min, top accounts; alarm per account)',
  functionDashboards: 'Function dashboards',
} as const;

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

/** Name of a function group's dashboard: `Switchyard-<stage>-Functions-<group>`. */
export const functionGroupDashboardName = (stage: string, group: string): string => `Switchyard-${stage}-Functions-${group}`;

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
  /**
   * Names of the function groups' dashboards, listed (with links) on the stage dashboard: the route
   * functions' panels and alarms are in their groups' nested stacks ({@link FunctionGroupMonitoring}).
   */
  functionDashboards?: string[];
  /** The background reconciler and the dead-letter queue of its schedule. */
  reconciler: { name: string; fn: IFunction; deadLetterQueue: IQueue };
  /**
   * The log groups where disputes are recorded (webhook receivers, dispute answers, the worker): the
   * disputes section's Contributor Insights rules read them.
   */
  disputeLogGroups?: ILogGroup[];
  /** The renewal worker and the dead-letter queue of its schedule: the reconciler's panels and alarms. */
  billing?: { name: string; fn: IFunction; deadLetterQueue: IQueue };
  /**
   * Webhook delivery, when deployed: the fan-out function (fed by the table's stream) and its
   * on-failure queue; the delivery worker (fed by the delivery queue), its log group (the
   * per-merchant failures rule reads it) and the delivery queue's dead-letter queue.
   */
  webhookDelivery?: {
    name: string;
    fn: IFunction;
    failureQueue: IQueue;
    workerName: string;
    worker: IFunction;
    workerLogGroup: ILogGroup;
    deadLetterQueue: IQueue;
  };
  table: ITableV2;
  alarmTopic: ITopic;
  /** CloudWatch namespace of the business metrics (Powertools Metrics). */
  metricsNamespace: string;
  serviceName: string;
  /** The connectors of the stage's routing rules (`stageConnectors`): one dashboard section and alarm set each. */
  connectors: string[];
  /** The stage's canaries (lib/canaries.ts), alarmed on failure. */
  canaries?: { health: Canary; sandboxPayment?: Canary };
}

/**
 * The stage's CloudWatch dashboard and alarms, built with cdk-monitoring-constructs. First the
 * business view (runbooks in docs/operations.md, {@link RUNBOOK}): the "Is money
 * flowing?" row (payments per minute by status, authorization success rate per connector, open
 * operations and the oldest, the webhook backlog), one section per connector of the stage's
 * routing rules (success rate with its anomaly band and alarm, technical error rate and its alarm,
 * latency p50/p99 by operation, circuit state and skips, refunds failed at the processor and their
 * alarm), connector accounts (technical errors per merchant connector account, with one
 * multi-time-series alarm: {@link connectorAccountTechnicalErrorsQuery}), and the canaries' success
 * (alarmed). Then the technical panels: API requests, 4xx/5xx, p50/p90/p99 latency; links to the
 * function groups' dashboards, where each route function's panels and errors/throttles alarms are
 * ({@link FunctionGroupMonitoring}, in the groups' nested stacks); the reconciler's errors, duration
 * p99, throttles and concurrency; DynamoDB capacity, throttles and latency; business metrics; open
 * operations (the reconciler's metrics) and the reconciler schedule's dead-letter queue. Alarms (5xx
 * rate, p99 latency, the reconciler's errors and throttles, DynamoDB throttles; an operation open too
 * long, per kind; reconciler failures; undelivered reconciler invocations) notify the alarm topic.
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
    this.addMoneyFlowingSection(monitoring, props);
    for (const connector of props.connectors) this.addConnectorSection(monitoring, props, connector);
    this.addConnectorAccountsSection(monitoring, props);
    if (props.canaries) this.addCanariesSection(monitoring, props.canaries);
    monitoring.monitorApiGatewayV2HttpApi({
      api: props.api,
      alarmFriendlyName: 'Api',
      add5xxRateAlarm: { Critical: { maxErrorRate: config.alarms.api5xxRate } },
      addLatencyP99Alarm: { Warning: { maxLatency: Duration.millis(config.alarms.apiLatencyP99Ms) } },
    });
    // The route functions' panels and alarms are in their groups' nested stacks (FunctionGroupMonitoring);
    // this dashboard links to their dashboards.
    if (props.functionDashboards?.length) this.addFunctionDashboardsIndex(monitoring, props.functionDashboards);
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
      monitoring.monitorLambdaFunction({
        lambdaFunction: props.webhookDelivery.worker,
        alarmFriendlyName: props.webhookDelivery.workerName,
        humanReadableName: `${props.webhookDelivery.workerName} (delivery queue)`,
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
          additionalDescription: `A ${kind} operation has been open for more than ${config.alarms.openOperationMaxAgeSeconds} s (OldestOpenOperationAgeSeconds, Maximum over 5 minutes): the reconciler cannot settle it. Look it up on GSI5 and in the reconciler's logs. ${runbookRef(RUNBOOK.openOperationAge)}`,
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
                  additionalDescription: `A reconciler run failed as a whole (ReconcilerFailures, Sum over 5 minutes): see the reconciler's logs. ${runbookRef(RUNBOOK.openOperationAge)}`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title:
            'Money mismatches: processor reports contradicting a closed payment or refund (count per minute, by connector; alarm at 1)',
          // Every connector the service knows (a stage may hold payments routed before a rule
          // change), less the sandbox where it is switched off.
          metrics: Object.keys(CONNECTOR_FACTORIES)
            .filter((connector) => config.sandbox || connector !== 'sandbox')
            .map((connector) => ({
              metric: metric(BUSINESS_METRICS.moneyMismatch, MetricStatistic.SUM, { connector }, connector),
              alarmFriendlyName: `MoneyMismatch-${connector}`,
              addAlarm: {
                Critical: {
                  threshold: 1,
                  comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                  additionalDescription: `${connector} reported money on a payment or refund we closed (MoneyMismatch): settle it at the processor (docs/money-safety.md, runbook "Duplicate money"). ${runbookRef(RUNBOOK.moneyMismatch)}`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            })),
        },
      ],
    });
    if (props.billing) {
      // The renewal worker: like the reconciler (one run a minute), its own alarms.
      monitoring.monitorLambdaFunction({
        lambdaFunction: props.billing.fn,
        alarmFriendlyName: props.billing.name,
        humanReadableName: `${props.billing.name} (every minute: renewals, dunning retries, expiry notices)`,
        addFaultCountAlarm: {
          Critical: {
            maxErrorCount: 1,
            comparisonOperatorOverride: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            ...RECONCILER_ALARM_EVALUATION,
            alarmDescriptionOverride: `The renewal worker failed a run (it could not read the billing directory): renewals, dunning retries and expiry notices wait for the next run. ${runbookRef(RUNBOOK.renewals)}`,
          },
        },
        addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
      });
      monitoring.monitorSqsQueue({
        queue: props.billing.deadLetterQueue,
        alarmFriendlyName: 'BillingScheduleDlq',
        humanReadableName: 'Renewal worker schedule dead-letter queue (invocations not delivered)',
        addQueueMaxSizeAlarm: {
          Critical: {
            maxMessageCount: 1,
            comparisonOperatorOverride: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            ...RECONCILER_ALARM_EVALUATION,
          },
        },
      });
    }
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
    if (props.webhookDelivery) {
      this.addWebhooksSection(monitoring, props, props.webhookDelivery.failureQueue, metric, search);
      this.addMerchantWebhookFailures(monitoring, props, props.webhookDelivery);
    }
    if (props.disputeLogGroups?.length) this.addDisputesSection(monitoring, props, props.disputeLogGroups);
  }

  /**
   * Disputes: three Contributor Insights rules over the log lines disputes write
   * (shared/observability/dispute-log.ts), each counting by connector account (`$.account`): disputes opened,
   * reminders sent (disputes near their deadline, unanswered) and disputes expired. The dashboard row charts the
   * worst account of each; alarms: an account receiving `alarms.accountDisputesOpened` or more disputes in an hour
   * (Warning: a merchant's fraud or fulfilment problem), and any dispute expiring unanswered (Warning: money lost by
   * not answering). One series per rule however many accounts; the rules' reports name the accounts.
   */
  private addDisputesSection(monitoring: MonitoringFacade, props: ServiceMonitoringProps, logGroups: ILogGroup[]): void {
    const { stage, alarms } = props.config;
    monitoring.addLargeHeader('Disputes');
    const rule = (id: string, slug: string, message: string) => {
      const ruleName = `switchyard-${stage}-accounts-by-${slug}`;
      const r = new CfnInsightRule(this, id, {
        ruleName,
        ruleState: 'ENABLED',
        ruleBody: Stack.of(this).toJsonString({
          Schema: { Name: 'CloudWatchLogRule', Version: 1 },
          LogGroupNames: logGroups.map((g) => g.logGroupName),
          LogFormat: 'JSON',
          Contribution: { Keys: ['$.account'], Filters: [{ Match: '$.message', In: [message] }] },
          AggregateOn: 'Count',
        }),
      });
      return { r, ruleName };
    };
    const opened = rule('DisputesOpenedRule', 'disputes-opened', DISPUTE_LOG_MESSAGES.opened);
    const reminded = rule('DisputesNearDeadlineRule', 'disputes-near-deadline', DISPUTE_LOG_MESSAGES.reminded);
    const expired = rule('DisputesExpiredRule', 'disputes-expired', DISPUTE_LOG_MESSAGES.expired);
    const worst = (ruleName: string, label: string, period: Duration) =>
      new MathExpression({ expression: `INSIGHT_RULE_METRIC("${ruleName}", "MaxContributorValue")`, usingMetrics: {}, period, label });
    const hour = Duration.hours(1);
    const openedWorst = worst(opened.ruleName, 'disputes opened on the most disputed account (per hour)', hour);
    const remindedWorst = worst(reminded.ruleName, 'disputes near their deadline on one account (per hour)', hour);
    const expiredWorst = worst(expired.ruleName, 'disputes expired unanswered on one account (per hour)', hour);
    const threshold = alarms.accountDisputesOpened;
    const openedAlarm = new Alarm(this, 'AccountDisputesOpened', {
      alarmName: `Switchyard-${stage}-Disputes-AccountOpened-Warning`,
      alarmDescription: `One connector account received ${threshold} or more disputes in an hour (Contributor Insights rule ${opened.ruleName}, MaxContributorValue; its report names the account). Tell the merchant. ${runbookRef(RUNBOOK.disputes)}`,
      metric: openedWorst,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    openedAlarm.node.addDependency(opened.r);
    openedAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
    const expiredAlarm = new Alarm(this, 'DisputesExpired', {
      alarmName: `Switchyard-${stage}-Disputes-Expired-Warning`,
      alarmDescription: `A dispute expired without an answer (Contributor Insights rule ${expired.ruleName}): its money stays with the cardholder. Check that its merchant is told of disputes (dispute.opened and dispute.reminder reach its endpoint). ${runbookRef(RUNBOOK.disputes)}`,
      metric: expiredWorst,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    expiredAlarm.node.addDependency(expired.r);
    expiredAlarm.addAlarmAction(new SnsAction(props.alarmTopic));
    monitoring.addWidget(
      new GraphWidget({
        title: `Disputes by connector account: the most disputed, near their deadline, expired (per hour; alarm at ${threshold} opened, 1 expired)`,
        width: 24,
        height: 6,
        left: [openedWorst, remindedWorst, expiredWorst],
        leftYAxis: { label: 'count', min: 0, showUnits: false },
      }),
    );
  }

  /**
   * A merchant whose endpoints are failing: a Contributor Insights rule counting the
   * delivery worker's "webhook delivery attempt failed" log lines by `merchant_id` (CloudWatch Logs
   * rule syntax, `LogFormat: JSON`; CloudWatch user guide, "Contributor Insights rule syntax in
   * CloudWatch"), charted as its top contributors, and one alarm on the rule's
   * `MaxContributorValue` (metric math `INSIGHT_RULE_METRIC`; user guide, "Setting an alarm on
   * Contributor Insights data"): the merchant with the most failed attempts in 5 minutes at or
   * above `alarms.merchantWebhookFailures`, on 3 of 3 periods. No metric per merchant: cardinality
   * stays one series however many merchants there are; the rule's report names them. Also the
   * delivery queue's dead-letter queue, alarmed when not empty.
   */
  private addMerchantWebhookFailures(
    monitoring: MonitoringFacade,
    props: ServiceMonitoringProps,
    delivery: NonNullable<ServiceMonitoringProps['webhookDelivery']>,
  ): void {
    const { stage, alarms } = props.config;
    const ruleName = `switchyard-${stage}-merchants-by-failed-webhook-attempts`;
    const rule = new CfnInsightRule(this, 'MerchantWebhookFailuresRule', {
      ruleName,
      ruleState: 'ENABLED',
      ruleBody: Stack.of(this).toJsonString({
        Schema: { Name: 'CloudWatchLogRule', Version: 1 },
        LogGroupNames: [delivery.workerLogGroup.logGroupName],
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
    const alarm = new Alarm(this, 'MerchantWebhookFailures', {
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
    monitoring.addWidget(
      new GraphWidget({
        title: `Failed webhook attempts of the most failing merchant (per 5 minutes; alarm at ${threshold})`,
        width: 24,
        height: 6,
        left: [worst],
        leftYAxis: { label: 'count', min: 0, showUnits: false },
      }),
    );
    monitoring.monitorSqsQueue({
      queue: delivery.deadLetterQueue,
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

  /** A business metric of the stage's namespace (Powertools single metric: `service` plus `dims`). */
  private businessMetric(
    props: ServiceMonitoringProps,
    metricName: string,
    statistic: MetricStatistic,
    dims: Record<string, string>,
    label: string,
    period = Duration.minutes(1),
  ): Metric {
    return new Metric({
      namespace: props.metricsNamespace,
      metricName,
      dimensionsMap: { service: props.serviceName, ...dims },
      statistic,
      label,
      period,
    });
  }

  /**
   * A connector's rate, in percent, of the `numerator` outcomes over all `outcomes` of a count
   * metric with dimensions `{connector, outcome}` (metric math, 5-minute periods): each outcome's
   * series is `FILL(…, 0)`ed (an outcome absent in a period counts 0), and the rate exists only in
   * periods with at least `minVolume` events (`IF(total >= minVolume, …)`: a period with no or
   * little traffic has no datapoint rather than a rate of 0 or 100: the two-argument form of IF,
   * which returns nothing where the condition is false — the form cdk-monitoring-constructs 10.2.0
   * itself builds for `minSampleCountToEvaluateDatapoint`, `IF(<count> > N, <metric>)`,
   * lib/common/alarm/AlarmFactory.js). CloudWatch user guide, "Use metric math" (FILL, IF).
   * @returns the expression (alarms read it; the dashboard charts it)
   */
  private outcomeRate(
    props: ServiceMonitoringProps,
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
      usingMetrics[ids[i]!] = this.businessMetric(
        props,
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
      expression: `IF(${total} >= ${props.config.alarms.minRateVolumePerPeriod}, 100 * ${part} / ${total})`,
      usingMetrics,
      label,
      period: BUSINESS_ALARM_EVALUATION.period,
    });
  }

  /**
   * The top row, "Is money flowing?": payments per minute by status, authorization success rate per
   * connector, open operations and the oldest open one by kind, and (with webhook delivery) the
   * webhook backlog. Charts only; the alarms are on the sections below.
   */
  private addMoneyFlowingSection(monitoring: MonitoringFacade, props: ServiceMonitoringProps): void {
    const ns = props.metricsNamespace;
    // A total over every currency/connector series: SUM of a SEARCH (CloudWatch user guide,
    // "Use search expressions in graphs"); dashboards may search, alarms may not.
    const total = (metricName: string, label: string) =>
      new MathExpression({
        expression: `SUM(SEARCH('{${ns},connector,currency,service} MetricName="${metricName}" service="${props.serviceName}"', 'Sum', 60))`,
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
          this.outcomeRate(props, BUSINESS_METRICS.authorizations, c, AUTHORIZATION_OUTCOMES, ['succeeded'], c),
        ),
      },
      {
        title: DASHBOARD_TITLES.openOperationsNow,
        graphWidgetAxis: { label: 'count', min: 0 },
        metrics: kinds.map((kind) => this.businessMetric(props, BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind }, kind)),
      },
      {
        title: DASHBOARD_TITLES.oldestOpenNow,
        graphWidgetAxis: { label: 'seconds', min: 0 },
        metrics: kinds.map((kind) =>
          this.businessMetric(props, BUSINESS_METRICS.oldestOpenOperationAge, MetricStatistic.MAX, { kind }, kind),
        ),
      },
      ...(props.webhookDelivery
        ? [
            {
              title: DASHBOARD_TITLES.webhookBacklog,
              graphWidgetAxis: { label: 'seconds', min: 0 },
              metrics: [
                this.businessMetric(
                  props,
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
    monitoring.monitorCustom({
      alarmFriendlyName: 'MoneyFlowing',
      humanReadableName: 'Is money flowing?',
      description: `Payments by status, each connector's authorization success rate, and what is still open. Runbooks: ${RUNBOOK_DOC}.`,
      metricGroups,
    });
  }

  /**
   * One section per connector of the stage: authorization success rate (alarm: below its CloudWatch
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
  private addConnectorSection(monitoring: MonitoringFacade, props: ServiceMonitoringProps, connector: string): void {
    const { alarms } = props.config;
    const successRate = this.outcomeRate(
      props,
      BUSINESS_METRICS.authorizations,
      connector,
      AUTHORIZATION_OUTCOMES,
      ['succeeded'],
      'success rate',
    );
    const errorRate = this.outcomeRate(
      props,
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
      metric: this.businessMetric(
        props,
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
    const latency = (statistic: MetricStatistic, stat: string): CustomMetricSearch => ({
      namespace: props.metricsNamespace,
      searchQuery: `MetricName="${BUSINESS_METRICS.connectorLatency}"`,
      dimensionsMap: { service: props.serviceName, connector, operation: undefined } as unknown as Record<string, string>,
      statistic,
      // CloudWatch's dynamic label syntax (escaped, not a JS substitution): the series' operation.
      label: `\${PROP('Dim.operation')} ${stat}`,
    });
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
          this.businessMetric(props, BUSINESS_METRICS.circuitState, MetricStatistic.MAX, { connector }, 'circuit state'),
          this.businessMetric(props, BUSINESS_METRICS.circuitSkips, MetricStatistic.SUM, { connector }, 'skipped (circuit open)'),
        ],
      },
      {
        title: `${DASHBOARD_TITLES.connectorRefundFailures(connector)}; alarm at ${alarms.refundFailuresPerPeriod}`,
        graphWidgetAxis: { label: 'count', min: 0 },
        metrics: [refundFailures],
      },
    ];
    monitoring.monitorCustom({
      alarmFriendlyName: `Connector-${connector}`,
      humanReadableName: `Connector: ${connector}`,
      description: `Authorizations, processor calls, latency, circuit breaker and refunds of ${connector}. Runbooks: ${RUNBOOK_DOC}#${RUNBOOK.connectorSuccessRate}, #${RUNBOOK.connectorTechnicalErrors}, #${RUNBOOK.refundFailures}.`,
      metricGroups,
    });
  }

  /**
   * Connector accounts: technical errors per merchant connector account, charted (top
   * accounts) and alarmed per account by one multi-time-series alarm
   * ({@link connectorAccountTechnicalErrorsQuery}): `…-ConnectorAccounts-TechnicalErrors-Critical`, at or
   * above `alarms.connectorAccountTechnicalErrors` in a 5-minute period on 2 of 3 periods; its runbook is
   * the connector technical error one (the account's processor, seen through one account).
   */
  private addConnectorAccountsSection(monitoring: MonitoringFacade, props: ServiceMonitoringProps): void {
    const { alarms, stage } = props.config;
    const perAccount = new MathExpression({
      expression: connectorAccountTechnicalErrorsQuery(props.metricsNamespace, props.serviceName),
      usingMetrics: {},
      period: BUSINESS_ALARM_EVALUATION.period,
      label: 'technical errors',
    });
    const threshold = alarms.connectorAccountTechnicalErrors;
    const alarm = new Alarm(this, 'ConnectorAccountTechnicalErrors', {
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
    monitoring.addSmallHeader('Connector accounts');
    monitoring.addWidget(
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

  /**
   * A text widget naming each function group's dashboard, linked (the route functions' panels are
   * there: {@link FunctionGroupMonitoring}).
   */
  private addFunctionDashboardsIndex(monitoring: MonitoringFacade, dashboards: string[]): void {
    const { region } = Stack.of(this);
    const link = (name: string) =>
      `[${name}](https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards:name=${name})`;
    monitoring.addWidget(
      new TextWidget({
        markdown: `### ${DASHBOARD_TITLES.functionDashboards}\nPanels of each API function (invocations, errors, latency, throttles, concurrency), one dashboard per function group; their alarms are on this stage's topic: ${dashboards.map(link).join(' · ')}`,
        width: 24,
        height: 2,
      }),
    );
  }

  /**
   * The canaries' success (CloudWatchSynthetics `SuccessPercent`, Average per 5-minute run), each
   * alarmed below 100 on 2 consecutive runs; a canary that stops reporting is breaching (the check
   * itself is gone).
   */
  private addCanariesSection(monitoring: MonitoringFacade, canaries: { health: Canary; sandboxPayment?: Canary }): void {
    const checks: { canary: Canary; name: string; anchor: string; what: string }[] = [
      { canary: canaries.health, name: 'HealthCanary', anchor: RUNBOOK.healthCanary, what: 'GET /health' },
      ...(canaries.sandboxPayment
        ? [
            {
              canary: canaries.sandboxPayment,
              name: 'SandboxPaymentCanary',
              anchor: RUNBOOK.sandboxPaymentCanary,
              what: 'creating and confirming a sandbox payment',
            },
          ]
        : []),
    ];
    monitoring.monitorCustom({
      alarmFriendlyName: 'Canaries',
      humanReadableName: 'Synthetic checks',
      description: `CloudWatch Synthetics canaries, every 5 minutes. Runbooks: ${RUNBOOK_DOC}.`,
      metricGroups: [
        {
          title: DASHBOARD_TITLES.canaries,
          graphWidgetAxis: { label: '%', min: 0, max: 100 },
          metrics: checks.map(
            ({ canary, name, anchor, what }): CustomMetricWithAlarm => ({
              metric: canary.metricSuccessPercent({ period: Duration.minutes(5), statistic: 'Average', label: name }),
              alarmFriendlyName: name,
              addAlarm: {
                Critical: {
                  threshold: 100,
                  comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
                  additionalDescription: `The synthetic check ${what} failed on 2 consecutive runs (SuccessPercent below 100). ${runbookRef(anchor)}`,
                  period: Duration.minutes(5),
                  evaluationPeriods: 2,
                  datapointsToAlarm: 2,
                  treatMissingDataOverride: TreatMissingData.BREACHING,
                },
              },
            }),
          ),
        },
      ],
    });
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
        'Deliveries of events to merchant endpoints (all sent by the WebhookDeliveryWorker from the delivery queue: first attempts fanned out from the table stream, retries handed over by the reconciler), their latency, and the oldest event still waiting for a delivery. A backlog past the bound alarms.',
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
                  additionalDescription: `A webhook delivery has stayed open more than ${maxAge} s — longer than its whole retry schedule (OldestOpenOperationAgeSeconds, kind webhook_delivery, Maximum over 5 minutes): the retry machinery is stuck; check the reconciler, the WebhookDelivery and WebhookDeliveryWorker functions, the on-failure and dead-letter queues. ${runbookRef(RUNBOOK.webhookBacklog)}`,
                  ...RECONCILER_ALARM_EVALUATION,
                },
              },
            },
          ],
        },
        {
          title: `Most overdue webhook delivery (seconds past its due time, maximum; alarm above ${props.config.alarms.overdueWebhookDeliverySeconds} s)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: [
            {
              metric: metric(BUSINESS_METRICS.oldestOverdueWebhookDelivery, MetricStatistic.MAX, {}, 'overdue'),
              alarmFriendlyName: 'OldestOverdueWebhookDelivery',
              addAlarm: {
                Critical: {
                  threshold: props.config.alarms.overdueWebhookDeliverySeconds,
                  comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
                  additionalDescription: `A webhook delivery has been due for more than ${props.config.alarms.overdueWebhookDeliverySeconds} s without being attempted (OldestOverdueWebhookDeliverySeconds, Maximum over 5 minutes): retries are not being handed to the delivery queue — the reconciler is stuck or behind. ${runbookRef(RUNBOOK.webhookOverdue)}`,
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

/** Props of {@link FunctionGroupMonitoring}. */
export interface FunctionGroupMonitoringProps {
  config: StageConfig;
  /** The group's name (lib/function-groups.ts): its dashboard and alarm names carry it. */
  group: string;
  /** The group's functions. */
  functions: { name: string; fn: IFunction }[];
  /** The stage's alarm topic (in the parent API stack). */
  alarmTopic: ITopic;
}

/**
 * Monitoring of one function group (lib/function-groups.ts), in the group's nested stack, where the
 * functions are: for each function, cdk-monitoring-constructs' Lambda panels (`monitorLambdaFunction`:
 * a header, TPS, latency, error rate, rates, invocations, errors, iterator) on the group's dashboard
 * ({@link functionGroupDashboardName}), and its errors and throttles alarms (the stage's
 * `lambdaErrors` / `lambdaThrottles` bounds), named `Switchyard-<stage>-<group>-<function>-…`
 * (`…-Fault-Count-Critical`, `…-Throttled-Count-Warning`) and notifying the stage's alarm topic.
 *
 * Why here and not with the stage's other alarms in the parent stack: each route adds 2 alarms, and
 * with them the parent template would pass 80 % of CloudFormation's 500 resources before the API
 * gained 45 more routes (test/infra/capacity.test.ts). The group is part of the alarm names because
 * an alarm name is unique in an account and Region and CloudFormation creates a moved resource
 * before deleting the old one: a name kept while the alarm moves stack would collide.
 */
export class FunctionGroupMonitoring extends Construct {
  /** Name of the group's dashboard. */
  readonly dashboardName: string;

  constructor(scope: Construct, id: string, props: FunctionGroupMonitoringProps) {
    super(scope, id);
    const { config, group } = props;
    this.dashboardName = functionGroupDashboardName(config.stage, group);
    const monitoring = new MonitoringFacade(this, 'Monitoring', {
      alarmFactoryDefaults: {
        alarmNamePrefix: `Switchyard-${config.stage}-${group}`,
        actionsEnabled: true,
        action: new SnsAlarmActionStrategy({ onAlarmTopic: props.alarmTopic }),
        datapointsToAlarm: 3,
        evaluationPeriods: 5,
      },
      metricFactoryDefaults: { period: Duration.minutes(1) },
      dashboardFactory: new DefaultDashboardFactory(this, 'Dashboards', {
        dashboardNamePrefix: this.dashboardName,
        createDashboard: true,
        createSummaryDashboard: false,
        createAlarmDashboard: false,
      }),
    });
    monitoring.addLargeHeader(`Switchyard ${config.stage}: ${group} functions`);
    for (const { name, fn } of props.functions) {
      monitoring.monitorLambdaFunction({
        lambdaFunction: fn,
        alarmFriendlyName: name,
        humanReadableName: name,
        addFaultCountAlarm: { Critical: { maxErrorCount: config.alarms.lambdaErrors } },
        addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
      });
    }
  }
}
