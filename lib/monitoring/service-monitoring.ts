import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Canary } from 'aws-cdk-lib/aws-synthetics';
import { Construct } from 'constructs';
import type { StageConfig } from '../config/stage-config';
import { AccountAuthorizationSection } from './account-authorization-section';
import { ApiSection } from './api-section';
import { BackgroundFunctionsSection } from './background-functions-section';
import { BusinessMetricsSection } from './business-metrics-section';
import { CanariesSection } from './canaries-section';
import { ConnectorAccountsSection } from './connector-accounts-section';
import { ConnectorSection } from './connector-section';
import type { DashboardSectionProps } from './dashboard-section';
import { DisputesSection } from './disputes-section';
import { MoneyFlowingSection } from './money-flowing-section';
import { dashboardFacade } from './monitoring-facade';
import { OpenOperationsSection } from './open-operations-section';
import { PayoutsSection } from './payouts-section';
import { ScheduledJobsSection } from './scheduled-jobs-section';
import { StageMetrics } from './stage-metrics';
import { TableSection } from './table-section';
import { WebhooksSection } from './webhooks-section';

/** Props of {@link ServiceMonitoring}. */
export interface ServiceMonitoringProps {
  config: StageConfig;
  api: IHttpApi;
  /**
   * Names of the function groups' dashboards, listed (with links) on the stage dashboard: the route
   * functions' panels and alarms are in their groups' nested stacks (lib/monitoring/function-group-monitoring.ts).
   */
  functionDashboards?: string[];
  /** The background reconciler and the dead-letter queue of its schedule. */
  reconciler: { name: string; fn: IFunction; deadLetterQueue: IQueue };
  /**
   * The log groups where disputes are recorded (webhook receivers, dispute answers, the renewal worker):
   * the disputes section's Contributor Insights rules read them.
   */
  disputeLogGroups?: ILogGroup[];
  /** The renewal worker and the dead-letter queue of its schedule. */
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
  /** The stage's canaries (lib/monitoring/canaries.ts), alarmed on failure. */
  canaries?: { health: Canary; sandboxPayment?: Canary };
}

/**
 * The stage's CloudWatch dashboard (`Switchyard-<stage>`) and alarms, built with
 * cdk-monitoring-constructs 10.2.0 (`MonitoringFacade`, lib/monitoring/monitoring-facade.ts). One
 * construct per dashboard section, in the order the dashboard shows them; every alarm notifies the
 * alarm topic, and each alarm's description ends with its runbook (docs/operations.md, `RUNBOOK`):
 *
 * 1. "Is money flowing?" ({@link MoneyFlowingSection}): payments, success rate per connector, what is open.
 * 2. One section per connector of the stage's routing rules ({@link ConnectorSection}).
 * 3. Connector accounts ({@link ConnectorAccountsSection}): one multi-time-series alarm over every account; their
 *    authorization rate ({@link AccountAuthorizationSection}), alarmed per account the same way; then payouts ({@link PayoutsSection}): failed or reversed payouts per account and per connector.
 * 4. Synthetic checks ({@link CanariesSection}), where the stage has canaries.
 * 5. The HTTP API and links to the function groups' dashboards ({@link ApiSection}).
 * 6. The background functions: reconciler and webhook delivery ({@link BackgroundFunctionsSection}).
 * 7. The DynamoDB table ({@link TableSection}).
 * 8. Business metrics by currency and connector ({@link BusinessMetricsSection}).
 * 9. Open operations: what the reconciler sees and settles ({@link OpenOperationsSection}).
 * 10. Scheduled jobs: the renewal worker, the schedules' dead-letter queues ({@link ScheduledJobsSection}).
 * 11. Webhooks, where webhook delivery is deployed ({@link WebhooksSection}).
 * 12. Disputes, where dispute log groups are given ({@link DisputesSection}).
 *
 * The route functions' panels and alarms are not here but in their groups' nested stacks
 * (lib/monitoring/function-group-monitoring.ts). The facade's resources are under this construct
 * (`Dashboards`, `Monitoring`), and so are the few a section declares itself (see
 * `sectionResourceScope`): their logical ids are those they had before the sections were split out.
 */
export class ServiceMonitoring extends Construct {
  /** Name of the CloudWatch dashboard. */
  readonly dashboardName: string;

  constructor(scope: Construct, id: string, props: ServiceMonitoringProps) {
    super(scope, id);
    const { config } = props;
    this.dashboardName = `Switchyard-${config.stage}`;
    const monitoring = dashboardFacade(this, {
      dashboardName: this.dashboardName,
      alarmNamePrefix: `Switchyard-${config.stage}`,
      alarmTopic: props.alarmTopic,
    });
    const section: DashboardSectionProps = {
      monitoring,
      config,
      metrics: new StageMetrics(props.metricsNamespace, props.serviceName, config.alarms.minRateVolumePerPeriod),
      alarmTopic: props.alarmTopic,
    };

    monitoring.addLargeHeader(`Switchyard ${config.stage}`);
    new MoneyFlowingSection(this, 'MoneyFlowingSection', {
      ...section,
      connectors: props.connectors,
      webhookDelivery: props.webhookDelivery !== undefined,
    });
    for (const connector of props.connectors) new ConnectorSection(this, `ConnectorSection-${connector}`, { ...section, connector });
    new ConnectorAccountsSection(this, 'ConnectorAccountsSection', section);
    new AccountAuthorizationSection(this, 'AccountAuthorizationSection', section);
    new PayoutsSection(this, 'PayoutsSection', section);
    if (props.canaries) new CanariesSection(this, 'CanariesSection', { ...section, canaries: props.canaries });
    new ApiSection(this, 'ApiSection', { ...section, api: props.api, functionDashboards: props.functionDashboards });
    new BackgroundFunctionsSection(this, 'BackgroundFunctionsSection', {
      ...section,
      reconciler: props.reconciler,
      webhookDelivery: props.webhookDelivery,
    });
    new TableSection(this, 'TableSection', { ...section, table: props.table });
    new BusinessMetricsSection(this, 'BusinessMetricsSection', section);
    new OpenOperationsSection(this, 'OpenOperationsSection', section);
    new ScheduledJobsSection(this, 'ScheduledJobsSection', {
      ...section,
      reconcilerDeadLetterQueue: props.reconciler.deadLetterQueue,
      billing: props.billing,
    });
    if (props.webhookDelivery) {
      const { failureQueue, workerLogGroup, deadLetterQueue } = props.webhookDelivery;
      new WebhooksSection(this, 'WebhooksSection', { ...section, failureQueue, workerLogGroup, deadLetterQueue });
    }
    if (props.disputeLogGroups?.length) new DisputesSection(this, 'DisputesSection', { ...section, logGroups: props.disputeLogGroups });
  }
}
