import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { queueFanOuts } from '../../shared/operations/events/event-delivery-operations';

/**
 * One stream record: an INSERT of an event item (`entity = 'event'`, the outbox) is queued for
 * fan-out ({@link queueFanOuts}: one message; the delivery worker creates the delivery records and
 * sends; no table write and no POST here); every other record (updates, removals, other entities)
 * is ignored. Throws on queue errors, so the record is reported as a batch item failure and retried
 * (the queue dedupes a fan-out queued twice; creating a delivery twice is impossible).
 */
async function recordHandler(record: DynamoDBRecord): Promise<void> {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
  const item = unmarshall(record.dynamodb.NewImage as unknown as Record<string, SdkAttributeValue>);
  if (item.entity !== 'event') return;
  await queueFanOuts([
    {
      merchant_id: String(item.merchant_id),
      event_id: String(item.event_id),
      type: String(item.type),
      created_at: String(item.created_at),
      expires_at: Number(item.expires_at),
    },
  ]);
  logger.debug('event queued for fan-out', { event_id: item.event_id });
}

/**
 * The webhook delivery fan-out: a DynamoDB Streams handler (the table's stream, NEW_IMAGE; on
 * AWS an event source mapping filtered to event INSERTs, locally scripts/local/event-stream.ts)
 * processing its batch with Powertools Batch (`BatchProcessor`, `EventType.DynamoDBStreams`,
 * records in parallel). For each new event: one fan-out message to the delivery queue, whose worker
 * (queue-handler.ts) makes the delivery records and sends them (Standard Webhooks; see
 * shared/operations/events/event-delivery-operations.ts). A batch takes as long as its queue calls: neither a
 * merchant's number of endpoints nor its slowest endpoint shows on the shared stream.
 * @returns `{ batchItemFailures: [{ itemIdentifier: <SequenceNumber> }] }` for the records that
 *   failed (storage errors): Lambda retries from the first of them. A whole failed batch is
 *   answered the same way (no throw), with every record listed.
 */
export const handler = middy(
  async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> =>
    // A processor per invocation: it holds the batch's state, and the local stream reader and tests may overlap invocations in one process.
    processPartialResponse(event, recordHandler, new BatchProcessor(EventType.DynamoDBStreams), {
      context,
      throwOnFullBatchFailure: false,
    }),
).use(injectLambdaContext(logger));
