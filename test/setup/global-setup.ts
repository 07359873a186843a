/**
 * Starts one in-memory DynamoDB Local for the whole test run and creates the
 * table from the shared definition. Workers inherit the endpoint through the
 * environment. Each test file isolates its data by using its own merchant.
 */
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local';
import { ensureTable } from '../../scripts/local/ensure-table';

export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  process.env.POWERTOOLS_LOG_LEVEL = process.env.POWERTOOLS_LOG_LEVEL || 'SILENT';
  process.env.TABLE_NAME = 'switchyard-test';
  process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  const dynamo = await startDynamoDbLocal({ inMemory: true });
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  await ensureTable(dynamo.endpoint, process.env.TABLE_NAME);
  (globalThis as { __dynamo?: { stop(): Promise<void> } }).__dynamo = dynamo;
}
