import { apiHandler } from '../../shared/http/api-handler';
import { getRoutingAlgorithmView } from '../../shared/operations/routing/routing-operations';

/** `GET /routing/{routing_algorithm_id}`: one algorithm with `is_active`. */
export const handler = apiHandler({}, async (req) => ({
  body: await getRoutingAlgorithmView(req.merchantId, req.path.routing_algorithm_id ?? ''),
}));
