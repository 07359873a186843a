import { apiHandler } from '../../shared/http/api-handler';
import { listRoutingAlgorithmViews } from '../../shared/operations/routing/routing-operations';
import { plainListQuerySchema } from '../../shared/schemas/handler-input-schemas';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /routing`: the merchant's routing algorithms, newest first, `{data, has_more}`. */
export const handler = apiHandler({ query: plainListQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listRoutingAlgorithmViews(req.merchantId, req.query.list),
}));
