/**
 * The merchant profile's checkout display: what a payment link's hosted page shows of the merchant, and which sites
 * may frame it. Named after Hyperswitch's payment link config (`seller_name`, `logo`, `theme`, `allowed_domains`:
 * juspay/hyperswitch crates/api_models/src/admin.rs `PaymentLinkConfigRequest`, `BusinessPaymentLinkConfig`), in
 * Stripe's spelling for the colour (`branding.primary_color`, https://docs.stripe.com/api/accounts/object).
 */

/** The longest `display_name` (Hyperswitch's `MAX_ALLOWED_MERCHANT_NAME_LENGTH`, crates/common_utils/src/consts.rs). */
export const MAX_DISPLAY_NAME_LENGTH = 64;

/** The longest `logo_url`, characters. */
export const MAX_LOGO_URL_LENGTH = 2048;

/** How many origins `allowed_domains` holds at most (a CSP header stays short). */
export const MAX_ALLOWED_DOMAINS = 20;

/** The checkout display settings of a merchant (`PUT /merchant_profile`); null: not set. */
export interface CheckoutDisplay {
  /** The name the page shows (at most {@link MAX_DISPLAY_NAME_LENGTH} characters). */
  display_name: string | null;
  /** An https URL of the merchant's logo. */
  logo_url: string | null;
  /** `#rrggbb`, lowercase: the page's button and header colour. */
  brand_color: string | null;
  /** The origins (`https://shop.example.com`, `https://*.example.com`) that may frame the page; empty: none. */
  allowed_domains: string[];
}

/** No settings: the page's default display, never framed. */
export const DEFAULT_CHECKOUT_DISPLAY: CheckoutDisplay = { display_name: null, logo_url: null, brand_color: null, allowed_domains: [] };

/** WCAG 2.2 relative luminance of a `#rrggbb` colour (https://www.w3.org/TR/WCAG22/#dfn-relative-luminance). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2 contrast ratio of two `#rrggbb` colours (1 to 21; https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The text colour to write on a background: white or black, whichever contrasts more. For every colour the better of
 * the two reaches at least 4.58:1, above WCAG's 4.5:1 for text (SC 1.4.3).
 * @param background `#rrggbb`
 */
export function textColorOn(background: string): '#ffffff' | '#000000' {
  return contrastRatio(background, '#ffffff') >= contrastRatio(background, '#000000') ? '#ffffff' : '#000000';
}
