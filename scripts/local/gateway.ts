import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { resolve } from 'node:path';
import { MIMEType } from 'node:util';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import { FALLBACK_ROUTE, matchRoute, type RouteDefinition } from '../../shared/api/routes';
import { cancelSandboxDeliveries } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { API_FUNCTION_TIMEOUT_MS } from '../../shared/domain/pending-operation';
import { runInvocation } from '../../shared/observability/invocation-scope';

/**
 * A local stand-in for API Gateway HTTP APIs (payload format 2.0, `$default` stage): turns each request
 * into the event API Gateway would send, invokes the route table's handler module, and writes the
 * handler's result back. No business logic lives here.
 *
 * What it reproduces, and where each rule comes from:
 * - the event's shape: "Create AWS Lambda proxy integrations for HTTP APIs in API Gateway"
 *   (https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html):
 *   lower-case header names, repeated headers and query values joined with commas, the request's
 *   cookies in `cookies` (and not in `headers`), `rawPath`, `rawQueryString`, `isBase64Encoded`;
 * - `rawPath` and `requestContext.http.path` arrive percent-DECODED on HTTP APIs (unlike REST APIs,
 *   function URLs and ALB): decoded once, cut at a `?` that decoding produced, decoded a second time,
 *   and a path whose second decoding fails is refused with 400 before any Lambda runs. Live captures:
 *   hotsock/voker `vokerhttp/testdata/ingress-paths.json` and `apigwv2-request.json` (CloudWatch,
 *   us-west-2, July 2026, made with a probe script, `paths.py`, not kept in this repository), consistent with
 *   honojs/hono#2156 (`/RSC/%40id%2F…%23save.txt` → rawPath `/RSC/@id/…#save.txt`);
 * - which bodies are base64-encoded: HTTP APIs infer it from `content-type` ("Handling binary data using
 *   Amazon API Gateway HTTP APIs", https://aws.amazon.com/blogs/compute/handling-binary-data-using-amazon-api-gateway-http-apis/).
 *   Measured on AWS (ministackorg/ministack#766): only `text/*`, `application/json`, `application/xml`
 *   and `application/javascript` arrive as text; everything else — a missing content type and
 *   `application/x-www-form-urlencoded` included — arrives base64-encoded with `isBase64Encoded: true`
 *   (so does the awsdocs recording sample-apps/nodejs-apig/event-v2.json, a GET without a body);
 * - `requestContext.domainName`, the `host` and `x-forwarded-*` headers come from the gateway's own
 *   configuration (its public base URL), never from the client's `Host` header: API Gateway answers on
 *   its own domain name only, so a client cannot choose the origin the API builds redirect and
 *   webhook-target URLs from.
 */

/** A Lambda handler as the gateway invokes it. */
export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyResultV2>;

/** API Gateway HTTP APIs refuse payloads over 10 MB; so does this gateway. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/**
 * What the gateway answers itself, when no handler runs. A request API Gateway refuses before any Lambda
 * (an undecodable path, over 10 MB, unparseable HTTP) gets the status API Gateway gives it, in the API's
 * error shape (`{"error": {...}}`, never repeating the request), so a client handles a single shape; on
 * AWS the body of those refusals is API Gateway's own. A failing handler gets exactly what API Gateway
 * answers then (`{"message": "Internal Server Error"}`), as the API cannot shape that answer on AWS either.
 */
const GATEWAY_ANSWERS = {
  400: {
    error: {
      type: 'invalid_request_error',
      code: 'invalid_request_target',
      message: 'The request target is not a path this API can read (check its percent-encoding).',
    },
  },
  408: {
    error: { type: 'invalid_request_error', code: 'request_timeout', message: 'The request was not received in time. Send it again.' },
  },
  413: {
    error: {
      type: 'invalid_request_error',
      code: 'body_too_large',
      message: 'The request body is larger than 10 MB, the most API Gateway accepts.',
    },
  },
  431: { error: { type: 'invalid_request_error', code: 'headers_too_large', message: 'The request headers are too large.' } },
  500: { message: 'Internal Server Error' },
} as const;

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

/**
 * The Lambda context of one invocation: `getRemainingTimeInMillis` counts down from the API functions'
 * timeout ({@link API_FUNCTION_TIMEOUT_MS}, 29 s, the stages' `lambdaTimeoutSeconds`), as on Lambda, so a
 * request's deadline and the lease of a claim it writes (`lease_expires_at`, 32 s after the request began)
 * are what a deployed stage gives.
 */
