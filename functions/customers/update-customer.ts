// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { updateCustomer } from '../../shared/operations/customers/customer-operations';
import { customerBodySchema } from '../../shared/schemas/customer-schemas';

/** `PUT /customers/{customer_id}`: sets the fields given (metadata replaces the map); 200 with the customer. */
export const handler = apiHandler({ body: customerBodySchema }, async (req) => ({
  body: await updateCustomer(req.merchantId, req.path.customer_id ?? '', req.body, req.operation.listShards),
}));
