import { randomBytes } from 'node:crypto';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpSecurityHeaders from '@middy/http-security-headers';
import httpUrlEncodeBodyParser from '@middy/http-urlencode-body-parser';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ApiError, OutcomeUnknownError } from '../domain/errors';
import { logger } from '../observability/logger';
import { isStorageUnavailable } from '../storage/storage-errors';
import { answeringHead } from './head-request';
import { admitPage } from './page-rate-limit';
import { isUtf8Charset, parseMediaType } from './request-body';

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A minimal, self-contained HTML page (no external assets). `body` must already be escaped. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}h1{font-size:1.3rem}.box{border:1px solid #d0d7de;border-radius:8px;padding:1rem 1.25rem}button{font-size:1rem;padding:.6rem 1.2rem;margin:.4rem .4rem 0 0;border-radius:6px;border:1px solid #888;cursor:pointer}.approve{background:#1f883d;color:#fff;border-color:#1f883d}.decline{background:#cf222e;color:#fff;border-color:#cf222e}small{color:#57606a}</style>
</head><body>${body}</body></html>`;
}

/** How {@link htmlHandler} dresses its answers; every field has the payer pages' value by default. */
export interface HtmlHandlerOptions {
  /** `@middy/http-security-headers` options (default {@link pageSecurityHeaders}). */
  securityHeaders?: typeof pageSecurityHeaders;
  /** `Cache-Control` of a successful answer (default `no-store`); error pages are always `no-store`. */
  cacheControl?: string;
  /**
   * A Content-Security-Policy built per answer around a fresh nonce (128 random bits, base64), set on every answer,
   * error and 429 pages included, in place of the policy of `securityHeaders` (which must then have
   * `contentSecurityPolicy: false`). The page receives the nonce to put on its one `<script>`.
   */
  nonceCsp?: (nonce: string) => string;
}

/**
 * Wraps a handler that answers HTML (the payer pages, the sandbox's hosted pages, the API reference):
 * middy with the Powertools logger, the official urlencoded-form parser for POSTed forms, errors rendered
 * as a small HTML page with the right status (never a stack trace), and the security headers of
 * `options.securityHeaders` ({@link pageSecurityHeaders} by default; `@middy/http-security-headers`) on
 * every answer, error pages included. A `HEAD` gets the `GET`'s answer without content ({@link answeringHead}).
 * @param run the page: its status (default 200), its HTML, and headers to add or override
 * @param options security headers and caching (see {@link HtmlHandlerOptions})
 * @returns the Lambda handler; it never throws
 */
export function htmlHandler(
  run: (
    event: APIGatewayProxyEventV2,
    context: Context,
    page: { nonce: string },
  ) => Promise<{ statusCode?: number; html: string; headers?: Record<string, string> }>,
  options: HtmlHandlerOptions = {},
) {
  const okHeaders = { ...pageHeaders, ...(options.cacheControl ? { 'cache-control': options.cacheControl } : {}) };
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    let settled: Promise<void> | undefined;
    const nonce = randomBytes(16).toString('base64');
    const policy: Record<string, string> = options.nonceCsp ? { 'Content-Security-Policy': options.nonceCsp(nonce) } : {};
    try {
      // The public pages of a payment or a payment link (payer, sandbox and checkout pages) are rate-limited before
      // anything runs (shared/http/page-rate-limit.ts): over a limit, a 429 page and no read, write or processor call.
      if (event.pathParameters?.payment_id !== undefined || event.pathParameters?.payment_link_id !== undefined) {
        const admission = await admitPage(event);
        settled = admission.settled;
        if (!admission.allowed) {
          const refusal = tooManyRequestsPage(admission.retryAfterSeconds);
          return { ...refusal, headers: { ...refusal.headers, ...policy } };
        }
      }
      await parseForm(event);
      const { statusCode, html, headers } = await run(event, context, { nonce });
      return { statusCode: statusCode ?? 200, headers: { ...okHeaders, ...policy, ...(headers ?? {}) }, body: html };
    } catch (err) {
      const status = err instanceof ApiError ? err.statusCode : isStorageUnavailable(err) || err instanceof OutcomeUnknownError ? 503 : 500;
      if (status >= 500) logger.error('hosted page failed', { error: err as Error });
      const message =
        err instanceof ApiError
          ? err.message
          : err instanceof OutcomeUnknownError
            ? 'Your answer was sent, but its result is not known yet. Do not pay again; check back in a minute.'
            : 'Something went wrong. Try again shortly.';
      return {
        statusCode: status,
        headers: { ...pageHeaders, ...policy },
        body: htmlPage('Error', `<h1>Error</h1><p>${escapeHtml(message)}</p>`),
      };
    } finally {
      // Lambda freezes pending work once the handler returns: the request's lease is finished first.
      if (settled) await settled;
    }
  };
  // The raw event is never logged here (POWERTOOLS_LOGGER_LOG_EVENT notwithstanding): a step form's body
  // holds a PIN, OTP or card, and API Gateway delivers form bodies base64-encoded, past any text redaction.
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>(base, { timeoutEarlyInMillis: 0 })
    .use(injectLambdaContext(logger, { logEvent: false }))
    .use(httpSecurityHeaders(options.securityHeaders ?? pageSecurityHeaders) as never);
  // A public page's GET route answers HEAD too (shared/api/routes.ts `answersHead`): the same answer, no content.
  return answeringHead(handler);
}

/** The 429 page of a public page over its rate limit (`Retry-After` in seconds, RFC 9110 §10.2.3). */
function tooManyRequestsPage(retryAfterSeconds: number): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: 429,
    headers: { ...pageHeaders, 'retry-after': String(retryAfterSeconds) },
    body: htmlPage(
      'Too many requests',
      `<h1>Too many requests</h1><p>This page was asked for too often. Nothing was done. Wait ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}, then reload it.</p>`,
    ),
  };
}

/**
 * Headers the page itself sets: HTML in UTF-8, never stored by any cache (RFC 9111 §5.2.2.5: the pages
 * show payment details and carry step forms). The security headers come from {@link pageSecurityHeaders}.
 */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
};

/**
 * `@middy/http-security-headers` (helmet's rules) for the payer and sandbox pages. Its defaults are kept
 * (nosniff, `X-Frame-Options: DENY`, `Referrer-Policy: no-referrer`, cross-origin opener/resource/embedder
 * policies, a Permissions-Policy that turns every listed feature off…) except where they would break
 * these pages or say something untrue:
 * - Content-Security-Policy: nothing loads (`default-src 'none'`) but the page's inline `<style>`; no
 *   `<base>`; never framed by another site (`frame-ancestors 'none'`: clickjacking of a PIN form;
 *   `X-Frame-Options: DENY` for older browsers).
 * - `form-action` is NOT restricted (middy's default `'none'` would stop every form; `'self'` would
 *   still break them): a step form's answer (and the sandbox's Approve/Decline) is a POST to this origin
 *   that redirects the payer on, by 303, to the payment's return route and from there to the merchant's
 *   `return_url` — or to a processor's 3-D Secure page — on another origin, and Chrome checks every
 *   redirect of a form submission against `form-action` (MDN, "CSP: form-action": "Firefox 57 doesn't
 *   block the redirects whereas Chrome 63 does"; WPT content-security-policy/form-action/
 *   form-action-src-redirect-blocked.sub.html expects the block). Those origins are only known once the
 *   processor answers, so no list can be written in advance. The pages have no script and escape every
 *   value, so no injected form can exist to be restricted.
 * - `sandbox` and `upgrade-insecure-requests` are off (`false`: middy emits them for `''`): a sandboxed
 *   page posts its forms from an opaque origin (`Origin: null`), and upgrading would send the forms of
 *   `npm start`'s http://127.0.0.1 gateway to https (API Gateway serves https only, so there it changes
 *   nothing). `navigate-to` (never shipped by a browser) and `report-to` (no reporting endpoint) are left out.
 * - `Strict-Transport-Security` without `preload`/`includeSubDomains`: the API's host is a subdomain
 *   (execute-api or the merchant-facing custom domain); preloading is a decision for the apex domain.
 * - no `X-XSS-Protection` (the XSS auditor is gone from browsers; OWASP advises against the header), no
 *   empty `Report-To`/`Reporting-Endpoints`, no undefined `Server`/`X-Powered-By` entries.
 */
export const pageSecurityHeaders = {
  contentSecurityPolicy: {
    'default-src': "'none'",
    'style-src': "'unsafe-inline'",
    'base-uri': "'none'",
    'frame-ancestors': "'none'",
    'form-action': '',
    'navigate-to': '',
    'report-to': '',
    sandbox: false,
    'upgrade-insecure-requests': false,
  } as unknown as Record<string, string>,
  strictTransportSecurity: { maxAge: 180 * 24 * 60 * 60, includeSubDomains: false, preload: false },
  xssProtection: false,
  reportTo: false,
  reportingEndpoints: false,
  poweredBy: false,
};

/**
 * The security headers of the API reference page (`GET /docs`): {@link pageSecurityHeaders}, with the
 * Content-Security-Policy Redoc needs and nothing more. Checked in headless Chromium 150 on redoc 2.5.4's
 * standalone bundle: with this policy the page renders with no violation but the one below; removing any
 * allowance produces a violation (docs/api.md "API reference"):
 * - `script-src 'self'`: the bundle, from `GET /docs/redoc.standalone.js` (no inline script, no eval);
 * - `style-src 'unsafe-inline'`: Redoc (styled-components) writes its styles into `<style>` elements and
 *   React sets `style` attributes (without it Redoc throws and renders nothing); no stylesheet is loaded;
 * - `worker-src blob:`: the search index runs in a Web Worker that the bundle builds from a `blob:` URL;
 * - `connect-src 'self'`: the page fetches `openapi.json` from this API;
 * - `img-src data:`: the section-link icon is an inline `data:` SVG. Redoc's footer also asks for
 *   `https://cdn.redoc.ly/redoc/logo-mini.svg`: refused on purpose (no CDN at run time), the badge then
 *   shows its text without the logo;
 * - everything else `'none'`: no fonts, frames, objects, forms (`form-action 'none'`), `<base>`, nor
 *   framing by another site (`frame-ancestors 'none'`).
 * middy's default Trusted Types directives (`require-trusted-types-for 'script'`, `trusted-types 'none'`)
 * are turned off here: the bundle builds its Worker from a plain `blob:` URL (and renders Markdown as HTML),
 * which a browser enforcing Trusted Types refuses, and then nothing renders. The payer pages keep them
 * (they run no script at all).
 */
