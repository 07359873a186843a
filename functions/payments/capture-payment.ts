// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { capturePayment } from '../../shared/operations/payments/payment-capture-void';
import { capturePaymentBodySchema } from '../../shared/schemas/payment-action-schemas';

/** `POST /payments/{payment_id}/capture`: captures a manual-capture payment (RequiresCapture → Succeeded). */
export const handler = apiHandler({ body: capturePaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await capturePayment(req.operation, req.path.payment_id ?? '', req.body.amount_to_capture),
}));
