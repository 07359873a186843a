import { apiHandler } from '../../shared/http/api-handler';
import { retrievePaymentMethod } from '../../shared/operations/payment-methods/payment-method-operations';

/** `GET /payment_methods/{payment_method_id}`: one saved payment method (attached or detached); 404 when not this merchant's. */
export const handler = apiHandler({}, async (req) => ({
  body: await retrievePaymentMethod(req.merchantId, req.path.payment_method_id ?? ''),
}));
