/** The local gateway never crashes on odd request targets and answers in the API's error shape, as API Gateway routes them. */
import { request as httpRequest } from 'node:http';
import { startLocalApi, type LocalApi } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

/** Sends a raw request target (fetch would normalise it). */
function raw(target: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(api.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: target, method: 'GET', headers: { 'api-key': api.apiKey } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test.each(['//', '/payments/..//%20', '//%20'])('GET %s answers a 4xx error body and the gateway keeps serving', async (target) => {
  const res = await raw(target);
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(JSON.parse(res.body)).toMatchObject({ error: { type: expect.any(String), code: expect.any(String), message: expect.any(String) } });
  expect((await api.request('GET', '/health')).status).toBe(200);
});
