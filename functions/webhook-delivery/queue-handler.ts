import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { attemptQueuedDelivery, fanOutEvent } from '../../shared/operations/events/event-delivery-operations';
import { parseQueueMessage } from '../../shared/webhooks/delivery-queue';

/**
 * One queue message: a fan-out ({@link fanOutEvent}: the event's delivery records, queued) or a
 * delivery ({@link attemptQueuedDelivery}: one attempt, or a move to the merchant's slow lanes). Throws on storage and queue errors and on
 * unreadable messages, so the message is reported as a batch item failure and comes back after the
 * queue's visibility timeout (up to the redrive policy's receive count).
 */
async function recordHandler(record: SQSRecord): Promise<void> {
  const message = parseQueueMessage(record.body);
  if (message.kind === 'fan_out') {
    const { kind: _kind, ...event } = message;
    const fanOut = await fanOutEvent(event);
    logger.debug('event fanned out', { event_id: message.event_id, ...fanOut });
    return;
  }
  const outcome = await attemptQueuedDelivery(message.merchant_id, message);
  logger.debug('queued delivery handled', { delivery_id: message.delivery_id, outcome });
}

/**
 * The webhook delivery worker: an SQS handler (the delivery queue, FIFO, every message group one
 * merchant's: its fan-out lanes, its delivery lanes and its slow lanes, shared/webhooks/delivery-queue.ts;
 * on AWS an event source mapping, locally
 * scripts/local/delivery-queue.ts) processing its batch with Powertools Batch (`BatchProcessor`,
 * `EventType.SQS`, records in parallel: webhook order is not promised, as Stripe's is not, so a
 * batch's POSTs run at once rather than one after the other).
 * @returns `{ batchItemFailures: [{ itemIdentifier: <messageId> }] }` for the messages that failed
 */
export const handler = middy(
  async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, recordHandler, new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false }),
).use(injectLambdaContext(logger));
