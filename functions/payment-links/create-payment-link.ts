import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createPaymentLink } from '../../shared/operations/payment-links/payment-link-operations';
import { createPaymentLinkBodySchema } from '../../shared/schemas/payment-link-schemas';

/** `POST /payment_links`: creates a reusable link (a hosted checkout page); 200 with it, `url` the page to share. */
export const handler = apiHandler({ body: createPaymentLinkBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createPaymentLink(req.operation, req.body),
}));
