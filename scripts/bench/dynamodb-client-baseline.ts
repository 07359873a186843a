/**
 * Baseline bundle entry for the benchmark's size and cold-import comparison:
 * nothing but a constructed DynamoDB document client, i.e. the least any
 * function of this API that talks to DynamoDB has to load. Bundled by
 * scripts/bench/bundles.ts with the same esbuild options as the handlers.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The constructed client (exported so the bundler keeps it). */
export const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION || 'us-east-1' }));
