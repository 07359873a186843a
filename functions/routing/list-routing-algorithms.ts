import { apiHandler } from '../../shared/http/api-handler';
import { listRoutingAlgorithmViews } from '../../shared/operations/routing/routing-operations';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { plainListQuerySchema } from '../../shared/schemas/plain-list-schema';

/** `GET /routing`: the merchant's routing algorithms, newest first, `{data, has_more}`. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listRoutingAlgorithmViews(req.merchantId, req.query.list),
}));
