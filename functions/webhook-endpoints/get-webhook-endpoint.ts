import { apiHandler } from '../../shared/http/api-handler';
import { getWebhookEndpoint } from '../../shared/operations/events/webhook-endpoint-operations';

/** `GET /webhook_endpoints/{webhook_endpoint_id}`: the endpoint (no secret); 404 when unknown or another merchant's. */
export const handler = apiHandler({}, async (req) => ({
  body: await getWebhookEndpoint(req.merchantId, req.path.webhook_endpoint_id ?? ''),
}));
