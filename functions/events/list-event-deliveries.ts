import { apiHandler } from '../../shared/http/api-handler';
import { listEventDeliveries } from '../../shared/operations/events/event-delivery-operations';

/**
 * `GET /events/{event_id}/deliveries`: `{data, has_more: false}`, one delivery per endpoint the
 * event was sent to: `{webhook_endpoint_id, event_id, url, status (pending|delivered|failed),
 * attempts: [{attempted_at, http_status, error, duration_ms}], next_attempt_at, created_at,
 * updated_at}`. 404 when the event is unknown, another merchant's or older than 30 days.
 */
export const handler = apiHandler({}, async (req) => ({ body: await listEventDeliveries(req.merchantId, req.path.event_id ?? '') }));
