/**
 * Success-rate routing, the pure parts: segments (no card data but a 6-digit BIN), outcome windows
 * (most recent `window_size` outcomes, lookback), the decision (explore unknown accounts first, exploit,
 * eliminate, an exploration share), the per-container cache (period, incremental reads, failure fallback,
 * tenancy), the algorithm schema and its evaluation and validation.
 * Property-based parts use fast-check; set FC_SEED to replay a failure it reported.
 */
import fc from 'fast-check';
import type { ConnectorAccount } from '../../shared/domain/connector-account';
import { CURRENCIES } from '../../shared/domain/money';
import { PAYMENT_METHODS } from '../../shared/domain/payment';
import {
  type RoutingAlgorithm,
  referencedConnectorIds,
  resolveSuccessRateConfig,
  SUCCESS_RATE_DEFAULTS,
} from '../../shared/domain/routing-algorithm';
import { isSoftDecline, SOFT_DECLINES } from '../../shared/domain/soft-declines';
import { routingDecision } from '../../shared/operations/routing/evaluate-algorithm';
import { MemoryOutcomeStore, type OutcomeStore, OutcomeWindowCache } from '../../shared/operations/routing/outcome-store';
import {
  bucketStart,
  OUTCOME_BUCKET_MS,
  OUTCOME_LOOKBACK_MS,
  type OutcomeCounter,
  OutcomeSnapshot,
  windowOf,
} from '../../shared/operations/routing/outcome-window';
import { decideSuccessRate, explorationDraws } from '../../shared/operations/routing/success-rate-decision';
import { successRateOrder } from '../../shared/operations/routing/success-rate-order';
import { cardBinOf, segmentKey, segmentOfKey } from '../../shared/operations/routing/success-rate-segment';
import { validateAlgorithm } from '../../shared/operations/routing/validate-algorithm';
import { routingAlgorithmSchema } from '../../shared/schemas/routing-schemas';

const FC_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const fcOptions = (numRuns: number) => ({ numRuns, ...(FC_SEED === undefined ? {} : { seed: FC_SEED }) });

const mca = (n: number) => `mca_${n.toString(16).padStart(32, '0')}`;
const A = mca(1);
const B = mca(2);
const C = mca(3);
const T0 = Date.parse('2026-12-01T10:00:00.000Z');

const counter = (id: string, segment: string, bucketMs: number, attempts: number, successes: number): OutcomeCounter => ({
  merchant_connector_id: id,
  segment,
  bucket_start_ms: bucketMs,
  attempts,
  successes,
  updated_at_ms: bucketMs + 1_000,
});

const window = (attempts: number, successes: number) => ({ attempts, successes, updated_at_ms: attempts > 0 ? T0 : null });
const config = { exploration_percent: 5, min_observations: 20, elimination_threshold: 0.35 };
const noExplore = { explore: 0.99, pick: 0 };

describe('segments', () => {
  test('a key names each dimension in canonical order, whatever order the algorithm lists them', () => {
    const facts = { payment_method: 'card', card_network: 'visa', currency: 'NGN', billing_country: 'NG', card_bin: '506099' };
    expect(segmentKey(['currency', 'payment_method', 'card_network'], facts)).toBe('payment_method=card|card_network=visa|currency=NGN');
    expect(segmentKey(['card_bin', 'billing_country'], facts)).toBe('billing_country=NG|card_bin=506099');
    expect(segmentOfKey('payment_method=card|currency=NGN')).toEqual({ payment_method: 'card', currency: 'NGN' });
  });

  test('a missing or ill-shaped value is "-", never copied into the key', () => {
    expect(segmentKey(['card_network', 'currency'], { currency: 'NGN' })).toBe('card_network=-|currency=NGN');
    expect(segmentKey(['card_bin'], { card_bin: '4242424242424242' })).toBe('card_bin=-');
    expect(segmentKey(['currency', 'billing_country'], { currency: 'ngn|x=y', billing_country: 'Nigeria' })).toBe(
      'currency=-|billing_country=-',
    );
  });

  test('a BIN is the first 6 digits of a card number, never more; not a card number gives null', () => {
    expect(cardBinOf('4242 4242 4242 4242')).toBe('424242');
    expect(cardBinOf('5060-9900-0000-0000-009')).toBe('506099');
    expect(cardBinOf('12345')).toBeNull();
    expect(cardBinOf(undefined)).toBeNull();
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{12,19}$/), (pan) => {
        const bin = cardBinOf(pan);
        expect(bin).toBe(pan.slice(0, 6));
        expect(segmentKey(['card_bin'], { card_bin: bin })).toBe(`card_bin=${pan.slice(0, 6)}`);
      }),
      fcOptions(200),
    );
  });
});

