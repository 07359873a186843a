import { apiHandler } from '../../shared/http/api-handler';
import { getEvent } from '../../shared/operations/events/event-operations';

/** `GET /events/{event_id}`: one event (`{event_id, type, created_at, data}`); 404 when unknown, another merchant's or older than 30 days. */
export const handler = apiHandler({}, async (req) => ({ body: await getEvent(req.merchantId, req.path.event_id ?? '') }));
