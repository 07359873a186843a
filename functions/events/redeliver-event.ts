import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { redeliverEvent } from '../../shared/operations/events/event-delivery-operations';
import { redeliverEventBodySchema } from '../../shared/schemas/redeliver-event-schema';

/**
 * `POST /events/{event_id}/redeliver` (`{"webhook_endpoint_id"?}`): delivers the event again
 * now to that endpoint, or to every enabled endpoint subscribed to its type, and answers the
 * deliveries concerned after the attempt (`{data, has_more: false}`, shapes as
 * `GET /events/{event_id}/deliveries`). A failed attempt is retried on the schedule.
 * Idempotent with `Idempotency-Key`. 404 unknown event or endpoint; 400 `endpoint_disabled`.
 */
export const handler = apiHandler({ body: redeliverEventBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await redeliverEvent(req.merchantId, req.path.event_id ?? '', req.body.webhook_endpoint_id),
}));
