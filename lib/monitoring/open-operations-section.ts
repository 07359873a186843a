import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import { type CustomMetricWithAlarm, MetricStatistic } from 'cdk-monitoring-constructs';
import { Construct } from 'constructs';
import { BUSINESS_METRICS } from '../../shared/observability/metrics';
import { CONNECTOR_FACTORIES } from '../../shared/processor-call/connector-registry';
import { RECONCILER_ALARM_EVALUATION } from './alarm-evaluation';
import type { DashboardSectionProps } from './dashboard-section';
import { RUNBOOK, runbookRef } from './runbooks';

/**
 * Values of the `kind` dimension of the reconciler's open-operation metrics that are alarmed on
 * (shared/storage/open-items-repository.ts). `awaiting_payer` (payments in `RequiresAction`,
 * open until the payer acts) is charted with the others but never alarmed on.
 */
export const OPEN_OPERATION_KINDS = ['payment', 'refund', 'customer_delete'] as const;

/**
 * The "Open operations" section: what the reconciler sees and does on its every-minute run
 * (shared/observability/metrics.ts): open operations by kind, the oldest per kind (alarmed per
 * {@link OPEN_OPERATION_KINDS} kind above `alarms.openOperationMaxAgeSeconds`: alarms cannot be set on
 * search expressions, hence one explicit metric, and alarm, per kind), operations settled by kind and
 * outcome, failed reconciler runs (alarmed at 1) and money mismatches per connector (alarmed at 1).
 */
export class OpenOperationsSection extends Construct {
  constructor(scope: Construct, id: string, props: DashboardSectionProps) {
    super(scope, id);
    const { config, metrics } = props;
    const oldestByKind: CustomMetricWithAlarm[] = OPEN_OPERATION_KINDS.map((kind) => ({
      metric: metrics.metric(BUSINESS_METRICS.oldestOpenOperationAge, MetricStatistic.MAX, { kind }, kind),
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
    props.monitoring.monitorCustom({
      alarmFriendlyName: 'OpenOperations',
      humanReadableName: 'Open operations',
      description:
        'Payments, refunds and customer deletes left open (GSI5), as the reconciler sees them on its every-minute run, and what it settles. An operation open past the bound, or a failing reconciler, alarms.',
      metricGroups: [
        {
          title: 'Open operations by kind (count, per reconciler run)',
          // biome-ignore lint/suspicious/noTemplateCurlyInString: CloudWatch's dynamic label syntax, not a JS template
          metrics: [metrics.search(BUSINESS_METRICS.openOperations, MetricStatistic.MAX, { kind: undefined }, "${PROP('Dim.kind')}")],
        },
        {
          title: `Oldest open operation age by kind (seconds, maximum; alarm above ${config.alarms.openOperationMaxAgeSeconds} s)`,
          graphWidgetAxis: { label: 'seconds', min: 0 },
          metrics: oldestByKind,
        },
        {
          title: 'Operations settled by kind and outcome (count per minute)',
          metrics: [
            metrics.search(
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
              metric: metrics.metric(BUSINESS_METRICS.reconcilerFailures, MetricStatistic.SUM, {}, 'failed runs'),
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
              metric: metrics.metric(BUSINESS_METRICS.moneyMismatch, MetricStatistic.SUM, { connector }, connector),
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
  }
}
