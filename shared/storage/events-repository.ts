import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiEvent, EventData, EventType } from '../domain/events';
import { newId } from '../domain/ids';
import type { ListPage, ListQuery } from '../domain/list-query';
import { documentClient } from './client';
import { listPartition, listSortKey, primaryKey } from './item-keys';
import { cursorOf, type ListLocation, listPage } from './list-items';
import { shardOf, shardPartition } from './list-shards';
import { tableName } from './table-definition';

let sequence = 0;

/**
 * A new event id, `evt_<12 hex: ms of created_at><6 hex: per-process sequence><random>`: ids of
 * one process sort in the order its events were made, also within one millisecond, so a list
 * ordered by `created_at#event_id` shows a payment's events in the order they happened.
 */
function eventId(createdAt: string): string {
  sequence = (sequence + 1) % 0x1000000;
  const ms = Date.parse(createdAt).toString(16).padStart(12, '0');
  return `evt_${ms}${sequence.toString(16).padStart(6, '0')}${newId('event').slice(4, 18)}`;
}

/** A `Put` of an event item, for a `TransactWriteItems` list. */
export interface EventPut {
  Put: { TableName: string; Item: Record<string, unknown>; ConditionExpression: string };
}

/** Events are kept 30 days (DynamoDB TTL on `expires_at`), as the events API documents. */
export const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * The outbox half of a state change: a new event and the transaction item that writes it.
 * Put in the same `TransactWriteItems` as the change that causes it, so the change and its
 * event are written together or not at all. The event's JSON is stored as the exact text
 * that is served and delivered (`body`), so a signature over it never depends on
 * re-serialisation.
 * @param data the resource after the change, exactly as its GET answers (card summary only)
 * The event's list entries (GSI1 all events, GSI2 events of its type) go to list shard
 * `shardOf(event_id, writeShards)` (shared/storage/list-shards.ts).
 * @param createdAt ISO 8601 UTC (default now)
 * @param writeShards how many shards the event may go to: the request's `write` count, or for a
 *   change made without a request (webhook, reconciler) the subject's `list_shards` (the count when
 *   the payment or refund was created, never above what every reader reads); default 1 (shard 0)
 * @returns the event and the `Put` for a TransactWriteItems list
 */
export function eventWrite(
  merchantId: string,
  type: EventType,
  data: EventData,
  createdAt = new Date().toISOString(),
  writeShards = 1,
): { event: ApiEvent; put: EventPut } {
  const event: ApiEvent = { event_id: eventId(createdAt), type, created_at: createdAt, data };
  const sk = listSortKey(createdAt, event.event_id);
  const k = shardOf(event.event_id, writeShards);
  return {
    event,
    put: {
      Put: {
        TableName: tableName(),
        Item: {
          ...primaryKey.event(merchantId, event.event_id),
          GSI1PK: shardPartition(listPartition.events(merchantId), k),
          GSI1SK: sk,
          GSI2PK: shardPartition(listPartition.eventsByType(merchantId, type), k),
          GSI2SK: sk,
          entity: 'event',
          merchant_id: merchantId,
          event_id: event.event_id,
          type,
          created_at: createdAt,
          body: JSON.stringify(event),
          expires_at: Math.floor(Date.parse(createdAt) / 1000) + EVENT_TTL_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  };
}

const toEvent = (item: Record<string, unknown>): ApiEvent => JSON.parse(String(item.body)) as ApiEvent;

/**
 * One read of an event; undefined when it does not exist for this merchant or has expired
 * (DynamoDB's TTL deletes lazily, so an item past `expires_at` may still be there: it is not served).
 */
export async function getEvent(merchantId: string, eventId: string): Promise<ApiEvent | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.event(merchantId, eventId) }));
  if (!out.Item || Number(out.Item.expires_at) * 1000 <= Date.now()) return undefined;
  return toEvent(out.Item);
}

/**
 * Lists a merchant's events, newest first: Query on GSI1, or on GSI2 for one type — one Query
 * per shard 0..readShards−1, in parallel, merged by `created_at#event_id`.
 * @param startingAfter the event named by `starting_after`, already read by the caller
 * @param readShards the merchant's list shard `read` count (the request's); default 1
 */
export async function listEvents(
  merchantId: string,
  query: ListQuery,
  filters: { type?: EventType },
  startingAfter?: ApiEvent,
  readShards = 1,
): Promise<ListPage<ApiEvent>> {
  const location: ListLocation = filters.type
    ? { indexName: 'GSI2', partitionValue: listPartition.eventsByType(merchantId, filters.type), readShards }
    : { indexName: 'GSI1', partitionValue: listPartition.events(merchantId), readShards };
  const after =
    startingAfter && cursorOf(primaryKey.event(merchantId, startingAfter.event_id), startingAfter.created_at, startingAfter.event_id);
  return listPage({ ...location, startAfter: after }, query, toEvent);
}
