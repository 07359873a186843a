import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { MonitoringFacade } from 'cdk-monitoring-constructs';
import type { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import type { StageMetrics } from './stage-metrics';

/** What every section of the stage dashboard (lib/monitoring/*-section.ts) is built with. */
export interface DashboardSectionProps {
  /**
   * The stage dashboard's facade: a section adds its widgets and alarms to it, so the dashboard shows
   * the sections in the order they are created (lib/monitoring/service-monitoring.ts).
   */
  monitoring: MonitoringFacade;
  config: StageConfig;
  metrics: StageMetrics;
  /** The stage's alarm topic: what the alarms a section declares itself (outside the facade) notify. */
  alarmTopic: ITopic;
}

/**
 * Where a section declares the CloudFormation resources it makes itself (Contributor Insights rules,
 * alarms on metric math the facade does not build): its parent, the stage monitoring construct, not
 * the section. CDK derives a resource's logical id from its construct path, so declared there each
 * keeps the logical id it had before the dashboard was split into sections, and a deploy updates it
 * in place (a replaced alarm or rule, whose name is fixed, would collide with itself).
 */
export const sectionResourceScope = (section: Construct): Construct => section.node.scope!;
