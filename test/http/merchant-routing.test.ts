/**
 * Routing per merchant, through the local gateway against DynamoDB Local, on merchants'
 * own sandbox connector accounts (no processor needed): algorithms are validated when written (errors
 * name the rule and field), `volume_split` lands within its tolerance and picks the same account for a
 * retried confirm, `advanced` rules on amount, currency, method and metadata pick as written, an
 * explicit `merchant_connector_id` wins, the default fallback list routes when nothing is active,
 * ineligible accounts are passed over, and activation emits `routing.activated`.
 */
import fc from 'fast-check';
import { CLAIM_LEASE_MS } from '../../shared/domain/pending-operation';
import { baseClient } from '../../shared/storage/client';
import { card, expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';
import { scopedEnv } from '../helpers/scoped-env';

let api: LocalApi;
const env = scopedEnv();
const ids: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

beforeAll(async () => {
  env.set({ CONNECTOR_CONFIG_CACHE_MS: '0' });
  api = await startLocalApi();
  for (const [name, enabled] of [
    ['a', undefined],
    ['b', undefined],
    ['c', [{ payment_method: 'card', currencies: ['NGN'] }]],
  ] as const) {
    const res = await api.request('POST', '/connector_accounts', {
      body: { connector_name: 'sandbox', connector_label: `sandbox ${name}`, ...(enabled ? { payment_methods_enabled: enabled } : {}) },
    });
    expect(res.status).toBe(200);
    ids[name] = res.body.merchant_connector_id;
  }
});
afterAll(async () => {
  await api.close();
  env.restore();
});

async function createAlgorithm(algorithm: Record<string, unknown>, name = 'test algorithm') {
  return api.request('POST', '/routing', { body: { name, algorithm } });
}

async function activate(algorithm: Record<string, unknown>) {
  const created = await createAlgorithm(algorithm);
  expect(created.status).toBe(200);
  const active = await api.request('POST', `/routing/${created.body.routing_algorithm_id}/activate`, { body: {} });
  expect(active.body).toMatchObject({ routing_algorithm_id: created.body.routing_algorithm_id, is_active: true });
  return created.body.routing_algorithm_id as string;
}

/** A payment created without confirm: routing picks its account at create. */
async function routed(body: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/payments', { body: { amount: 10_000, currency: 'NGN', payment_method: 'card', ...body } });
  expect(res.status).toBe(200);
  return res.body.merchant_connector_id as string;
}

describe('validation when written', () => {
  test('an account that is not the merchant’s is named by its field', async () => {
    const res = await createAlgorithm({
      type: 'priority',
      data: [{ merchant_connector_id: ids.a }, { merchant_connector_id: 'mca_0123456789abcdef0123456789abcdef' }],
    });
    const err = expectError(res, 400);
    expect(err.param).toBe('algorithm.data.1.merchant_connector_id');
    expect(err.message).not.toContain('mca_0123456789abcdef');
  });

  test('a rule that sends KES to an account enabling only NGN is refused, naming the rule', async () => {
    const res = await createAlgorithm({
      type: 'advanced',
      data: {
        default_selection: { type: 'priority', data: [{ merchant_connector_id: ids.a }] },
        rules: [
          {
            name: 'kes to c',
            connector_selection: { type: 'priority', data: [{ merchant_connector_id: ids.c }] },
            statements: [{ condition: [{ lhs: 'currency', comparison: 'equal', value: { type: 'enum_variant', value: 'KES' } }] }],
          },
        ],
      },
    });
    const err = expectError(res, 400);
    expect(err.param).toMatch(/^algorithm\.data\.rules\.0\./);
  });

  test('volume splits must sum to 100', async () => {
    const res = await createAlgorithm({
      type: 'volume_split',
      data: [
        { split: 70, merchant_connector_id: ids.a },
        { split: 20, merchant_connector_id: ids.b },
      ],
    });
    expect(expectError(res, 400).param).toMatch(/^algorithm\.data/);
  });
});

describe('decisions', () => {
  test('single, then an explicit merchant_connector_id wins over the active algorithm', async () => {
    await activate({ type: 'single', data: { merchant_connector_id: ids.b } });
    expect(await routed()).toBe(ids.b);
    expect(await routed({ merchant_connector_id: ids.a })).toBe(ids.a);
    const active = await api.request('GET', '/routing/active');
    expect(active.body).toMatchObject({ active: true, algorithm_type: 'single' });
  });

  test('priority passes over an ineligible first choice (KES is not enabled on c)', async () => {
    await activate({ type: 'priority', data: [{ merchant_connector_id: ids.c }, { merchant_connector_id: ids.b }] });
    expect(await routed()).toBe(ids.c);
    expect(await routed({ currency: 'KES', payment_method: 'mobile_money' })).toBe(ids.b);
  });

  test('volume_split 70/30 over 300 payments lands within ±10 points, and a retried confirm keeps its account', async () => {
    await activate({
      type: 'volume_split',
      data: [
        { split: 70, merchant_connector_id: ids.a },
        { split: 30, merchant_connector_id: ids.b },
      ],
    });
    const picks: string[] = [];
    for (let i = 0; i < 300; i += 1) picks.push(await routed());
    const share = picks.filter((id) => id === ids.a).length / picks.length;
    // σ of a 70 % share over 300 = √(0.7·0.3/300) ≈ 2.6 points: ±10 points is almost 4σ.
    expect(share).toBeGreaterThan(0.6);
    expect(share).toBeLessThan(0.8);
    expect(new Set(picks)).toEqual(new Set([ids.a, ids.b]));
    // The same payment is routed the same way on confirm (the choice is a hash of the payment id).
    const created = await api.request('POST', '/payments', { body: { amount: 10_000, currency: 'NGN', payment_method: 'card' } });
    const confirmed = await api.request('POST', `/payments/${created.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(confirmed.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: created.body.merchant_connector_id });
  });

  test('advanced rules on amount, currency, method and metadata pick as written', async () => {
    const selection = (id: string) => ({ type: 'priority', data: [{ merchant_connector_id: id }] });
    await activate({
      type: 'advanced',
      data: {
        default_selection: selection(ids.a),
        rules: [
          {
            name: 'large NGN to c',
            connector_selection: selection(ids.c),
            statements: [
              {
                condition: [
                  { lhs: 'amount', comparison: 'greater_than', value: { type: 'number', value: 1_000_000 } },
                  { lhs: 'currency', comparison: 'equal', value: { type: 'enum_variant', value: 'NGN' } },
                ],
              },
            ],
          },
          {
            name: 'ussd or gold to b',
            connector_selection: selection(ids.b),
            statements: [
              {
                condition: [
                  { lhs: 'payment_method', comparison: 'in', value: { type: 'enum_variant_array', value: ['ussd', 'bank_transfer'] } },
                ],
              },
              { condition: [{ lhs: 'metadata.tier', comparison: 'equal', value: { type: 'str_value', value: 'gold' } }] },
            ],
          },
        ],
      },
    });
    expect(await routed({ amount: 2_000_000 })).toBe(ids.c);
    expect(await routed({ amount: 2_000_000, currency: 'GHS', payment_method: 'mobile_money' })).toBe(ids.a);
    expect(await routed({ payment_method: 'ussd' })).toBe(ids.b);
    expect(await routed({ metadata: { tier: 'gold' } })).toBe(ids.b);
    expect(await routed({ metadata: { tier: 'silver' } })).toBe(ids.a);
    expect(await routed()).toBe(ids.a);
  });

  test('confirm routes again with what it knows: a card_network rule applies to a card given at confirm; a pin at create holds', async () => {
    const selection = (id: string) => ({ type: 'priority', data: [{ merchant_connector_id: id }] });
    await activate({
      type: 'advanced',
      data: {
        default_selection: selection(ids.a),
        rules: [
          {
            name: 'visa to b',
            connector_selection: selection(ids.b),
            statements: [{ condition: [{ lhs: 'card_network', comparison: 'equal', value: { type: 'enum_variant', value: 'visa' } }] }],
          },
        ],
      },
    });
    const twoStep = await api.request('POST', '/payments', { body: { amount: 10_000, currency: 'NGN', payment_method: 'card' } });
    expect(twoStep.body.merchant_connector_id).toBe(ids.a); // no card yet: the default
    const confirmed = await api.request('POST', `/payments/${twoStep.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(confirmed.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: ids.b });
    // Pinned at create to c (which the rule would not choose): the confirm goes to c.
    const pinned = await api.request('POST', '/payments', {
      body: { amount: 10_000, currency: 'NGN', payment_method: 'card', merchant_connector_id: ids.c },
    });
    expect(pinned.body.merchant_connector_id).toBe(ids.c);
    const pinnedConfirm = await api.request('POST', `/payments/${pinned.body.payment_id}/confirm`, {
      body: { payment_method_data: card('4242424242424242') },
    });
    expect(pinnedConfirm.body).toMatchObject({ status: 'Succeeded', merchant_connector_id: ids.c });
  });

  test('a disabled account is passed over; the default fallback routes when no algorithm is active', async () => {
    const off = await api.request('PUT', `/connector_accounts/${ids.a}`, { body: { disabled: true } });
    expect(off.body.disabled).toBe(true);
    expect(await routed()).not.toBe(ids.a);
    await api.request('PUT', `/connector_accounts/${ids.a}`, { body: { disabled: false } });

    const deactivated = await api.request('POST', '/routing/deactivate', { body: {} });
    expect(deactivated.body).toMatchObject({ active: false, routing_algorithm_id: null });
    expectError(await api.request('POST', '/routing/deactivate', { body: {} }), 400, 'routing_not_active');
    const implicit = await api.request('GET', '/routing/default');
    expect(implicit.body).toMatchObject({ is_custom: false });
    expect(implicit.body.default_fallback.map((e: { merchant_connector_id: string }) => e.merchant_connector_id)).toEqual([
      ids.a,
      ids.b,
      ids.c,
    ]);
    expect(await routed()).toBe(ids.a);

    const set = await api.request('PUT', '/routing/default', {
      body: { default_fallback: [{ merchant_connector_id: ids.c }, { merchant_connector_id: ids.b }] },
    });
    expect(set.body).toMatchObject({ is_custom: true });
    expect(await routed()).toBe(ids.c);
    expect(await routed({ currency: 'USD' })).toBe(ids.b);
    const unknown = await api.request('PUT', '/routing/default', {
      body: { default_fallback: [{ merchant_connector_id: 'mca_ffffffffffffffffffffffffffffffff' }] },
    });
    expect(expectError(unknown, 400, 'resource_missing').param).toBe('default_fallback.0.merchant_connector_id');
  });

  test('an account named by the active algorithm cannot be deleted; activation is an event', async () => {
    const id = await activate({ type: 'single', data: { merchant_connector_id: ids.b } });
    expectError(await api.request('DELETE', `/connector_accounts/${ids.b}`), 409, 'connector_account_in_use');
    const events = await api.request('GET', '/events?type=routing.activated&limit=1');
    expect(events.body.data[0].data).toMatchObject({ active: true, routing_algorithm_id: id, algorithm_type: 'single' });
    const list = await api.request('GET', '/routing?limit=100');
    const active = list.body.data.filter((a: { is_active: boolean }) => a.is_active);
    expect(active.map((a: { routing_algorithm_id: string }) => a.routing_algorithm_id)).toEqual([id]);
    expect((await api.request('GET', `/routing/${id}`)).body.is_active).toBe(true);
  });

  test('a create retried with its Idempotency-Key after routing changed answers the payment it made, never "nothing was created"', async () => {
    await activate({ type: 'single', data: { merchant_connector_id: ids.c } });
    let armed = true;
    baseClient().middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        // The authorization's outcome write fails after the (sandbox) processor call: 503 outcome_unknown.
        if (armed && context.commandName === 'TransactWriteItemsCommand' && input.includes('"payment.succeeded"')) {
          armed = false;
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED', $metadata: {} });
        }
        return next(args);
      },
      { step: 'initialize', name: 'outcomeWriteFails' },
    );
    const headers = { 'Idempotency-Key': `retry-${Date.now()}` };
    const body = { amount: 7_000, currency: 'NGN', confirm: true, payment_method_data: card('4242424242424242') };
    try {
      const first = await api.request('POST', '/payments', { body, headers });
      expect(first.status).toBe(503);
    } finally {
      baseClient().middlewareStack.remove('outcomeWriteFails');
    }
    // The account it went to is disabled since, and the merchant's fallback list names only it: routing
    // alone would refuse the retry with 400 no_connector_available ("nothing was created").
    await api.request('PUT', `/connector_accounts/${ids.c}`, { body: { disabled: true } });
    await api.request('PUT', '/routing/default', { body: { default_fallback: [{ merchant_connector_id: ids.c }] } });
    try {
      // While the first request's claim may still be running: 409, transient.
      expectError(await api.request('POST', '/payments', { body, headers }), 409, 'idempotency_key_in_use');
      // Once its lease has run out: the payment it made, settled with its account.
      const realNow = Date.now.bind(Date);
      jest.spyOn(Date, 'now').mockImplementation(() => realNow() + CLAIM_LEASE_MS + 1_000);
      const retry = await api.request('POST', '/payments', { body, headers });
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ merchant_connector_id: ids.c, amount: 7_000, status: 'Succeeded', pending_operation: null });
    } finally {
      jest.restoreAllMocks();
      await api.request('PUT', `/connector_accounts/${ids.c}`, { body: { disabled: false } });
      await api.request('PUT', '/routing/default', {
        body: { default_fallback: [ids.a, ids.b, ids.c].map((id) => ({ merchant_connector_id: id })) },
      });
    }
  });

  test("another merchant sees none of this merchant's routing", async () => {
    const other = await api.newMerchantKey();
    expect((await api.request('GET', '/routing', { key: other })).body.data).toEqual([]);
    expect((await api.request('GET', '/routing/active', { key: other })).body.active).toBe(false);
    const list = await api.request('GET', '/routing?limit=1');
    expectError(await api.request('GET', `/routing/${list.body.data[0].routing_algorithm_id}`, { key: other }), 404, 'resource_missing');
    // A merchant without accounts stays on the stage's platform rules.
    const p = await api.request('POST', '/payments', { key: other, body: { amount: 1000, currency: 'NGN' } });
    expect(p.body).toMatchObject({ connector: 'sandbox', merchant_connector_id: null });
  });
});

