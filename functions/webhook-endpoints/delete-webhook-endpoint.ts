import { apiHandler } from '../../shared/http/api-handler';
import { deleteWebhookEndpoint } from '../../shared/operations/events/webhook-endpoint-operations';

/** `DELETE /webhook_endpoints/{webhook_endpoint_id}`: `{webhook_endpoint_id, deleted: true}`; it receives nothing afterwards. */
export const handler = apiHandler({}, async (req) => ({
  body: await deleteWebhookEndpoint(req.merchantId, req.path.webhook_endpoint_id ?? ''),
}));