describe('outcome windows', () => {
  const seg = 'payment_method=card';
  test('the window is the most recent window_size outcomes, the oldest bucket taken in proportion', () => {
    const now = T0 + 5 * OUTCOME_BUCKET_MS;
    const buckets = [
      counter(A, seg, bucketStart(now), 50, 10), // newest: 20 %
      counter(A, seg, bucketStart(now) - OUTCOME_BUCKET_MS, 100, 90), // 90 %
    ];
    expect(windowOf(buckets, 100, now)).toEqual({ attempts: 100, successes: 10 + 45, updated_at_ms: buckets[0]!.updated_at_ms });
    expect(windowOf(buckets, 1_000, now)).toMatchObject({ attempts: 150, successes: 100 });
  });

  test('buckets older than the lookback, and buckets after now, do not count', () => {
    const now = T0 + OUTCOME_LOOKBACK_MS + 3 * OUTCOME_BUCKET_MS;
    const buckets = [counter(A, seg, bucketStart(now) + OUTCOME_BUCKET_MS, 7, 7), counter(A, seg, T0, 40, 0)];
    expect(windowOf(buckets, 200, now)).toEqual({ attempts: 0, successes: 0, updated_at_ms: null });
  });

  test('a snapshot sums write shards of one bucket and keeps accounts and segments apart', () => {
    const b = bucketStart(T0);
    const snap = new OutcomeSnapshot([
      counter(A, seg, b, 10, 9),
      counter(A, seg, b, 10, 1),
      counter(B, seg, b, 4, 4),
      counter(A, 'other', b, 3, 0),
    ]);
    expect(snap.window(A, seg, 200, T0)).toMatchObject({ attempts: 20, successes: 10 });
    expect(snap.window(B, seg, 200, T0)).toMatchObject({ attempts: 4, successes: 4 });
    expect(snap.window(A, 'other', 200, T0)).toMatchObject({ attempts: 3, successes: 0 });
    expect(snap.window(C, seg, 200, T0)).toEqual({ attempts: 0, successes: 0, updated_at_ms: null });
  });
});

