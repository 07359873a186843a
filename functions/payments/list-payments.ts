import { apiHandler } from '../../shared/http/api-handler';
import { listPayments } from '../../shared/operations/payments/list-payments';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { listPaymentsQuerySchema } from '../../shared/schemas/payment-list-schema';

/** `GET /payments`: `{data, has_more}`, newest first; filters `status`, `created[...]`; paging `limit`, `offset`, `starting_after`. */
export const handler = apiHandler({ query: listPaymentsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listPayments(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
