/**
 * What the table keeps of processors' webhooks (inbound): one record per event applied or seen
 * (`WEBHOOK#<connector>#<event id>`, `entity: webhook_event`), so a redelivered event changes nothing, and one count
 * per event that names a payment or refund found nowhere (`UNMATCHED_WEBHOOK#<connector>#<event id>`,
 * `entity: unmatched_webhook`), so its redeliveries are asked for only so long. Both expire (TTL on `expires_at`)
 * {@link WEBHOOK_EVENT_TTL_SECONDS} after they were last written. The webhooks themselves are verified, matched and
 * applied in shared/operations/inbound-webhooks/.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { conditionalPut, conditionalUpdate } from './conditional-write';
import { unmatchedWebhookKey, webhookEventKey } from './item-keys';
import { tableName } from './table-definition';

/** Webhook event records expire after 30 days (processors stop redelivering long before). */
export const WEBHOOK_EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/** The record of a processor's event, as written once (`attribute_not_exists`) when it is applied or seen. */
function webhookEventItem(connector: string, eventId: string, subject: string) {
  return {
    ...webhookEventKey(connector, eventId),
    entity: 'webhook_event',
    subject,
    received_at: new Date().toISOString(),
    expires_at: Math.floor(Date.now() / 1000) + WEBHOOK_EVENT_TTL_SECONDS,
  };
}

/**
 * The `Put` of a processor event's record, only if it is new, for the `TransactWriteItems` that applies the event
 * (shared/storage/payments-repository.ts `applyPaymentWebhook`): a redelivery fails its condition, and the
 * transaction with it.
 * @param subject the payment or refund id the event names
 */
export function webhookEventPut(connector: string, eventId: string, subject: string) {
  return {
    Put: { TableName: tableName(), Item: webhookEventItem(connector, eventId, subject), ConditionExpression: 'attribute_not_exists(PK)' },
  };
}

/** Records a webhook event that changed nothing, so its redeliveries are recognized (idempotent: a record already there stays). */
export async function recordWebhookEvent(connector: string, eventId: string, subject: string): Promise<void> {
  await conditionalPut(webhookEventPut(connector, eventId, subject).Put);
}

/**
 * The deliveries so far of a connector webhook event whose payment (or refund) was found nowhere:
 * item `UNMATCHED_WEBHOOK#<connector>#<event id>`, kept {@link WEBHOOK_EVENT_TTL_SECONDS} after its
 * last delivery (TTL on `expires_at`).
 */
export interface UnmatchedWebhookRecord {
  /** Deliveries counted, this one included. */
  deliveries: number;
  /** ISO 8601 UTC of the first delivery counted (our clock, not the event's). */
  firstSeenAt: string;
  /** ISO 8601 UTC of when it was acknowledged as unmatched (2xx), or null while redelivery is asked. */
  acknowledgedAt: string | null;
}

/**
 * Counts one delivery of a webhook event that names a payment or refund found nowhere: one
 * atomic `UpdateItem` (`ADD deliveries 1`, `first_seen_at` set only by the first), so concurrent
 * deliveries are each counted once. Not a status change, so it needs no condition.
 * @param subject the payment or refund id the event names
 * @param nowMs epoch ms (default now)
 * @returns the record after this delivery
 */
export async function countUnmatchedWebhookDelivery(
  connector: string,
  eventId: string,
  subject: string,
  nowMs = Date.now(),
): Promise<UnmatchedWebhookRecord> {
  const now = new Date(nowMs).toISOString();
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: unmatchedWebhookKey(connector, eventId),
      UpdateExpression:
        'ADD deliveries :one SET entity = :entity, connector = :connector, subject = if_not_exists(subject, :subject), first_seen_at = if_not_exists(first_seen_at, :now), last_seen_at = :now, expires_at = :expires',
      ExpressionAttributeValues: {
        ':one': 1,
        ':entity': 'unmatched_webhook',
        ':connector': connector,
        ':subject': subject,
        ':now': now,
        ':expires': Math.floor(nowMs / 1000) + WEBHOOK_EVENT_TTL_SECONDS,
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const item = out.Attributes ?? {};
  return {
    deliveries: Number(item.deliveries ?? 1),
    firstSeenAt: String(item.first_seen_at ?? now),
    acknowledgedAt: typeof item.acknowledged_at === 'string' ? item.acknowledged_at : null,
  };
}

/**
 * Marks an unmatched webhook event acknowledged, with a conditional write that holds the bound
 * itself: only when it is not acknowledged yet, was delivered at least `minDeliveries` times and
 * first seen at or before `firstSeenBy`. So exactly one delivery acknowledges it (the one that
 * logs and counts it), even when deliveries race.
 * @param bound `firstSeenBy`: ISO 8601 UTC
 * @param nowMs epoch ms (default now)
 * @returns true when this call acknowledged it; false when it already was, or the bound is not met
 */
export async function acknowledgeUnmatchedWebhook(
  connector: string,
  eventId: string,
  bound: { minDeliveries: number; firstSeenBy: string },
  nowMs = Date.now(),
): Promise<boolean> {
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: unmatchedWebhookKey(connector, eventId),
    UpdateExpression: 'SET acknowledged_at = :now',
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(acknowledged_at) AND deliveries >= :min AND first_seen_at <= :by',
    ExpressionAttributeValues: { ':now': new Date(nowMs).toISOString(), ':min': bound.minDeliveries, ':by': bound.firstSeenBy },
  });
  return out.written;
}
