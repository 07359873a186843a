import middy from '@middy/core';
import httpUrlEncodeBodyParser from '@middy/http-urlencode-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ApiError, OutcomeUnknownError } from '../domain/errors';
import { logger } from '../observability/logger';
import { isStorageUnavailable } from '../storage/storage-errors';

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

/**
 * Wraps a handler that answers HTML (the payer pages and the sandbox's hosted pages): middy with the
 * Powertools logger, the official urlencoded-form parser for POSTed forms, and
 * errors rendered as a small HTML page with the right status (never a stack trace).
 */
export function htmlHandler(
  run: (event: APIGatewayProxyEventV2, context: Context) => Promise<{ statusCode?: number; html: string; headers?: Record<string, string> }>,
) {
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      await parseForm(event);
      const { statusCode, html, headers } = await run(event, context);
      return { statusCode: statusCode ?? 200, headers: { ...pageHeaders, ...(headers ?? {}) }, body: html };
    } catch (err) {
      const status = err instanceof ApiError ? err.statusCode : isStorageUnavailable(err) || err instanceof OutcomeUnknownError ? 503 : 500;
      if (status >= 500) logger.error('hosted page failed', { error: err as Error });
      const message =
        err instanceof ApiError ? err.message : err instanceof OutcomeUnknownError ? 'Your answer was sent, but its result is not known yet. Do not pay again; check back in a minute.' : 'Something went wrong. Try again shortly.';
      return { statusCode: status, headers: pageHeaders, body: htmlPage('Error', `<h1>Error</h1><p>${escapeHtml(message)}</p>`) };
    }
  };
  // The raw event is never logged here (POWERTOOLS_LOGGER_LOG_EVENT notwithstanding): a step form's body
  // holds a PIN, OTP or card, and API Gateway delivers form bodies base64-encoded, past any text redaction.
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>(base, { timeoutEarlyInMillis: 0 }).use(injectLambdaContext(logger, { logEvent: false }));
}

/**
 * Headers of every payer page: never cached (RFC 9111 §5.2.2.5: they show payment details and carry step
 * forms), never framed by another site (clickjacking of a PIN form: CSP `frame-ancestors`, and
 * `X-Frame-Options` for older browsers), no external resources, no referrer. `form-action` is not
 * restricted: a step form's answer redirects the payer on to the merchant's `return_url`, which some
 * browsers check against it.
 */
const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Parses a POSTed `application/x-www-form-urlencoded` body in place with middy's official parser (GETs
 * and other types are left alone).
 * @throws ApiError 400 when the form cannot be read or names a field more than once
 */
async function parseForm(event: APIGatewayProxyEventV2): Promise<void> {
  if (!event.body || !/application\/x-www-form-urlencoded/i.test(event.headers?.['content-type'] ?? '')) return;
  try {
    await httpUrlEncodeBodyParser().before?.({ event } as never);
  } catch {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'The form could not be read. Go back and submit it again.');
  }
  const form = event.body as unknown;
  if (form === null || typeof form !== 'object' || Object.values(form).some((v) => typeof v !== 'string')) {
    throw new ApiError(400, 'invalid_request_error', 'parameter_invalid', 'The form could not be read: send each field once. Go back and submit it again.');
  }
}
