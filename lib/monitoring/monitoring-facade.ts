import { Duration } from 'aws-cdk-lib';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { DefaultDashboardFactory, MonitoringFacade, SnsAlarmActionStrategy } from 'cdk-monitoring-constructs';
import type { Construct } from 'constructs';

/** Options of {@link dashboardFacade}. */
export interface DashboardFacadeOptions {
  /** The dashboard's name. */
  dashboardName: string;
  /** Prefix of every alarm's name the facade builds, e.g. `Switchyard-<stage>`. */
  alarmNamePrefix: string;
  /** The topic every alarm notifies. */
  alarmTopic: ITopic;
}

/**
 * A cdk-monitoring-constructs facade drawing one dashboard (`Dashboards`, no summary or alarm
 * dashboard) and building alarms that notify `alarmTopic`, in `scope` as `Dashboards` and `Monitoring`.
 * Defaults: metrics per minute; alarms on 3 of 5 datapoints unless an alarm says otherwise.
 */
export function dashboardFacade(scope: Construct, options: DashboardFacadeOptions): MonitoringFacade {
  const dashboardFactory = new DefaultDashboardFactory(scope, 'Dashboards', {
    dashboardNamePrefix: options.dashboardName,
    createDashboard: true,
    createSummaryDashboard: false,
    createAlarmDashboard: false,
  });
  return new MonitoringFacade(scope, 'Monitoring', {
    alarmFactoryDefaults: {
      alarmNamePrefix: options.alarmNamePrefix,
      actionsEnabled: true,
      action: new SnsAlarmActionStrategy({ onAlarmTopic: options.alarmTopic }),
      datapointsToAlarm: 3,
      evaluationPeriods: 5,
    },
    metricFactoryDefaults: { period: Duration.minutes(1) },
    dashboardFactory,
  });
}
