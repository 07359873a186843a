import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { revealingSecret } from '../../shared/http/revealing-secret';
import { createWebhookEndpoint } from '../../shared/operations/events/webhook-endpoint-operations';
import { createWebhookEndpointSchema } from '../../shared/schemas/webhook-endpoint-schemas';

/**
 * `POST /webhook_endpoints`: `{url, enabled_events?, description?}` → 200 with the endpoint and
 * its `secret` (`whsec_…`, shown only here and in rotate_secret's answer). Idempotent: the
 * stored answer holds the secret sealed and {@link revealingSecret} opens it for every reply.
 * 400 `url_not_allowed` (param `url`) for a URL the stage refuses; 400 naming
 * `enabled_events.N` for an unknown event type.
 */
export const handler = revealingSecret(
  apiHandler({ body: createWebhookEndpointSchema, idempotency: idempotentRequests }, async (req) => ({
    body: await createWebhookEndpoint(req.merchantId, req.body),
  })),
);