export const referenceSecurityHeaders: typeof pageSecurityHeaders = {
  ...pageSecurityHeaders,
  contentSecurityPolicy: {
    'default-src': "'none'",
    'script-src': "'self'",
    'style-src': "'unsafe-inline'",
    'worker-src': 'blob:',
    'connect-src': "'self'",
    'img-src': 'data:',
    'base-uri': "'none'",
    'form-action': "'none'",
    'frame-ancestors': "'none'",
    'navigate-to': '',
    'report-to': '',
    'require-trusted-types-for': '',
    'trusted-types': '',
    sandbox: false,
    'upgrade-insecure-requests': false,
  } as unknown as Record<string, string>,
};

/**
 * Parses a POSTed `application/x-www-form-urlencoded` body in place with middy's official parser (GETs
 * and other types are left alone).
 * @throws ApiError 400 when the form cannot be read or names a field more than once
 */
async function parseForm(event: APIGatewayProxyEventV2): Promise<void> {
  if (!event.body) return;
  const type = parseMediaType(event.headers?.['content-type']);
  if (type?.essence !== 'application/x-www-form-urlencoded') return;
  // Inside the error handling: an unreadable form is a 400 page, never a 500.
  try {
    if (!isUtf8Charset(type.charset)) throw new Error('not UTF-8');
    // middy's parser matches the content type case-sensitively; it is given the essence read above
    // (RFC 9110 §8.3.1: media types are case-insensitive). It decodes a base64 body itself.
    const parsing = { event: { ...event, headers: { ...event.headers, 'content-type': type.essence } } };
    await httpUrlEncodeBodyParser().before?.(parsing as never);
    (event as { body: unknown }).body = parsing.event.body;
  } catch {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'The form could not be read. Go back and submit it again.');
  }
  const form = event.body as unknown;
  if (form === null || typeof form !== 'object' || Object.values(form).some((v) => typeof v !== 'string')) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'parameter_invalid',
      'The form could not be read: send each field once. Go back and submit it again.',
    );
  }
}
