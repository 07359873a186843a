import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import { dashboardFacade } from './monitoring-facade';

/** Name of a function group's dashboard: `Switchyard-<stage>-Functions-<group>`. */
export const functionGroupDashboardName = (stage: string, group: string): string => `Switchyard-${stage}-Functions-${group}`;

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
    const monitoring = dashboardFacade(this, {
      dashboardName: this.dashboardName,
      alarmNamePrefix: `Switchyard-${config.stage}-${group}`,
      alarmTopic: props.alarmTopic,
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
