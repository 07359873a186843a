/**
 * `HEAD` on the public pages, through the local gateway and the real handlers: what a browser, a link
 * checker or an uptime monitor asks before (or instead of) a `GET`. Each public `GET` route answers `HEAD`
 * with the `GET`'s status and header fields and no content (RFC 9110 §9.3.2); an authenticated route answers
 * it as any method it does not have, with the `$default` 404. The handlers' answers themselves are checked
 * to carry no content (Node would drop a body from a HEAD answer on its own; API Gateway is not relied on to).
 */
import { type GatewayExchange, type LocalGateway, startGateway } from '../../scripts/local/gateway';
import { answersHead, ROUTES } from '../../shared/api/routes';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
/** A second gateway that records each answer as the handler wrote it. */
let raw: LocalGateway;
const exchanges: GatewayExchange[] = [];

beforeAll(async () => {
  api = await startLocalApi();
  raw = await startGateway(0, '127.0.0.1', { onExchange: (e) => exchanges.push(e) });
});
afterAll(async () => {
  await raw?.close();
  await api?.close();
});

/** Header fields that differ between any two answers (ids, time, framing), left out of the comparison. */
const PER_ANSWER = new Set(['date', 'apigw-requestid', 'request-id', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** The header fields of an answer that a `HEAD` must repeat. */
function comparable(headers: Headers): Record<string, string> {
  // A page with a form sets a fresh random CSRF cookie on each answer: the same cookie, another value.
  return Object.fromEntries(
    [...headers]
      .filter(([name]) => !PER_ANSWER.has(name))
      .map(([name, value]) => [name, name === 'set-cookie' ? value.replace(/=[0-9a-f]{32};/, '=<random>;') : value]),
  );
}

/** GET then HEAD of one path on the raw gateway: both answers, and the HEAD answer as its handler wrote it. */
async function getAndHead(path: string, headers: Record<string, string> = {}) {
  const get = await fetch(`${raw.url}${path}`, { headers, redirect: 'manual' });
  await get.arrayBuffer();
  const head = await fetch(`${raw.url}${path}`, { method: 'HEAD', headers, redirect: 'manual' });
  const written = exchanges.filter((e) => e.request.method === 'HEAD' && e.request.target === path).at(-1);
  return { get, head, headBody: Buffer.from(await head.arrayBuffer()), written };
}

test('the routes that answer HEAD are exactly the public GETs', () => {
  const heads = ROUTES.filter(answersHead).map((r) => `${r.method} ${r.path}`);
  expect(heads).toEqual(ROUTES.filter((r) => r.method === 'GET' && !r.auth).map((r) => `${r.method} ${r.path}`));
  expect(heads).toEqual(expect.arrayContaining(['GET /docs', 'GET /openapi.json', 'GET /docs/redoc.standalone.js', 'GET /health']));
});

test.each([
  ['/docs', 200],
  ['/docs/', 308],
  ['/openapi.json', 200],
  ['/docs/redoc.standalone.js?v=2.5.4', 200],
  ['/health', 200],
])('HEAD %s: the status and header fields of its GET, no content', async (path, status) => {
  const { get, head, headBody, written } = await getAndHead(path);
  expect(get.status).toBe(status);
  expect(head.status).toBe(status);
  expect(comparable(head.headers)).toEqual(comparable(get.headers));
  expect(headBody.length).toBe(0);
  expect(written?.response.answeredBy).toBe('handler');
  expect(written?.response.body.length).toBe(0);
});

test('HEAD /openapi.json revalidates like its GET: 304 for the current ETag', async () => {
  const { get } = await getAndHead('/openapi.json');
  const etag = get.headers.get('etag') as string;
  const { head } = await getAndHead('/openapi.json', { 'if-none-match': etag });
  expect(head.status).toBe(304);
  expect(head.headers.get('etag')).toBe(etag);
});

test("HEAD on a payment's payer and sandbox pages answers as their GET", async () => {
  const pin = await api.request('POST', '/payments', {
    body: {
      amount: 150000,
      currency: 'NGN',
      confirm: true,
      return_url: 'https://shop.example.com/done',
      payment_method_data: card('5060666666666666666'),
    },
  });
  const threeDs = await api.request('POST', '/payments', {
    body: { amount: 2500, currency: 'NGN', confirm: true, payment_method_data: card('4000000000003220') },
  });
  for (const [path, status] of [
    [`/pay/${pin.body.payment_id}/authenticate`, 200],
    [`/pay/${pin.body.payment_id}/return`, 303],
    [`/sandbox/3ds/${threeDs.body.payment_id}`, 200],
  ] as const) {
    const { get, head, written } = await getAndHead(path);
    expect([path, get.status, head.status]).toEqual([path, status, status]);
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
    expect(written?.response.body.length).toBe(0);
  }
});

test('HEAD on an authenticated route is the $default 404, as any method it does not have', async () => {
  expect((await api.request('GET', '/payments')).status).toBe(200);
  expect((await api.request('HEAD', '/payments')).status).toBe(404);
  expectError(await api.request('PATCH', '/payments'), 404, 'route_not_found');
});
