/**
 * Webhook delivery records: one item per (event, endpoint) in the event's partition,
 * `PK` = the event's PK, `SK = DELIVERY#<webhook_endpoint_id>`, `entity: webhook_delivery`.
 *
 * Attributes: `merchant_id`, `event_id`, `event_type`, `webhook_endpoint_id`, `delivery_id`
 * (`<event_id>:<webhook_endpoint_id>`), `url` (the endpoint's URL at the last attempt),
 * `status` (`pending` | `delivered` | `failed`), `attempts` (list of {@link DeliveryAttempt}),
 * `next_attempt_at` (ISO UTC, null once settled), `retry_step` (retries scheduled so far),
 * `lease_until` (ISO UTC, only while a worker attempts it), `open_since`, `created_at`,
 * `updated_at`, `expires_at` (the event's TTL: deliveries expire with it, 30 days).
 * While pending, the record is an open item of GSI5 (`openDeliveryIndexKeys(delivery_id, due)`, partitions `OPENWH#n`: the
 * next attempt, the end of a running lease, or the end of the grace a queued hand-over is given), so the
 * reconciler hands it to the delivery queue when due; settled records leave the index. Holds no secret, no API key and no card data (the body is read from the event).
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { conditionalPut, conditionalUpdate } from './conditional-write';
import { openDeliveryIndexKeys, primaryKey } from './item-keys';
import { queryAllItems } from './query-pages';
import { tableName } from './table-definition';

/** One recorded attempt, as stored and as `GET /events/{id}/deliveries` shows it. */
export interface DeliveryAttempt {
  /** ISO 8601 UTC: when the attempt started. */
  attempted_at: string;
  /** The receiver's HTTP status; null when no answer came (see `error`). */
  http_status: number | null;
  /** Why no usable answer came (network error, timeout, URL refused); null when one came. Never holds the URL. */
  error: string | null;
  /** How long the attempt took, in milliseconds. */
  duration_ms: number;
}