function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + API_FUNCTION_TIMEOUT_MS;
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

/** Where the gateway says it is reachable: what API Gateway knows as its domain name and scheme. */
export interface GatewayOrigin {
  /** `requestContext.domainName` and the `host` header, e.g. `127.0.0.1:3000` or `api.example.com`. */
  domainName: string;
  /** `x-forwarded-proto`. */
  proto: 'http' | 'https';
  /** `x-forwarded-port`. */
  port: string;
}

/**
 * Reads the gateway's public base URL (an origin such as `http://127.0.0.1:3000` or
 * `https://pay.example.com`).
 * @throws Error when it is not an http(s) origin (a path, query or credentials are refused: API
 *   Gateway's `$default` stage adds no path, and the API builds its URLs from the domain name alone)
 */
export function gatewayOrigin(publicBaseUrl: string): GatewayOrigin {
  const url = new URL(publicBaseUrl);
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.username ||
    url.password ||
    url.search ||
    url.hash ||
    url.pathname.replace(/\/+$/, '') !== ''
  ) {
    throw new Error(`The gateway's public base URL must be an http(s) origin such as https://api.example.com, not ${publicBaseUrl}`);
  }
  const proto = url.protocol === 'https:' ? 'https' : 'http';
  return { domainName: url.host, proto, port: url.port || (proto === 'https' ? '443' : '80') };
}

/** A request as it reached the gateway, before API Gateway's translation. */
export interface GatewayRequest {
  method: string;
  /** The request target exactly as received, e.g. `/payments/pay_1?limit=2`. */
  target: string;
  /** Header values by lower-case name, each header line separately (Node's `headersDistinct`). */
  headers: Record<string, string[]>;
  body: Buffer;
  sourceIp: string;
  httpVersion: string;
}

/** The path and query API Gateway derives from a request target, or `undefined` when it answers 400 itself. */
export interface GatewayPath {
  /** Decoded twice, cut at a `?` the first decoding produced (see the module comment). */
  path: string;
  /** The query string as received (still percent-encoded). */
  rawQueryString: string;
}

function decodePath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/**
 * Splits a request target into the path and query string as an HTTP API hands them to Lambda: the
 * query is kept as received; the path is percent-decoded, cut at a `?` that decoding revealed, and
 * decoded once more (`%2F` → `/`, `%20` → space, `%252F` → `/`, `%3F` ends the path,
 * `%25` followed by no valid escape is refused). Sources: see the module comment.
 * @returns undefined for a target API Gateway would refuse with 400 (not origin-form, or not decodable)
 */
export function gatewayPath(target: string): GatewayPath | undefined {
  let origin = target;
  if (!origin.startsWith('/')) {
    // absolute-form (RFC 9112 §3.2.2): the path and query of the URI; anything else (`*`, authority-form) is refused.
    if (!/^https?:\/\//i.test(origin)) return undefined;
    try {
      const url = new URL(origin);
      origin = `${url.pathname}${url.search}`;
    } catch {
      return undefined;
    }
  }
  const hash = origin.indexOf('#');
  if (hash >= 0) origin = origin.slice(0, hash); // a fragment is never part of a request (RFC 9110 §4.2.4)
  const q = origin.indexOf('?');
  const rawPath = q >= 0 ? origin.slice(0, q) : origin;
  const rawQueryString = q >= 0 ? origin.slice(q + 1) : '';
  const once = decodePath(rawPath);
  if (once === undefined) return undefined;
  const cut = once.indexOf('?');
  const twice = decodePath(cut >= 0 ? once.slice(0, cut) : once);
  if (twice === undefined) return undefined;
  return { path: twice, rawQueryString };
}

/**
 * Media types an HTTP API delivers as text; any other body (or one without a content type) is
 * base64-encoded (measured on AWS: ministackorg/ministack#766; see the module comment). The
 * content type is compared by its essence, case-insensitively (RFC 9110 §8.3.1).
 */
export function isTextMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  let essence: string;
  try {
    essence = new MIMEType(contentType).essence;
  } catch {
    return false;
  }
  return (
    essence.startsWith('text/') || essence === 'application/json' || essence === 'application/xml' || essence === 'application/javascript'
  );
}

