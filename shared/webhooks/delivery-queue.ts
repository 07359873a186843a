/**
 * The webhook delivery queue: where the stream's fan-out and the reconciler hand deliveries
 * to the delivery worker (functions/webhook-delivery/queue-handler.ts), so that no webhook
 * POST is made on the stream's path or in the reconciler's run ("Delivery isolation", docs/api.md).
 *
 * On AWS it is an SQS FIFO queue (`WEBHOOK_DELIVERY_QUEUE_URL`), used for its message groups,
 * not for order: SQS returns no message of a group while a message of that group is in flight
 * ("Amazon SQS FIFO queue key terms", "Message group ID": "messages that belong to the same
 * message group are always processed one by one"; Lambda developer guide, "Scaling behavior for
 * FIFO queues": the event source mapping scales with the number of active message groups).
 * A group therefore holds at most one batch (≤ 10 messages) of the worker at a time, and **every
 * group belongs to one merchant**, so a merchant's share of the worker is bounded by its groups,
 * across all its endpoints, however many endpoints it has and however slow they are:
 * - fan-outs, one per new event (from the stream handler), in `<merchant_id>.fan-out.<lane>`
 *   ({@link FAN_OUT_LANES}); the worker turns each into delivery records and delivery messages;
 * - deliveries, one per (event, endpoint) attempt, in the merchant's {@link deliveryLanes}
 *   (`<merchant_id>.<lane>`, by a hash of the delivery id) while the endpoint answers quickly, and in
 *   its {@link slowDeliveryLanes} (`<merchant_id>.slow.<lane>`, by a hash of the endpoint id: one slow
 *   endpoint holds one lane) once the endpoint is known to be slow (an attempt that took
 *   `WEBHOOK_SLOW_ATTEMPT_MS` or more: shared/webhooks/delivery-endpoint-health.ts).
 * So one merchant holds at most `FAN_OUT_LANES + deliveryLanes + slowDeliveryLanes` batches in flight
 * (dev: 2 + 3 + 1 of 20; prod: 2 + 8 + 2 of 200), every other merchant's groups being served by the other pollers meanwhile.
 * Deduplication is per group (`DeduplicationScope: messageGroup`,
 * `FifoThroughputLimit: perMessageGroupId`, high throughput mode) on `<delivery_id>.<retry_step>.<attempts_made>`:
 * the same step of a delivery handed over twice within 5 minutes (a stream record retried, a
 * reconciler run repeated) is queued once; outside that window the worker's conditional claim
 * makes a second message a no-op.
 *
 * Locally (`npm start`, tests) scripts/local/delivery-queue.ts registers an in-process stand-in
 * with the same group semantics through {@link useDeliveryQueueTransport}.
 */
import { createHash } from 'node:crypto';
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { wholeNumberSetting } from '../settings/whole-number-setting';

/** A queue message asking the worker to attempt this delivery now, if it is still due. */
export interface DeliveryMessage {
  kind?: 'delivery';
  merchant_id: string;
  /** `<event_id>:<webhook_endpoint_id>` */
  delivery_id: string;
  /** The retry step the delivery was at when handed over (0: the first attempt); part of the deduplication id. */
  retry_step: number;
  /**
   * Attempts recorded when handed over (absent: 0); part of the deduplication id, so a redelivery
   * (its retry step back at 0) is never taken for the first attempt's message.
   */
  attempts_made?: number;
  /**
   * True: in the merchant's slow lanes ({@link slowDeliveryLanes}); the worker attempts it there. Absent:
   * in its ordinary lanes, where the worker moves it to the slow lanes first if its endpoint is slow.
   */
  slow?: boolean;
}

/**
 * A queue message asking the worker to fan a new event out: create its delivery records and queue
 * them (the stream handler's only work per event, so a merchant with many endpoints costs the shared
 * stream no more than one with one).
 */
export interface FanOutMessage {
  kind: 'fan_out';
  merchant_id: string;
  event_id: string;
  /** The event type (`payment.succeeded`, …): which endpoints subscribe. */
  type: string;
  /** ISO 8601 UTC: when the event happened (endpoints created later do not receive it). */
  created_at: string;
  /** The event's TTL, Unix seconds: its deliveries expire with it. */
  expires_at: number;
}

/** Any message of the delivery queue. */
export type WebhookQueueMessage = DeliveryMessage | FanOutMessage;

