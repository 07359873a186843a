// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { getCustomer } from '../../shared/operations/customers/customer-operations';

/** `GET /customers/{customer_id}`: one customer; 404 when unknown or deleted. */
export const handler = apiHandler({}, async (req) => ({ body: await getCustomer(req.merchantId, req.path.customer_id ?? '') }));