/** Hop-by-hop headers a proxy removes before forwarding (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** `12/Mar/2020:19:03:58 +0000`, the format of `requestContext.time`. */
function clfTime(date: Date): string {
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(date.getUTCDate())}/${months[date.getUTCMonth()]}/${date.getUTCFullYear()}:${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())} +0000`;
}

/** A request matched against the route table the way API Gateway matches it, on the decoded path. */
export interface GatewayRoute {
  /** `METHOD /path/{param}`, or `$default` for the catch-all route. */
  routeKey: string;
  route: RouteDefinition | undefined;
  /** The path's segments in the `{param}` positions (already decoded: no further decoding). */
  pathParameters: Record<string, string> | undefined;
}

/** Finds the route of a decoded path; its parameters are the decoded segments as they are. */
export function gatewayRoute(method: string, path: string): GatewayRoute {
  const match = matchRoute(method, path);
  if (!match) return { routeKey: '$default', route: undefined, pathParameters: undefined };
  // matchRoute also percent-decodes parameters; API Gateway decodes the path itself (above), so the
  // parameters are the segments of the decoded path, taken as they are (never decoded a third time).
  const segments = path.split('/').filter(Boolean);
  const pathParameters: Record<string, string> = {};
  match.route.path
    .split('/')
    .filter(Boolean)
    .forEach((p, i) => {
      if (p.startsWith('{') && p.endsWith('}')) pathParameters[p.slice(1, -1)] = segments[i] as string;
    });
  return { routeKey: match.routeKey, route: match.route, pathParameters };
}

/**
 * Builds the payload-format-2.0 event API Gateway sends for a request (see the module comment for
 * every rule and its source).
 * @returns undefined when API Gateway answers 400 itself (an undecodable path or a target that is not a path)
 */
export function toEvent(request: GatewayRequest, origin: GatewayOrigin, now = new Date()): APIGatewayProxyEventV2 | undefined {
  const target = gatewayPath(request.target);
  if (!target) return undefined;
  const { routeKey, pathParameters } = gatewayRoute(request.method, target.path);

  const headers = new Map<string, string>();
  const cookies: string[] = [];
  for (const [rawName, values] of Object.entries(request.headers)) {
    const name = rawName.toLowerCase();
    if (name === 'cookie') {
      // "All cookie headers in the request are combined with commas and added to the cookies field":
      // one entry per cookie pair, and no `cookie` header left (awsdocs and hotsock/voker recordings).
      for (const line of values) for (const pair of line.split(';')) if (pair.trim()) cookies.push(pair.trim());
      continue;
    }
    if (HOP_BY_HOP.has(name)) continue;
    headers.set(name, values.join(','));
  }
  for (const listed of (request.headers.connection ?? []).join(',').split(',')) headers.delete(listed.trim().toLowerCase());
  // API Gateway buffers the body and states its length, also for a GET without one (awsdocs recording: "0").
  headers.set('content-length', String(request.body.length));
  headers.set('host', origin.domainName);
  headers.set('x-forwarded-for', request.sourceIp);
  headers.set('x-forwarded-port', origin.port);
  headers.set('x-forwarded-proto', origin.proto);
  headers.set('x-amzn-trace-id', `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`);

  const query = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(target.rawQueryString)) query.set(k, query.has(k) ? `${query.get(k)},${v}` : v);

  const text = isTextMediaType(headers.get('content-type'));
  const domainName = origin.domainName;
  return {
    version: '2.0',
    routeKey,
    rawPath: target.path,
    rawQueryString: target.rawQueryString,
    ...(cookies.length ? { cookies } : {}),
    // Object.fromEntries defines own properties, so a header or parameter named `__proto__` stays data.
    headers: Object.fromEntries(headers),
    ...(query.size ? { queryStringParameters: Object.fromEntries(query) } : {}),
    ...(pathParameters && Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName,
      domainPrefix: domainName.split('.')[0] ?? domainName,
      http: {
        method: request.method,
        path: target.path,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.sourceIp,
        userAgent: headers.get('user-agent') ?? '',
      },
      // API Gateway's request ids look like `ATfSmjLgPHcESJw=` (11 random bytes in base64).
      requestId: randomBytes(11).toString('base64'),
      routeKey,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...(request.body.length ? { body: text ? request.body.toString('utf8') : request.body.toString('base64') } : {}),
    isBase64Encoded: !text,
  };
}

/**
 * Reads the body. Past {@link MAX_PAYLOAD_BYTES} the rest is read and dropped, so the 413 reaches a
 * client that is still sending (answering first would reset its connection before it reads the answer).
 */
async function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= MAX_PAYLOAD_BYTES) chunks.push(chunk as Buffer);
  }
  return size > MAX_PAYLOAD_BYTES ? 'too_large' : Buffer.concat(chunks);
}

/** A response as the gateway wrote it (for {@link GatewayOptions.onExchange}). */
export interface GatewayResponse {
  status: number;
  /** Header values by name as written (`set-cookie` as a list). */
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** `handler`: a route's (or the fallback's) Lambda result; `gateway`: the gateway's own answer (see GATEWAY_ANSWERS). */
  answeredBy: 'handler' | 'gateway';
}

/** A response as written, its body as it was handed to `res.end` (turned into bytes only for an observer). */
type Written = Omit<GatewayResponse, 'body'> & { body: string | Buffer };

function answer(res: ServerResponse, status: keyof typeof GATEWAY_ANSWERS, requestId?: string): Written | undefined {
  if (res.headersSent) {
    res.destroy();
    return undefined;
  }
  const headers = { 'content-type': 'application/json', ...(requestId ? { 'apigw-requestid': requestId } : {}) };
  const body = JSON.stringify(GATEWAY_ANSWERS[status]);
  res.writeHead(status, headers);
  res.end(body);
  return { status, headers, body, answeredBy: 'gateway' };
}

/**
 * Writes a payload-2.0 Lambda result: `statusCode`, `headers` (a value that is undefined or null is
 * dropped, as the Lambda runtime's JSON serialisation drops it), `cookies` (one `set-cookie` each),
 * `body` (base64-decoded when `isBase64Encoded`). A result without `statusCode` is a 200 JSON body.
 */
function writeResult(res: ServerResponse, result: APIGatewayProxyResultV2, requestId: string): Written {
  if (typeof result === 'object' && result !== null && 'statusCode' in result) {
    const body = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
    const headers: Record<string, string | string[]> = { 'apigw-requestid': requestId };
    for (const [name, value] of Object.entries(result.headers ?? {}))
      if (value !== undefined && value !== null) headers[name] = String(value);
    if (result.cookies?.length) headers['set-cookie'] = result.cookies;
    const status = result.statusCode ?? 200;
    res.writeHead(status, headers);
    res.end(body);
    return { status, headers, body, answeredBy: 'handler' };
  }
  const headers = { 'content-type': 'application/json', 'apigw-requestid': requestId };
  const body = typeof result === 'string' ? result : JSON.stringify(result);
  res.writeHead(200, headers);
  res.end(body);
  return { status: 200, headers, body, answeredBy: 'handler' };
}

function sourceIp(req: IncomingMessage): string {
  const ip = req.socket.remoteAddress ?? '127.0.0.1';
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  origin: GatewayOrigin,
  load: (entry: string) => Promise<LambdaHandler>,
  onExchange: ((exchange: GatewayExchange) => void) | undefined,
): Promise<void> {
  const body = await readBody(req);
  const request: GatewayRequest = {
    method: req.method ?? 'GET',
    target: req.url ?? '/',
    headers: req.headersDistinct as Record<string, string[]>,
    body: body === 'too_large' ? Buffer.alloc(0) : body,
    sourceIp: sourceIp(req),
    httpVersion: req.httpVersion,
  };
  // Reported after the response is written, synchronously: a client in the same process reads the
  // answer only on a later turn of the event loop, so the observer has always seen it by then.
  const report = (written: Written | undefined): void => {
    if (!onExchange || !written) return;
    const response = { ...written, body: typeof written.body === 'string' ? Buffer.from(written.body) : written.body };
    try {
      onExchange({ request: { ...request, bodyDropped: body === 'too_large' }, response });
    } catch (err) {
      process.stderr.write(`gateway: onExchange failed: ${(err as Error).message}\n`);
    }
  };
  if (body === 'too_large') return report(answer(res, 413));
  const event = toEvent(request, origin);
  if (!event) return report(answer(res, 400));
  const { route } = gatewayRoute(event.requestContext.http.method, event.rawPath);
  const entry = route?.entry ?? FALLBACK_ROUTE.entry;
  const name = route?.name ?? FALLBACK_ROUTE.name;
  const requestId = event.requestContext.requestId;
  let result: APIGatewayProxyResultV2;
  try {
    const handler = await load(entry);
    // Its own context for everything it logs, although other handlers run in this process meanwhile.
    const context = lambdaContext(name, randomUUID());
    result = await runInvocation(context, () => handler(event, context));
  } catch (err) {
    // What API Gateway answers when the integration fails.
    process.stderr.write(`gateway: ${name} failed: ${(err as Error).stack ?? String(err)}\n`);
    return report(answer(res, 500, requestId));
  }
  let written: Written | undefined;
  try {
    written = writeResult(res, result, requestId);
  } catch (err) {
    // A result API Gateway could not turn into a response (e.g. an invalid header): 500, as on AWS.
    process.stderr.write(`gateway: ${name} returned an unusable result: ${(err as Error).message}\n`);
    written = answer(res, 500, requestId);
  }
  report(written);
}

/** Answers on a raw socket (no ServerResponse exists for parse failures and CONNECT). */
function rawAnswer(socket: Socket, status: 400 | 408 | 431, reason: string): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(GATEWAY_ANSWERS[status]);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Options of {@link startGateway}. */
export interface GatewayOptions {
  /**
   * The origin clients reach the API at, which handlers see as `requestContext.domainName` (payer
   * page and redirect URLs are built from it). Default: `PUBLIC_BASE_URL` when set, else the
   * gateway's own listen address. Never taken from a request.
   */
  publicBaseUrl?: string;
  /**
   * Loads the handler of a route's `entry` module (default: imports it). Tests pass one that echoes
   * the event, to see exactly what a Lambda would receive.
   */
  loadHandler?: (entry: string) => Promise<LambdaHandler>;
  /**
   * Sees every request the gateway answers and the response it wrote (the test harness checks each
   * against docs/openapi.json: test/helpers/contract-validator.ts). Called synchronously after the
   * response is written; an exception it throws is logged, never sent. Unset (as under `npm start`),
   * nothing is captured. Not called for what never became a request (unparseable HTTP, CONNECT).
   */
  onExchange?: (exchange: GatewayExchange) => void;
}

/** One request and the answer the gateway wrote for it. */
export interface GatewayExchange {
  /** The request as received; `bodyDropped` when it was over 10 MB (its body is then not kept). */
  request: GatewayRequest & { bodyDropped: boolean };
  response: GatewayResponse;
}

/** A running local gateway. */
export interface LocalGateway {
  server: Server;
  /** e.g. `http://127.0.0.1:3000` (where it listens) */
  url: string;
  /** The origin handlers are told the API is reached at (see {@link GatewayOptions.publicBaseUrl}). */
  publicBaseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the gateway on `port` (0 = any free port) on 127.0.0.1, or on `host` if given. It never
 * stops on a request: malformed HTTP gets a 4xx from here, a failing handler a 500.
 * @throws when the port is taken, or when the public base URL is not an http(s) origin
 */
