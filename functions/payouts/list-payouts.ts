import { apiHandler } from '../../shared/http/api-handler';
import { listPayouts } from '../../shared/operations/payouts/payout-reads';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { listPayoutsQuerySchema } from '../../shared/schemas/payout-schemas';

/** `GET /payouts`: `{data, has_more}`, newest first; filters `status` or `customer_id`, `created[...]`; paging as every list. */
export const handler = apiHandler({ query: listPayoutsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listPayouts(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
