import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { refundPayment } from '../../shared/operations/refunds/refund-operations';
import { refundPaymentBodySchema } from '../../shared/schemas/payment-action-schemas';

/** `POST /payments/{payment_id}/refund`: refunds all or part of a Succeeded payment; 200 with the refund. */
export const handler = apiHandler({ body: refundPaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await refundPayment(req.operation, req.path.payment_id ?? '', req.body.amount, req.body.reason),
}));
