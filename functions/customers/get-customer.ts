// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { getCustomer } from '../../shared/operations/customers/customer-operations';

/** `GET /customers/{customer_id}`: one customer; 404 when unknown or deleted. */
export const handler = apiHandler({}, async (req) => ({ body: await getCustomer(req.merchantId, req.path.customer_id ?? '') }));
