// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createPayment } from '../../shared/operations/payments/create-payment';
import { createPaymentBodySchema } from '../../shared/schemas/payment-schemas';

/** `POST /payments`: creates a payment intent (and confirms it when `confirm: true`). 200 with the payment. */
export const handler = apiHandler({ body: createPaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createPayment(req.operation, req.body),
}));
