import { effectiveRateLimit, leaseSize, setRateLimitClock } from '../../shared/http/rate-limit';
import { baseClient } from '../../shared/storage/client';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

/**
 * Counts (and can fail) the DynamoDB calls the handlers make, by hooking the
 * process-wide client the in-process gateway's handlers use. The rate limiter's lease writes
 * (UpdateItem on a `RATELIMIT#…` counter, docs/rate-limits.md) are counted apart in `leases`: they
 * are amortized over many requests, not part of an endpoint's own round trips.
 */
const calls: string[] = [];
const leases: string[] = [];
let failNext: ((command: string, input: { Key?: { PK?: string }; TransactItems?: unknown[] }) => boolean) | undefined;

/** Whether a command's input writes the payment (directly or as an item of a transaction). */
const writesPayment = (input: { Key?: { PK?: string }; TransactItems?: unknown[] }) =>
  JSON.stringify(input.TransactItems ?? input.Key ?? {}).includes('#PAYMENT#');

beforeAll(() => {
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      const input = args.input as { Key?: unknown };
      if (JSON.stringify(input.Key ?? {}).includes('"RATELIMIT#')) leases.push(command);
      else calls.push(command);
      if (failNext?.(command, args.input as { Key?: { PK?: string }; TransactItems?: unknown[] })) {
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'roundTripCounter' },
  );
});

let api: LocalApi;
const env = scopedEnv();
beforeAll(async () => {
  // The routing configuration stays cached for the whole file (a warm container), so each count below is
  // the steady state whatever the file's pace; the default period is 5 s. So does the api-key cache (10 s by
  // default): 40 sequential requests on a loaded machine outlasted it and counted its re-read as the endpoint's.
  env.set({ CONNECTOR_CONFIG_CACHE_MS: '300000', API_KEY_CACHE_SECONDS: '3600' });
  api = await startLocalApi();
  await api.request('GET', '/payments'); // warms the api-key cache: its one read is not counted below
  // Warms the merchant's routing configuration (its connector accounts and active algorithm, none here):
  // one Query per container per CONNECTOR_CONFIG_CACHE_MS (shared/processor-call/connector-config-cache.ts).
  await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } });
});
afterAll(async () => {
  await api.close();
  env.restore();
});

async function count<T>(fn: () => Promise<T>): Promise<{ result: T; made: string[]; leases: number }> {
  calls.length = 0;
  leases.length = 0;
  const result = await fn();
  return { result, made: [...calls], leases: leases.length };
}

