/**
 * Money safety under concurrency, through the HTTP layer (local gateway →
 * handlers → DynamoDB Local). Racing requests on one payment must change it
 * once, answer the losers 409 (or 400 for refunds over the amount), and never
 * call the connector twice.
 */
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  jest.restoreAllMocks();
  await api.close();
});

/** Spies on the sandbox connector's authorize, counting real calls made by the handlers. */
function spyAuthorize(): jest.SpyInstance {
  return jest.spyOn(SandboxConnector.prototype, 'authorize');
}

/** Calls of the spy made for one payment. */
function authorizeCallsFor(spy: jest.SpyInstance, paymentId: string): number {
  return spy.mock.calls.filter(([request]) => (request as { paymentId?: string }).paymentId === paymentId).length;
}

function statuses(responses: TestResponse[]): number[] {
  return responses.map((r) => r.status).sort((a, b) => a - b);
}

async function createPayment(body: Record<string, unknown>, key?: string): Promise<TestResponse> {
  const res = await api.request('POST', '/payments', { body, key });
  expect(res.status).toBe(200);
  return res;
}

describe('concurrent state changes on one payment', () => {
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test('20 parallel confirms → one 200, the rest 409, one connector authorization, Succeeded', async () => {
    const created = await createPayment({ amount: 4200, currency: 'NGN', payment_method: 'card' });
    const id = created.body.payment_id as string;
    const spy = spyAuthorize();

    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } }),
      ),
    );

    const ok = responses.filter((r) => r.status === 200);
    const rest = responses.filter((r) => r.status !== 200);
    expect({ ok: ok.length, statuses: statuses(responses) }).toMatchObject({ ok: 1 });
    for (const r of rest) expectError(r, 409, 'payment_unexpected_state');
    expect(ok[0]?.body).toMatchObject({ payment_id: id, status: 'Succeeded', amount_captured: 4200 });
    expect(authorizeCallsFor(spy, id)).toBe(1);

    const after = await api.request('GET', `/payments/${id}`);
    expect(after.body).toMatchObject({
      status: 'Succeeded',
      amount_captured: 4200,
      connector_transaction_id: ok[0]?.body.connector_transaction_id,
    });
  });

  test('50 parallel partial refunds summing above the amount → accepted ones fit within it; amount_refunded and the refund list agree', async () => {
    const p = await createPayment({ amount: 10000, currency: 'USD', confirm: true, payment_method_data: card('4111111111111111') });
    expect(p.body.status).toBe('Succeeded');
    const id = p.body.payment_id as string;

    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => api.request('POST', `/payments/${id}/refund`, { body: { amount: 300, reason: `r${i}` } })),
    );

    const accepted = responses.filter((r) => r.status === 200);
    const rejected = responses.filter((r) => r.status !== 200);
    // Every answer is either an accepted refund or a proper rejection — never a 5xx.
    expect(statuses(responses).filter((s) => s !== 200 && s !== 400 && s !== 409)).toEqual([]);
    for (const r of rejected) {
      const err = expectError(r, r.status);
      if (r.status === 400) expect(err.code).toBe('refund_exceeds_amount');
      else expect(err.code).toBe('payment_unexpected_state');
    }
    for (const r of accepted) expect(r.body).toMatchObject({ payment_id: id, amount: 300, status: 'Succeeded' });

    const acceptedSum = accepted.reduce((sum, r) => sum + (r.body.amount as number), 0);
    expect(acceptedSum).toBeLessThanOrEqual(10000);
    expect(accepted.length).toBeGreaterThan(0);

    const after = await api.request('GET', `/payments/${id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_refunded: acceptedSum });

    const listed = await api.request('GET', `/payments/${id}/refunds?limit=100`);
    expect(listed.status).toBe(200);
    expect(listed.body.has_more).toBe(false);
    const listedIds = (listed.body.data as Array<{ refund_id: string }>).map((r) => r.refund_id).sort();
    expect(listedIds).toEqual(accepted.map((r) => r.body.refund_id as string).sort());
  });

  test('cancel racing confirm (10 fresh payments) → one wins, the other 409; status matches the winner; at most one authorization', async () => {
    const spy = spyAuthorize();
    for (let round = 0; round < 10; round += 1) {
      const created = await createPayment({ amount: 1500 + round, currency: 'KES', payment_method: 'card' });
      const id = created.body.payment_id as string;
      // Alternate the order the two requests are sent in.
      const send = [
        () => api.request('POST', `/payments/${id}/confirm`, { body: { payment_method_data: card('4242424242424242') } }),
        () => api.request('POST', `/payments/${id}/cancel`, { body: { cancellation_reason: 'requested_by_customer' } }),
      ];
      const [confirm, cancel] =
        round % 2 === 0
          ? await Promise.all([send[0]!(), send[1]!()])
          : await Promise.all([send[1]!(), send[0]!()]).then(([c, k]) => [k, c] as const);

      const context = { round, id, confirm: confirm.status, cancel: cancel.status };
      expect({ ...context, winners: [confirm, cancel].filter((r) => r.status === 200).length }).toEqual({ ...context, winners: 1 });
      const loser = confirm.status === 200 ? cancel : confirm;
      expectError(loser, 409, 'payment_unexpected_state');

      const after = await api.request('GET', `/payments/${id}`);
      if (cancel.status === 200) {
        expect(cancel.body).toMatchObject({ status: 'Cancelled', cancellation_reason: 'requested_by_customer' });
        expect(after.body.status).toBe('Cancelled');
        expect(authorizeCallsFor(spy, id)).toBe(0);
      } else {
        expect(confirm.body.status).toBe('Succeeded');
        expect(after.body).toMatchObject({ status: 'Succeeded', cancellation_reason: null });
        expect(authorizeCallsFor(spy, id)).toBe(1);
      }
      expect(authorizeCallsFor(spy, id)).toBeLessThanOrEqual(1);
    }
  });

  test('20 parallel captures of a RequiresCapture payment → one 200, the rest 409, amount_captured set once', async () => {
    const p = await createPayment({
      amount: 8000,
      currency: 'ZAR',
      capture_method: 'manual',
      confirm: true,
      payment_method_data: card('4242424242424242'),
    });
    expect(p.body).toMatchObject({ status: 'RequiresCapture', amount_captured: 0 });
    const id = p.body.payment_id as string;
    const captureSpy = jest.spyOn(SandboxConnector.prototype, 'capture');

    const responses = await Promise.all(Array.from({ length: 20 }, () => api.request('POST', `/payments/${id}/capture`)));

    const ok = responses.filter((r) => r.status === 200);
    expect({ ok: ok.length, statuses: statuses(responses) }).toMatchObject({ ok: 1 });
    for (const r of responses.filter((x) => x.status !== 200)) expectError(r, 409, 'payment_unexpected_state');
    expect(ok[0]?.body).toMatchObject({ status: 'Succeeded', amount_captured: 8000 });
    expect(captureSpy.mock.calls.filter(([req]) => req.connectorTransactionId === p.body.connector_transaction_id)).toHaveLength(1);

    const after = await api.request('GET', `/payments/${id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_captured: 8000 });
  });
});