/** Status of a delivery: `pending` (being attempted or retried), `delivered` (a 2xx came), `failed` (given up). */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as the API shows it (`GET /events/{event_id}/deliveries`). Timestamps ISO 8601 UTC. */
export interface WebhookDelivery {
  webhook_endpoint_id: string;
  event_id: string;
  url: string;
  status: DeliveryStatus;
  /** Every attempt, oldest first. */
  attempts: DeliveryAttempt[];
  /** When the next attempt is due; null once delivered or failed. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A stored delivery: the API fields and the worker's bookkeeping. */
export interface StoredDelivery extends WebhookDelivery {
  merchant_id: string;
  delivery_id: string;
  event_type: string;
  retry_step: number;
  lease_until: string | null;
}

const SK_PREFIX = 'DELIVERY#';

/** The id of the delivery of an event to an endpoint: `<event_id>:<webhook_endpoint_id>` (the open-index item id). */
export const deliveryId = (eventId: string, endpointId: string) => `${eventId}:${endpointId}`;

/**
 * Splits a delivery id made by {@link deliveryId}.
 * @throws Error when it is not one
 */
export function parseDeliveryId(id: string): { eventId: string; endpointId: string } {
  const [eventId, endpointId, ...rest] = id.split(':');
  if (!eventId || !endpointId || rest.length > 0) throw new Error(`Not a delivery id: ${id}`);
  return { eventId, endpointId };
}

/** The primary key of a delivery record: the event's PK, `SK = DELIVERY#<webhook_endpoint_id>`. */
export function deliveryKey(merchantId: string, eventId: string, endpointId: string): { PK: string; SK: string } {
  return { PK: primaryKey.event(merchantId, eventId).PK, SK: `${SK_PREFIX}${endpointId}` };
}

const toStored = (item: Record<string, unknown>): StoredDelivery => ({
  webhook_endpoint_id: String(item.webhook_endpoint_id),
  event_id: String(item.event_id),
  url: String(item.url ?? ''),
  status: item.status as DeliveryStatus,
  attempts: (item.attempts as DeliveryAttempt[] | undefined) ?? [],
  next_attempt_at: (item.next_attempt_at as string | null | undefined) ?? null,
  created_at: String(item.created_at),
  updated_at: String(item.updated_at),
  merchant_id: String(item.merchant_id),
  delivery_id: String(item.delivery_id),
  event_type: String(item.event_type ?? ''),
  retry_step: Number(item.retry_step ?? 0),
  lease_until: (item.lease_until as string | null | undefined) ?? null,
});

/** The API view of a stored delivery (bookkeeping dropped), fields in a fixed order. */
export function publicDelivery(d: StoredDelivery): WebhookDelivery {
  return {
    webhook_endpoint_id: d.webhook_endpoint_id,
    event_id: d.event_id,
    url: d.url,
    status: d.status,
    attempts: d.attempts.map((a) => ({
      attempted_at: a.attempted_at,
      http_status: a.http_status ?? null,
      error: a.error ?? null,
      duration_ms: a.duration_ms,
    })),
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

/** What a new or re-armed delivery is made of. */
export interface DeliveryStart {
  merchantId: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  url: string;
  /** The event's `expires_at` (Unix seconds): the delivery expires with it. */
  expiresAt: number;
  /** ISO 8601 UTC: now. */
  now: string;
  /** ISO 8601 UTC: end of the lease the caller takes to attempt it at once. */
  leaseUntil: string;
}

/** What a new delivery record is made of (fan-out): due now, handed to the delivery queue. */
export type NewDelivery = Omit<DeliveryStart, 'leaseUntil'> & {
  /**
   * ISO 8601 UTC: when the reconciler hands it over again should the queue not have had it
   * attempted by then (its open-index due time; the first attempt itself is due at `now`).
   */
  handOffUntil: string;
};

/**
 * Creates a delivery record for its first attempt: `pending`, due at `now`, no lease (the
 * worker that takes it from the queue leases it), in the open index at `handOffUntil` (one
 * conditional put: a stream record seen twice creates it once).
 * @returns the record when created now; undefined when it already existed
 */
export async function createDelivery(s: NewDelivery): Promise<StoredDelivery | undefined> {
  const id = deliveryId(s.eventId, s.endpointId);
  const item = {
    ...deliveryKey(s.merchantId, s.eventId, s.endpointId),
    ...openDeliveryIndexKeys(id, s.handOffUntil),
    entity: 'webhook_delivery',
    merchant_id: s.merchantId,
    delivery_id: id,
    event_id: s.eventId,
    event_type: s.eventType,
    webhook_endpoint_id: s.endpointId,
    url: s.url,
    status: 'pending',
    attempts: [],
    next_attempt_at: s.now,
    retry_step: 0,
    open_since: s.now,
    created_at: s.now,
    updated_at: s.now,
    expires_at: s.expiresAt,
  };
  const out = await conditionalPut({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' });
  return out.written ? toStored(item) : undefined;
}

/**
 * Hands a due delivery over to the queue (the reconciler, for retries that fell due): when it is
 * pending, due and not leased, moves its open-index due time to `handOffUntil`, so the next
 * reconciler runs leave it to the queue until then. One conditional update.
 * @param now ISO 8601 UTC
 * @param handOffUntil ISO 8601 UTC
 * @returns its retry step and attempts so far (for the queue message), or undefined when it is missing, settled, not due or leased
 */
export async function handOffDelivery(
  merchantId: string,
  id: string,
  now: string,
  handOffUntil: string,
): Promise<{ retryStep: number; attemptsMade: number } | undefined> {
  const { eventId, endpointId } = parseDeliveryId(id);
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: deliveryKey(merchantId, eventId, endpointId),
    UpdateExpression: 'SET GSI5SK = :g5sk',
    ConditionExpression:
      'attribute_exists(PK) AND #status = :pending AND next_attempt_at <= :now AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':g5sk': openDeliveryIndexKeys(id, handOffUntil).GSI5SK, ':pending': 'pending', ':now': now },
    ReturnValues: 'ALL_NEW',
  });
  if (!out.written) return undefined;
  return {
    retryStep: Number(out.attributes?.retry_step ?? 0),
    attemptsMade: ((out.attributes?.attempts as unknown[] | undefined) ?? []).length,
  };
}

/**
 * Creates or re-arms a delivery for an attempt now (redeliver): `pending`, the retry schedule
 * restarted, leased to the caller; attempts so far are kept. One conditional update.
 * @returns the record, or undefined when another worker's lease on it still runs
 */
export async function armDelivery(s: DeliveryStart): Promise<StoredDelivery | undefined> {
  return rearm(s, s.leaseUntil, s.leaseUntil);
}

/**
 * Creates or re-arms a delivery for the queue (a redelivery to every endpoint): `pending`, the retry
 * schedule restarted, due now, no lease (the worker that takes it from the queue leases it), in the
 * open index at `handOffUntil`; attempts so far are kept. One conditional update.
 * @returns the record, or undefined when a worker's lease on it still runs
 */
export async function rearmDeliveryForQueue(s: NewDelivery): Promise<StoredDelivery | undefined> {
  return rearm(s, undefined, s.handOffUntil);
}

/** The one re-arm update: leased to the caller (`leaseUntil`) or not, due in the open index at `dueAt`. */
async function rearm(
  s: Omit<DeliveryStart, 'leaseUntil'>,
  leaseUntil: string | undefined,
  dueAt: string,
): Promise<StoredDelivery | undefined> {
  const id = deliveryId(s.eventId, s.endpointId);
  const gsi = openDeliveryIndexKeys(id, dueAt);
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: deliveryKey(s.merchantId, s.eventId, s.endpointId),
    UpdateExpression:
      'SET entity = :entity, merchant_id = :m, delivery_id = :id, event_id = :e, event_type = :t, webhook_endpoint_id = :we, #url = :url, ' +
      '#status = :pending, attempts = if_not_exists(attempts, :empty), next_attempt_at = :now, retry_step = :zero, ' +
      'open_since = :now, created_at = if_not_exists(created_at, :now), updated_at = :now, expires_at = :exp, GSI5PK = :g5pk, GSI5SK = :g5sk' +
      (leaseUntil ? ', lease_until = :lease' : ' REMOVE lease_until'),
    ConditionExpression: 'attribute_not_exists(lease_until) OR lease_until <= :now',
    ExpressionAttributeNames: { '#url': 'url', '#status': 'status' },
    ExpressionAttributeValues: {
      ':entity': 'webhook_delivery',
      ':m': s.merchantId,
      ':id': id,
      ':e': s.eventId,
      ':t': s.eventType,
      ':we': s.endpointId,
      ':url': s.url,
      ':pending': 'pending',
      ':empty': [],
      ':now': s.now,
      ':zero': 0,
      ':exp': s.expiresAt,
      ':g5pk': gsi.GSI5PK,
      ':g5sk': gsi.GSI5SK,
      ...(leaseUntil ? { ':lease': leaseUntil } : {}),
    },
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? toStored(out.attributes ?? {}) : undefined;
}

/**
 * Takes a pending delivery whose next attempt is due and whose lease (if any) has ended, for
 * one attempt: sets `lease_until` and moves its open-index due time to it. Conditional, so two
 * workers never attempt it at once.
 * @param now ISO 8601 UTC
 * @param leaseUntil ISO 8601 UTC
 * @returns the record, or undefined when it is missing, settled, not due or leased
 */
export async function claimDelivery(merchantId: string, id: string, now: string, leaseUntil: string): Promise<StoredDelivery | undefined> {
  const { eventId, endpointId } = parseDeliveryId(id);
  const gsi = openDeliveryIndexKeys(id, leaseUntil);
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: deliveryKey(merchantId, eventId, endpointId),
    UpdateExpression: 'SET lease_until = :lease, GSI5SK = :g5sk',
    ConditionExpression:
      'attribute_exists(PK) AND #status = :pending AND next_attempt_at <= :now AND (attribute_not_exists(lease_until) OR lease_until <= :now)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':lease': leaseUntil, ':g5sk': gsi.GSI5SK, ':pending': 'pending', ':now': now },
    ReturnValues: 'ALL_NEW',
  });
  return out.written ? toStored(out.attributes ?? {}) : undefined;
}

/** What follows an attempt: another one at `nextAttemptAt`, or the delivery is settled. */
export type DeliveryNext = { status: 'pending'; nextAttemptAt: string; retryStep: number } | { status: 'delivered' | 'failed' };

/**
 * Records an attempt made under a lease and what follows (one update): appends the attempt;
 * then either keeps it pending with its next due time in the open index, or settles it
 * (`delivered`/`failed`) and removes it from the index. When the lease was lost meanwhile
 * (the attempt outlived it and another worker took over), only the attempt is appended.
 * @param leaseUntil the lease taken for this attempt (the condition)
 * @param url the URL attempted
 * @returns the record after the write
 */
export async function recordAttempt(
  merchantId: string,
  id: string,
  leaseUntil: string,
  url: string,
  attempt: DeliveryAttempt | undefined,
  next: DeliveryNext,
): Promise<StoredDelivery> {
  const { eventId, endpointId } = parseDeliveryId(id);
  const now = new Date().toISOString();
  const key = deliveryKey(merchantId, eventId, endpointId);
  const attempts = attempt ? [attempt] : [];
  const values: Record<string, unknown> = {
    ':a': attempts,
    ':empty': [],
    ':now': now,
    ':status': next.status,
    ':lease': leaseUntil,
    ':url': url,
  };
  let update = 'SET attempts = list_append(if_not_exists(attempts, :empty), :a), updated_at = :now, #status = :status, #url = :url';
  if (next.status === 'pending') {
    update += ', next_attempt_at = :next, retry_step = :step, GSI5SK = :g5sk REMOVE lease_until';
    values[':next'] = next.nextAttemptAt;
    values[':step'] = next.retryStep;
    values[':g5sk'] = openDeliveryIndexKeys(id, next.nextAttemptAt).GSI5SK;
  } else {
    update += ', next_attempt_at = :null REMOVE lease_until, GSI5PK, GSI5SK';
    values[':null'] = null;
  }
  const out = await conditionalUpdate({
    TableName: tableName(),
    Key: key,
    UpdateExpression: update,
    ConditionExpression: 'lease_until = :lease',
    ExpressionAttributeNames: { '#status': 'status', '#url': 'url' },
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
  });
  if (out.written) return toStored(out.attributes ?? {});
  // The lease was lost meanwhile: only the attempt is appended.
  const appended = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: 'SET attempts = list_append(if_not_exists(attempts, :empty), :a), updated_at = :now',
      ConditionExpression: 'attribute_exists(PK)',
      ExpressionAttributeValues: { ':a': attempts, ':empty': [], ':now': now },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toStored(appended.Attributes ?? {});
}

/**
 * Every delivery of an event (Query on the event's partition, `SK` begins with
 * `DELIVERY#`, strongly consistent), by endpoint id.
 */
export async function listDeliveries(merchantId: string, eventId: string): Promise<StoredDelivery[]> {
  const items = await queryAllItems({
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': primaryKey.event(merchantId, eventId).PK, ':sk': SK_PREFIX },
    ConsistentRead: true,
  });
  return items.map(toStored);
}

/** The stored event a delivery sends: its exact JSON text, type and TTL. */
export interface DeliverableEvent {
  eventId: string;
  type: string;
  /** The exact JSON text to send and sign. */
  body: string;
  /** Unix seconds. */
  expiresAt: number;
}

/**
 * One consistent read of an event's deliverable parts.
 * @returns undefined when it does not exist for this merchant (or has expired)
 */
export async function getDeliverableEvent(merchantId: string, eventId: string): Promise<DeliverableEvent | undefined> {
  const out = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: primaryKey.event(merchantId, eventId),
      ConsistentRead: true,
      ProjectionExpression: '#body, #type, expires_at',
      ExpressionAttributeNames: { '#body': 'body', '#type': 'type' },
    }),
  );
  // Past its TTL (deleted lazily by DynamoDB): expired, never delivered again.
  if (!out.Item || Number(out.Item.expires_at) * 1000 <= Date.now()) return undefined;
  return { eventId, type: String(out.Item.type), body: String(out.Item.body), expiresAt: Number(out.Item.expires_at) };
}
