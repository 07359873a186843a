// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createCustomer } from '../../shared/operations/customers/customer-operations';
import { createCustomerBodySchema } from '../../shared/schemas/customer-schemas';

/** `POST /customers`: creates a customer (every field optional); 200 with it. */
export const handler = apiHandler({ body: createCustomerBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createCustomer(req.merchantId, req.body, req.operation.listShards),
}));
