import { apiHandler } from '../../shared/http/api-handler';
import { merchantProfile } from '../../shared/operations/payment-links/merchant-profile';

/** `GET /merchant_profile`: the merchant's settings for its checkout pages, with its return signing secret. */
export const handler = apiHandler({}, async (req) => ({ body: await merchantProfile(req.merchantId) }));
