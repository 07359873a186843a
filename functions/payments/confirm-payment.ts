// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { confirmPayment } from '../../shared/operations/payments/confirm-payment';
import { confirmPaymentBodySchema } from '../../shared/schemas/payment-schemas';

/** `POST /payments/{payment_id}/confirm`: runs the payment through its connector; 200 with the updated payment, 409 unless RequiresConfirmation. */
export const handler = apiHandler({ body: confirmPaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await confirmPayment(req.operation, req.path.payment_id ?? '', req.body),
}));
