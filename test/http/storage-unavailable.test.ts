import { createServer } from 'node:net';
import type { LocalGateway } from '../../scripts/local/gateway';
import { destroyDocumentClient } from '../../shared/storage/client';
import { startCheckedGateway } from '../helpers/local-api';

/** A port nothing listens on: bind, read the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

let gateway: LocalGateway;
const savedEndpoint = process.env.DYNAMODB_ENDPOINT;

beforeAll(async () => {
  // This file's module registry builds its own DynamoDB client from this endpoint.
  process.env.DYNAMODB_ENDPOINT = `http://127.0.0.1:${await closedPort()}`;
  // Checked against docs/openapi.json like every HTTP suite (close() reports mismatches).
  gateway = await startCheckedGateway();
});
afterAll(async () => {
  await gateway.close();
  destroyDocumentClient();
  process.env.DYNAMODB_ENDPOINT = savedEndpoint;
});

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${gateway.url}${path}`, {
    method,
    headers: { 'api-key': 'sk_test_whatever', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('DynamoDB unreachable', () => {
  test('health answers 503 with the health shape', async () => {
    const res = await fetch(`${gateway.url}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', dynamodb: 'unreachable' });
  });

  test('an authenticated endpoint answers 503 api_error, never 500', async () => {
    for (const [method, path, body] of [
      ['POST', '/payments', { amount: 100, currency: 'NGN' }],
      ['GET', '/payments', undefined],
      ['GET', '/customers/cus_abc', undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status).toBe(503);
      const json = (await res.json()) as { error: { type: string; code: string; message: string } };
      expect(json.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
      expect(json.error.message).toMatch(/retry/i);
    }
  });

  test('a request without a key is 401 without touching storage', async () => {
    const res = await fetch(`${gateway.url}/payments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
  });
});
