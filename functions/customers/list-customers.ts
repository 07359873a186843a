// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { listCustomers } from '../../shared/operations/customers/customer-operations';
import { listCustomersQuerySchema } from '../../shared/schemas/customer-list-schema';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /customers`: `{data, has_more}`, newest first; filter `email` (exact, case-insensitive), `created[...]`. */
export const handler = apiHandler({ query: listCustomersQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listCustomers(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
