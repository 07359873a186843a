import { ComparisonOperator } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { RECONCILER_ALARM_EVALUATION } from './alarm-evaluation';
import type { DashboardSectionProps } from './dashboard-section';

/**
 * Stream lag of the webhook delivery function that alarms: Lambda's `IteratorAge` (age of the
 * last record read, Maximum) above 5 minutes.
 */
export const WEBHOOK_ITERATOR_AGE_ALARM_MS = 5 * 60 * 1000;

/** Props of {@link BackgroundFunctionsSection}. */
export interface BackgroundFunctionsSectionProps extends DashboardSectionProps {
  /** The background reconciler (its logical name and function). */
  reconciler: { name: string; fn: IFunction };
  /** Webhook delivery, when deployed: the fan-out function (fed by the table's stream) and the delivery worker (fed by the delivery queue). */
  webhookDelivery?: { name: string; fn: IFunction; workerName: string; worker: IFunction };
}

/**
 * The functions that no route invokes: cdk-monitoring-constructs' Lambda panels of each, with its
 * errors and throttles alarms. The reconciler's errors alarm fires on one error in 5 minutes (it runs
 * about once a minute, so the API functions' per-minute count never would); webhook delivery's
 * functions take the API functions' bounds, and the stream function also alarms on its stream lag
 * (`isIterator`, `addMaxIteratorAgeAlarm` on `IteratorAge` Maximum: {@link WEBHOOK_ITERATOR_AGE_ALARM_MS};
 * Lambda developer guide, "Using CloudWatch metrics with Lambda": IteratorAge is the age of the last
 * record in each batch, for stream event sources).
 */
export class BackgroundFunctionsSection extends Construct {
  constructor(scope: Construct, id: string, props: BackgroundFunctionsSectionProps) {
    super(scope, id);
    const { config, monitoring } = props;
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
    const delivery = props.webhookDelivery;
    if (!delivery) return;
    monitoring.monitorLambdaFunction({
      lambdaFunction: delivery.fn,
      alarmFriendlyName: delivery.name,
      humanReadableName: `${delivery.name} (table stream)`,
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
      lambdaFunction: delivery.worker,
      alarmFriendlyName: delivery.workerName,
      humanReadableName: `${delivery.workerName} (delivery queue)`,
      addFaultCountAlarm: { Critical: { maxErrorCount: config.alarms.lambdaErrors } },
      addThrottlesCountAlarm: { Warning: { maxErrorCount: config.alarms.lambdaThrottles } },
    });
  }
}
