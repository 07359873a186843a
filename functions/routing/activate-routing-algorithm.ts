import { apiHandler } from '../../shared/http/api-handler';
import { activateRoutingAlgorithm } from '../../shared/operations/routing/routing-operations';
import { rotateSecretSchema as emptyBodySchema } from '../../shared/schemas/webhook-endpoint-schemas';

/** `POST /routing/{routing_algorithm_id}/activate`: makes it route the merchant's payments; emits `routing.activated`. */
export const handler = apiHandler({ body: emptyBodySchema }, async (req) => ({
  body: await activateRoutingAlgorithm(req.merchantId, req.path.routing_algorithm_id ?? ''),
}));
