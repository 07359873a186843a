import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { fanOutEvent } from '../../shared/operations/event-delivery-operations';

/**
 * One stream record: an INSERT of an event item (`entity = 'event'`, the outbox) is fanned
 * out to the merchant's subscribed endpoints ({@link fanOutEvent}: delivery records, handed to the
 * delivery queue; no POST here); every other record (updates, removals, other entities) is ignored.
 * Throws on storage and queue errors, so the record is reported as a batch item failure and retried
 * (creating a delivery twice is impossible).
 */
async function recordHandler(record: DynamoDBRecord): Promise<void> {
  if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) return;
  const item = unmarshall(record.dynamodb.NewImage as unknown as Record<string, SdkAttributeValue>);
  if (item.entity !== 'event') return;
  const fanOut = await fanOutEvent({
    merchant_id: String(item.merchant_id),
    event_id: String(item.event_id),
    type: String(item.type),
    created_at: String(item.created_at),
    body: String(item.body),
    expires_at: Number(item.expires_at),
  });
  if (fanOut.queued > 0) logger.debug('event fanned out', { event_id: item.event_id, ...fanOut });
}

/**
 * The webhook delivery fan-out: a DynamoDB Streams handler (the table's stream, NEW_IMAGE; on
 * AWS an event source mapping filtered to event INSERTs, locally scripts/local/event-stream.ts)
 * processing its batch with Powertools Batch (`BatchProcessor`, `EventType.DynamoDBStreams`,
 * records in parallel). For each new event: one delivery record per enabled, subscribed
 * endpoint, handed to the delivery queue, whose worker (queue-handler.ts) sends it (Standard
 * Webhooks; see shared/operations/event-delivery-operations.ts). A batch takes as long as its
 * DynamoDB writes and queue calls, never as long as a merchant's slowest endpoint.
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
