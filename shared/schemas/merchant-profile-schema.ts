/** The merchant profile resource (`GET /merchant_profile`): what a merchant needs to check its payment links' returns. */
import * as z from 'zod';

/** Component `MerchantProfile`. */
export const MerchantProfileResource = z
  .strictObject({
    return_signing_secret: z
      .string()
      .regex(/^plsec_[0-9a-f]{64}$/)
      .describe(
        "The key of the `signature` a payment link's checkout page adds to your `return_url` (HMAC-SHA256 of `payment_id.payment_link_id.status`): check it with the SDK's `verifyPaymentLinkReturn`. Derived from the stage's key and your merchant id, never stored; keep it on your server.",
      ),
  })
  .meta({ id: 'MerchantProfile', description: 'Your settings for the hosted checkout pages of your payment links.' });