describe('DynamoDB round trips per endpoint (a test fails when one grows)', () => {
  test('create: one transaction (the payment and its payment.created event); with a customer the existence check rides in it', async () => {
    const plain = await count(() => api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } }));
    expect(plain.result.status).toBe(200);
    expect(plain.made).toEqual(['TransactWriteItems']);
    const cus = await api.request('POST', '/customers', { body: {} });
    const linked = await count(() =>
      api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', customer_id: cus.body.customer_id } }),
    );
    expect(linked.made).toEqual(['TransactWriteItems']);
  });

  test('create and confirm with an active routing algorithm on own accounts: no round trip more (configuration cached per container)', async () => {
    const key = await api.newMerchantKey();
    const ids: string[] = [];
    for (const label of ['a', 'b']) {
      const res = await api.request('POST', '/connector_accounts', { key, body: { connector_name: 'sandbox', connector_label: label } });
      ids.push(res.body.merchant_connector_id);
    }
    const algorithm = await api.request('POST', '/routing', {
      key,
      body: { name: 'split', algorithm: { type: 'volume_split', data: ids.map((id) => ({ split: 50, merchant_connector_id: id })) } },
    });
    expect((await api.request('POST', `/routing/${algorithm.body.routing_algorithm_id}/activate`, { key, body: {} })).status).toBe(200);
    await api.request('POST', '/payments', { key, body: { amount: 100, currency: 'NGN' } }); // warms the configuration cache
    const created = await count(() =>
      api.request('POST', '/payments', { key, body: { amount: 100, currency: 'NGN', payment_method: 'card' } }),
    );
    expect(ids).toContain(created.result.body.merchant_connector_id);
    expect(created.made).toEqual(['TransactWriteItems']);
    const confirmed = await count(() =>
      api.request('POST', `/payments/${created.result.body.payment_id}/confirm`, {
        key,
        body: { payment_method_data: card('4242424242424242') },
      }),
    );
    expect(confirmed.result.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: created.result.body.merchant_connector_id });
    expect(confirmed.made).toEqual(['GetItem', 'TransactWriteItems', 'TransactWriteItems']);
  });

  test('retrieve: one read; list: one query', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } });
    expect((await count(() => api.request('GET', `/payments/${p.body.payment_id}`))).made).toEqual(['GetItem']);
    expect((await count(() => api.request('GET', '/payments?limit=5'))).made).toEqual(['Query']);
  });

  // Confirm and refund stay at 3, their floor while a status change and its event are one transaction:
  // a TransactWriteItems returns no item, and the claim/reservation and its event are built from the
  // payment's fields (docs/money-safety.md, "DynamoDB round trips per request").
  test('confirm: one read, then a conditional claim and a conditional outcome write around the connector call (each with its status event)', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' } });
    const c = await count(() =>
      api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: { payment_method_data: card('4242424242424242') } }),
    );
    expect(c.result.body.status).toBe('Succeeded');
    expect(c.made).toEqual(['GetItem', 'TransactWriteItems', 'TransactWriteItems']);
    // A refused confirm is the read alone.
    const again = await count(() => api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: {} }));
    expectError(again.result, 409, 'payment_unexpected_state');
    expect(again.made).toEqual(['GetItem']);
  });

  test('confirm: the loser of a race learns why from its failed claim (ALL_OLD), with no second read', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN', payment_method: 'card' } });
    const body = { payment_method_data: card('4242424242424242') };
    const race = await count(() =>
      Promise.all([
        api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body }),
        api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body }),
      ]),
    );
    const statuses = race.result.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    expectError(race.result.find((r) => r.status === 409)!, 409, 'payment_unexpected_state');
    // Winner: read, claim, outcome. Loser: its read, and its claim when it read before the winner
    // claimed (a failed claim answers from the item it returns) — never a second read.
    expect(race.made.filter((c) => c === 'GetItem')).toHaveLength(2);
    expect(race.made.filter((c) => c !== 'GetItem').every((c) => c === 'TransactWriteItems')).toBe(true);
    expect(race.made.length).toBeLessThanOrEqual(5);
  });

  test('refund: one read, one transaction (reserve + record + refund.created), one settle transaction (with refund.succeeded)', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const r = await count(() => api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 10 } }));
    expect(r.result.status).toBe(200);
    expect(r.made).toEqual(['GetItem', 'TransactWriteItems', 'TransactWriteItems']);
    // A refund above what is left is refused by the read alone: nothing is reserved.
    const tooMuch = await count(() => api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 991 } }));
    expectError(tooMuch.result, 400, 'refund_exceeds_amount');
    expect(tooMuch.made).toEqual(['GetItem']);
  });

  test('rate limit leases are amortized: once a container is warm, N sequential requests make at most ceil(N / n) + 1 lease writes', async () => {
    // The limiter's clock, frozen per window so the bound is exact (docs/rate-limits.md "Cost").
    let nowMs = (Math.floor(Date.now() / 1000) + 50_000) * 1000 + 100;
    setRateLimitClock(() => nowMs);
    try {
      const N = 40;
      const serve = () =>
        count(async () => {
          for (let i = 0; i < N; i++) expect((await api.request('POST', '/customers', { body: {} })).status).toBe(200);
        });
      const warmUp = await serve(); // the first window: leases grow from 1 as the container's traffic shows
      expect(warmUp.leases).toBeLessThanOrEqual(N);
      nowMs += 1000;
      const warm = await serve();
      const n = leaseSize(N, 1, effectiveRateLimit('write', undefined)); // a quarter of 40: 10 tokens a lease
      expect(n).toBe(10);
      expect(warm.leases).toBeGreaterThanOrEqual(1);
      expect(warm.leases).toBeLessThanOrEqual(Math.ceil(N / n) + 1);
      expect(warm.leases).toBeLessThanOrEqual(N / 8);
      // The endpoint's own calls are unchanged: one transaction per create.
      expect(warm.made).toEqual(Array.from({ length: N }, () => 'TransactWriteItems'));
    } finally {
      setRateLimitClock();
    }
  });

  test('an Idempotency-Key adds exactly the record write and its completion; a replay is one read-back', async () => {
    const headers = { 'Idempotency-Key': `rt-${Date.now()}` };
    const first = await count(() => api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' }, headers }));
    expect(first.made).toEqual(['PutItem', 'TransactWriteItems', 'UpdateItem']);
    const replay = await count(() => api.request('POST', '/payments', { body: { amount: 100, currency: 'NGN' }, headers }));
    expect(replay.result.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.made).toEqual(['PutItem']); // the conditional put fails and returns the stored record
  });
});