describe('the decision', () => {
  test('an account with fewer than min_observations outcomes is explored first (the fewest; listed order among equals)', () => {
    const windows: Record<string, ReturnType<typeof window>> = { [A]: window(100, 95), [B]: window(5, 5), [C]: window(3, 0) };
    const choice = decideSuccessRate([A, B, C], (id) => windows[id]!, config, noExplore);
    expect(choice).toEqual({ order: [C, A, B], approach: 'success_rate_explore' });
    const fresh = decideSuccessRate([A, B], () => window(0, 0), config, noExplore);
    expect(fresh).toEqual({ order: [A, B], approach: 'success_rate_explore' });
  });

  test('with every account known, the best rate goes first; ties keep the listed order', () => {
    const windows: Record<string, ReturnType<typeof window>> = { [A]: window(100, 80), [B]: window(100, 92), [C]: window(50, 46) };
    expect(decideSuccessRate([A, B, C], (id) => windows[id]!, config, noExplore)).toEqual({
      order: [B, C, A],
      approach: 'success_rate_exploit',
    });
  });

  test('an account under the elimination threshold goes last while another remains, and is not explored', () => {
    const windows: Record<string, ReturnType<typeof window>> = { [A]: window(100, 30), [B]: window(100, 60), [C]: window(100, 50) };
    expect(decideSuccessRate([A, B, C], (id) => windows[id]!, config, noExplore)).toEqual({ order: [B, C, A], approach: 'elimination' });
    for (const pick of [0, 0.5, 0.999]) {
      const explored = decideSuccessRate([A, B, C], (id) => windows[id]!, config, { explore: 0, pick });
      expect(explored.order[0]).toBe(C);
      expect(explored.approach).toBe('success_rate_explore');
    }
    // all under the threshold: none is passed over, the best goes first
    const allLow = decideSuccessRate([A, B], (id) => (id === A ? window(100, 10) : window(100, 20)), config, noExplore);
    expect(allLow).toEqual({ order: [B, A], approach: 'success_rate_exploit' });
  });

  test('exploration_percent of payments (by their id) go to another account; the draw is the same for the same payment', () => {
    const windows: Record<string, ReturnType<typeof window>> = { [A]: window(200, 180), [B]: window(200, 170) };
    let explored = 0;
    const n = 8_000;
    expect(explorationDraws('pay_1')).toEqual(explorationDraws('pay_1'));
    for (let i = 0; i < n; i++) {
      const draws = explorationDraws(`pay_${i.toString(16).padStart(32, '0')}`);
      const choice = decideSuccessRate([A, B], (x) => windows[x]!, config, draws);
      if (choice.approach === 'success_rate_explore') {
        explored++;
        expect(choice.order).toEqual([B, A]);
      } else expect(choice.order).toEqual([A, B]);
    }
    // 5 % of 8,000 = 400; binomial sd ≈ 19.5: ±5 sd
    expect(explored).toBeGreaterThan(302);
    expect(explored).toBeLessThan(498);
  });

  test('property: the order is a permutation of the candidates; a known account under the threshold is never first while one above remains', () => {
    const win = fc.record({ attempts: fc.integer({ min: 0, max: 300 }), rate: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(
        fc.array(win, { minLength: 1, maxLength: 6 }),
        fc.record({ explore: fc.double({ min: 0, max: 0.999, noNaN: true }), pick: fc.double({ min: 0, max: 0.999, noNaN: true }) }),
        fc.integer({ min: 0, max: 50 }),
        (wins, draws, exploration) => {
          const ids = wins.map((_, i) => mca(i + 1));
          const w = (id: string) => {
            const x = wins[ids.indexOf(id)]!;
            return { attempts: x.attempts, successes: x.attempts * x.rate, updated_at_ms: T0 };
          };
          const cfg = { ...config, exploration_percent: exploration };
          const choice = decideSuccessRate(ids, w, cfg, draws);
          expect([...choice.order].sort()).toEqual([...ids].sort());
          const known = wins.filter((x) => x.attempts >= cfg.min_observations);
          const first = wins[ids.indexOf(choice.order[0]!)]!;
          if (known.length === wins.length && known.some((x) => x.rate >= cfg.elimination_threshold)) {
            expect(first.rate).toBeGreaterThanOrEqual(cfg.elimination_threshold);
          }
          if (exploration === 0 && known.length === wins.length) {
            expect(first.rate).toBe(Math.max(...wins.map((x) => x.rate)));
          }
        },
      ),
      fcOptions(300),
    );
  });

  test('successRateOrder scores in the payment’s segment only', () => {
    const visa = 'payment_method=card|card_network=visa|currency=NGN';
    const mastercard = 'payment_method=card|card_network=mastercard|currency=NGN';
    const b = bucketStart(T0);
    const snap = new OutcomeSnapshot([
      counter(A, visa, b, 100, 95),
      counter(B, visa, b, 100, 80),
      counter(A, mastercard, b, 100, 70),
      counter(B, mastercard, b, 100, 90),
    ]);
    const cfg = { ...resolveSuccessRateConfig({ connectors: [] }), exploration_percent: 0 };
    const pay = (card_network: string) => ({ payment_id: 'pay_1', payment_method: 'card', currency: 'NGN', card_network });
    expect(successRateOrder(cfg, [A, B], pay('visa'), snap, T0)).toEqual({
      order: [A, B],
      approach: 'success_rate_exploit',
      segment: visa,
    });
    expect(successRateOrder(cfg, [A, B], pay('mastercard'), snap, T0)).toEqual({
      order: [B, A],
      approach: 'success_rate_exploit',
      segment: mastercard,
    });
  });
});

describe('the outcome store and its per-container cache', () => {
  const seg = 'payment_method=card';
  const outcome = (id: string, success: boolean, at_ms: number) => ({
    merchant_connector_id: id,
    segment: seg,
    success,
    at_ms,
    payment_id: 'pay_x',
  });

  test('one merchant’s outcomes never reach another merchant’s snapshot', async () => {
    const store = new MemoryOutcomeStore();
    for (let i = 0; i < 50; i++) store.recordNow('mer_a', outcome(A, false, T0));
    const cache = new OutcomeWindowCache(store, () => 5_000);
    expect((await cache.snapshot('mer_b', T0)).window(A, seg, 200, T0).attempts).toBe(0);
    expect((await cache.snapshot('mer_a', T0)).window(A, seg, 200, T0).attempts).toBe(50);
  });

  test('a snapshot is reused for the period, then refreshed with only the recent buckets read', async () => {
    const store = new MemoryOutcomeStore();
    const reads: number[] = [];
    const spy: OutcomeStore = {
      record: (m, o) => store.record(m, o),
      counters: (m, since) => {
        reads.push(since);
        return store.counters(m, since);
      },
    };
    const cache = new OutcomeWindowCache(spy, () => 5_000);
    store.recordNow('mer_a', outcome(A, true, T0 - 10 * OUTCOME_BUCKET_MS));
    expect((await cache.snapshot('mer_a', T0)).window(A, seg, 200, T0).attempts).toBe(1);
    store.recordNow('mer_a', outcome(A, true, T0 + 1_000));
    // within the period: the same snapshot, no read
    expect((await cache.snapshot('mer_a', T0 + 4_999)).window(A, seg, 200, T0 + 4_999).attempts).toBe(1);
    expect(reads).toHaveLength(1);
    // after it: the new outcome shows, the old bucket kept without being read again
    const later = T0 + 5_000;
    expect((await cache.snapshot('mer_a', later)).window(A, seg, 200, later).attempts).toBe(2);
    expect(reads).toEqual([bucketStart(T0 - OUTCOME_LOOKBACK_MS), bucketStart(T0) - OUTCOME_BUCKET_MS]);
  });

  test('write shards of one bucket (a store that returns several counters for it) are summed, first read and later', async () => {
    const b = bucketStart(T0);
    let rows = [counter(A, seg, b, 3, 3), counter(A, seg, b, 2, 1)];
    const sharded: OutcomeStore = { record: async () => {}, counters: async (_m, since) => rows.filter((c) => c.bucket_start_ms >= since) };
    const cache = new OutcomeWindowCache(sharded, () => 5_000);
    expect((await cache.snapshot('mer_a', T0)).window(A, seg, 200, T0)).toMatchObject({ attempts: 5, successes: 4 });
    rows = [counter(A, seg, b, 4, 4), counter(A, seg, b, 2, 1)];
    expect((await cache.snapshot('mer_a', T0 + 5_000)).window(A, seg, 200, T0 + 5_000)).toMatchObject({ attempts: 6, successes: 5 });
  });

  test('concurrent callers share one read; a failed read keeps the previous snapshot, and throws only without one', async () => {
    let fail = false;
    let calls = 0;
    const store = new MemoryOutcomeStore();
    store.recordNow('mer_a', outcome(A, true, T0));
    const flaky: OutcomeStore = {
      record: (m, o) => store.record(m, o),
      counters: async (m, since) => {
        calls++;
        if (fail) throw new Error('ProvisionedThroughputExceededException');
        return store.counters(m, since);
      },
    };
    const cache = new OutcomeWindowCache(flaky, () => 5_000);
    const [s1, s2] = await Promise.all([cache.snapshot('mer_a', T0), cache.snapshot('mer_a', T0)]);
    expect(s1).toBe(s2);
    expect(calls).toBe(1);
    fail = true;
    const s3 = await cache.snapshot('mer_a', T0 + 6_000);
    expect(s3).toBe(s1);
    await expect(cache.snapshot('mer_b', T0)).rejects.toThrow('ProvisionedThroughputExceededException');
  });
});

describe('the success_rate algorithm', () => {
  const full = {
    type: 'success_rate',
    data: {
      connectors: [{ merchant_connector_id: A }, { merchant_connector_id: B }],
      window_size: 200,
      exploration_percent: 5,
      min_observations: 20,
      elimination_threshold: 0.35,
      dimensions: ['payment_method', 'card_network', 'currency'],
    },
  };

  test('the schema takes the issue’s example and a bare list; refuses bad fields by path', () => {
    expect(routingAlgorithmSchema.safeParse(full).success).toBe(true);
    const bare = routingAlgorithmSchema.parse({ type: 'success_rate', data: { connectors: [{ merchant_connector_id: A }] } });
    expect(resolveSuccessRateConfig((bare as Extract<RoutingAlgorithm, { type: 'success_rate' }>).data)).toEqual({
      connectors: [{ merchant_connector_id: A }],
      ...SUCCESS_RATE_DEFAULTS,
    });
    const bad = (data: Record<string, unknown>) => {
      const r = routingAlgorithmSchema.safeParse({ ...full, data: { ...full.data, ...data } });
      return r.success ? null : r.error.issues.map((i) => i.path.join('.'));
    };
    expect(bad({ window_size: 5 })).toEqual(['data.window_size']);
    expect(bad({ exploration_percent: 51 })).toEqual(['data.exploration_percent']);
    expect(bad({ elimination_threshold: 1.5 })).toEqual(['data.elimination_threshold']);
    expect(bad({ dimensions: ['currency', 'currency'] })).toEqual(['data.dimensions.1']);
    expect(bad({ dimensions: ['card_number'] })).toEqual(['data.dimensions.0']);
    expect(bad({ connectors: [] })).not.toBeNull();
  });

  test('evaluation gives the accounts as listed with the resolved fields; an advanced rule may select by success rate', () => {
    const algorithm = routingAlgorithmSchema.parse(full) as RoutingAlgorithm;
    expect(routingDecision(algorithm, { payment_id: 'pay_1', amount: 100, currency: 'NGN' })).toMatchObject({
      candidates: [A, B],
      success_rate: { window_size: 200, dimensions: ['payment_method', 'card_network', 'currency'] },
    });
    const advanced: RoutingAlgorithm = {
      type: 'advanced',
      data: {
        default_selection: { type: 'priority', data: [{ merchant_connector_id: C }] },
        rules: [
          {
            name: 'ngn',
            connector_selection: {
              type: 'success_rate',
              data: { connectors: [{ merchant_connector_id: B }, { merchant_connector_id: A }] },
            },
            statements: [{ condition: [{ lhs: 'currency', comparison: 'equal', value: { type: 'enum_variant', value: 'NGN' } }] }],
          },
        ],
      },
    };
    expect(referencedConnectorIds(advanced).sort()).toEqual([A, B, C].sort());
    expect(routingDecision(advanced, { payment_id: 'pay_1', amount: 100, currency: 'NGN' })).toMatchObject({
      candidates: [B, A],
      rule_name: 'ngn',
      approach: 'rule',
      success_rate: { exploration_percent: SUCCESS_RATE_DEFAULTS.exploration_percent },
    });
    expect(routingDecision(advanced, { payment_id: 'pay_1', amount: 100, currency: 'KES' })).toMatchObject({
      candidates: [C],
      rule_name: null,
      success_rate: null,
    });
  });

  test('validation names an account that is not the merchant’s by its path under connectors', () => {
    const account = (id: string): ConnectorAccount => ({
      merchant_connector_id: id,
      merchant_id: 'mer_test',
      connector_name: 'paystack',
      connector_label: id,
      connector_account_details: { api_key: 'sk_test_…0000' },
      webhook_secret_set: false,
      payment_methods_enabled: PAYMENT_METHODS.map((payment_method) => ({ payment_method, currencies: [...CURRENCIES] })),
      disabled: false,
      status: 'active',
      mode: 'test',
      metadata: {},
      created_at: '2026-11-26T00:00:00.000Z',
      updated_at: '2026-11-26T00:00:00.000Z',
    });
    const algorithm = routingAlgorithmSchema.parse(full) as RoutingAlgorithm;
    expect(validateAlgorithm(algorithm, [account(A), account(B)])).toEqual([]);
    expect(validateAlgorithm(algorithm, [account(A)]).map((p) => p.param)).toEqual(['algorithm.data.connectors.1.merchant_connector_id']);
  });
});

describe('the soft-decline table', () => {
  test('the documented soft codes are soft at their processor only; hard declines never are', () => {
    for (const code of ['try_again_later', 'issuer_not_available', 'processing_error', 'reenter_transaction']) {
      expect(isSoftDecline('stripe', code)).toBe(true);
    }
    expect(isSoftDecline('paystack', 'issuer_or_switch_inoperative')).toBe(true);
    expect(isSoftDecline('flutterwave', 'system_malfunction')).toBe(true);
    expect(isSoftDecline('sandbox', 'try_again_later')).toBe(false);
    for (const connector of Object.keys(SOFT_DECLINES)) {
      for (const hard of [
        'insufficient_funds',
        'stolen_card',
        'lost_card',
        'pickup_card',
        'incorrect_number',
        'expired_card',
        'invalid_cvc',
        'fraudulent',
        'do_not_honor',
        'generic_decline',
      ]) {
        expect(isSoftDecline(connector, hard)).toBe(false);
      }
      expect(isSoftDecline(connector, null)).toBe(false);
      for (const entry of SOFT_DECLINES[connector]!) expect(entry.source).toMatch(/https:\/\//);
    }
  });
});
