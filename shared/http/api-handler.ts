import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { API_VERSION, API_VERSION_HEADER } from '../api/api-version';
import { ApiError, errorResponseHeadersOf, invalidRequest } from '../domain/errors';
import { logger } from '../observability/logger';
import { withRequestLog } from '../observability/request-log';
import { tracer } from '../observability/tracer';
import { type RequestContext, requestDeadline } from '../operations/request-context';
import { apiErrorFromZod, type InputLocation } from '../schemas/zod-errors';
import { type AuthenticatedContext, apiKeyAuth } from './authentication';
import { errorMapper } from './error-mapper';
import { answeringHead } from './head-request';
import { checkIdempotencyKeyHeader } from './idempotency-key';
import { jsonResponse } from './json-response';
import { publicBaseUrl } from './public-base-url';
import { rateLimit, rateLimitSettled } from './rate-limit';
import { bodySizeLimit, jsonBody } from './request-body';

/** What an endpoint's domain call receives once the request is authenticated and validated. */
export interface ApiRequest<B, Q> {
  body: B;
  query: Q;
  /** Path parameters as API Gateway passes them (e.g. `payment_id`). */
  path: Record<string, string>;
  /** The merchant owning the API key (empty for unauthenticated endpoints). */
  merchantId: string;
  /** Public base URL of this API as the client reached it. */
  publicBaseUrl: string;
  event: APIGatewayProxyEventV2;
  /** What operations need of the request: merchant, base URL, Idempotency-Key, processor-call deadline. */
  operation: RequestContext;
}

/** Remaining time assumed when a test invokes a handler without a Lambda context: 29 s (the stage's function timeout). */
const API_TIMEOUT_FALLBACK_MS = 29_000;

/** What an endpoint returns: a status (default 200) and a JSON-serializable body. */
export interface ApiResult {
  statusCode?: number;
  body: unknown;
}

/** How an endpoint is wrapped. */
export interface ApiHandlerSpec<BS extends z.ZodType | undefined, QS extends z.ZodType | undefined> {
  /** Require the `api-key` header (default true). */
  auth?: boolean;
  /** zod schema of the JSON body; without it the body is ignored. */
  body?: BS;
  /** zod schema of the query string; without it any query is ignored. */
  query?: QS;
  /** Pre-shapes the raw query before validation (e.g. nests `created[gte]`). */
  shapeQuery?: (raw: Record<string, string | undefined> | undefined) => unknown;
  /**
   * Honour the `Idempotency-Key` header (every POST that changes state): `idempotentRequests` from
   * shared/http/idempotency.ts, passed by the handler module so that only those handlers load Powertools
   * Idempotency (loaded only by the handlers that set it, to keep the others' cold start small); the header's shape is checked on every request regardless.
   */
  idempotency?: () => MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** Where the validation middleware leaves the parsed input for the handler. */
interface ValidatedContext extends Context {
  validatedInput?: { body: unknown; query: unknown };
}

function validate<S extends z.ZodType>(schema: S, input: unknown, location: InputLocation): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw apiErrorFromZod(parsed.error, input, location);
  return parsed.data;
}

/**
 * Checks the `Switchyard-Version` request header (shared/api/api-version.ts; docs/api.md "Versioning"):
 * absent → the current version; exactly {@link API_VERSION} (surrounding whitespace aside) → served;
 * anything else, an empty value or a list included, is refused. The message names the version served
 * and never repeats the value sent (it is caller input).
 * @param event the request; header names are lower-case, as API Gateway (payload 2.0) passes them
 * @throws ApiError 400 `invalid_request_error` / `api_version_invalid`, `param` `Switchyard-Version`
 */
export function checkApiVersion(event: Pick<APIGatewayProxyEventV2, 'headers'>): void {
  const sent = event.headers?.[API_VERSION_HEADER.toLowerCase()];
  if (sent === undefined || sent.trim() === API_VERSION) return;
  throw invalidRequest(
    'api_version_invalid',
    `The ${API_VERSION_HEADER} header names a version this API does not serve. The supported version is ${API_VERSION}: send it, or leave the header out to be served that version.`,
    API_VERSION_HEADER,
  );
}

/**
 * middy middleware: {@link checkApiVersion} before anything else reads or writes (authentication notes
 * a key's last use; idempotency stores records), so a refused version stores nothing.
 */
function apiVersioning(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  return { before: async (request) => checkApiVersion(request.event) };
}

/**
 * middy middleware whose `onError` runs after the error mapper's (it is registered before it; middy
 * runs `onError` in reverse order): adds the headers an error carries ({@link errorResponseHeadersOf}:
 * a `RateLimitExceededError`'s `Retry-After`, `RateLimit`, `RateLimit-Policy`; a 503
 * `connector_unavailable`'s `Retry-After`) to the error response the mapper built, which it leaves as
 * it is otherwise (shared/http/error-mapper.ts maps an ApiError to its status and body).
 */
function errorResponseHeaders(): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2> {
  return {
    onError: async (request) => {
      const headers = errorResponseHeadersOf(request.error);
      if (!headers || !request.response) return;
      request.response.headers = { ...request.response.headers, ...headers };
    },
  };
}

/**
 * Validates the body and query with the endpoint's zod schemas (and the
 * Idempotency-Key header) before idempotency runs, so a rejected request never
 * stores anything.
 */
