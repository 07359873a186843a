/**
 * `connectorFetch` (the one HTTP path of every processor adapter) and the timeout settings, against a
 * local server on 127.0.0.1 (never the network): which answers are technical (outcome unknown:
 * timeout, network, 5xx, 409) and which are the processor refusing (other 4xx), when a failure is
 * `notSent` (connection never established), and how `CONNECTOR_TIMEOUT_MS` and the per-processor
 * tables combine.
 * The 409 rule follows https://docs.stripe.com/error-low-level#idempotency and stripe-node v22.5.0
 * (commit 663942164d38) `src/RequestSender.ts`, which retries 409 as a conflict.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectorRequestError, ConnectorTechnicalError } from '../../shared/connectors/connector';
import {
  type ConnectorTimeouts,
  connectorFetch,
  neverSent,
  timeoutFor,
  UNKNOWN_OUTCOME_STATUSES,
} from '../../shared/connectors/connector-http';
import { connectorTimeoutOverride } from '../../shared/processor-call/connector-registry';

type Answer = { status: number; body: string; contentType?: string };

let server: Server;
let baseUrl: string;
let answer: Answer = { status: 200, body: '{}' };
const seen: Array<{ method: string; url: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => {
      res.writeHead(answer.status, { 'content-type': answer.contentType ?? 'application/json' });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const errorOf = (status: number, body: unknown) => ({
  code: String((body as { error?: { code?: string } }).error?.code ?? `http_${status}`),
  message: 'mapped',
});
const call = () =>
  connectorFetch<unknown>({
    connector: 'acme',
    method: 'POST',
    url: `${baseUrl}/v1/things?x=1`,
    headers: {},
    body: 'a=1',
    timeoutMs: 2000,
    errorOf,
  });

describe('connectorFetch', () => {
  test('a 2xx JSON body is returned; the exact method and path are sent', async () => {
    answer = { status: 200, body: '{"ok":true}' };
    await expect(call()).resolves.toEqual({ ok: true });
    expect(seen).toEqual([{ method: 'POST', url: '/v1/things?x=1' }]);
  });

  test("409 with a JSON body → ConnectorTechnicalError naming the processor's code (outcome unknown)", async () => {
    answer = {
      status: 409,
      body: JSON.stringify({ error: { code: 'idempotency_key_in_use', type: 'invalid_request_error', message: 'in progress' } }),
    };
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect(err).not.toBeInstanceOf(ConnectorRequestError);
    expect((err as Error).message).toContain('idempotency_key_in_use');
    expect((err as Error).message).toContain('HTTP 409');
  });

  test('409 without a JSON body → ConnectorTechnicalError too', async () => {
    answer = { status: 409, body: '<html>Conflict</html>', contentType: 'text/html' };
    const err = await call().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as Error).message).toContain('http_409');
  });

  test('409 is the only 4xx treated as unknown', () => {
    expect([...UNKNOWN_OUTCOME_STATUSES]).toEqual([409]);
  });

  test.each([400, 401, 402, 404, 422, 429])('%i → ConnectorRequestError with the mapped code', async (status) => {
    answer = { status, body: JSON.stringify({ error: { code: `code_${status}` } }) };
    await expect(call()).rejects.toMatchObject({ name: 'ConnectorRequestError', code: `code_${status}`, message: 'mapped' });
  });

  test('a 4xx that is not JSON → ConnectorRequestError http_<status>', async () => {
    answer = { status: 404, body: 'Not Found', contentType: 'text/plain' };
    await expect(call()).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'http_404' });
  });

  test.each([500, 502, 503])('%i → ConnectorTechnicalError, JSON or not', async (status) => {
    answer = { status, body: '{"status":"error"}' };
    await expect(call()).rejects.toBeInstanceOf(ConnectorTechnicalError);
    answer = { status, body: '<html>down</html>', contentType: 'text/html' };
    await expect(call()).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  test('a 2xx body that is not JSON → ConnectorTechnicalError', async () => {
    answer = { status: 200, body: 'not json', contentType: 'text/plain' };
    await expect(call()).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });

  test('the timeout given is the one applied', async () => {
    answer = { status: 200, body: '{}' };
    const spy = jest.spyOn(AbortSignal, 'timeout');
    try {
      await connectorFetch({ connector: 'acme', method: 'GET', url: `${baseUrl}/x`, headers: {}, timeoutMs: 4321 });
      expect(spy).toHaveBeenCalledWith(4321);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('timeouts', () => {
  const table: ConnectorTimeouts = {
    authorize: 60_000,
    capture: 30_000,
    void: 30_000,
    refund: 60_000,
    sync: 30_000,
    syncRefund: 30_000,
    findRefund: 30_000,
    webhook: 30_000,
    verifyCredentials: 10_000,
  };

  test("timeoutFor: the table's value per operation, replaced by a positive override", () => {
    expect(timeoutFor(table, 'authorize')).toBe(60_000);
    expect(timeoutFor(table, 'sync')).toBe(30_000);
    expect(timeoutFor(table, 'sync', 1500)).toBe(1500);
    expect(timeoutFor(table, 'refund', 0)).toBe(60_000);
    expect(timeoutFor(table, 'refund', Number.NaN)).toBe(60_000);
  });

  test.each([
    [undefined, undefined],
    ['', undefined],
    ['  ', undefined],
    ['1500', 1500],
    [' 90000 ', 90_000],
    ['0', undefined],
    ['-5', undefined],
    ['8s', undefined],
    ['1e4', undefined],
    ['12.5', undefined],
  ])('CONNECTOR_TIMEOUT_MS=%p → override %p', (value, expected) => {
    expect(connectorTimeoutOverride({ CONNECTOR_TIMEOUT_MS: value })).toBe(expected);
  });
});

describe('notSent: only when the request provably never left', () => {
  test('connection refused (nothing listening) → ConnectorTechnicalError with notSent', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await connectorFetch({
      connector: 'acme',
      method: 'POST',
      url: `http://127.0.0.1:${port}/v1/charges`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
  });

  test('a port the Fetch standard blocks (e.g. 1) is refused before any connection → notSent', async () => {
    const err = await connectorFetch({
      connector: 'acme',
      method: 'POST',
      url: 'http://127.0.0.1:1/v1/charges',
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorTechnicalError);
    expect((err as ConnectorTechnicalError).notSent).toBe(true);
  });

  test('a socket closed after the request arrived → notSent false (the processor may have acted)', async () => {
    const rude = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => rude.listen(0, '127.0.0.1', resolve));
    try {
      const port = (rude.address() as AddressInfo).port;
      const err = await connectorFetch({
        connector: 'acme',
        method: 'POST',
        url: `http://127.0.0.1:${port}/v1/charges`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      expect((err as ConnectorTechnicalError).notSent).toBe(false);
    } finally {
      rude.closeAllConnections();
      await new Promise<void>((resolve) => rude.close(() => resolve()));
    }
  });

  test('a timeout → notSent false', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const err = await connectorFetch({
        connector: 'acme',
        method: 'GET',
        url: `http://127.0.0.1:${port}/`,
        headers: {},
        timeoutMs: 100,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      expect((err as ConnectorTechnicalError).notSent).toBe(false);
      expect((err as Error).message).toContain('did not answer in time');
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  test('neverSent reads the fetch cause, including every error of an AggregateError', () => {
    expect(neverSent({ cause: { code: 'ECONNREFUSED' } })).toBe(true);
    expect(neverSent({ cause: { code: 'ENOTFOUND' } })).toBe(true);
    expect(neverSent({ cause: { errors: [{ code: 'ECONNREFUSED' }, { code: 'EHOSTUNREACH' }] } })).toBe(true);
    expect(neverSent({ cause: { errors: [{ code: 'ECONNREFUSED' }, { code: 'ECONNRESET' }] } })).toBe(false);
    expect(neverSent({ cause: new Error('bad port') })).toBe(true);
    expect(neverSent({ cause: new Error('other side closed') })).toBe(false);
    expect(neverSent({ cause: { code: 'ECONNRESET' } })).toBe(false);
    expect(neverSent({ cause: { code: 'UND_ERR_SOCKET' } })).toBe(false);
    expect(neverSent(new Error('x'))).toBe(false);
    expect(neverSent(null)).toBe(false);
  });
});
