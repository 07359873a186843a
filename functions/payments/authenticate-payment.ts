// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { authenticatePayment } from '../../shared/operations/payments/payment-authentication';
import { authenticatePaymentBodySchema } from '../../shared/schemas/authentication-schemas';

/**
 * `POST /payments/{payment_id}/authenticate`: relays the payer's PIN, OTP, phone, birthday or
 * address for the step in `next_action` to the processor; 200 with the updated payment (which may
 * ask for the next step). Takes no Idempotency-Key: the values must never rest in an idempotency
 * record, and a step is only accepted while the payment asks for it.
 */
export const handler = apiHandler({ body: authenticatePaymentBodySchema }, async (req) => ({
  body: await authenticatePayment(req.operation, req.path.payment_id ?? '', req.body),
}));
