/**
 * CSRF protection of the checkout form: the signed double-submit cookie pattern (OWASP Cross-Site Request Forgery
 * Prevention Cheat Sheet, "Signed Double-Submit Cookie"). The page sets a random cookie (`SameSite=Strict`,
 * `HttpOnly`) and puts in its form a token, the HMAC of that cookie and the link under the stage's keyed-hash key; a
 * POST is taken only when its token matches the cookie it came with. A form posted from another site carries no
 * cookie (SameSite) and cannot know the token.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { keyedHashKey } from '../security/keyed-hash';

/** The cookie's name. */
export const CSRF_COOKIE = 'checkout_csrf';

/** How long the cookie lasts, seconds: an hour to fill the form in. */
const CSRF_MAX_AGE_SECONDS = 3600;

const COOKIE_VALUE = /^[0-9a-f]{32}$/;

/** The cookie value a request carries, when well formed. */
export function csrfCookieOf(cookies: readonly string[] | undefined, header?: string): string | undefined {
  const all = [...(cookies ?? []), ...(header ? header.split(';') : [])];
  for (const c of all) {
    const [name, ...rest] = c.trim().split('=');
    const value = rest.join('=');
    if (name === CSRF_COOKIE && COOKIE_VALUE.test(value)) return value;
  }
  return undefined;
}

/** A fresh cookie value: 128 random bits, hex. */
export function newCsrfCookie(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The `Set-Cookie` of a cookie value: `HttpOnly`, `SameSite=Strict`, an hour, `Secure` on https. A page the merchant
 * lets other sites frame gets `SameSite=None; Secure; Partitioned` instead on https (a Strict cookie is never sent
 * from a frame on another site; `Partitioned` keeps it to that site's frames, CHIPS): the token still has to match.
 * @param secure whether the page is served over https
 * @param framed whether the merchant lets other sites frame the page
 */
export function csrfSetCookie(value: string, secure: boolean, framed = false): string {
  const site = framed && secure ? 'SameSite=None; Secure; Partitioned' : `SameSite=Strict${secure ? '; Secure' : ''}`;
  return `${CSRF_COOKIE}=${value}; Path=/; Max-Age=${CSRF_MAX_AGE_SECONDS}; HttpOnly; ${site}`;
}

/** The form token of a cookie for one link: 64 hex characters. */
export async function csrfToken(cookie: string, paymentLinkId: string): Promise<string> {
  return createHmac('sha256', await keyedHashKey())
    .update(`checkout-csrf:${paymentLinkId}:${cookie}`, 'utf8')
    .digest('hex');
}

/** Whether a posted token matches the cookie the request came with (constant-time). */
export async function csrfValid(cookie: string | undefined, paymentLinkId: string, token: string | undefined): Promise<boolean> {
  if (!cookie || !token || !/^[0-9a-f]{64}$/.test(token)) return false;
  const expected = Buffer.from(await csrfToken(cookie, paymentLinkId), 'hex');
  return timingSafeEqual(expected, Buffer.from(token, 'hex'));
}
