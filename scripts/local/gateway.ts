import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { FALLBACK_ROUTE, matchRoute } from '../../shared/api/routes';

/**
 * A local stand-in for API Gateway HTTP APIs: turns each request into a
 * payload-format-2.0 event, invokes the route table's handler module, and
 * writes the handler's result back. No business logic lives here.
 */

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** API Gateway HTTP APIs refuse payloads over 10 MB; so does this gateway. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

const modules = new Map<string, Promise<LambdaHandler>>();

function loadHandler(entry: string): Promise<LambdaHandler> {
  let loaded = modules.get(entry);
  if (!loaded) {
    loaded = import(resolve(process.cwd(), entry)).then((m: { handler?: LambdaHandler }) => {
      if (typeof m.handler !== 'function') throw new Error(`${entry} does not export a handler`);
      return m.handler;
    });
    modules.set(entry, loaded);
  }
  return loaded;
}

function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The request target as a URL. It is joined to an origin rather than resolved against one, so a
 * target starting with `//` stays a path (`//x` is not a host name) and reaches the route table
 * (which answers 404) as on API Gateway.
 * @throws TypeError when even that is not a URL
 */
function requestUrl(target: string | undefined): URL {
  const path = target && target.startsWith('/') ? target : `/${target ?? ''}`;
  return new URL(`http://local${path}`);
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_PAYLOAD_BYTES) return 'too_large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Builds the API Gateway HTTP API (payload 2.0) event for a request, as
 * documented in "Working with AWS Lambda proxy integrations for HTTP APIs":
 * lower-case headers, repeated headers and query values joined with commas.
 */
export function toEvent(req: IncomingMessage, body: Buffer, routeKey: string, pathParameters: Record<string, string> | undefined): APIGatewayProxyEventV2 {
  const url = requestUrl(req.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  headers['x-forwarded-proto'] = 'http';
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = k in query ? `${query[k]},${v}` : v;
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0] ?? 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: body.toString('utf8') } : {}),
    isBase64Encoded: false,
  };
}

function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    res.writeHead(result.statusCode ?? 200, (result.headers ?? {}) as Record<string, string>);
    res.end(body);
    return;
  }
  // Payload 2.0: a result without statusCode is a 200 JSON body.
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(typeof result === 'string' ? result : JSON.stringify(result));
}

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  if (body === 'too_large') {
    res.writeHead(413, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Request Entity Too Large' }));
    return;
  }
  let path: string;
  try {
    path = requestUrl(req.url).pathname;
  } catch {
    // A request target that is not a URL at all: refused in the API's error shape; never crash the gateway.
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'invalid_request_target', message: 'The request target is not a valid path.' } }));
    return;
  }
  const match = matchRoute(req.method ?? 'GET', path);
  const entry = match?.route.entry ?? FALLBACK_ROUTE.entry;
  const name = match?.route.name ?? FALLBACK_ROUTE.name;
  const event = toEvent(req, body, match?.routeKey ?? '$default', match?.pathParameters);
  try {
    const handler = await loadHandler(entry);
    writeResult(res, await handler(event, lambdaContext(name, event.requestContext.requestId)));
  } catch (err) {
    // What API Gateway answers when the integration fails.
    process.stderr.write(`gateway: ${name} failed: ${(err as Error).stack ?? String(err)}\n`);
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Internal Server Error' }));
  }
}

/** A running local gateway. */
export interface LocalGateway {
  server: Server;
  /** e.g. `http://127.0.0.1:3000` */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the gateway on `port` (0 = any free port) on 127.0.0.1, or on `host` if given.
 * @throws when the port is taken
 */
export async function startGateway(port: number, host = '127.0.0.1'): Promise<LocalGateway> {
  const server = createServer((req, res) => {
    serve(req, res).catch((err: unknown) => {
      process.stderr.write(`gateway: request failed: ${(err as Error).message}\n`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
