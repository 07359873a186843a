import { type CfnElement, Duration, Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Schedule, ScheduleExpression } from 'aws-cdk-lib/aws-scheduler';
import { LambdaInvoke } from 'aws-cdk-lib/aws-scheduler-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RECONCILER_SCHEDULE_PERIOD_MS } from '../../shared/settings/reconcile-settings';
import { acknowledgeNagFindings } from '../nag-acknowledgements';

/**
 * How the reconciler is scheduled. EventBridge Scheduler invokes a Lambda target
 * asynchronously; its retry policy and dead-letter queue cover only *delivery* (the invoke call
 * failing, e.g. throttled or not permitted), not errors of the function itself, which the
 * function's Errors alarm covers.
 *
 * - `rate`: one run a minute (`RECONCILER_SCHEDULE_PERIOD_MS`, shared/settings/reconcile-settings.ts),
 *   Scheduler's shortest rate. Each run keeps taking over operations as they fall due for its minute and one
 *   look more (a look every 5 s, `RECONCILER_RUN_SPAN_MS` = 65 s), so consecutive runs overlap by a few seconds
 *   and a claim is settled within seconds of its lease's end, not at the next minute (docs/money-safety.md, "Convergence").
 *   Runs may overlap longer too (a run can last up to the function's 5-minute timeout); that is harmless because
 *   every write of the reconciler is conditional. The function is therefore busy about all the time: one
 *   invocation of about 65 s a minute.
 * - `retryAttempts` (count) and `maxEventAge`: kept small, since a delivery older than a couple
 *   of minutes is superseded by the next scheduled run anyway (Scheduler's minimum age is 60 s,
 *   its default 24 h and 185 attempts).
 * - `deadLetterRetention`: how long an undelivered invocation stays in the dead-letter queue
 *   for an operator to inspect (SQS maximum: 14 days).
 *
 * Sources: aws-cdk-lib 2.276.0 `aws-scheduler-targets/README.md` ("Invoke a Lambda function")
 * and `ScheduleTargetBaseProps` (aws/aws-cdk, packages/aws-cdk-lib/aws-scheduler-targets);
 * Lambda developer guide, "Using Lambda with Amazon EventBridge Scheduler" (asynchronous
 * invocation); EventBridge Scheduler user guide, "Managing a schedule" (retry policy and DLQ).
 */
export const RECONCILER_SCHEDULE = {
  rate: Duration.minutes(RECONCILER_SCHEDULE_PERIOD_MS / 60_000),
  retryAttempts: 2,
  maxEventAge: Duration.minutes(2),
  deadLetterRetention: Duration.days(14),
} as const;

/** Props of {@link ReconcilerSchedule}. */
export interface ReconcilerScheduleProps {
  /** The reconciler function the schedule invokes. */
  fn: IFunction;
  /** Stage name, part of the schedule's name `switchyard-<stage>-<job>`. */
  stage: string;
  /** The job's name in the schedule's name and descriptions: `reconciler` (default), or e.g. `billing`. */
  job?: string;
  /** The schedule's description (default: the reconciler's). */
  description?: string;
}

/**
 * Runs the background reconciler every minute: an EventBridge Scheduler schedule (L2 `Schedule`
 * with the `LambdaInvoke` target, in the `default` schedule group) with a small retry policy and
 * an SQS dead-letter queue for invocations Scheduler could not deliver.
 *
 * The dead-letter queue is encrypted (SSE-SQS, no KMS key for the scheduler role to be granted)
 * and refuses non-TLS requests (cdk-nag AwsSolutions-SQS2/SQS4). The execution role trusts
 * `scheduler.amazonaws.com` only for this account's `default` schedule group, as the EventBridge
 * Scheduler user guide's "Confused deputy prevention" page prescribes (`aws:SourceArn` must be
 * a schedule group, not a schedule); `LambdaInvoke` adds `lambda:InvokeFunction` on the
 * function and `sqs:SendMessage` on the queue to it.
 */
export class ReconcilerSchedule extends Construct {
  /** The schedule. */
  readonly schedule: Schedule;
  /** Invocations Scheduler gave up delivering (alarmed on in lib/monitoring/scheduled-jobs-section.ts). */
  readonly deadLetterQueue: Queue;
  /** Role EventBridge Scheduler assumes to invoke the function and write to the queue. */
  readonly role: Role;

  constructor(scope: Construct, id: string, props: ReconcilerScheduleProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: RECONCILER_SCHEDULE.deadLetterRetention,
    });
    acknowledgeNagFindings(this.deadLetterQueue, [
      {
        id: 'AwsSolutions-SQS3',
        reason:
          "This queue is itself a dead-letter queue: EventBridge Scheduler's, for reconciler invocations it could not deliver (cdk-nag only recognises DLQs of SQS queues and Lambda functions).",
      },
    ]);

    this.role = new Role(this, 'Role', {
      description: `EventBridge Scheduler: invokes the Switchyard ${props.stage} ${props.job ?? 'reconciler'}`,
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: {
          StringEquals: {
            'aws:SourceAccount': stack.account,
            'aws:SourceArn': stack.formatArn({ service: 'scheduler', resource: 'schedule-group', resourceName: 'default' }),
          },
        },
      }),
    });

    this.schedule = new Schedule(this, 'Schedule', {
      scheduleName: `switchyard-${props.stage}-${props.job ?? 'reconciler'}`,
      description: props.description ?? 'Runs the Switchyard reconciler: settles payments, refunds and customer deletes left open.',
      schedule: ScheduleExpression.rate(RECONCILER_SCHEDULE.rate),
      target: new LambdaInvoke(props.fn, {
        role: this.role,
        deadLetterQueue: this.deadLetterQueue,
        retryAttempts: RECONCILER_SCHEDULE.retryAttempts,
        maxEventAge: RECONCILER_SCHEDULE.maxEventAge,
      }),
    });
    // `grantInvoke` names the function and its versions/aliases (`<arn>:*`).
    const fnLogicalId = stack.getLogicalId(props.fn.node.defaultChild as CfnElement);
    acknowledgeNagFindings(this.role, [
      {
        id: `AwsSolutions-IAM5[Resource::<${fnLogicalId}.Arn>:*]`,
        reason:
          "lambda:InvokeFunction on the reconciler function only: CDK's grantInvoke adds its qualified ARNs (versions and aliases, `<arn>:*`) to the unqualified one.",
      },
    ]);
  }
}
