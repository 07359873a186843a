// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createCustomer } from '../../shared/operations/customers/customer-operations';
import { createCustomerBodySchema } from '../../shared/schemas/customer-schemas';

/** `POST /customers`: creates a customer (every field optional); 200 with it. */
export const handler = apiHandler({ body: createCustomerBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createCustomer(req.merchantId, req.body, req.operation.listShards),
}));