describe('faults: DynamoDB failing mid-flow, connector timing out', () => {
  afterEach(() => {
    failNext = undefined;
    jest.restoreAllMocks();
  });

  test('refund: the transaction fails → 503 and nothing is reserved or recorded', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'GHS', confirm: true, payment_method_data: card('4242424242424242') },
    });
    failNext = (c) => c === 'TransactWriteItems';
    const res = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 100 } });
    expectError(res, 503, 'service_unavailable');
    failNext = undefined;
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.amount_refunded).toBe(0);
    expect((await api.request('GET', `/payments/${p.body.payment_id}/refunds`)).body.data).toEqual([]);
  });

  test('create with a customer: the write fails → 503 and no payment exists', async () => {
    const key = await api.newMerchantKey();
    const cus = await api.request('POST', '/customers', { body: {}, key });
    failNext = (c) => c === 'TransactWriteItems';
    expectError(
      await api.request('POST', '/payments', { body: { amount: 5, currency: 'NGN', customer_id: cus.body.customer_id }, key }),
      503,
    );
    failNext = undefined;
    expect((await api.request('GET', '/payments', { key })).body.data).toEqual([]);
  });

  test('confirm: the outcome write fails after the charge → 503; the payment stays Processing and a sync settles it', async () => {
    const p = await api.request('POST', '/payments', { body: { amount: 2500, currency: 'USD', payment_method: 'card' } });
    let writes = 0;
    failNext = (c, input) => c === 'TransactWriteItems' && writesPayment(input) && ++writes === 2; // the claim succeeds, the outcome write fails
    expectError(
      await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: { payment_method_data: card('4242424242424242') } }),
      503,
      'outcome_unknown',
    );
    failNext = undefined;
    const stuck = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(stuck.body).toMatchObject({ status: 'Processing', connector: 'sandbox', connector_transaction_id: null });
    // A second confirm cannot charge again.
    expectError(await api.request('POST', `/payments/${p.body.payment_id}/confirm`, { body: {} }), 409, 'payment_unexpected_state');
    // A fresh claim is left alone by sync (the call may still be running) ...
    expect((await api.request('GET', `/payments/${p.body.payment_id}?force_sync=true`)).body.status).toBe('Processing');
    // ... a stale one (the invocation died) is reconciled with the connector.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 180_000);
    const settled = await api.request('GET', `/payments/${p.body.payment_id}?force_sync=true`);
    expect(settled.body).toMatchObject({ status: 'Succeeded', amount_captured: 2500 });
    expect(settled.body.connector_transaction_id).toEqual(expect.any(String));
  });

  test('connector timing out: the payment stays Processing and a later sync settles it', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 7000, currency: 'ZAR', confirm: true, payment_method_data: card('4000000000000119') },
    });
    expect(p.status).toBe(200);
    expect(p.body).toMatchObject({ status: 'Processing', connector_transaction_id: null, error_code: 'connector_unreachable' });
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.status).toBe('Processing');
    // A sync inside the claim's lease leaves it alone (the processor may still be working on it) …
    expect((await api.request('GET', `/payments/${p.body.payment_id}?force_sync=true`)).body.status).toBe('Processing');
    // … after it, the sync asks the processor.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 180_000);
    const synced = await api.request('GET', `/payments/${p.body.payment_id}?force_sync=true`);
    expect(synced.body).toMatchObject({ status: 'Succeeded', amount_captured: 7000 });
    const refund = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 1000 } });
    expect(refund.status).toBe(200);
  });

  test('sync never changes a terminal status and keeps a pending action', async () => {
    const failed = await api.request('POST', '/payments', {
      body: { amount: 100, currency: 'NGN', confirm: true, payment_method_data: card('4000000000000002') },
    });
    const s1 = await api.request('GET', `/payments/${failed.body.payment_id}?force_sync=true`);
    expect(s1.body).toMatchObject({ status: 'Failed', error_code: 'card_declined' });
    const threeDs = await api.request('POST', '/payments', {
      body: { amount: 100, currency: 'NGN', confirm: true, payment_method_data: card('4000000000003220') },
    });
    const s2 = await api.request('GET', `/payments/${threeDs.body.payment_id}?force_sync=true`);
    expect(s2.body.status).toBe('RequiresAction');
    expect(s2.body.next_action).toEqual(threeDs.body.next_action);
    expectError(await api.request('GET', `/payments/${threeDs.body.payment_id}?force_sync=yes`), 400);
  });

  test('a create retried after its outcome write failed finds the first payment: one charge, one payment', async () => {
    const { SandboxConnector } = await import('../../shared/connectors/sandbox/sandbox-connector');
    const authorize = jest.spyOn(SandboxConnector.prototype, 'authorize');
    const key = await api.newMerchantKey();
    const headers = { 'Idempotency-Key': `retry-${Date.now()}` };
    const body = { amount: 1234, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') };
    let writes = 0;
    failNext = (c, input) => c === 'TransactWriteItems' && writesPayment(input) && ++writes === 2; // the create is written, the outcome write fails
    expectError(await api.request('POST', '/payments', { key, body, headers }), 503, 'outcome_unknown');
    failNext = undefined;
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 180_000); // the first invocation's claim is stale
    const retry = await api.request('POST', '/payments', { key, body, headers });
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ status: 'Succeeded', amount: 1234 });
    expect(authorize).toHaveBeenCalledTimes(1);
    expect((await api.request('GET', '/payments', { key })).body.data).toHaveLength(1);
  });

  test('a refund retried after its settle write failed returns the first refund: refunded once', async () => {
    const { SandboxConnector } = await import('../../shared/connectors/sandbox/sandbox-connector');
    const p = await api.request('POST', '/payments', {
      body: { amount: 1000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') },
    });
    const refund = jest.spyOn(SandboxConnector.prototype, 'refund');
    const headers = { 'Idempotency-Key': `refund-retry-${Date.now()}` };
    failNext = (c, input) =>
      c === 'TransactWriteItems' &&
      JSON.stringify(input.TransactItems).includes('#REFUND#') &&
      !JSON.stringify(input.TransactItems).includes('amount_refunded'); // reserve ok, connector refunds, the settle write fails
    const first = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 300 }, headers });
    // The processor refunded: the answer must not say "nothing was changed".
    expect(expectError(first, 503, 'outcome_unknown').message).not.toMatch(/nothing was changed/i);
    failNext = undefined;
    const retry = await api.request('POST', `/payments/${p.body.payment_id}/refund`, { body: { amount: 300 }, headers });
    expect(retry.status).toBe(200);
    expect(retry.body.amount).toBe(300);
    expect(refund).toHaveBeenCalledTimes(1);
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body.amount_refunded).toBe(300);
    expect((await api.request('GET', `/payments/${p.body.payment_id}/refunds`)).body.data).toHaveLength(1);
  });

  test('cancel of a payment whose connector outcome is unknown reconciles it first (no lost charge)', async () => {
    const p = await api.request('POST', '/payments', {
      body: { amount: 800, currency: 'NGN', confirm: true, payment_method_data: card('4000000000000119') },
    });
    expect(p.body.status).toBe('Processing');
    expect(p.body.pending_operation).toMatchObject({ operation: 'authorize', connector: 'sandbox', amount: 800, state: 'in_progress' });
    // While the authorization may still be running, cancel refuses (it could lose the charge) …
    expectError(await api.request('POST', `/payments/${p.body.payment_id}/cancel`), 409, 'payment_unexpected_state');
    // … after the lease it reconciles first.
    jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 180_000);
    const res = await api.request('POST', `/payments/${p.body.payment_id}/cancel`);
    // The sandbox did charge: the cancel finds that out and refuses, instead of losing the charge.
    expect(expectError(res, 409, 'payment_unexpected_state').message).toMatch(/Succeeded/);
    const after = await api.request('GET', `/payments/${p.body.payment_id}`);
    expect(after.body).toMatchObject({ status: 'Succeeded', amount_captured: 800, pending_operation: null });
  });

  test('mobile money settles on sync once the payer had time to approve', async () => {
    process.env.SANDBOX_MOBILE_MONEY_APPROVAL_SECONDS = '0';
    try {
      const p = await api.request('POST', '/payments', {
        body: { amount: 300, currency: 'KES', payment_method: 'mobile_money', confirm: true },
      });
      expect(p.body.status).toBe('Processing');
      const s = await api.request('GET', `/payments/${p.body.payment_id}?force_sync=true`);
      expect(s.body.status).toBe('Succeeded');
    } finally {
      delete process.env.SANDBOX_MOBILE_MONEY_APPROVAL_SECONDS;
    }
  });
});
