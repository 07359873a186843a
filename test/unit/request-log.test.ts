import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { logger } from '../../shared/observability/logger';
import { REQUEST_LOG_FIELDS, REQUEST_LOG_MESSAGE, withRequestLog } from '../../shared/observability/request-log';

/**
 * The request log (shared/observability/request-log.ts `withRequestLog`) around a fake middy handler:
 * one line per request with the documented fields, and nothing secret in it.
 */

const CARD = '4242424242424242';
const API_KEY = 'sk_test_0123456789abcdef0123456789abcdef';
const PAYMENT = 'pay_0123456789abcdef0123456789abcdef';
const CUSTOMER = 'cus_fedcba9876543210fedcba9876543210';
const REFUND = 'ref_00112233445566778899aabbccddeeff';

function event(routeKey: string, pathParameters: Record<string, string> = {}): APIGatewayProxyEventV2 {
  const [method, path] = routeKey.split(' ') as [string, string];
  return {
    version: '2.0',
    routeKey,
    rawPath: path.replace(/\{(\w+)\}/g, (_m, name: string) => pathParameters[name] ?? name),
    rawQueryString: '',
    headers: { 'api-key': API_KEY, 'content-type': 'application/json' },
    pathParameters,
    body: JSON.stringify({ payment_method_data: { card: { card_number: CARD, card_cvc: '123' } } }),
    isBase64Encoded: false,
    requestContext: {
      requestId: 'Jz5CjhZtIAMEZ0g=',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'jest' },
    },
  } as unknown as APIGatewayProxyEventV2;
}

/** A fresh Lambda context per invocation (middy hands the same object to every middleware). */
const context = () => ({}) as Context;

/** A handler wrapped as api-handler.ts would: an "authentication" middleware sets the merchant. */
function wrapped(answer: () => Promise<APIGatewayProxyStructuredResultV2>) {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(answer)
    .use({
      // the error mapper: an error becomes a 5xx answer, set on the request (not returned)
      onError: async (request) => {
        request.response = { statusCode: 502, body: JSON.stringify({ error: { type: 'api_error', code: 'connector_error' } }) };
      },
    })
    .use({
      before: async (request) => {
        (request.context as Context & { merchantId?: string }).merchantId = 'mer_acme';
      },
    });
  return withRequestLog(chain);
}

let info: jest.SpyInstance;
let error: jest.SpyInstance;
beforeEach(() => {
  info = jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  error = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

/** The one request line written (asserts there is exactly one). */
function onlyLine(): Record<string, unknown> {
  const calls = [...info.mock.calls, ...error.mock.calls].filter((c) => c[0] === REQUEST_LOG_MESSAGE);
  expect(calls).toHaveLength(1);
  return calls[0]![1] as Record<string, unknown>;
}

test('a confirm: one line with merchant, route key, status, latency, request id, the payment and customer ids and the connector', async () => {
  const handler = wrapped(async () => {
    await new Promise((r) => setTimeout(r, 5));
    return {
      statusCode: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        payment_id: PAYMENT,
        customer_id: CUSTOMER,
        connector: 'stripe',
        status: 'Succeeded',
        payment_method_data: { card: { last4: '4242', brand: 'visa' } },
        client_secret: 'pay_secret_should_not_be_logged',
      }),
    };
  });
  await handler(event('POST /payments/{payment_id}/confirm', { payment_id: PAYMENT }), context());
  const line = onlyLine();
  expect(line).toEqual({
    [REQUEST_LOG_FIELDS.merchantId]: 'mer_acme',
    [REQUEST_LOG_FIELDS.route]: 'POST /payments/{payment_id}/confirm',
    [REQUEST_LOG_FIELDS.status]: 200,
    [REQUEST_LOG_FIELDS.latencyMs]: expect.any(Number),
    [REQUEST_LOG_FIELDS.requestId]: 'Jz5CjhZtIAMEZ0g=',
    [REQUEST_LOG_FIELDS.paymentId]: PAYMENT,
    [REQUEST_LOG_FIELDS.customerId]: CUSTOMER,
    [REQUEST_LOG_FIELDS.connector]: 'stripe',
  });
  expect(line.latency_ms as number).toBeGreaterThanOrEqual(4);
  expect(error).not.toHaveBeenCalled();
});

