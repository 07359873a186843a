import { apiHandler } from '../../shared/http/api-handler';
import { listSubscriptions } from '../../shared/operations/billing/subscription-reads';
import { listSubscriptionsQuerySchema } from '../../shared/schemas/billing-list-schemas';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /subscriptions`: `{data, has_more}`, newest first; filter `customer_id` or `status`, `created[...]`. */
export const handler = apiHandler({ query: listSubscriptionsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listSubscriptions(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
