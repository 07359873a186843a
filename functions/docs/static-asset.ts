import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import httpSecurityHeaders from '@middy/http-security-headers';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { errorMapper } from '../../shared/http/error-mapper';
import { answeringHead } from '../../shared/http/head-request';
import { pageSecurityHeaders } from '../../shared/http/html-handler';
import { logger } from '../../shared/observability/logger';

/**
 * Files served as they are (the OpenAPI document, Redoc's bundle), read from disk at run time rather
 * than bundled into the handler's code, so the bytes served are the file's bytes.
 *
 * Where a file is found: a route lists it in its `assets` (shared/api/routes.ts), and the CDK stack
 * (lib/function-bundling.ts, `bundleFunction`) copies it next to the function's `index.mjs`, so on
 * Lambda it is `$LAMBDA_TASK_ROOT/<base name>` (Lambda sets `LAMBDA_TASK_ROOT`, the directory of the
 * deployed code, in every runtime). Anywhere else (the local gateway, tests) it is read where it is in
 * the repository, from the working directory (the repository root, as for the gateway's handler modules).
 */

/** A file's content and its entity tag. */
export interface StaticAsset {
  /** The file's text (UTF-8), returned as the response body unchanged. */
  body: string;
  /** A strong entity tag (RFC 9110 §8.8.3): a quoted SHA-256 of the content, base64url. */
  etag: string;
}

/**
 * Where a route's asset is on this machine (see the module comment).
 * @param file the path from the repository root, as listed in the route's `assets`
 * @returns an absolute path
 */
export function assetPath(file: string): string {
  const taskRoot = process.env.LAMBDA_TASK_ROOT;
  return taskRoot ? join(taskRoot, basename(file)) : resolve(process.cwd(), file);
}

const cache = new Map<string, StaticAsset>();

/**
 * Reads an asset: once per Lambda container (its code never changes under it), at every call
 * elsewhere (so `npm run openapi` shows in a running `npm start` at once).
 * @param file the path from the repository root, as listed in the route's `assets`
 * @throws Error (ENOENT) when the file is missing: a bundle built without it; answered 500
 */
export function readAsset(file: string): StaticAsset {
  const deployed = Boolean(process.env.LAMBDA_TASK_ROOT);
  const hit = deployed ? cache.get(file) : undefined;
  if (hit) return hit;
  const body = readFileSync(assetPath(file), 'utf8');
  const asset = { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
  if (deployed) cache.set(file, asset);
  return asset;
}

/**
 * Whether an `If-None-Match` request header matches an entity tag (RFC 9110 §13.1.2: `*`, or a list
 * of tags compared weakly, so `W/"x"` matches `"x"`).
 * @param header the header's value, or undefined when absent
 * @param etag the current tag, quoted
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const weak = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || weak(tag) === weak(etag));
}

/** How {@link staticAssetHandler} answers one file. */
export interface StaticAssetSpec {
  /** The file, a path from the repository root listed in the route's `assets`. */
  file: string;
  /** `Content-Type` of the answer. */
  contentType: string;
  /** `Cache-Control` of the answer (and of a 304). */
  cacheControl: string;
  /** Further headers on every answer (200 and 304). */
  headers?: Record<string, string>;
}

/**
 * A public `GET` handler answering one file as it is: 200 with the file's bytes, its `ETag`, the
 * given `Content-Type` and `Cache-Control`; 304 without a body when `If-None-Match` names the current
 * tag. The security headers of {@link pageSecurityHeaders} that apply to any response
 * (`@middy/http-security-headers`: `X-Content-Type-Options: nosniff`, HSTS, `Referrer-Policy`…; the
 * HTML-only ones such as the CSP are not added to a non-HTML answer). A failure (the file missing)
 * answers the API's JSON 500 `internal_error`, logged. A `HEAD` gets the same answer without content
 * ({@link answeringHead}).
 * @returns the Lambda handler; it never throws
 */
export function staticAssetHandler(spec: StaticAssetSpec) {
  const base = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const asset = readAsset(spec.file);
    const headers = { 'cache-control': spec.cacheControl, etag: asset.etag, ...spec.headers };
    // A 304 repeats the caching fields, not the representation's metadata (RFC 9110 §15.4.5).
    if (etagMatches(event.headers?.['if-none-match'], asset.etag)) return { statusCode: 304, headers };
    return { statusCode: 200, headers: { 'content-type': spec.contentType, ...headers }, body: asset.body };
  };
  // The security headers come before the error mapper, so that its error answer gets them too
  // (middy runs `onError` middlewares in reverse order of use).
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(base, { timeoutEarlyInMillis: 0 }).use(
    injectLambdaContext(logger),
  );
  handler.use(httpSecurityHeaders(pageSecurityHeaders) as never);
  // Its route answers HEAD too (shared/api/routes.ts `answersHead`): the same answer, without the file.
  return answeringHead(handler.use(errorMapper()));
}
