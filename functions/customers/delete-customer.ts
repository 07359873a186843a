// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { deleteCustomer } from '../../shared/operations/customers/customer-deletion';

/** `DELETE /customers/{customer_id}`: `{customer_id, deleted: true}`; its payments stay, unlinked. */
export const handler = apiHandler({}, async (req) => ({
  body: await deleteCustomer(req.merchantId, req.path.customer_id ?? '', req.operation.listShards),
}));
