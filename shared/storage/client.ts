import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from '../observability/tracer';
import { wholeNumberSetting } from '../settings/whole-number-setting';

/** Default connect timeout of the DynamoDB client, ms: an unreachable table becomes a 503 quickly. */
const CONNECTION_TIMEOUT_MS = 1000;
/** Default request timeout of the DynamoDB client, ms. */
const REQUEST_TIMEOUT_MS = 5000;

/**
 * The DynamoDB client's timeouts, ms: `DYNAMODB_CONNECTION_TIMEOUT_MS` (default 1,000: how long a new
 * connection may take to open before the attempt fails with a retryable `TimeoutError`) and
 * `DYNAMODB_REQUEST_TIMEOUT_MS` (default 5,000; this SDK version only logs a warning when a request
 * exceeds it, it does not abort it). Deployed stages keep the defaults. The test run raises them
 * (test/setup/global-setup.ts): under a starved event loop a loopback connect to DynamoDB Local that
 * succeeded can still be seen after its 1,000 ms timer, and the request then fails though nothing was wrong.
 * A value that is not a whole number from 1 to 600,000 is ignored (the default applies).
 * @param env the environment to read (default `process.env`)
 * @returns `{ connectionTimeout, requestTimeout }` in milliseconds, as the SDK's `requestHandler` takes them
 */
export function storageTimeouts(env: NodeJS.ProcessEnv = process.env): { connectionTimeout: number; requestTimeout: number } {
  const range = { min: 1, max: 600_000 };
  return {
    connectionTimeout: wholeNumberSetting(env.DYNAMODB_CONNECTION_TIMEOUT_MS, range, CONNECTION_TIMEOUT_MS),
    requestTimeout: wholeNumberSetting(env.DYNAMODB_REQUEST_TIMEOUT_MS, range, REQUEST_TIMEOUT_MS),
  };
}

let cached: DynamoDBDocumentClient | undefined;
let cachedBase: DynamoDBClient | undefined;

/**
 * The process-wide low-level DynamoDB client (for libraries that want one, such
 * as Powertools idempotency's persistence layer). Same settings as {@link documentClient}.
 */
export function baseClient(): DynamoDBClient {
  if (cachedBase) return cachedBase;
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  cachedBase = tracer.captureAWSv3Client(
    new DynamoDBClient({
      region: process.env.AWS_REGION || 'us-east-1',
      maxAttempts: 3,
      requestHandler: storageTimeouts(),
      ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return cachedBase;
}

/**
 * The process-wide DynamoDB document client. Reads `DYNAMODB_ENDPOINT` (the
 * local stack and tests point it at DynamoDB Local, with dummy credentials) and
 * `AWS_REGION`. Traced by Powertools Tracer in Lambda. Timeouts are short so that an unreachable table becomes a 503
 * quickly instead of hanging the function ({@link storageTimeouts}: `DYNAMODB_CONNECTION_TIMEOUT_MS`, `DYNAMODB_REQUEST_TIMEOUT_MS`).
 */
export function documentClient(): DynamoDBDocumentClient {
  if (cached) return cached;
  cached = DynamoDBDocumentClient.from(baseClient(), {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  return cached;
}

/** Closes the process-wide client's connections (tests and scripts that must exit cleanly). */
export function destroyDocumentClient(): void {
  cached?.destroy();
  cachedBase?.destroy();
  cached = undefined;
  cachedBase = undefined;
}
