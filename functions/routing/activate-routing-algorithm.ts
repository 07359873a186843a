import { apiHandler } from '../../shared/http/api-handler';
import { activateRoutingAlgorithm } from '../../shared/operations/routing/routing-operations';
import { emptyBodySchema } from '../../shared/schemas/empty-body-schema';

/** `POST /routing/{routing_algorithm_id}/activate`: makes it route the merchant's payments; emits `routing.activated`. */
export const handler = apiHandler({ body: emptyBodySchema }, async (req) => ({
  body: await activateRoutingAlgorithm(req.merchantId, req.path.routing_algorithm_id ?? ''),
}));
