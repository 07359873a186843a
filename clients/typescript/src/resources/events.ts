/** `switchyard.events`: the event log, its deliveries, and redelivery. */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type { Event, EventDeliveryList, EventList, EventListParams, EventRedeliverParams, EventRedeliverResult } from '../types.js';
import { pathId } from './path-id.js';

/** `/events`: every change, kept 30 days, and their webhook deliveries. */
export class Events {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /** `GET /events/{event_id}`. */
  retrieve(eventId: string, options?: RequestOptions): Promise<Event> {
    return this.client.call(
      (init) => this.client.api.GET('/events/{event_id}', { params: { path: { event_id: pathId('eventId', eventId) } }, ...init }),
      options,
    );
  }

  /** `GET /events`: one page, newest first (`type`, `created`, paging). */
  list(params?: EventListParams, options?: RequestOptions): Promise<EventList> {
    return this.client.call(
      (init) => this.client.api.GET('/events', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }

  /** `GET /events/{event_id}/deliveries`: the event's deliveries to each endpoint, with their attempts. */
  listDeliveries(eventId: string, options?: RequestOptions): Promise<EventDeliveryList> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/events/{event_id}/deliveries', { params: { path: { event_id: pathId('eventId', eventId) } }, ...init }),
      options,
    );
  }

  /** `POST /events/{event_id}/redeliver`: one attempt now, to one endpoint or every subscribed one. Keyed. */
  redeliver(eventId: string, params: EventRedeliverParams = {}, options?: RequestOptions): Promise<EventRedeliverResult> {
    return this.client.call(
      (init) =>
        this.client.api.POST('/events/{event_id}/redeliver', {
          params: { path: { event_id: pathId('eventId', eventId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }
}
