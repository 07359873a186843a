import { apiHandler } from '../../shared/http/api-handler';
import { listPaymentMethodsOfCustomer } from '../../shared/operations/payment-methods/payment-method-operations';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { listPaymentMethodsQuerySchema } from '../../shared/schemas/payment-method-schemas';

/**
 * `GET /customers/{customer_id}/payment_methods`: `{data, has_more}`, the customer's attached payment methods
 * newest first (`limit`, `offset`, `starting_after`, `created[...]`); 404 for a customer not of this merchant.
 */
export const handler = apiHandler({ query: listPaymentMethodsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listPaymentMethodsOfCustomer(req.merchantId, req.path.customer_id ?? '', req.query.list),
}));
