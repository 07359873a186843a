/** The merchant profile: what the checkout pages of a merchant's payment links show of it and who may frame them. */
import type * as z from 'zod';
import type { MerchantProfileResource, PutMerchantProfileBody } from '../../schemas/merchant-profile-schema';
import { returnSigningSecret } from '../../security/checkout-return-signature';
import { getCheckoutDisplay, putCheckoutDisplay } from '../../storage/merchant-profile-repository';

/** The profile as `GET /merchant_profile` answers it. */
export type MerchantProfile = z.output<typeof MerchantProfileResource>;

/**
 * The merchant's profile: its checkout display and its return signing secret (derived, never stored:
 * shared/security/checkout-return-signature.ts).
 * @throws Error inside Lambda when the stage's keyed-hash key is not configured
 */
export async function merchantProfile(merchantId: string): Promise<MerchantProfile> {
  const [display, secret] = await Promise.all([getCheckoutDisplay(merchantId), returnSigningSecret(merchantId)]);
  return { ...display, return_signing_secret: secret };
}

/**
 * Replaces the merchant's checkout display: every field as sent, a field left out cleared (`PUT`).
 * @param body validated by `putMerchantProfileBodySchema` (lengths, https logo, `#rrggbb`, https origins)
 * @returns the profile as `GET /merchant_profile` answers it now
 */
export async function putMerchantProfile(merchantId: string, body: PutMerchantProfileBody): Promise<MerchantProfile> {
  const display = {
    display_name: body.display_name?.trim() ?? null,
    logo_url: body.logo_url ?? null,
    brand_color: body.brand_color ?? null,
    allowed_domains: body.allowed_domains ?? [],
  };
  await putCheckoutDisplay(merchantId, display, new Date().toISOString());
  return { ...display, return_signing_secret: await returnSigningSecret(merchantId) };
}
