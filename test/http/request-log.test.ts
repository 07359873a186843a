/**
 * The request log (docs/operations.md) through the local gateway: every API request — an Idempotency-Key
 * replay and an error included — writes exactly one structured line (shared/observability/request-log.ts)
 * with the merchant, route, status, latency and the ids and connector it concerns, and never the card
 * number, CVC or API key it was sent.
 */
import { logger } from '../../shared/observability/logger';
import { REQUEST_LOG_MESSAGE } from '../../shared/observability/request-log';
import { card, type LocalApi, startLocalApi } from '../helpers/local-api';

let api: LocalApi;
let lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api?.close();
});
beforeEach(() => {
  lines = [];
  const capture = (message: unknown, extra: unknown) => {
    if (message === REQUEST_LOG_MESSAGE) lines.push(extra as Record<string, unknown>);
  };
  jest.spyOn(logger, 'info').mockImplementation(capture as never);
  jest.spyOn(logger, 'error').mockImplementation(capture as never);
});
afterEach(() => jest.restoreAllMocks());

test('one line per request: create, confirm, an idempotent replay, a 404; no card data or key', async () => {
  const key = await api.newMerchantKey();
  const created = await api.request('POST', '/payments', { key, body: { amount: 5000, currency: 'NGN' } });
  const id = created.body.payment_id as string;
  const body = { payment_method_data: card('4242424242424242') };
  const headers = { 'Idempotency-Key': `rl-${id}` };
  const confirmed = await api.request('POST', `/payments/${id}/confirm`, { key, body, headers });
  const replayed = await api.request('POST', `/payments/${id}/confirm`, { key, body, headers });
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  const missing = await api.request('GET', '/payments/pay_doesnotexist000000000000', { key });
  expect(missing.status).toBe(404);

  expect(lines).toHaveLength(4);
  const merchant = lines[0]!.merchant_id;
  expect(merchant).toMatch(/^mer_/);
  expect(lines[0]).toMatchObject({ route: 'POST /payments', status: 200, payment_id: id, connector: created.body.connector });
  for (const line of lines.slice(1, 3)) {
    expect(line).toMatchObject({
      merchant_id: merchant,
      route: 'POST /payments/{payment_id}/confirm',
      status: confirmed.status,
      payment_id: id,
      connector: confirmed.body.connector,
    });
  }
  expect(lines[3]).toMatchObject({ merchant_id: merchant, route: 'GET /payments/{payment_id}', status: 404 });
  for (const line of lines) {
    expect(typeof line.latency_ms).toBe('number');
    expect(typeof line.request_id).toBe('string');
  }
  const text = JSON.stringify(lines);
  expect(text).not.toContain('4242424242424242');
  expect(text).not.toContain(key);
});
