// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { cancelPayment } from '../../shared/operations/payments/payment-capture-void';
import { cancelPaymentBodySchema } from '../../shared/schemas/payment-action-schemas';

/** `POST /payments/{payment_id}/cancel`: → Cancelled, echoing `cancellation_reason`; 409 from a status that cannot be cancelled. */
export const handler = apiHandler({ body: cancelPaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await cancelPayment(req.operation, req.path.payment_id ?? '', req.body.cancellation_reason),
}));
