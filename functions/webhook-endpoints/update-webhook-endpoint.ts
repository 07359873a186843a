import { apiHandler } from '../../shared/http/api-handler';
import { updateWebhookEndpoint } from '../../shared/operations/events/webhook-endpoint-operations';
import { updateWebhookEndpointSchema } from '../../shared/schemas/webhook-endpoint-schemas';

/** `PUT /webhook_endpoints/{webhook_endpoint_id}`: sets `url`, `enabled_events`, `description`, `status` (all optional); 200 with the endpoint. */
export const handler = apiHandler({ body: updateWebhookEndpointSchema }, async (req) => ({
  body: await updateWebhookEndpoint(req.merchantId, req.path.webhook_endpoint_id ?? '', req.body),
}));
