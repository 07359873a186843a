import { apiHandler } from '../../shared/http/api-handler';
import { deletePaymentMethod } from '../../shared/operations/payment-methods/payment-method-operations';

/**
 * `DELETE /payment_methods/{payment_method_id}`: detaches the method at its processor (where the processor
 * has such a call) and here; 200 with it, `status: detached`. 409 `payment_method_unexpected_state` when
 * already detached; 503 `connector_unreachable` when the processor could not be reached (still attached).
 */
export const handler = apiHandler({}, async (req) => ({
  body: await deletePaymentMethod(req.operation, req.path.payment_method_id ?? ''),
}));
