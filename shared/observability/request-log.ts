import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { logger } from './logger';

/**
 * One structured line per API request ("request log"), written through the service's Powertools
 * logger (shared/observability/logger.ts) with the message {@link REQUEST_LOG_MESSAGE}. The saved
 * CloudWatch Logs Insights queries and the Contributor Insights rule of the stack
 * (lib/monitoring/operations-queries.ts; docs/operations.md, "Saved Logs Insights queries") read these
 * field names, so they are declared once here.
 */
export const REQUEST_LOG_FIELDS = {
  merchantId: 'merchant_id',
  route: 'route',
  status: 'status',
  latencyMs: 'latency_ms',
  requestId: 'request_id',
  paymentId: 'payment_id',
  refundId: 'refund_id',
  customerId: 'customer_id',
  connector: 'connector',
} as const;

/** The `message` of every request line (what queries filter on). */
export const REQUEST_LOG_MESSAGE = 'request';

/** The fields of one request line; the ids and the connector only when known. */
export interface RequestLogLine {
  merchant_id?: string;
  /** `METHOD route key`, e.g. `POST /payments/{payment_id}/confirm` (never the concrete path). */
  route: string;
  status: number;
  latency_ms: number;
  /** API Gateway's request id (the `request-id` response header). */
  request_id?: string;
  payment_id?: string;
  refund_id?: string;
  customer_id?: string;
  connector?: string;
}

/** Identifier kinds the line carries, by the prefix of their values (shared/domain/ids.ts). */
const ID_FIELDS: Readonly<Record<string, 'payment_id' | 'refund_id' | 'customer_id'>> = {
  pay: 'payment_id',
  ref: 'refund_id',
  cus: 'customer_id',
};

/** An identifier of ours: `<prefix>_<alphanumerics>` (the shape `isIdOf` accepts). */
const ID_SHAPE = /^(pay|ref|cus)_[A-Za-z0-9]{1,64}$/;
/** A merchant id as stored on API keys (`mer_…`), or anything of the same harmless shape. */
const MERCHANT_SHAPE = /^[A-Za-z0-9_-]{1,80}$/;
/** A connector routing name (`sandbox`, `stripe`, …). */
const CONNECTOR_SHAPE = /^[a-z0-9_-]{1,32}$/;
/** API Gateway's request id: base64 (letters, digits, `+`, `/`, `=`; e.g. `Jz5CjhZtIAMEZ0g=`), or a UUID. */
const REQUEST_ID_SHAPE = /^[A-Za-z0-9+/=_-]{1,80}$/;
/** Response bodies longer than this are not parsed for ids (lists, documents): their top level names none. */
const MAX_PARSED_BODY = 64 * 1024;

/** The id kind (`payment_id`, …) of a value of ours, or undefined for anything else. */
function idField(value: unknown): 'payment_id' | 'refund_id' | 'customer_id' | undefined {
  if (typeof value !== 'string' || !ID_SHAPE.test(value)) return undefined;
  return ID_FIELDS[value.slice(0, value.indexOf('_'))];
}

/**
 * The top-level fields of a JSON response body, or undefined when it is not a JSON object (or too
 * long to be worth parsing). Only read for ids and `connector`; the body itself is never logged.
 */
function topLevelFields(response: APIGatewayProxyStructuredResultV2 | undefined): Record<string, unknown> | undefined {
  const body = response?.body;
  if (typeof body !== 'string' || body.length > MAX_PARSED_BODY || !body.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Builds the request line of one answered request. Path parameters name the ids first; the
 * response body's top-level `*_id`/`id` values fill the others by their prefix (`pay_`, `ref_`,
 * `cus_`), and its `connector` field names the connector. Every value is checked against the
 * shape of what it claims to be, so nothing else (a card number, a key, free text) can reach the line.
 * @param event the API Gateway (payload 2.0) event
 * @param response the answer, when there is one
 * @param merchantId the authenticated merchant, when the route is authenticated
 * @param latencyMs time since the middleware's `before`
 */
export function requestLogLine(
  event: APIGatewayProxyEventV2,
  response: APIGatewayProxyStructuredResultV2 | undefined,
  merchantId: string | undefined,
  latencyMs: number,
): RequestLogLine {
  const method = event.requestContext?.http?.method ?? 'UNKNOWN';
  const routeKey = event.routeKey ?? '$default';
  const line: RequestLogLine = {
    route: routeKey.startsWith(`${method} `) ? routeKey : `${method} ${routeKey}`,
    status: typeof response?.statusCode === 'number' ? response.statusCode : 500,
    latency_ms: Math.max(0, Math.round(latencyMs)),
  };
  if (merchantId && MERCHANT_SHAPE.test(merchantId)) line.merchant_id = merchantId;
  const requestId = event.requestContext?.requestId;
  if (typeof requestId === 'string' && REQUEST_ID_SHAPE.test(requestId)) line.request_id = requestId;
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    const field = idField(value);
    if (field && field === name) line[field] = value;
  }
  const fields = topLevelFields(response);
  if (fields) {
    for (const [name, value] of Object.entries(fields)) {
      if (name !== 'id' && !name.endsWith('_id')) continue;
      const field = idField(value);
      if (field && line[field] === undefined) line[field] = value as string;
    }
    if (typeof fields.connector === 'string' && CONNECTOR_SHAPE.test(fields.connector)) line.connector = fields.connector;
  }
  return line;
}

/**
 * Writes the request line of one answered request ({@link requestLogLine}): INFO below 500, ERROR for a
 * 5xx (still one line per request).
 */
function write(
  event: APIGatewayProxyEventV2,
  response: APIGatewayProxyStructuredResultV2 | undefined,
  context: unknown,
  latencyMs: number,
): void {
  const merchantId = (context as { merchantId?: unknown } | undefined)?.merchantId;
  const line = requestLogLine(event, response, typeof merchantId === 'string' ? merchantId : undefined, latencyMs);
  if (line.status >= 500) logger.error(REQUEST_LOG_MESSAGE, { ...line });
  else logger.info(REQUEST_LOG_MESSAGE, { ...line });
}

/**
 * Wraps a whole API handler (the middy chain, shared/http/api-handler.ts) so that ONE structured line
 * is logged per request ({@link requestLogLine}, message {@link REQUEST_LOG_MESSAGE}): merchant_id,
 * route, status, latency_ms, request_id, and the payment/refund/customer ids and connector when the
 * request names them. Never the body, headers, card data or keys.
 *
 * A wrapper rather than a middy middleware: a middleware's `before` that answers early (middy 6: an
 * Idempotency-Key replay) skips every `after`, so replays would go unlogged. The wrapper sees every
 * answer, replays and mapped errors included; the merchant is read from the Lambda context, where the
 * authentication middleware puts it. A handler that throws (it never should: errors are mapped) is
 * logged as a 500 and the error rethrown.
 * @param handler `(event, context) => Promise<response>`
 * @returns a handler of the same shape
 */
export function withRequestLog<C>(
  handler: (event: APIGatewayProxyEventV2, context: C) => Promise<APIGatewayProxyStructuredResultV2>,
): (event: APIGatewayProxyEventV2, context: C) => Promise<APIGatewayProxyStructuredResultV2> {
  return async (event, context) => {
    const begin = performance.now();
    let response: APIGatewayProxyStructuredResultV2 | undefined;
    try {
      response = await handler(event, context);
      return response;
    } finally {
      write(event, response, context, performance.now() - begin);
    }
  };
}
