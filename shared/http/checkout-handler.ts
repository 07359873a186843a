/**
 * What the three checkout routes share: their security headers (the payer pages' but for the Content-Security-Policy,
 * built per answer around a nonce: shared/http/checkout-page.ts), the CSRF cookie of the request (or a new one), and
 * a fresh attempt id for each drawing of the form.
 */
import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { CheckoutDisplay } from '../domain/merchant-profile';
import { csrfCookieOf, csrfSetCookie, newCsrfCookie } from './checkout-csrf';
import { checkoutContentSecurityPolicy } from './checkout-page';
import { type HtmlHandlerOptions, pageSecurityHeaders } from './html-handler';
import { publicBaseUrl } from './public-base-url';

/** `htmlHandler` (./html-handler.ts) options of the checkout routes: the payer pages' headers, and a nonce CSP on every answer. */
export const CHECKOUT_PAGE_OPTIONS: HtmlHandlerOptions = {
  securityHeaders: { ...pageSecurityHeaders, contentSecurityPolicy: false as unknown as Record<string, string> },
  nonceCsp: checkoutContentSecurityPolicy,
};

/**
 * The request's CSRF cookie, or a new one with the `Set-Cookie` header that sets it.
 * @param framed the merchant lets other sites frame the page (`allowed_domains`): the cookie must then be sent in a
 *   frame too (./checkout-csrf.ts `csrfSetCookie`)
 */
export function csrfCookieFor(event: APIGatewayProxyEventV2, framed = false): { cookie: string; headers: Record<string, string> } {
  const cookie = csrfCookieOf(event.cookies, event.headers?.cookie);
  if (cookie) return { cookie, headers: {} };
  const fresh = newCsrfCookie();
  return { cookie: fresh, headers: { 'set-cookie': csrfSetCookie(fresh, publicBaseUrl(event).startsWith('https:'), framed) } };
}

/**
 * The headers of a checkout answer drawn for a merchant: its Content-Security-Policy (the logo's origin for images,
 * its `allowed_domains` as `frame-ancestors`), in place of the default one `htmlHandler` set around the same nonce.
 */
export function checkoutPolicyHeaders(nonce: string, display: CheckoutDisplay): Record<string, string> {
  return { 'Content-Security-Policy': checkoutContentSecurityPolicy(nonce, display) };
}

/** A fresh attempt id: 128 random bits, hex. */
export function newAttempt(): string {
  return randomBytes(16).toString('hex');
}

/** Whether a posted attempt id is well formed. */
export function isAttempt(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{32}$/.test(value);
}