/**
 * Written to the idempotency spec (docs/api.md "Idempotency keys"; Powertools idempotency, header
 * `Idempotency-Key`, replay header `Idempotent-Replayed: true`, 422
 * `idempotency_key_reused`, 409 `idempotency_key_in_use`, scoped per merchant,
 * nothing stored for validation/auth rejections).
 */
describe('idempotency keys', () => {
  const body = () => ({ amount: 2500, currency: 'GHS', description: 'idempotent order', metadata: { order: '7' } });
  const newKey = () => `idem-${Date.now()}-${Math.random().toString(36).slice(2)}`;

  test('20 parallel creates with one key → exactly one payment', async () => {
    const merchant = await api.newMerchantKey();
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.request('POST', '/payments', { key: merchant, body: body(), headers: { 'Idempotency-Key': key } }),
      ),
    );

    const inUse = responses.filter((r) => r.status === 409);
    for (const r of inUse) expectError(r, 409, 'idempotency_key_in_use');
    const ok = responses.filter((r) => r.status === 200);
    expect(ok.length + inUse.length).toBe(20);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(ok.map((r) => r.body.payment_id as string));
    expect(ids.size).toBe(1);

    const list = await api.request('GET', '/payments', { key: merchant });
    expect(list.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual([...ids]);
  });

  test('a sequential retry replays the first response with Idempotent-Replayed: true', async () => {
    const merchant = await api.newMerchantKey();
    const key = newKey();
    const first = await api.request('POST', '/payments', { key: merchant, body: body(), headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const retry = await api.request('POST', '/payments', { key: merchant, body: body(), headers: { 'Idempotency-Key': key } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const list = await api.request('GET', '/payments', { key: merchant });
    expect(list.body.data).toHaveLength(1);
  });

  test('the same key with a different body → 422 idempotency_key_reused, nothing created', async () => {
    const merchant = await api.newMerchantKey();
    const key = newKey();
    const first = await api.request('POST', '/payments', { key: merchant, body: body(), headers: { 'Idempotency-Key': key } });
    expect(first.status).toBe(200);
    const other = await api.request('POST', '/payments', {
      key: merchant,
      body: { ...body(), amount: 2501 },
      headers: { 'Idempotency-Key': key },
    });
    const err = expectError(other, 422, 'idempotency_key_reused');
    expect(err.type).toBe('idempotency_error');
    const list = await api.request('GET', '/payments', { key: merchant });
    expect(list.body.data.map((p: { payment_id: string }) => p.payment_id)).toEqual([first.body.payment_id]);
  });

  test('the same key used by another merchant creates that merchant its own payment', async () => {
    const merchantA = await api.newMerchantKey();
    const merchantB = await api.newMerchantKey();
    const key = newKey();
    const a = await api.request('POST', '/payments', { key: merchantA, body: body(), headers: { 'Idempotency-Key': key } });
    const b = await api.request('POST', '/payments', { key: merchantB, body: body(), headers: { 'Idempotency-Key': key } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.payment_id).not.toBe(a.body.payment_id);
    expect((await api.request('GET', `/payments/${b.body.payment_id}`, { key: merchantB })).status).toBe(200);
    expectError(await api.request('GET', `/payments/${b.body.payment_id}`, { key: merchantA }), 404, 'resource_missing');
    expect((await api.request('GET', '/payments', { key: merchantA })).body.data).toHaveLength(1);
    expect((await api.request('GET', '/payments', { key: merchantB })).body.data).toHaveLength(1);
  });

  test('a request rejected by validation stores nothing: a valid request with the same key then succeeds', async () => {
    const merchant = await api.newMerchantKey();
    const key = newKey();
    const rejected = await api.request('POST', '/payments', {
      key: merchant,
      body: { amount: 'ten', currency: 'GHS' },
      headers: { 'Idempotency-Key': key },
    });
    expectError(rejected, 400);
    const ok = await api.request('POST', '/payments', { key: merchant, body: body(), headers: { 'Idempotency-Key': key } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('idempotent-replayed')).toBeNull();
    expect(ok.body).toMatchObject({ amount: 2500, currency: 'GHS', status: 'RequiresConfirmation' });
    const list = await api.request('GET', '/payments', { key: merchant });
    expect(list.body.data).toHaveLength(1);
  });
});