describe('a routing change racing a delete of the account it names', () => {
  /** The routing changes raced: naming the account deleted (X) or not (Y), or deactivating. */
  const CHANGES = ['activate X', 'fallback X', 'activate Y', 'fallback Y', 'deactivate'] as const;
  type Change = (typeof CHANGES)[number];
  /**
   * Where the routing change runs, within the delete: 0 before it starts; 1 after it has read the routing
   * profile, before it marks the account; 2 after the mark (while it waits); 3 after it has finished.
   */
  type Phase = 0 | 1 | 2 | 3;

  /** What docs/api.md "Deleting an account" says each side answers: whichever commits first wins. */
  function expected(change: Change, phase: Phase): { change: [number, string?]; delete: [number, string?] } {
    const namesX = change.endsWith(' X');
    if (phase === 1) return { change: [200], delete: [409, 'connector_account_changed'] };
    if (phase === 0) return { change: [200], delete: change === 'activate X' ? [409, 'connector_account_in_use'] : [200] };
    if (phase === 2) return namesX ? { change: [409, 'routing_changed'], delete: [200] } : { change: [200], delete: [200] };
    if (change === 'activate X') return { change: [400, 'parameter_invalid'], delete: [200] };
    if (change === 'fallback X') return { change: [400, 'resource_missing'], delete: [200] };
    return { change: [200], delete: [200] };
  }

  /** Runs `hook` (once) right after the first storage command `matches` is answered, holding its caller meanwhile. */
  let gate: { matches: (command: string, input: string) => boolean; hook: () => Promise<void> } | null = null;
  beforeAll(() => {
    baseClient().middlewareStack.add(
      (next, context) => async (args) => {
        const out = await next(args);
        const g = gate;
        if (g?.matches(context.commandName ?? '', JSON.stringify(args.input))) {
          gate = null;
          await g.hook();
        }
        return out;
      },
      { step: 'initialize', name: 'deleteRaceGate' },
    );
  });
  afterAll(() => {
    baseClient().middlewareStack.remove('deleteRaceGate');
  });

  test('in every interleaving the first to commit wins, and no active algorithm ever names a deleted account', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CHANGES), fc.constantFrom<Phase>(0, 1, 2, 3), async (change, phase) => {
        const key = await api.newMerchantKey();
        const [x, y] = await Promise.all(
          ['x', 'y'].map(async (label) => {
            const res = await api.request('POST', '/connector_accounts', {
              key,
              body: { connector_name: 'sandbox', connector_label: label },
            });
            expect(res.status).toBe(200);
            return res.body.merchant_connector_id as string;
          }),
        );
        const single = async (id: string) =>
          (
            await api.request('POST', '/routing', {
              key,
              body: { name: id, algorithm: { type: 'single', data: { merchant_connector_id: id } } },
            })
          ).body.routing_algorithm_id as string;
        const [algX, algY] = [await single(x!), await single(y!)];
        if (change === 'deactivate') expect((await api.request('POST', `/routing/${algY}/activate`, { key })).status).toBe(200);
        const run = (): Promise<TestResponse> => {
          if (change === 'activate X') return api.request('POST', `/routing/${algX}/activate`, { key });
          if (change === 'activate Y') return api.request('POST', `/routing/${algY}/activate`, { key });
          if (change === 'deactivate') return api.request('POST', '/routing/deactivate', { key });
          const id = change === 'fallback X' ? x! : y!;
          return api.request('PUT', '/routing/default', { key, body: { default_fallback: [{ merchant_connector_id: id }] } });
        };
        let changed: TestResponse | undefined;
        const runChange = async () => {
          changed = await run();
        };
        if (phase === 0) await runChange();
        if (phase === 1) gate = { matches: (c, i) => c === 'QueryCommand' && i.includes('#CONNECTOR_CONFIG"'), hook: runChange };
        if (phase === 2) gate = { matches: (_c, i) => i.includes('deleting_since = :now'), hook: runChange };
        const deleted = await api.request('DELETE', `/connector_accounts/${x}`, { key });
        gate = null;
        if (phase === 3) await runChange();
        const want = expected(change, phase);
        for (const [res, [status, code]] of [
          [deleted, want.delete],
          [changed!, want.change],
        ] as const) {
          if (code) expectError(res, status, code);
          else expect(res.status).toBe(status);
        }
        // The invariant: the active algorithm never names a deleted account; a refused delete leaves no mark.
        const active = (await api.request('GET', '/routing/active', { key })).body;
        const account = await api.request('GET', `/connector_accounts/${x}`, { key });
        if (account.status === 404) expect(active.routing_algorithm_id).not.toBe(algX);
        else
          expect((await api.request('PUT', `/connector_accounts/${x}`, { key, body: { metadata: { after: 'race' } } })).status).toBe(200);
      }),
      {
        numRuns: 12,
        examples: [
          ['activate X', 2],
          ['fallback X', 2],
          ['activate Y', 2],
          ['activate X', 1],
          ['activate X', 0],
          ['fallback X', 3],
        ],
      },
    );
  }, 360_000);
});
