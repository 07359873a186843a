import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from '../observability/tracer';

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
      requestHandler: { connectionTimeout: 1000, requestTimeout: 5000 },
      ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
    }),
  );
  return cachedBase;
}

/**
 * The process-wide DynamoDB document client. Reads `DYNAMODB_ENDPOINT` (the
 * local stack and tests point it at DynamoDB Local, with dummy credentials) and
 * `AWS_REGION`. Traced by Powertools Tracer in Lambda. Timeouts are short so that an unreachable table becomes a 503
 * quickly instead of hanging the function.
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