/** A message as it is sent: the body and the FIFO attributes. */
export interface QueuedDeliveryMessage {
  /** JSON of a {@link WebhookQueueMessage}. */
  body: string;
  /**
   * Deliveries: `<merchant_id>.<lane>` or `<merchant_id>.slow.<lane>`; fan-outs:
   * `<merchant_id>.fan-out.<lane>` (≤ 128 characters, SQS's limit for `MessageGroupId`).
   */
  groupId: string;
  /**
   * Deliveries: `<delivery_id>.<retry_step>.<attempts_made>`; fan-outs: `<event_id>.fan-out` (≤ 128 characters,
   * SQS's limit for `MessageDeduplicationId`).
   */
  deduplicationId: string;
}

/** Sends messages to the queue; throws when any of them was not accepted. */
export interface DeliveryQueueTransport {
  send(messages: readonly QueuedDeliveryMessage[]): Promise<void>;
}

/**
 * Delivery groups (lanes) per merchant when `WEBHOOK_DELIVERY_LANES` is not set: 4 (at most 4
 * batches, 40 POSTs, of one merchant's deliveries to its quick endpoints in flight at once).
 */
export const DEFAULT_DELIVERY_LANES = 4;

/** Slow-endpoint groups (lanes) per merchant when `WEBHOOK_SLOW_DELIVERY_LANES` is not set: 1. */
export const DEFAULT_SLOW_DELIVERY_LANES = 1;

/**
 * Fan-out groups (lanes) per merchant: 2. At most 2 batches of one merchant's new events (≤ 20 events,
 * their delivery records written) are fanned out at once, however many events it makes at once.
 */
export const FAN_OUT_LANES = 2;

/** Most entries in one `SendMessageBatch` call: 10 (Amazon SQS quotas, "Batched message ID"/"Messages per batch"). */
export const SQS_BATCH_LIMIT = 10;

/**
 * How many message groups (lanes) a merchant's deliveries to its quick endpoints are spread over:
 * `WEBHOOK_DELIVERY_LANES` (1–64), else {@link DEFAULT_DELIVERY_LANES}. With the slow lanes and the
 * fan-out lanes it bounds how many worker invocations one merchant can hold at once, whatever its
 * number of endpoints; it also bounds how fast its backlog drains (lanes × 10 POSTs at a time).
 */
export function deliveryLanes(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberSetting(env.WEBHOOK_DELIVERY_LANES, { min: 1, max: 64 }, DEFAULT_DELIVERY_LANES);
}

/**
 * How many message groups (lanes) a merchant's deliveries to its slow endpoints share:
 * `WEBHOOK_SLOW_DELIVERY_LANES` (1–16), else {@link DEFAULT_SLOW_DELIVERY_LANES}. A slow endpoint's
 * deliveries all go to one of them (a hash of its id), so it holds at most one batch (10 POSTs) of the
 * worker at a time.
 */
export function slowDeliveryLanes(env: NodeJS.ProcessEnv = process.env): number {
  return wholeNumberSetting(env.WEBHOOK_SLOW_DELIVERY_LANES, { min: 1, max: 16 }, DEFAULT_SLOW_DELIVERY_LANES);
}

/** A lane among `lanes`: a stable hash of `key` (SHA-256's first 4 bytes). */
function laneOf(key: string, lanes: number): number {
  return createHash('sha256').update(key).digest().readUInt32BE(0) % lanes;
}

/**
 * The queue message of a delivery (group `<merchant_id>.<lane>` by its delivery id, or
 * `<merchant_id>.slow.<lane>` by its endpoint id when `slow`; deduplication id
 * `<delivery_id>.<retry_step>.<attempts_made>`) or of a fan-out (group `<merchant_id>.fan-out.<lane>`,
 * deduplication id `<event_id>.fan-out`).
 * @param lanes the merchant's ordinary delivery lanes (default {@link deliveryLanes})
 * @param slowLanes the merchant's slow lanes (default {@link slowDeliveryLanes})
 */
export function deliveryQueueMessage(
  message: WebhookQueueMessage,
  lanes = deliveryLanes(),
  slowLanes = slowDeliveryLanes(),
): QueuedDeliveryMessage {
  if (message.kind === 'fan_out') {
    return {
      body: JSON.stringify(message),
      groupId: `${message.merchant_id}.fan-out.${laneOf(message.event_id, FAN_OUT_LANES)}`,
      deduplicationId: `${message.event_id}.fan-out`,
    };
  }
  const endpointId = message.delivery_id.split(':')[1] ?? message.delivery_id;
  const { slow, ...rest } = message;
  return {
    body: JSON.stringify({ kind: 'delivery', ...rest, ...(slow ? { slow: true } : {}) }),
    groupId: slow
      ? `${message.merchant_id}.slow.${laneOf(endpointId, slowLanes)}`
      : `${message.merchant_id}.${laneOf(message.delivery_id, lanes)}`,
    deduplicationId: `${message.delivery_id}.${message.retry_step}.${message.attempts_made ?? 0}`,
  };
}

