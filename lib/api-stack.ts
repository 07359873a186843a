import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CfnOutput, type NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../shared/api/routes';
import { ApiStage } from './api/api-stage';
import { HttpApiRoutes } from './api/http-api-routes';
import { RouteFunctions } from './api/route-functions';
import { BackgroundWork } from './background/background-work';
import type { StageConfig } from './config/stage-config';
import { WEBHOOK_DELIVERY } from './delivery/webhook-delivery';
import { FunctionFactory } from './functions/function-factory';
import { AlarmNotifications } from './monitoring/alarm-notifications';
import { StageObservability } from './monitoring/stage-observability';

/** Props of {@link ApiStack}. */
export interface ApiStackProps extends StackProps {
  config: StageConfig;
  /** Name of the stage's table (from the data stack); imported by name so no CloudFormation export ties the stacks. */
  tableName: string;
  /** Name of the secret holding the keyed-hash key (from the data stack). */
  fingerprintSecretName: string;
  /** Name of the secret holding the processors' keys (from the data stack). */
  connectorSecretsName: string;
  /**
   * Name of the SSM parameter holding the table's stream ARN (from the data stack), resolved at
   * deploy time: see `DataStack` (lib/data-stack.ts).
   */
  tableStreamArnParameterName: string;
  /**
   * Name of the SSM parameter holding the key ARN of the connector-accounts KMS key (from the data
   * stack), resolved at deploy time like the stream ARN.
   */
  connectorAccountsKeyArnParameterName: string;
  /**
   * Name of the evidence files bucket (from the data stack; see `filesBucketAccess`, lib/api/files-bucket-access.ts). Absent: no
   * function gets `FILES_BUCKET` or any S3 statement.
   */
  filesBucketName?: string;
  /**
   * The webhook delivery handler module, from the repository root. Default:
   * {@link WEBHOOK_DELIVERY}`.entry` if that file exists, else none. `false`: no webhook delivery
   * (no function, event source mapping, failure queue or webhook monitoring). Tests pass a stub.
   */
  webhookDeliveryEntry?: string | false;
  /**
   * The route table to deploy, before the stage's sandbox filter (`stageRoutes`, lib/api/route-functions.ts). Default:
   * shared/api/routes.ts's `ROUTES`. Tests pass a longer one to check the stacks' room to grow.
   */
  routes?: readonly RouteDefinition[];
}

