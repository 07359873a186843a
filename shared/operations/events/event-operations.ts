import { resourceNotFound } from '../../domain/errors';
import type { ApiEvent, EventType } from '../../domain/events';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import { listEvents as queryEvents, getEvent as readEvent } from '../../storage/events-repository';
import { cursorItem } from '../list-cursor';

/**
 * Reads one event of the merchant (events are kept 30 days).
 * @throws ApiError 404 when the id is malformed, unknown, another merchant's, or expired
 */
export async function getEvent(merchantId: string, eventId: string): Promise<ApiEvent> {
  const event = isIdOf('event', eventId) ? await readEvent(merchantId, eventId) : undefined;
  if (!event) throw resourceNotFound('event', 'event_id');
  return event;
}

/**
 * Lists the merchant's events, newest first, optionally of one type.
 * @param readShards the merchant's list shard `read` count (RequestContext.listShards); default 1
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor
 */
export async function listEvents(
  merchantId: string,
  query: ListQuery,
  filters: { type?: EventType },
  readShards = 1,
): Promise<ListPage<ApiEvent>> {
  const after = await cursorItem(query, 'event', { noun: 'event', idPhrase: 'an event id' }, (id) => readEvent(merchantId, id));
  return queryEvents(merchantId, query, filters, after, readShards);
}
