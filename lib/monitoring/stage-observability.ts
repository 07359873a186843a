import { Stack } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { FALLBACK_ROUTE } from '../../shared/api/routes';
import type { RouteFunctions } from '../api/route-functions';
import { type BackgroundWork, BILLING_WORKER, RECONCILER } from '../background/background-work';
import { type StageConfig, stageConnectors } from '../config/stage-config';
import { WEBHOOK_DELIVERY, WEBHOOK_DELIVERY_WORKER } from '../delivery/webhook-delivery';
import { apiLogGroupPrefix, FALLBACK_GROUP } from '../function-groups';
import { type FunctionFactory, SERVICE_NAME } from '../functions/function-factory';
import { SyntheticChecks } from './canaries';
import { FunctionGroupMonitoring } from './function-group-monitoring';
import { OperationsQueries } from './operations-queries';
import { ServiceMonitoring } from './service-monitoring';

/** Props of {@link StageObservability}: the stage's parts it watches. */
export interface StageObservabilityProps {
  config: StageConfig;
  api: IHttpApi;
  /** The function factory: the functions' log groups, the table and the metrics namespace. */
  factory: FunctionFactory;
  routeFunctions: RouteFunctions;
  background: BackgroundWork;
  /** What every alarm notifies (lib/monitoring/alarm-notifications.ts). */
  alarmTopic: ITopic;
}

/**
 * What watches the stage, in this order: the canaries (lib/monitoring/canaries.ts, `SyntheticChecks`); each function
 * group's dashboard and its functions' errors and throttles alarms, in the group's nested stack
 * ({@link FunctionGroupMonitoring}); the stage dashboard `Switchyard-<stage>` and its alarms
 * ({@link ServiceMonitoring}: money flowing, connectors, the API, background functions, webhooks,
 * disputes, the table…); and the saved Logs Insights queries and Contributor Insights rule
 * ({@link OperationsQueries}) over the functions' log groups.
 *
 * Each is declared in the stack (or the group's nested stack), not in this construct, so their logical
 * ids are the ones the stack has always given them (alarms and dashboards have fixed names).
 */
export class StageObservability extends Construct {
  /** The stage dashboard's name, `Switchyard-<stage>`. */
  readonly dashboardName: string;

  constructor(scope: Construct, id: string, props: StageObservabilityProps) {
    super(scope, id);
    const { config, api, factory, routeFunctions, background, alarmTopic } = props;
    const stack = Stack.of(this);
    const { functions, notFound, groupStacks } = routeFunctions;
    const { reconciler, reconcilerSchedule, webhookDelivery, billingWorker, billingSchedule } = background;
    const logGroups = factory.logGroups;
    const canaries = new SyntheticChecks(stack, 'SyntheticChecks', { config, apiUrl: api.apiEndpoint });
    // Each group's dashboard and alarms of its functions, in the group's nested stack (see FunctionGroupMonitoring).
    const groupFunctions = new Map<string, { name: string; fn: IFunction }[]>();
    for (const { route, group, fn } of functions)
      groupFunctions.set(group, [...(groupFunctions.get(group) ?? []), { name: route.name, fn }]);
    groupFunctions.set(FALLBACK_GROUP, [...(groupFunctions.get(FALLBACK_GROUP) ?? []), { name: FALLBACK_ROUTE.name, fn: notFound }]);
    const groupMonitoring = [...groupFunctions].map(
      ([group, members]) =>
        new FunctionGroupMonitoring(groupStacks.get(group)!, `${group}Monitoring`, { config, group, functions: members, alarmTopic }),
    );
    const monitoring = new ServiceMonitoring(stack, 'Observability', {
      config,
      api,
      functionDashboards: groupMonitoring.map((m) => m.dashboardName),
      reconciler: { name: RECONCILER.name, fn: reconciler, deadLetterQueue: reconcilerSchedule.deadLetterQueue },
      billing: { name: BILLING_WORKER.name, fn: billingWorker, deadLetterQueue: billingSchedule.deadLetterQueue },
      // Where disputes are recorded: the processors' webhook receivers, the dispute answers and the worker.
      disputeLogGroups: [
        ...functions
          .filter(({ route }) => route.path.startsWith('/webhooks/') || route.path.startsWith('/disputes/'))
          .map(({ route }) => logGroups.get(route.name)!),
        logGroups.get(BILLING_WORKER.name)!,
      ],
      webhookDelivery: webhookDelivery && {
        name: WEBHOOK_DELIVERY.name,
        fn: webhookDelivery.fn,
        failureQueue: webhookDelivery.failureQueue,
        workerName: WEBHOOK_DELIVERY_WORKER.name,
        worker: webhookDelivery.worker,
        workerLogGroup: logGroups.get(WEBHOOK_DELIVERY_WORKER.name)!,
        deadLetterQueue: webhookDelivery.deadLetterQueue,
      },
      table: factory.table,
      alarmTopic,
      metricsNamespace: factory.metricsNamespace,
      serviceName: SERVICE_NAME,
      connectors: stageConnectors(config),
      canaries: { health: canaries.health, sandboxPayment: canaries.sandboxPayment },
    });
    this.dashboardName = monitoring.dashboardName;
    new OperationsQueries(stack, 'OperationsQueries', {
      stage: config.stage,
      apiLogGroups: functions.filter(({ route }) => route.auth).map(({ route }) => logGroups.get(route.name)!),
      paymentLogGroups: functions
        .filter(({ route }) => /^\/(payments|refunds|pay|sandbox|webhooks)(\/|$)/.test(route.path))
        .map(({ route }) => logGroups.get(route.name)!),
      connectorLogGroups: functions.filter(({ route }) => route.connectors).map(({ route }) => logGroups.get(route.name)!),
      apiLogGroupPrefix: apiLogGroupPrefix(config.stage),
      backgroundLogGroups: [logGroups.get(RECONCILER.name)!],
    });
  }
}
