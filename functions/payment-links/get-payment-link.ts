import { apiHandler } from '../../shared/http/api-handler';
import { getPaymentLink } from '../../shared/operations/payment-links/payment-link-operations';

/** `GET /payment_links/{payment_link_id}`: one link, its status as of now; 404 when it is not the merchant's. */
export const handler = apiHandler({}, async (req) => ({ body: await getPaymentLink(req.merchantId, req.path.payment_link_id ?? '') }));
