/** The merchant profile: what the checkout pages of a merchant's payment links need it to know. */
import type * as z from 'zod';
import type { MerchantProfileResource } from '../../schemas/merchant-profile-schema';
import { returnSigningSecret } from '../../security/checkout-return-signature';

/** The profile as `GET /merchant_profile` answers it. */
export type MerchantProfile = z.output<typeof MerchantProfileResource>;

/**
 * The merchant's profile: its return signing secret (derived, never stored: shared/security/checkout-return-signature.ts).
 * @throws Error inside Lambda when the stage's keyed-hash key is not configured
 */
export async function merchantProfile(merchantId: string): Promise<MerchantProfile> {
  return { return_signing_secret: await returnSigningSecret(merchantId) };
}
