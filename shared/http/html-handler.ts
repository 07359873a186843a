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
  // Payer pages may show payment details and carry step forms: never cached (RFC 9111 §5.2.2.5).
  const pageHeaders = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
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
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>(base, { timeoutEarlyInMillis: 0 })
    .use(injectLambdaContext(logger))
    .use({
      before: async (request) => {
        // Only POSTed forms are parsed; GETs have no body.
        if (request.event.body && /application\/x-www-form-urlencoded/.test(request.event.headers?.['content-type'] ?? '')) {
          await httpUrlEncodeBodyParser().before?.(request as never);
        }
      },
    });
}
