import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracer } from '../observability/tracer';

let cached: DynamoDBDocumentClient | undefined;

/**
 * The process-wide DynamoDB document client. Reads `DYNAMODB_ENDPOINT` (the
 * local stack and tests point it at DynamoDB Local, with dummy credentials) and
 * `AWS_REGION`. Traced by Powertools Tracer in Lambda. Timeouts are short so that an unreachable table becomes a 503
 * quickly instead of hanging the function.
 */
export function documentClient(): DynamoDBDocumentClient {
  if (cached) return cached;
  const endpoint = process.env.DYNAMODB_ENDPOINT;
  const base = new DynamoDBClient({
    region: process.env.AWS_REGION || 'us-east-1',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1000, requestTimeout: 5000 },
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
  cached = DynamoDBDocumentClient.from(tracer.captureAWSv3Client(base), {
    marshallOptions: { removeUndefinedValues: true, convertEmptyValues: false },
  });
  return cached;
}

/** Closes the process-wide client's connections (tests and scripts that must exit cleanly). */
export function destroyDocumentClient(): void {
  cached?.destroy();
  cached = undefined;
}
