import { Duration } from 'aws-cdk-lib';
import { TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';

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
 * Evaluation of the reconciler's alarms (and the other background work's, and the queues'): one
 * 5-minute period, one datapoint breaching. The reconciler runs every minute, so a period holds up
 * to five runs; a silent period (no runs, no open operations, an idle queue) is treated as not
 * breaching.
 */
export const RECONCILER_ALARM_EVALUATION = {
  period: Duration.minutes(5),
  datapointsToAlarm: 1,
  evaluationPeriods: 1,
  treatMissingDataOverride: TreatMissingData.NOT_BREACHING,
} as const;
