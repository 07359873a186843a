import { apiHandler } from '../../shared/http/api-handler';
import { listAllRefunds } from '../../shared/operations/refunds/list-refunds';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { listRefundsQuerySchema } from '../../shared/schemas/refund-list-schema';

/** `GET /refunds`: `{data, has_more}` of every refund of the merchant, newest first; filter `payment_id`, `created[…]`. */
export const handler = apiHandler({ query: listRefundsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listAllRefunds(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