test('a refund created: refund id from the body by its prefix, payment id from the path', async () => {
  const handler = wrapped(async () => ({
    statusCode: 201,
    body: JSON.stringify({ refund_id: REFUND, payment_id: PAYMENT, connector: 'paystack', amount: 500 }),
  }));
  await handler(event('POST /payments/{payment_id}/refund', { payment_id: PAYMENT }), context());
  expect(onlyLine()).toMatchObject({ route: 'POST /payments/{payment_id}/refund', status: 201, refund_id: REFUND, payment_id: PAYMENT });
});

test('an error: one ERROR line with the mapped status; no error object, no body', async () => {
  const handler = wrapped(async () => {
    throw Object.assign(new Error(`declined card ${CARD} with key ${API_KEY}`), { body: { card_number: CARD } });
  });
  const answer = await handler(event('POST /payments/{payment_id}/confirm', { payment_id: PAYMENT }), context());
  expect(answer.statusCode).toBe(502);
  expect(info).not.toHaveBeenCalled();
  const line = onlyLine();
  expect(line).toMatchObject({ status: 502, route: 'POST /payments/{payment_id}/confirm', payment_id: PAYMENT, merchant_id: 'mer_acme' });
  expect(Object.keys(line).sort()).toEqual(['latency_ms', 'merchant_id', 'payment_id', 'request_id', 'route', 'status']);
});

test('never card data, keys, bodies or headers; values that only look like ids elsewhere are not taken', async () => {
  const handler = wrapped(async () => ({
    statusCode: 200,
    body: JSON.stringify({
      payment_id: `pay_${CARD} or not`,
      customer_id: API_KEY,
      connector: 'Stripe; DROP TABLE',
      card_number: CARD,
      id: REFUND,
    }),
  }));
  await handler(event('GET /payments/{payment_id}', { payment_id: 'not-an-id' }), context());
  const line = onlyLine();
  const text = JSON.stringify(line);
  for (const secret of [CARD, API_KEY, '123', 'card', 'api-key', 'DROP', 'body']) expect(text).not.toContain(secret);
  expect(line).toEqual({
    merchant_id: 'mer_acme',
    route: 'GET /payments/{payment_id}',
    status: 200,
    latency_ms: expect.any(Number),
    request_id: 'Jz5CjhZtIAMEZ0g=',
    refund_id: REFUND,
  });
});

test('an unauthenticated route with a non-JSON answer: no merchant, no ids; the $default route keeps its method', async () => {
  const handler = withRequestLog(
    middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(async () => ({
      statusCode: 404,
      body: '<html>no</html>',
    })),
  );
  const e = event('GET /nowhere');
  (e as { routeKey: string }).routeKey = '$default';
  await handler(e, context());
  expect(onlyLine()).toEqual({ route: 'GET $default', status: 404, latency_ms: expect.any(Number), request_id: 'Jz5CjhZtIAMEZ0g=' });
});

test('an answer given before the handler runs (an Idempotency-Key replay answers from a before step) is logged too', async () => {
  const replayed = withRequestLog(
    middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2>(async () => ({ statusCode: 500, body: 'never runs' })).use({
      before: async (request) => {
        (request.context as Context & { merchantId?: string }).merchantId = 'mer_acme';
        return { statusCode: 200, body: JSON.stringify({ payment_id: PAYMENT, connector: 'stripe' }) };
      },
    }),
  );
  await replayed(event('POST /payments'), context());
  expect(onlyLine()).toMatchObject({
    route: 'POST /payments',
    status: 200,
    merchant_id: 'mer_acme',
    payment_id: PAYMENT,
    connector: 'stripe',
  });
});
