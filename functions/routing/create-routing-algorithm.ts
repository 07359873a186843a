import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createRoutingAlgorithm } from '../../shared/operations/routing/routing-operations';
import { createRoutingAlgorithmSchema } from '../../shared/schemas/routing-schemas';

/** `POST /routing`: `{name, description?, algorithm: {type, data}}` → the algorithm (`routing_…`, not active yet). */
export const handler = apiHandler({ body: createRoutingAlgorithmSchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createRoutingAlgorithm(req.merchantId, req.body),
}));
