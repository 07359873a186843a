import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/**
 * Makes a `GET` handler answer `HEAD` too: the handler runs as for the `GET` and its answer goes back with
 * the same status and header fields (`Content-Type`, `Cache-Control`, `ETag`, the security headers, a
 * redirect's `Location`) and no content — RFC 9110 §9.3.2: "The HEAD method is identical to GET except that
 * the server MUST NOT send content in the response", and the server SHOULD send the header fields a `GET`
 * would. No `Content-Length` is set for the content left out: what API Gateway does with one on a response
 * without a body is not documented, and RFC 9110 §8.6 lets a `HEAD` answer omit it. Which routes take
 * `HEAD`: `answersHead` in shared/api/routes.ts.
 * @param handler the route's Lambda handler, `(event, context) => Promise<result>`
 * @returns a handler of the same shape; any other method's answer is returned as it is
 */
export function answeringHead<C>(
  handler: (event: APIGatewayProxyEventV2, context: C) => Promise<APIGatewayProxyStructuredResultV2>,
): (event: APIGatewayProxyEventV2, context: C) => Promise<APIGatewayProxyStructuredResultV2> {
  return async (event, context) => {
    const result = await handler(event, context);
    if (event.requestContext?.http?.method !== 'HEAD') return result;
    const { body: _body, isBase64Encoded: _encoded, ...withoutContent } = result;
    return withoutContent;
  };
}
