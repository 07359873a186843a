import { apiHandler } from '../../shared/http/api-handler';
import { loadPayment } from '../../shared/operations/payment-operations';

/** `GET /payments/{payment_id}`: the payment (card reduced to last4, brand, expiry). 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({
  body: (await loadPayment(req.merchantId, req.path.payment_id ?? '')).payment,
}));
