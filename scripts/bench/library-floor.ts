/**
 * The cold-start floor the project's fixed choices set: a bundle entry holding only what every API
 * handler must load by the rules of this repository — the DynamoDB document client (the baseline),
 * middy (`@middy/core`, the handler wrapper), zod (the input schemas: one small schema, namespace
 * import), and Powertools Logger and Metrics — with and (see {@link FLOOR_WITH_TRACER}) without
 * Powertools Tracer. scripts/bench.ts bundles it like a handler and prints its import time next to
 * the baseline's: when the floor alone is above the cold-start target (1.25× the baseline), no
 * handler can meet it without dropping one of those libraries (docs/benchmarks.md, "Cold start").
 */

import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import * as z from 'zod';

/** Whether this entry is the variant with Tracer: the entry file of that variant is library-floor-tracer.ts. */
export const FLOOR_WITH_TRACER = false;

const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION || 'us-east-1' }));
const logger = new Logger({ serviceName: 'floor' });
const metrics = new Metrics({ namespace: 'floor', serviceName: 'floor' });
const body = z.object({ amount: z.number().int().positive(), currency: z.enum(['NGN', 'USD']) });

/** A handler using each library once, so the bundler keeps all of them. */
export const handler = middy(async (event: { body?: string }) => {
  const parsed = body.safeParse(JSON.parse(event.body ?? '{}'));
  logger.info('floor', { ok: parsed.success });
  metrics.addMetric('Floor', 'Count', 1);
  return { statusCode: 200, body: String(Boolean(client)) };
});