export async function startGateway(port: number, host = '127.0.0.1', options: GatewayOptions = {}): Promise<LocalGateway> {
  const configured = options.publicBaseUrl ?? (process.env.PUBLIC_BASE_URL?.trim() || undefined);
  if (configured) gatewayOrigin(configured); // refuse a bad setting before listening
  let origin: GatewayOrigin | undefined;
  const load = options.loadHandler ?? loadHandler;
  const server = createServer((req, res) => {
    serve(req, res, origin as GatewayOrigin, load, options.onExchange).catch((err: unknown) => {
      // The client went away mid-body, or the like: answer if still possible, never stop.
      process.stderr.write(`gateway: request failed: ${(err as Error).message}\n`);
      if (!res.writableEnded) answer(res, 500);
    });
  });
  // A client that half-closes its side after sending (FIN after the request, as `nc -N` does) still
  // gets its answer: by default Node drops the request when the client's side ends before the handler
  // has answered. (`httpAllowHalfOpen` is http.Server's own switch for this, set in its constructor.)
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  // Node answers unparseable HTTP with a bare 400; this gives the same statuses a JSON body.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return socket.destroy();
    if (err.code === 'HPE_HEADER_OVERFLOW') return rawAnswer(socket, 431, 'Request Header Fields Too Large');
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return rawAnswer(socket, 408, 'Request Timeout');
    return rawAnswer(socket, 400, 'Bad Request');
  });
  // CONNECT is no request for an API; without a listener Node would close the connection unanswered.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => rawAnswer(socket, 400, 'Bad Request'));
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host}:${address.port}`;
  const publicBaseUrl = (configured ?? url).replace(/\/+$/, '');
  origin = gatewayOrigin(publicBaseUrl);
  return {
    server,
    url,
    publicBaseUrl,
    close: () =>
      new Promise<void>((ok) => {
        // The sandbox's pending events to this API go with it (shared/connectors/sandbox/sandbox-webhooks.ts).
        cancelSandboxDeliveries(publicBaseUrl);
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
