import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { revealingSecret } from '../../shared/http/revealing-secret';
import { rotateWebhookEndpointSecret } from '../../shared/operations/events/webhook-endpoint-operations';
import { emptyBodySchema } from '../../shared/schemas/empty-body-schema';

/**
 * `POST /webhook_endpoints/{webhook_endpoint_id}/rotate_secret` (empty body): 200 with the
 * endpoint and its new `secret`; the previous secret keeps signing beside it for 24 h.
 * Idempotent, with the secret sealed in the stored answer like create's.
 */
export const handler = revealingSecret(
  apiHandler({ body: emptyBodySchema, idempotency: idempotentRequests }, async (req) => ({
    body: await rotateWebhookEndpointSecret(req.merchantId, req.path.webhook_endpoint_id ?? ''),
  })),
);
