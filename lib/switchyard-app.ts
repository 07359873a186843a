import type { App } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { stackNames, stageConfig } from './config/stage-config';
import { DataStack } from './data-stack';

/** Options of {@link buildApp}. */
export interface BuildAppOptions {
  /**
   * The webhook delivery handler module (see `ApiStackProps.webhookDeliveryEntry`): default the
   * real one if its file exists; `false` for none; tests pass a stub.
   */
  webhookDeliveryEntry?: string | false;
}

/**
 * Adds one stage's stacks to the app: the stateful data stack and the
 * stateless API stack that depends on it. The API stack reads the data stack's
 * resources by name (table, secrets, the SSM parameter holding the stream ARN),
 * never through CloudFormation exports.
 * @throws Error for an unknown stage
 * @returns both stacks (tests inspect their templates)
 */
export function buildApp(app: App, stage: string, options: BuildAppOptions = {}): { data: DataStack; api: ApiStack } {
  const config = stageConfig(stage);
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
    webhookDeliveryEntry: options.webhookDeliveryEntry,
    env,
    description: `Switchyard ${stage}: HTTP API, functions, dashboard and alarms`,
  });
  api.addStackDependency(data);
  return { data, api };
}
