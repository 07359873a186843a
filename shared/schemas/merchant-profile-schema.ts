/** The merchant profile resource (`GET`/`PUT /merchant_profile`): its checkout display and its return signing secret. */
import * as z from 'zod';
import { MAX_ALLOWED_DOMAINS, MAX_DISPLAY_NAME_LENGTH, MAX_LOGO_URL_LENGTH } from '../domain/merchant-profile';
import { text } from './text-schemas';

/** An origin a page may be framed by: `https://host[:port]`, the host's first label possibly `*` (CSP host-source). */
const ORIGIN = /^https:\/\/(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(:\d{1,5})?$/;

/** An https URL with a host and no user name or password (`@` in the authority): the part of the rule a pattern can say. */
const HTTPS_URL = /^https:\/\/[^\s/?#@]+([/?#]\S*)?$/;

/** `allowed_domains[]`: an https origin, lowercase, no path; checked again with the URL parser (its own origin). */
const allowedOriginSchema = z
  .string({ error: 'must be an https origin such as https://shop.example.com' })
  .max(253, { error: 'must be at most 253 characters' })
  .regex(ORIGIN, { error: 'must be an https origin such as https://shop.example.com (no path, no trailing slash)' })
  .transform((v) => v.toLowerCase())
  .refine(
    (v) => {
      try {
        return new URL(v.replace('://*.', '://x.')).origin === v.replace('://*.', '://x.');
      } catch {
        return false;
      }
    },
    { error: 'must be an https origin such as https://shop.example.com (no path, no trailing slash)' },
  );

/** `logo_url`: an absolute https URL without credentials. */
const logoUrlSchema = z
  .string({ error: 'must be an https URL' })
  .max(MAX_LOGO_URL_LENGTH, { error: `must be at most ${MAX_LOGO_URL_LENGTH} characters` })
  .regex(HTTPS_URL, { error: 'must be an https URL such as https://shop.example.com/logo.png (no user name or password)' })
  .refine(
    (v) => {
      try {
        const url = new URL(v);
        return url.protocol === 'https:' && !url.username && !url.password && url.hostname !== '';
      } catch {
        return false;
      }
    },
    { error: 'must be an https URL such as https://shop.example.com/logo.png (no user name or password)' },
  );

/** Body of `PUT /merchant_profile`: the whole checkout display (a field left out is cleared). */
export const putMerchantProfileBodySchema = z.strictObject({
  display_name: text(MAX_DISPLAY_NAME_LENGTH).regex(/\S/, { error: 'must not be blank' }).nullable().optional(),
  logo_url: logoUrlSchema.nullable().optional(),
  brand_color: z
    .string({ error: 'must be a colour #rrggbb' })
    .regex(/^#[0-9a-fA-F]{6}$/, { error: 'must be a colour #rrggbb, such as #0a3069' })
    .transform((v) => v.toLowerCase())
    .nullable()
    .optional(),
  allowed_domains: z
    .array(allowedOriginSchema, { error: 'must be a list of https origins' })
    .max(MAX_ALLOWED_DOMAINS, { error: `must hold at most ${MAX_ALLOWED_DOMAINS} origins` })
    .refine((list) => new Set(list).size === list.length, { error: 'must name each origin once' })
    .optional(),
});

/** Parsed `PUT /merchant_profile` body. */
export type PutMerchantProfileBody = z.output<typeof putMerchantProfileBodySchema>;

/** Component `MerchantProfile`. */
export const MerchantProfileResource = z
  .strictObject({
    display_name: z
      .string()
      .nullable()
      .describe(`The name your checkout pages show (at most ${MAX_DISPLAY_NAME_LENGTH} characters); null: "Secure checkout".`),
    logo_url: z
      .string()
      .nullable()
      .describe('An https URL of your logo, shown on the pages (the page loads images from its origin only); null: none.'),
    brand_color: z
      .string()
      .nullable()
      .describe(
        '`#rrggbb`: the colour of the pages’ header and Pay button (its text white or black, whichever contrasts more); null: the default.',
      ),
    allowed_domains: z
      .array(z.string())
      .describe('The origins that may show your checkout pages in a frame (CSP `frame-ancestors`); empty: never framed.'),
    return_signing_secret: z
      .string()
      .regex(/^plsec_[0-9a-f]{64}$/)
      .describe(
        "The key of the `signature` a payment link's checkout page adds to your `return_url` (HMAC-SHA256 of `payment_id.payment_link_id.status`): check it with the SDK's `verifyPaymentLinkReturn`. Derived from the stage's key and your merchant id, never stored; keep it on your server.",
      ),
  })
  .meta({ id: 'MerchantProfile', description: 'Your settings for the hosted checkout pages of your payment links.' });
