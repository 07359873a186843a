// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { deleteCustomer } from '../../shared/operations/customers/customer-deletion';

/** `DELETE /customers/{customer_id}`: `{customer_id, deleted: true}`; its payments stay, unlinked. */
export const handler = apiHandler({}, async (req) => ({
  body: await deleteCustomer(req.merchantId, req.path.customer_id ?? '', req.operation.listShards),
}));