function requestValidation(
  spec: ApiHandlerSpec<z.ZodType | undefined, z.ZodType | undefined>,
): MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ValidatedContext> {
  return {
    before: async (request) => {
      const { event } = request;
      checkIdempotencyKeyHeader(event);
      const body = spec.body ? validate(spec.body, event.body, 'body') : undefined;
      const rawQuery = spec.shapeQuery ? spec.shapeQuery(event.queryStringParameters) : (event.queryStringParameters ?? {});
      const query = spec.query ? validate(spec.query, rawQuery, 'query') : undefined;
      request.context.validatedInput = { body, query };
    },
  };
}

/**
 * Wraps an endpoint's domain call as an API Gateway HTTP API (payload 2.0)
 * Lambda handler with middy: Powertools tracer and logger context (business
 * metrics are emitted by the operations as Powertools single metrics), error mapping, the
 * `Switchyard-Version` check ({@link checkApiVersion}), 64 KiB body limit, api-key authentication, the
 * merchant's rate limit (shared/http/rate-limit.ts: 429 `rate_limit_exceeded` before the body is
 * parsed, so invalid requests count and a refusal stores no idempotency record), JSON body parsing,
 * zod validation of body and query, and (on POST) idempotency keys. Every answer, errors included,
 * carries `Switchyard-Version` ({@link jsonResponse}). The returned handler waits for the request's
 * rate-limit lease, if one runs in parallel with it ({@link rateLimitSettled}), before it returns:
 * Lambda freezes pending work once the handler has answered.
 * A `HEAD` (public GET routes only) gets the `GET`'s answer without content ({@link answeringHead}).
 * Every answer (Idempotency-Key replays and mapped errors included) is logged as one structured request
 * line (shared/observability/request-log.ts `withRequestLog`: merchant, route, status, latency, ids, connector).
 * The handler stays a thin adapter: parse → domain call → JSON. A domain
 * {@link ApiError} becomes the response (and is what an idempotent retry
 * replays); any other error is mapped by the error middleware and stores nothing.
 * @returns the Lambda handler; errors become `{"error": {...}}` responses, never throws
 */
export function apiHandler<BS extends z.ZodType | undefined = undefined, QS extends z.ZodType | undefined = undefined>(
  spec: ApiHandlerSpec<BS, QS>,
  run: (request: ApiRequest<Out<BS>, Out<QS>>) => Promise<ApiResult>,
) {
  const base = async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    const headers = { 'request-id': event.requestContext.requestId };
    const input = (context as ValidatedContext).validatedInput ?? { body: undefined, query: undefined };
    const merchantId = (context as Partial<AuthenticatedContext>).merchantId ?? '';
    const listShards = (context as Partial<AuthenticatedContext>).listShards;
    const baseUrl = publicBaseUrl(event);
    const idempotencyKey = event.headers?.['idempotency-key'];
    try {
      const result = await run({
        body: input.body as Out<BS>,
        query: input.query as Out<QS>,
        path: (event.pathParameters ?? {}) as Record<string, string>,
        merchantId,
        publicBaseUrl: baseUrl,
        event,
        operation: {
          merchantId,
          publicBaseUrl: baseUrl,
          ...(listShards ? { listShards } : {}),
          ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
          deadlineMs: requestDeadline(
            typeof context.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : API_TIMEOUT_FALLBACK_MS,
          ),
        },
      });
      return jsonResponse(result.statusCode ?? 200, result.body, headers);
    } catch (err) {
      // A domain answer is returned (and stored for idempotent replay); a transient one is thrown past
      // the idempotency layer (which releases its record) and mapped by the error middleware.
      if (err instanceof ApiError && !err.transient) return jsonResponse(err.statusCode, err.toBody(), headers);
      throw err;
    }
  };
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(base, { timeoutEarlyInMillis: 0 })
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    // Business metrics are flushed as they are emitted (Powertools single metrics, each with its
    // own dimensions), so no end-of-invocation flush middleware is needed (it would only warn).
    // With POWERTOOLS_LOGGER_LOG_EVENT=true this logs the event before anything else runs, redacted
    // after parsing (body decoded and parsed, names and values of query, headers and body): see
    // RedactingLogger in shared/observability/logger.ts. A body that later fails to parse is logged too.
    .use(injectLambdaContext(logger))
    .use(errorResponseHeaders())
    .use(errorMapper())
    .use(apiVersioning())
    .use(bodySizeLimit());
  if (spec.auth !== false) {
    handler.use(apiKeyAuth() as never);
    handler.use(rateLimit() as never);
  }
  if (spec.body) handler.use(jsonBody());
  handler.use(requestValidation(spec as never) as never);
  if (spec.idempotency) handler.use(spec.idempotency());
  // middy skips `after` when a middleware answers early (an idempotent replay): the lease is awaited
  // here too, and the request line (one per request, replays included) is written around the chain.
  // A public GET route (`GET /health`) answers HEAD too (shared/api/routes.ts `answersHead`): the same answer, no content.
  return answeringHead(
    withRequestLog(async (event: APIGatewayProxyEventV2, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
      try {
        return await handler(event, context);
      } finally {
        await rateLimitSettled(context);
      }
    }),
  );
}
