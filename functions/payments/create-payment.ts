// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createPayment } from '../../shared/operations/payments/create-payment';
import { createPaymentBodySchema } from '../../shared/schemas/payment-schemas';

/** `POST /payments`: creates a payment intent (and confirms it when `confirm: true`). 200 with the payment. */
export const handler = apiHandler({ body: createPaymentBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createPayment(req.operation, req.body),
}));
