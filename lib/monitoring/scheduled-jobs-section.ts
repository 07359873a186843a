import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RECONCILER_ALARM_EVALUATION } from './alarm-evaluation';
import type { DashboardSectionProps } from './dashboard-section';
import { RUNBOOK, runbookRef } from './runbooks';

/** Props of {@link ScheduledJobsSection}. */
export interface ScheduledJobsSectionProps extends DashboardSectionProps {
  /** The dead-letter queue of the reconciler's schedule. */
  reconcilerDeadLetterQueue: IQueue;
  /** The renewal worker and the dead-letter queue of its schedule, where deployed. */
  billing?: { name: string; fn: IFunction; deadLetterQueue: IQueue };
}

/**
 * The scheduled jobs (lib/background/reconciler-schedule.ts): the renewal worker's Lambda panels, with its errors
 * alarm at one failed run in 5 minutes (it runs once a minute, like the reconciler), and the
 * dead-letter queues of the renewal worker's and the reconciler's schedules, each alarmed when it
 * holds a message (an invocation EventBridge Scheduler could not deliver: `monitorSqsQueue` with
 * `addQueueMaxSizeAlarm`, on `ApproximateNumberOfMessagesVisible`).
 */
export class ScheduledJobsSection extends Construct {
  constructor(scope: Construct, id: string, props: ScheduledJobsSectionProps) {
    super(scope, id);
    const { config, monitoring } = props;
    if (props.billing) {
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
      queue: props.reconcilerDeadLetterQueue,
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
  }
}
