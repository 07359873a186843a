import { apiHandler } from '../../shared/http/api-handler';
import { putMerchantProfile } from '../../shared/operations/payment-links/merchant-profile';
import { putMerchantProfileBodySchema } from '../../shared/schemas/merchant-profile-schema';

/** `PUT /merchant_profile`: replaces the checkout display of the merchant's payment links; 200 with the profile. */
export const handler = apiHandler({ body: putMerchantProfileBodySchema }, async (req) => ({
  body: await putMerchantProfile(req.merchantId, req.body),
}));