/**
 * Reads a queue message body back.
 * @throws Error when it is neither a {@link DeliveryMessage} nor a {@link FanOutMessage} (a poison
 *   message: the worker reports it failed, and after 5 receives it is in the dead-letter queue)
 */
export function parseQueueMessage(body: string): WebhookQueueMessage {
  const value = JSON.parse(body) as Record<string, unknown>;
  const str = (k: string) => typeof value[k] === 'string' && (value[k] as string).length > 0;
  if (value.kind === 'fan_out') {
    if (str('merchant_id') && str('event_id') && str('type') && str('created_at') && Number.isInteger(value.expires_at)) {
      return {
        kind: 'fan_out',
        merchant_id: String(value.merchant_id),
        event_id: String(value.event_id),
        type: String(value.type),
        created_at: String(value.created_at),
        expires_at: Number(value.expires_at),
      };
    }
  } else if (str('merchant_id') && str('delivery_id') && Number.isInteger(value.retry_step)) {
    return {
      kind: 'delivery',
      merchant_id: String(value.merchant_id),
      delivery_id: String(value.delivery_id),
      retry_step: Number(value.retry_step),
      ...(Number.isInteger(value.attempts_made) && Number(value.attempts_made) > 0 ? { attempts_made: Number(value.attempts_made) } : {}),
      ...(value.slow === true ? { slow: true } : {}),
    };
  }
  throw new Error('Not a webhook queue message');
}

/** The SQS transport: `SendMessageBatch` (10 entries per call, in parallel), any failed entry thrown. */
function sqsTransport(queueUrl: string): DeliveryQueueTransport {
  const client = new SQSClient({});
  return {
    async send(messages) {
      const batches: QueuedDeliveryMessage[][] = [];
      for (let i = 0; i < messages.length; i += SQS_BATCH_LIMIT) batches.push(messages.slice(i, i + SQS_BATCH_LIMIT));
      await Promise.all(
        batches.map(async (batch) => {
          const out = await client.send(
            new SendMessageBatchCommand({
              QueueUrl: queueUrl,
              Entries: batch.map((m, i) => ({
                Id: `m${i}`,
                MessageBody: m.body,
                MessageGroupId: m.groupId,
                MessageDeduplicationId: m.deduplicationId,
              })),
            }),
          );
          const failed = out.Failed ?? [];
          if (failed.length > 0) {
            throw new Error(`The delivery queue refused ${failed.length} of ${batch.length} messages (${failed[0]?.Code ?? 'unknown'})`);
          }
        }),
      );
    },
  };
}

let registered: DeliveryQueueTransport | undefined;
let sqs: { url: string; transport: DeliveryQueueTransport } | undefined;

/**
 * Registers the transport used instead of SQS: the local stand-in (scripts/local/delivery-queue.ts)
 * in `npm start`, the benchmarks and the tests.
 * @returns a function that puts back the transport registered before (only if this one is still registered)
 */
export function useDeliveryQueueTransport(transport: DeliveryQueueTransport): () => void {
  const previous = registered;
  registered = transport;
  return () => {
    if (registered === transport) registered = previous;
  };
}

/**
 * Hands deliveries (or fan-outs) to the worker: the registered transport if any, else SQS at
 * `WEBHOOK_DELIVERY_QUEUE_URL`.
 * @throws Error when neither is configured (a deployment fault: the delivery records stay due and
 *   the reconciler hands them over again), or when the queue refuses a message (SQS errors)
 */
export async function enqueueDeliveries(messages: readonly WebhookQueueMessage[]): Promise<void> {
  if (messages.length === 0) return;
  const lanes = deliveryLanes();
  const slowLanes = slowDeliveryLanes();
  const queued = messages.map((m) => deliveryQueueMessage(m, lanes, slowLanes));
  if (registered) return registered.send(queued);
  const url = process.env.WEBHOOK_DELIVERY_QUEUE_URL;
  if (!url) throw new Error('No webhook delivery queue: WEBHOOK_DELIVERY_QUEUE_URL is not set');
  if (sqs?.url !== url) sqs = { url, transport: sqsTransport(url) };
  return sqs.transport.send(queued);
}