/**

/**
 * The stateless stack of a stage, assembled from named constructs, in this order (the order of the
 * resources in its templates, which a refactoring must keep):
 *
 * 1. {@link FunctionFactory} (lib/functions/function-factory.ts): the data stack's resources imported by
 *    name and the factory that builds every function with the service's conventions.
 * 2. {@link RouteFunctions} (lib/api/route-functions.ts): one function per route the stage deploys
 *    (`stageRoutes`: no sandbox pages without the sandbox) plus the `$default` 404 function, in
 *    nested stacks, one per function group (lib/function-groups.ts): each function with its role, policy,
 *    log group (`/switchyard/<stage>/api/<group>/<function>`) and invoke permission.
 * 3. {@link HttpApiRoutes} (lib/api/http-api-routes.ts): the HTTP API, its routes and integrations.
 * 4. {@link BackgroundWork} (lib/background/background-work.ts): the reconciler and its every-minute
 *    schedule, webhook delivery (the stream consumer, its queues and worker:
 *    lib/delivery/webhook-delivery.ts), the renewal worker and its schedule.
 * 5. {@link ApiStage} (lib/api/api-stage.ts): the `$default` stage with throttling and JSON access logs.
 * 6. {@link AlarmNotifications} (lib/monitoring/alarm-notifications.ts): the alarm topic and its destinations.
 * 7. {@link StageObservability} (lib/monitoring/stage-observability.ts): the canaries, each function
 *    group's dashboard and alarms (in its nested stack), the stage dashboard and alarms, the saved Logs
 *    Insights queries and Contributor Insights rule.
 * 8. The stack's outputs (the renewal worker's dead-letter queue's is declared with it, in step 4).
 *
 * Each construct declares its resources in this stack (or a group's nested stack), not under itself,
 * so every logical id is the one the stack had before it was split into constructs. This stack keeps
 * what has a fixed name or must stay in one place: the HTTP API, its routes and integrations (their
 * logical ids unchanged by the nested-stack split, so they are updated in place), the stage dashboard
 * and the business and background alarms (fixed names: never moved between stacks), the canaries, the
 * saved queries, the Contributor Insights rule, and the background functions (the reconciler, whose
 * named schedule is here, and webhook delivery). It reads the route functions only through their ARNs
 * (integrations), which CloudFormation passes from each nested stack as outputs; the nested stacks get
 * the API's id, the alarm topic and the SSM-resolved key ARN as parameters. Sizes per template:
 * test/infra/capacity.test.ts.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  /** The nested stack of each function group, by group name. */
  readonly functionGroups: ReadonlyMap<string, NestedStack>;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const { config } = props;
    const root = process.cwd();
    const webhookDeliveryEntry =
      props.webhookDeliveryEntry ?? (existsSync(resolve(root, WEBHOOK_DELIVERY.entry)) ? WEBHOOK_DELIVERY.entry : false);
    const factory = new FunctionFactory(this, 'FunctionFactory', {
      config,
      root,
      tableName: props.tableName,
      fingerprintSecretName: props.fingerprintSecretName,
      connectorSecretsName: props.connectorSecretsName,
      // Only webhook delivery reads the table's stream.
      tableStreamArnParameterName: webhookDeliveryEntry ? props.tableStreamArnParameterName : undefined,
      connectorAccountsKeyArnParameterName: props.connectorAccountsKeyArnParameterName,
    });
    const routeFunctions = new RouteFunctions(this, 'RouteFunctions', {
      config,
      factory,
      routes: props.routes,
      filesBucketName: props.filesBucketName,
    });
    this.functionGroups = routeFunctions.groupStacks;
    this.api = new HttpApiRoutes(this, 'HttpApiRoutes', { config, routeFunctions }).api;
    const background = new BackgroundWork(this, 'BackgroundWork', { config, factory, api: this.api, webhookDeliveryEntry });
    const { reconcilerSchedule, webhookDelivery } = background;
    const { stage } = new ApiStage(this, 'ApiStage', { config, api: this.api, retention: factory.retention });
    const { alarmTopic } = new AlarmNotifications(this, 'AlarmNotifications', { config });

    const { dashboardName } = new StageObservability(this, 'StageObservability', {
      config,
      api: this.api,
      factory,
      routeFunctions,
      background,
      alarmTopic,
    });

    new CfnOutput(this, 'ApiUrl', { value: stage.url, description: 'Base URL of the API' });
    new CfnOutput(this, 'DashboardUrl', {
      value: `https://${this.region}.console.aws.amazon.com/cloudwatch/home?region=${this.region}#dashboards:name=${dashboardName}`,
      description: 'CloudWatch dashboard of this stage',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: alarmTopic.topicArn,
      description: 'SNS topic the alarms notify: subscribe on-call here',
    });
    new CfnOutput(this, 'TableName', { value: factory.table.tableName, description: 'DynamoDB table of this stage' });
    new CfnOutput(this, 'ReconcilerDeadLetterQueueUrl', {
      value: reconcilerSchedule.deadLetterQueue.queueUrl,
      description: 'Reconciler invocations EventBridge Scheduler could not deliver (alarmed when not empty)',
    });
    if (webhookDelivery) {
      new CfnOutput(this, 'WebhookDeliveryDeadLetterQueueUrl', {
        value: webhookDelivery.deadLetterQueue.queueUrl,
        description: 'Webhook delivery messages the worker failed 5 times (the deliveries stay due in the table; alarmed when not empty)',
      });
      new CfnOutput(this, 'WebhookDeliveryFailureQueueUrl', {
        value: webhookDelivery.failureQueue.queueUrl,
        description: 'Stream records the webhook delivery function gave up on (shard and sequence ranges; alarmed when not empty)',
      });
    }
  }
}
