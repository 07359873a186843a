import { apiHandler } from '../../shared/http/api-handler';
import { deactivatePaymentLink } from '../../shared/operations/payment-links/payment-link-operations';
import { emptyBodySchema } from '../../shared/schemas/empty-body-schema';

/** `POST /payment_links/{payment_link_id}/deactivate`: turns the link off for good; 200 with it (`active: false`). */
export const handler = apiHandler({ body: emptyBodySchema }, async (req) => ({
  body: await deactivatePaymentLink(req.operation, req.path.payment_link_id ?? ''),
}));
