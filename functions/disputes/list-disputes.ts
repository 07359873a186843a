import { apiHandler } from '../../shared/http/api-handler';
import { listDisputes } from '../../shared/operations/disputes/dispute-operations';
import { listDisputesQuerySchema } from '../../shared/schemas/dispute-list-schema';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /disputes`: `{data, has_more}`, newest first; filters `dispute_status`, `payment_id`, `created[…]`. */
export const handler = apiHandler({ query: listDisputesQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listDisputes(req.merchantId, req.query.list, req.query.filters),
}));
