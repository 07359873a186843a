import { type App, Tags } from 'aws-cdk-lib';
import type { RouteDefinition } from '../shared/api/routes';
import { ApiStack } from './api-stack';
import { stackNames, stageConfig, withAlarmDestinations } from './config/stage-config';
import { DataStack } from './data-stack';

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /**
   * The webhook delivery handler module (see `ApiStackProps.webhookDeliveryEntry`): default the
   * real one if its file exists; `false` for none; tests pass a stub.
   */
  webhookDeliveryEntry?: string | false;
  /** The route table (see `ApiStackProps.routes`): default shared/api/routes.ts; tests pass a longer one. */
  routes?: readonly RouteDefinition[];
}

/**
 * What bin/switchyard.ts applies to the whole app besides the stacks: the `service` tag on every
 * resource that takes tags (tests that measure templates as deployed apply it too).
 */
export function tagApp(app: App): void {
  Tags.of(app).add('service', 'switchyard');
}

/**
 * Adds one stage's stacks to the app: the stateful data stack and the
 * stateless API stack that depends on it. The API stack reads the data stack's
 * resources by name (table, secrets, the SSM parameters holding the stream ARN and
 * the connector-accounts key ARN), never through CloudFormation exports. The API
 * stack's route functions are in nested stacks (lib/function-groups.ts).
 * The stage's alarm destinations come from the app's context (or the environment):
 * `-c alarmEmail=…`, `-c slackWorkspaceId=… -c slackChannelId=…` (lib/config/stage-config.ts,
 * `withAlarmDestinations`).
 * @throws Error for an unknown stage, and for a stage that requires an alarm destination (prod) given none
 * @returns both stacks (tests inspect their templates)
 */
export function buildApp(app: App, stage: string, options: BuildAppOptions = {}): { data: DataStack; api: ApiStack } {
  const config = withAlarmDestinations(stageConfig(stage), (key) => app.node.tryGetContext(key));
  const names = stackNames(config.stage);
  const env = { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION };
  const data = new DataStack(app, names.data, { stackName: names.data, config, env, description: `Switchyard ${stage}: DynamoDB table` });
  const api = new ApiStack(app, names.api, {
    stackName: names.api,
    config,
    tableName: data.tableName,
    fingerprintSecretName: data.fingerprintSecretName,
    connectorSecretsName: data.connectorSecretsName,
    tableStreamArnParameterName: data.tableStreamArnParameterName,
    connectorAccountsKeyArnParameterName: data.connectorAccountsKeyArnParameterName,
    filesBucketName: data.filesBucketName,
    webhookDeliveryEntry: options.webhookDeliveryEntry,
    routes: options.routes,
    env,
    description: `Switchyard ${stage}: HTTP API, functions, dashboard and alarms`,
  });
  api.addStackDependency(data);
  return { data, api };
}
