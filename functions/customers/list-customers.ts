// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { listCustomers } from '../../shared/operations/customers/customer-operations';
import { listCustomersQuerySchema } from '../../shared/schemas/customer-list-schema';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /customers`: `{data, has_more}`, newest first; filter `email` (exact, case-insensitive), `created[...]`. */
export const handler = apiHandler({ query: listCustomersQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listCustomers(req.merchantId, req.query.list, req.query.filters, req.operation.listShards?.read),
}));
