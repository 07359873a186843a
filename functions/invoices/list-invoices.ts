import { apiHandler } from '../../shared/http/api-handler';
import { listInvoices } from '../../shared/operations/billing/subscription-reads';
import { listInvoicesQuerySchema } from '../../shared/schemas/billing-list-schemas';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /invoices?subscription_id=`: the subscription's invoices, `{data, has_more}`, newest first. */
export const handler = apiHandler({ query: listInvoicesQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listInvoices(req.merchantId, req.query.list, req.query.filters.subscription_id),
}));
