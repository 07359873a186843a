import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { DashboardSectionProps } from './dashboard-section';

/** Props of {@link TableSection}. */
export interface TableSectionProps extends DashboardSectionProps {
  table: ITableV2;
}

/**
 * The stage's DynamoDB table: cdk-monitoring-constructs' table panels (capacity, throttles, latency)
 * with read and write throttled-events alarms (Critical, above `alarms.dynamoThrottles`).
 */
export class TableSection extends Construct {
  constructor(scope: Construct, id: string, props: TableSectionProps) {
    super(scope, id);
    const { dynamoThrottles } = props.config.alarms;
    props.monitoring.monitorDynamoTable({
      table: props.table,
      alarmFriendlyName: 'Table',
      addReadThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: dynamoThrottles } },
      addWriteThrottledEventsCountAlarm: { Critical: { maxThrottledEventsThreshold: dynamoThrottles } },
    });
  }
}
