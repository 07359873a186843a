/**
 * Routing algorithms per merchant: the request schema (shapes, bounds, error paths and
 * messages as the API answers them), the evaluation (single, priority, volume_split, advanced rules
 * with Hyperswitch/euclid semantics), candidateOrder, and validateAlgorithm against accounts.
 * Property-based parts use fast-check; set FC_SEED to replay a failure it reported.
 */
import fc from 'fast-check';
import * as z from 'zod';
import type { ConnectorAccount, EnabledPaymentMethod, RoutingFacts } from '../../shared/domain/connector-account';
import { newId } from '../../shared/domain/ids';
import { CURRENCIES } from '../../shared/domain/money';
import { PAYMENT_METHODS } from '../../shared/domain/payment';
import {
  CARD_NETWORKS,
  type ConnectorVolumeSplit,
  type IfStatement,
  MAX_NESTING_DEPTH,
  MAX_RULES,
  MAX_SELECTION_ENTRIES,
  MAX_TOTAL_CONDITIONS,
  type RoutingAlgorithm,
  type RoutingComparison,
  type RoutingProgram,
  referencedConnectorIds,
} from '../../shared/domain/routing-algorithm';
import {
  candidateOrder,
  comparisonHolds,
  evaluateAlgorithm,
  orderVolumeSplit,
  routingDecision,
  statementHolds,
  volumeSplitBucket,
} from '../../shared/operations/routing/evaluate-algorithm';
import { type CapabilitiesOf, validateAlgorithm } from '../../shared/operations/routing/validate-algorithm';
import { RoutingAlgorithmResource } from '../../shared/schemas/routing-algorithm-resource-schema';
import { createRoutingAlgorithmSchema, routingAlgorithmSchema } from '../../shared/schemas/routing-schemas';
import { apiErrorFromZod } from '../../shared/schemas/zod-errors';

const FC_SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const fcOptions = (numRuns: number) => ({ numRuns, ...(FC_SEED === undefined ? {} : { seed: FC_SEED }) });

/** A connector account id of our own shape, numbered. */
const mca = (n: number) => `mca_${n.toString(16).padStart(32, '0')}`;
const A = mca(1);
const B = mca(2);
const C = mca(3);
const D = mca(4);

/** A stored connector account enabling `enabled` (default: every method in every currency). */
function account(id: string, enabled?: EnabledPaymentMethod[], overrides: Partial<ConnectorAccount> = {}): ConnectorAccount {
  return {
    merchant_connector_id: id,
    merchant_id: 'mer_test',
    connector_name: 'paystack',
    connector_label: id,
    connector_account_details: { api_key: 'sk_test_…0000' },
    webhook_secret_set: false,
    payment_methods_enabled: enabled ?? PAYMENT_METHODS.map((payment_method) => ({ payment_method, currencies: [...CURRENCIES] })),
    disabled: false,
    status: 'active',
    mode: 'test',
    metadata: {},
    created_at: '2026-11-26T00:00:00.000Z',
    updated_at: '2026-11-26T00:00:00.000Z',
    ...overrides,
  };
}

/** Payment facts: a 5,000.00 NGN card payment unless overridden. */
const facts = (overrides: Partial<RoutingFacts> = {}): RoutingFacts => ({
  payment_id: 'pay_00000000000000000000000000000001',
  amount: 500_000,
  currency: 'NGN',
  payment_method: 'card',
  ...overrides,
});

const priority = (...ids: string[]) => ({
  type: 'priority' as const,
  data: ids.map((merchant_connector_id) => ({ merchant_connector_id })),
});
const cmp = (lhs: string, comparison: RoutingComparison['comparison'], value: RoutingComparison['value']): RoutingComparison => ({
  lhs,
  comparison,
  value,
});
const enumIs = (lhs: string, value: string) => cmp(lhs, 'equal', { type: 'enum_variant', value });
const program = (rules: RoutingProgram['rules'], fallback: string[] = [D]): RoutingAlgorithm => ({
  type: 'advanced',
  data: { default_selection: priority(...fallback), rules },
});
const rule = (name: string, to: string[], ...statements: IfStatement[]) => ({ name, connector_selection: priority(...to), statements });

/** The API error of a body `POST /routing` refuses (as the handler answers it), or null when accepted. */
function refusal(body: unknown): { param: string | undefined; message: string; code: string } | null {
  const parsed = createRoutingAlgorithmSchema.safeParse(body);
  if (parsed.success) return null;
  const error = apiErrorFromZod(parsed.error, body, 'body');
  return { param: error.param, message: error.message, code: error.code };
}

/** A deep copy of an advanced body to break one field of. */
const advancedBody = () => ({
  name: 'Kenya mobile money',
  description: 'KES mobile money to Flutterwave, big card payments split',
  algorithm: program(
    [
      rule('kes-mobile-money', [B, A], {
        condition: [enumIs('currency', 'KES'), enumIs('payment_method', 'mobile_money')],
      }),
      {
        name: 'big-cards',
        connector_selection: {
          type: 'volume_split' as const,
          data: [
            { split: 70, merchant_connector_id: A },
            { split: 30, merchant_connector_id: C },
          ],
        },
        statements: [
          {
            condition: [cmp('amount', 'greater_than_equal', { type: 'number', value: 1_000_000 })],
            nested: [
              { condition: [cmp('card_network', 'in', { type: 'enum_variant_array', value: ['visa', 'mastercard'] })] },
              { condition: [cmp('metadata.tier', 'equal', { type: 'str_value', value: 'gold' })] },
            ],
          },
        ],
      },
      rule('ghana', [C], {
        condition: [
          enumIs('billing_country', 'GH'),
          cmp('metadata', 'not_equal', { type: 'metadata_variant', value: { key: 'channel', value: 'pos' } }),
        ],
      }),
    ],
    [D, A],
  ),
});

/** A body as plain JSON, to break any field of (tests may type parsed JSON as `any`). */
type Body = { name: string; description?: string; algorithm: { type: string; data: any } };

describe('routing algorithm schema', () => {
  test('accepts each algorithm type', () => {
    const bodies: unknown[] = [
      { name: 'one', algorithm: { type: 'single', data: { merchant_connector_id: A } } },
      { name: 'ordered', algorithm: priority(A, B, C) },
      {
        name: 'split',
        algorithm: {
          type: 'volume_split',
          data: [
            { split: 50, merchant_connector_id: A },
            { split: 50, merchant_connector_id: B },
          ],
        },
      },
      advancedBody(),
      { name: 'no rules', algorithm: program([], [A]) },
    ];
    for (const body of bodies) expect(refusal(body)).toBeNull();
    const parsed = createRoutingAlgorithmSchema.parse(advancedBody());
    expect(parsed.algorithm).toEqual(advancedBody().algorithm);
    expect(referencedConnectorIds(parsed.algorithm)).toEqual([B, A, C, D]);
  });

  test('a statement may nest 3 levels deep, not 4', () => {
    const leaf = (depth: number): IfStatement =>
      depth === 0 ? { condition: [enumIs('currency', 'NGN')] } : { condition: [enumIs('currency', 'NGN')], nested: [leaf(depth - 1)] };
    const body = (depth: number) => ({ name: 'deep', algorithm: program([rule('r', [A], leaf(depth))]) });
    expect(MAX_NESTING_DEPTH).toBe(3);
    expect(refusal(body(3))).toBeNull();
    expect(refusal(body(4))).toEqual({
      param: 'algorithm.data.rules.0.statements.0.nested.0.nested.0.nested.0.nested',
      message:
        'Invalid algorithm.data.rules.0.statements.0.nested.0.nested.0.nested.0.nested: must be left out: statements nest at most 3 levels deep.',
      code: 'parameter_invalid',
    });
  });

  /** [what, change the body, expected param, expected message part] */
  const refusals: [string, (b: Body) => void, string, string][] = [
    [
      'an enum variant of the wrong vocabulary',
      (b) => {
        b.algorithm.data.rules[2].statements[0].condition[0].value.value = 'XX';
      },
      'algorithm.data.rules.2.statements.0.condition.0.value.value',
      'must be an ISO 3166-1 alpha-2 country code',
    ],
    [
      'an unknown currency',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[0].value.value = 'EUR';
      },
      'algorithm.data.rules.0.statements.0.condition.0.value.value',
      `must be one of ${CURRENCIES.join(', ')}`,
    ],
    [
      'an unknown payment method',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[1].value.value = 'crypto';
      },
      'algorithm.data.rules.0.statements.0.condition.1.value.value',
      `must be one of ${PAYMENT_METHODS.join(', ')}`,
    ],
    [
      'an unknown card network in an array',
      (b) => {
        b.algorithm.data.rules[1].statements[0].nested[0].condition[0].value.value = ['visa', 'plastic'];
      },
      'algorithm.data.rules.1.statements.0.nested.0.condition.0.value.value.1',
      `must be one of ${CARD_NETWORKS.join(', ')}`,
    ],
    [
      'an ordering comparison on an enum',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[0].comparison = 'greater_than';
      },
      'algorithm.data.rules.0.statements.0.condition.0.comparison',
      'must be one of equal, not_equal here: less_than, less_than_equal, greater_than and greater_than_equal compare only amount',
    ],
    [
      '`in` with a single value',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[1].comparison = 'in';
      },
      'algorithm.data.rules.0.statements.0.condition.1.comparison',
      'in and not_in take an array value',
    ],
    [
      'a value type that does not suit the lhs',
      (b) => {
        b.algorithm.data.rules[1].statements[0].condition[0].value = { type: 'str_value', value: 'big' };
      },
      'algorithm.data.rules.1.statements.0.condition.0.value.type',
      'must be number or number_array when lhs is amount',
    ],
    [
      'a str_value for metadata without a key',
      (b) => {
        b.algorithm.data.rules[2].statements[0].condition[1].value = { type: 'str_value', value: 'pos' };
      },
      'algorithm.data.rules.2.statements.0.condition.1.value.type',
      'must be metadata_variant when lhs is metadata',
    ],
    [
      'an unknown lhs',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[0].lhs = 'country';
      },
      'algorithm.data.rules.0.statements.0.condition.0.lhs',
      'must be one of amount, currency, payment_method, card_network, billing_country, metadata, or metadata.<key>',
    ],
    [
      'a metadata key over 40 characters',
      (b) => {
        b.algorithm.data.rules[1].statements[0].nested[1].condition[0].lhs = `metadata.${'k'.repeat(41)}`;
      },
      'algorithm.data.rules.1.statements.0.nested.1.condition.0.lhs',
      'with a key of 1 to 40 characters',
    ],
    [
      'a negative amount',
      (b) => {
        b.algorithm.data.rules[1].statements[0].condition[0].value.value = -1;
      },
      'algorithm.data.rules.1.statements.0.condition.0.value.value',
      'must not be negative',
    ],
    [
      'a fractional amount',
      (b) => {
        b.algorithm.data.rules[1].statements[0].condition[0].value.value = 10.5;
      },
      'algorithm.data.rules.1.statements.0.condition.0.value.value',
      'must be an integer',
    ],
    [
      'splits not adding up to 100',
      (b) => {
        b.algorithm.data.rules[1].connector_selection.data[1].split = 20;
      },
      'algorithm.data.rules.1.connector_selection.data',
      'splits must add up to exactly 100',
    ],
    [
      'a split of 0',
      (b) => {
        b.algorithm.data.rules[1].connector_selection.data[1].split = 0;
      },
      'algorithm.data.rules.1.connector_selection.data.1.split',
      'must be at least 1',
    ],
    [
      'a fractional split',
      (b) => {
        b.algorithm.data.rules[1].connector_selection.data[0].split = 69.5;
      },
      'algorithm.data.rules.1.connector_selection.data.0.split',
      'must be an integer',
    ],
    [
      'an account twice in a priority list',
      (b) => {
        b.algorithm.data.rules[0].connector_selection.data[1].merchant_connector_id = B;
      },
      'algorithm.data.rules.0.connector_selection.data.1.merchant_connector_id',
      'is listed twice',
    ],
    [
      'an account twice in a volume split',
      (b) => {
        b.algorithm.data.rules[1].connector_selection.data[1].merchant_connector_id = A;
      },
      'algorithm.data.rules.1.connector_selection.data.1.merchant_connector_id',
      'is listed twice',
    ],
    [
      'an empty priority list',
      (b) => {
        b.algorithm.data.default_selection.data = [];
      },
      'algorithm.data.default_selection.data',
      'must list at least one connector account',
    ],
    [
      'a priority list of 11',
      (b) => {
        b.algorithm.data.default_selection.data = Array.from({ length: MAX_SELECTION_ENTRIES + 1 }, (_, i) => ({
          merchant_connector_id: mca(100 + i),
        }));
      },
      'algorithm.data.default_selection.data',
      'must list at most 10 connector accounts',
    ],
    [
      'a connector id of another shape',
      (b) => {
        b.algorithm.data.rules[0].connector_selection.data[0].merchant_connector_id = 'stripe';
      },
      'algorithm.data.rules.0.connector_selection.data.0.merchant_connector_id',
      'must be the merchant_connector_id (mca_…) of one of your connector accounts',
    ],
    [
      'an unknown selection type',
      (b) => {
        b.algorithm.data.rules[0].connector_selection.type = 'single';
      },
      'algorithm.data.rules.0.connector_selection.type',
      'must be one of priority, volume_split',
    ],
    [
      'an unknown value type',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[0].value.type = 'number_comparison_array';
      },
      'algorithm.data.rules.0.statements.0.condition.0.value.type',
      'must be one of number, enum_variant, metadata_variant, str_value, number_array, enum_variant_array, str_value_array',
    ],
    [
      'an unknown comparison',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition[0].comparison = 'like';
      },
      'algorithm.data.rules.0.statements.0.condition.0.comparison',
      'must be one of equal, not_equal, less_than, less_than_equal, greater_than, greater_than_equal, in, not_in',
    ],
    [
      'an empty condition',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition = [];
      },
      'algorithm.data.rules.0.statements.0.condition',
      'must hold at least one comparison',
    ],
    [
      '21 comparisons in one condition',
      (b) => {
        b.algorithm.data.rules[0].statements[0].condition = Array.from({ length: 21 }, () => enumIs('currency', 'KES'));
      },
      'algorithm.data.rules.0.statements.0.condition',
      'must hold at most 20 comparisons',
    ],
    [
      'an empty nested list',
      (b) => {
        b.algorithm.data.rules[1].statements[0].nested = [];
      },
      'algorithm.data.rules.1.statements.0.nested',
      'must hold at least one statement when given',
    ],
    [
      'a rule without statements',
      (b) => {
        b.algorithm.data.rules[2].statements = [];
      },
      'algorithm.data.rules.2.statements',
      'must hold at least one statement',
    ],
    [
      'an empty rule name',
      (b) => {
        b.algorithm.data.rules[2].name = '';
      },
      'algorithm.data.rules.2.name',
      'must not be empty',
    ],
    [
      'a card number in a metadata value',
      (b) => {
        b.algorithm.data.rules[1].statements[0].nested[1].condition[0].value.value = 'card 4242 4242 4242 4242';
      },
      'algorithm.data.rules.1.statements.0.nested.1.condition.0.value.value',
      'must not contain a card number',
    ],
    [
      'an array value of 51 entries',
      (b) => {
        b.algorithm.data.rules[1].statements[0].nested[0].condition[0].value.value = Array.from({ length: 51 }, () => 'visa');
      },
      'algorithm.data.rules.1.statements.0.nested.0.condition.0.value.value',
      'must hold at most 50 values',
    ],
  ];

  test.each(refusals)('refuses %s, naming the rule and the field', (_what, change, param, message) => {
    const body = advancedBody() as Body;
    change(body);
    const error = refusal(body);
    expect(error?.param).toBe(param);
    expect(error?.message).toContain(`Invalid ${param}: `);
    expect(error?.message).toContain(message);
  });

  test('unknown fields are refused at every level (strict objects)', () => {
    const body = advancedBody() as Body;
    body.algorithm.data.rules[1].statements[0].nested[0].condition[0].metadata = {};
    expect(refusal(body)).toEqual({
      param: 'algorithm.data.rules.1.statements.0.nested.0.condition.0.metadata',
      message: 'Received unknown parameter: algorithm.data.rules.1.statements.0.nested.0.condition.0.metadata. Remove it and retry.',
      code: 'parameter_unknown',
    });
    const top = { ...advancedBody(), active: true };
    expect(refusal(top)?.code).toBe('parameter_unknown');
  });

  test('a missing type or data is a missing parameter', () => {
    expect(refusal({ name: 'x', algorithm: { data: { merchant_connector_id: A } } })).toMatchObject({
      param: 'algorithm.type',
      code: 'parameter_missing',
    });
    expect(refusal({ name: 'x', algorithm: { type: 'single' } })).toMatchObject({ param: 'algorithm.data', code: 'parameter_missing' });
    expect(refusal({ name: 'x', algorithm: { type: 'dynamic', data: {} } })).toMatchObject({
      param: 'algorithm.type',
      message: 'Invalid algorithm.type: must be one of single, priority, volume_split, advanced.',
    });
  });

  test('bounds: at most 50 rules and 500 comparisons in all', () => {
    const many = (n: number, perRule: number) =>
      program(
        Array.from({ length: n }, (_, i) =>
          rule(`r${i}`, [A], { condition: Array.from({ length: perRule }, () => enumIs('currency', 'NGN')) }),
        ),
      );
    expect(refusal({ name: 'x', algorithm: many(MAX_RULES, 10) })).toBeNull();
    expect(refusal({ name: 'x', algorithm: many(MAX_RULES + 1, 1) })).toMatchObject({
      param: 'algorithm.data.rules',
      message: 'Invalid algorithm.data.rules: must hold at most 50 rules.',
    });
    expect(refusal({ name: 'x', algorithm: many(MAX_RULES, 11) })).toMatchObject({
      param: 'algorithm.data.rules',
      message: `Invalid algorithm.data.rules: must hold at most ${MAX_TOTAL_CONDITIONS} comparisons in all.`,
    });
  });

  test('the largest accepted algorithm stays far below a DynamoDB item (400 KB) and within a request body (64 KiB)', () => {
    // 50 rules × 10 comparisons of 40-character metadata keys and values, 10 accounts per selection.
    const ids = Array.from({ length: 10 }, (_, i) => mca(i + 10));
    const rules = Array.from({ length: MAX_RULES }, (_, i) =>
      rule(`rule-${String(i).padStart(59, '0')}`, ids, {
        condition: Array.from({ length: 10 }, () =>
          cmp(`metadata.${'k'.repeat(40)}`, 'equal', { type: 'str_value', value: 'v'.repeat(40) }),
        ),
      }),
    );
    const body = { name: 'n'.repeat(64), algorithm: program(rules, ids) };
    expect(refusal(body)).toBeNull();
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(400_000);
  });

  test('error messages never repeat the value sent (property)', () => {
    const marker = fc.stringMatching(/^QZ[a-z]{6,12}$/);
    const places: ((b: Body, v: string) => void)[] = [
      (b, v) => {
        b.algorithm.data.rules[0].statements[0].condition[0].value.value = v;
      },
      (b, v) => {
        b.algorithm.data.rules[1].statements[0].nested[0].condition[0].value.value = ['visa', v];
      },
      (b, v) => {
        b.algorithm.data.rules[2].statements[0].condition[0].value.value = v;
      },
      (b, v) => {
        b.algorithm.data.rules[0].connector_selection.data[0].merchant_connector_id = v;
      },
      (b, v) => {
        b.algorithm.data.rules[0].statements[0].condition[0].lhs = v;
      },
      (b, v) => {
        b.algorithm.data.rules[0].statements[0].condition[0].comparison = v;
      },
      (b, v) => {
        b.algorithm.type = v;
      },
    ];
    fc.assert(
      fc.property(marker, fc.integer({ min: 0, max: places.length - 1 }), (value, place) => {
        const body = advancedBody() as Body;
        places[place]!(body, value);
        const error = refusal(body);
        return error !== null && !error.message.includes(value);
      }),
      fcOptions(200),
    );
  });

  test('request and response conversions to JSON Schema agree on every shared component (the OpenAPI generator requires it)', () => {
    const input = z.toJSONSchema(createRoutingAlgorithmSchema, { io: 'input', unrepresentable: 'any' }) as {
      $defs: Record<string, unknown>;
    };
    const output = z.toJSONSchema(RoutingAlgorithmResource, { io: 'output', unrepresentable: 'any' }) as {
      $defs: Record<string, unknown>;
    };
    expect(Object.keys(input.$defs).sort()).toEqual(
      [
        'ConnectorSelection',
        'ConnectorVolumeSplit',
        'RoutableConnectorChoice',
        'RoutingAlgorithmDefinition',
        'RoutingComparison',
        'RoutingRule',
        'RoutingValue',
      ].sort(),
    );
    for (const [id, schema] of Object.entries(input.$defs)) expect(output.$defs[id]).toEqual(schema);
    expect(output.$defs.RoutingAlgorithm).toBeDefined();
  });

  test('the resource schema accepts an answer', () => {
    const answer = {
      routing_algorithm_id: newId('routingAlgorithm'),
      name: 'Kenya',
      description: null,
      algorithm: advancedBody().algorithm,
      is_active: true,
      created_at: '2026-11-26T10:00:00.000Z',
      modified_at: '2026-11-26T10:00:00.000Z',
    };
    expect(RoutingAlgorithmResource.safeParse(answer).success).toBe(true);
    expect(routingAlgorithmSchema.safeParse(answer.algorithm).success).toBe(true);
  });
});

describe('evaluateAlgorithm: single, priority, volume_split', () => {
  test('single and priority give their accounts in order', () => {
    expect(evaluateAlgorithm({ type: 'single', data: { merchant_connector_id: A } }, facts())).toEqual([A]);
    expect(evaluateAlgorithm(priority(C, A, B), facts())).toEqual([C, A, B]);
  });

  const splitArb = fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: MAX_SELECTION_ENTRIES }).map((weights) => {
    // Scale to integer splits of 1–100 adding up to 100.
    const total = weights.reduce((a, b) => a + b, 0);
    const splits = weights.map((w) => Math.max(1, Math.floor((w * 100) / total)));
    let excess = splits.reduce((a, b) => a + b, 0) - 100;
    for (let i = 0; excess !== 0; i = (i + 1) % splits.length) {
      if (excess > 0 && splits[i]! > 1) {
        splits[i]!--;
        excess--;
      } else if (excess < 0) {
        splits[i]!++;
        excess++;
      }
    }
    return splits.map((split, i): ConnectorVolumeSplit => ({ split, merchant_connector_id: mca(i + 1) }));
  });
  const paymentIdArb = fc.oneof(
    fc.string({ minLength: 1, maxLength: 60 }),
    fc.constant(0).map(() => newId('payment')),
  );

  test('a volume split is deterministic per payment_id, a permutation of its accounts, drawn one first then by descending split (property)', () => {
    fc.assert(
      fc.property(splitArb, paymentIdArb, (splits, paymentId) => {
        const algorithm: RoutingAlgorithm = { type: 'volume_split', data: splits };
        const first = evaluateAlgorithm(algorithm, facts({ payment_id: paymentId }));
        // Same payment, other facts (a retried confirm with a method now known): same order.
        expect(evaluateAlgorithm(algorithm, facts({ payment_id: paymentId, payment_method: 'ussd', amount: 1 }))).toEqual(first);
        expect([...first].sort()).toEqual(splits.map((s) => s.merchant_connector_id).sort());
        // The drawn account is the one whose cumulative range holds the payment's bucket.
        const bucket = volumeSplitBucket(paymentId);
        let cumulative = 0;
        const drawn = splits.find((s) => {
          cumulative += s.split;
          return bucket < cumulative;
        });
        expect(first[0]).toBe(drawn?.merchant_connector_id);
        const splitOf = new Map(splits.map((s) => [s.merchant_connector_id, s.split]));
        const rest = first.slice(1).map((id) => splitOf.get(id)!);
        expect(rest).toEqual([...rest].sort((a, b) => b - a));
      }),
      fcOptions(300),
    );
  });

  test('the bucket is SHA-256 based, in [0, total), and refuses a non-positive total', () => {
    expect(volumeSplitBucket('pay_x')).toBe(volumeSplitBucket('pay_x'));
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1000 }), (id, total) => {
        const b = volumeSplitBucket(id, total);
        return Number.isInteger(b) && b >= 0 && b < total;
      }),
      fcOptions(200),
    );
    expect(() => volumeSplitBucket('pay_x', 0)).toThrow(RangeError);
    expect(orderVolumeSplit([], 'pay_x')).toEqual([]);
  });

  /**
   * Over n = 10,000 independent payment ids, the share drawn for an account of split p is a binomial
   * proportion with standard deviation sqrt(p(1−p)/n): for p = 0.7, sqrt(0.21/10,000) ≈ 0.46
   * percentage points. ±3 points is about 6.5 standard deviations: a uniform hash fails it with
   * probability below 10^-10 per check, while a biased one (e.g. a hash whose low bits follow the
   * id's last digit) fails it at once.
   */
  test('over 10,000 random payment ids a 70/30 split lands within ±3 percentage points', () => {
    const algorithm: RoutingAlgorithm = {
      type: 'volume_split',
      data: [
        { split: 70, merchant_connector_id: A },
        { split: 30, merchant_connector_id: B },
      ],
    };
    const n = 10_000;
    let toA = 0;
    for (let i = 0; i < n; i++) if (evaluateAlgorithm(algorithm, facts({ payment_id: newId('payment') }))[0] === A) toA++;
    expect(Math.abs((toA / n) * 100 - 70)).toBeLessThanOrEqual(3);
    // Sequential ids (pay_…0001, …0002, …) spread the same way.
    let sequentialToA = 0;
    for (let i = 0; i < n; i++)
      if (evaluateAlgorithm(algorithm, facts({ payment_id: `pay_${String(i).padStart(32, '0')}` }))[0] === A) sequentialToA++;
    expect(Math.abs((sequentialToA / n) * 100 - 70)).toBeLessThanOrEqual(3);
  });

  test('any split lands within ±3 points of its share over 10,000 ids (property, same tolerance: σ ≤ 0.5 points)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), (split) => {
        const algorithm: RoutingAlgorithm = {
          type: 'volume_split',
          data: [
            { split, merchant_connector_id: A },
            { split: 100 - split, merchant_connector_id: B },
          ],
        };
        let toA = 0;
        for (let i = 0; i < 10_000; i++) if (evaluateAlgorithm(algorithm, facts({ payment_id: newId('payment') }))[0] === A) toA++;
        return Math.abs(toA / 100 - split) <= 3;
      }),
      fcOptions(10),
    );
  });
});

describe('evaluateAlgorithm: advanced rules', () => {
  const algorithm = advancedBody().algorithm;

  test('rules on currency and payment method pick as written; none matching, the default', () => {
    expect(evaluateAlgorithm(algorithm, facts({ currency: 'KES', payment_method: 'mobile_money' }))).toEqual([B, A]);
    expect(routingDecision(algorithm, facts({ currency: 'KES', payment_method: 'mobile_money' })).rule_name).toBe('kes-mobile-money');
    expect(evaluateAlgorithm(algorithm, facts({ currency: 'KES', payment_method: 'card' }))).toEqual([D, A]);
    expect(routingDecision(algorithm, facts({ currency: 'KES', payment_method: 'card' })).rule_name).toBeNull();
    expect(evaluateAlgorithm(algorithm, facts({ currency: 'NGN', payment_method: 'mobile_money' }))).toEqual([D, A]);
  });

  test('amount with nested card_network / metadata (nested statements OR-ed, AND-ed with their parent)', () => {
    const split = (f: RoutingFacts) => evaluateAlgorithm(algorithm, f).sort();
    expect(split(facts({ amount: 1_000_000, card_network: 'visa' }))).toEqual([A, C].sort());
    expect(split(facts({ amount: 2_000_000, card_network: 'verve', metadata: { tier: 'gold' } }))).toEqual([A, C].sort());
    // Parent holds, no nested statement does: the rule does not match.
    expect(evaluateAlgorithm(algorithm, facts({ amount: 2_000_000, card_network: 'verve', metadata: { tier: 'silver' } }))).toEqual([D, A]);
    // Nested holds, parent does not (999,999 < 1,000,000 minor units).
    expect(evaluateAlgorithm(algorithm, facts({ amount: 999_999, card_network: 'visa' }))).toEqual([D, A]);
  });

  test('billing_country and the metadata_variant form', () => {
    expect(evaluateAlgorithm(algorithm, facts({ billing_country: 'GH' }))).toEqual([C]);
    expect(evaluateAlgorithm(algorithm, facts({ billing_country: 'GH', metadata: { channel: 'web' } }))).toEqual([C]);
    expect(evaluateAlgorithm(algorithm, facts({ billing_country: 'GH', metadata: { channel: 'pos' } }))).toEqual([D, A]);
    expect(evaluateAlgorithm(algorithm, facts({ billing_country: 'NG' }))).toEqual([D, A]);
  });

  test('the first matching rule wins', () => {
    const a = program([
      rule('first', [A], { condition: [enumIs('currency', 'NGN')] }),
      rule('second', [B], { condition: [enumIs('currency', 'NGN')] }),
    ]);
    expect(routingDecision(a, facts())).toEqual({ candidates: [A], rule_name: 'first' });
  });

  test('every comparison on amount (minor units)', () => {
    const holds = (comparison: RoutingComparison['comparison'], value: RoutingComparison['value'], amount: number) =>
      comparisonHolds(cmp('amount', comparison, value), facts({ amount }));
    const n = (value: number) => ({ type: 'number' as const, value });
    expect([holds('equal', n(100), 100), holds('equal', n(100), 101)]).toEqual([true, false]);
    expect([holds('not_equal', n(100), 100), holds('not_equal', n(100), 101)]).toEqual([false, true]);
    expect([holds('less_than', n(100), 99), holds('less_than', n(100), 100)]).toEqual([true, false]);
    expect([holds('less_than_equal', n(100), 100), holds('less_than_equal', n(100), 101)]).toEqual([true, false]);
    expect([holds('greater_than', n(100), 101), holds('greater_than', n(100), 100)]).toEqual([true, false]);
    expect([holds('greater_than_equal', n(100), 100), holds('greater_than_equal', n(100), 99)]).toEqual([true, false]);
    const list = { type: 'number_array' as const, value: [100, 200] };
    expect([holds('in', list, 200), holds('in', list, 300), holds('equal', list, 100)]).toEqual([true, false, true]);
    expect([holds('not_in', list, 200), holds('not_in', list, 300), holds('not_equal', list, 300)]).toEqual([false, true, true]);
  });

  test('ordering comparisons agree with the numbers (property)', () => {
    const amount = fc.integer({ min: 1, max: 99_999_999_999 });
    fc.assert(
      fc.property(amount, amount, (fact, bound) => {
        const h = (c: RoutingComparison['comparison']) =>
          comparisonHolds(cmp('amount', c, { type: 'number', value: bound }), facts({ amount: fact }));
        return (
          h('less_than') === fact < bound &&
          h('less_than_equal') === fact <= bound &&
          h('greater_than') === fact > bound &&
          h('greater_than_equal') === fact >= bound &&
          h('equal') === (fact === bound) &&
          h('not_equal') === (fact !== bound)
        );
      }),
      fcOptions(300),
    );
  });

  test('in / not_in on enums and metadata values', () => {
    const currencies = { type: 'enum_variant_array' as const, value: ['KES', 'GHS'] };
    expect(comparisonHolds(cmp('currency', 'in', currencies), facts({ currency: 'GHS' }))).toBe(true);
    expect(comparisonHolds(cmp('currency', 'in', currencies), facts({ currency: 'NGN' }))).toBe(false);
    expect(comparisonHolds(cmp('currency', 'not_in', currencies), facts({ currency: 'NGN' }))).toBe(true);
    expect(comparisonHolds(cmp('currency', 'not_in', currencies), facts({ currency: 'KES' }))).toBe(false);
    const tiers = { type: 'str_value_array' as const, value: ['gold', 'platinum'] };
    expect(comparisonHolds(cmp('metadata.tier', 'in', tiers), facts({ metadata: { tier: 'platinum' } }))).toBe(true);
    expect(comparisonHolds(cmp('metadata.tier', 'not_in', tiers), facts({ metadata: { tier: 'bronze' } }))).toBe(true);
  });

  test('a missing fact: equal / in / ordering false, not_equal / not_in true (euclid VIR semantics)', () => {
    const none = facts({ payment_method: undefined, card_network: null, billing_country: null, metadata: null });
    for (const [lhs, value] of [
      ['payment_method', 'card'],
      ['card_network', 'visa'],
      ['billing_country', 'NG'],
    ] as const) {
      expect(comparisonHolds(enumIs(lhs, value), none)).toBe(false);
      expect(comparisonHolds(cmp(lhs, 'not_equal', { type: 'enum_variant', value }), none)).toBe(true);
      expect(comparisonHolds(cmp(lhs, 'in', { type: 'enum_variant_array', value: [value] }), none)).toBe(false);
      expect(comparisonHolds(cmp(lhs, 'not_in', { type: 'enum_variant_array', value: [value] }), none)).toBe(true);
    }
    expect(comparisonHolds(cmp('metadata.tier', 'equal', { type: 'str_value', value: 'gold' }), none)).toBe(false);
    expect(comparisonHolds(cmp('metadata.tier', 'not_equal', { type: 'str_value', value: 'gold' }), none)).toBe(true);
    expect(comparisonHolds(cmp('metadata', 'equal', { type: 'metadata_variant', value: { key: 'k', value: 'v' } }), none)).toBe(false);
    expect(comparisonHolds(cmp('metadata', 'not_equal', { type: 'metadata_variant', value: { key: 'k', value: 'v' } }), none)).toBe(true);
    // Inherited properties are not metadata.
    expect(comparisonHolds(cmp('metadata.constructor', 'not_equal', { type: 'str_value', value: 'x' }), facts({ metadata: {} }))).toBe(
      true,
    );
    expect(comparisonHolds(cmp('metadata.toString', 'equal', { type: 'str_value', value: 'x' }), facts({ metadata: {} }))).toBe(false);
  });

  /** Statement trees whose comparisons are `metadata.k<i> equal "1"`, with the truth of each set by the payment's metadata. */
  const KEYS = 6;
  const statementArb: fc.Memo<IfStatement> = fc.memo((depth) =>
    fc.record(
      {
        condition: fc.array(
          fc.integer({ min: 0, max: KEYS - 1 }).map((k) => cmp(`metadata.k${k}`, 'equal', { type: 'str_value', value: '1' })),
          { minLength: 1, maxLength: 3 },
        ),
        nested:
          depth <= 1
            ? fc.constant(undefined)
            : fc.option(fc.array(statementArb(depth - 1), { minLength: 1, maxLength: 3 }), { nil: undefined }),
      },
      { requiredKeys: ['condition'] },
    ),
  );
  /** The reference semantics, written independently: AND over the condition, then OR over nested when given. */
  const reference = (s: IfStatement, truth: boolean[]): boolean =>
    s.condition.every((c) => truth[Number(c.lhs.slice('metadata.k'.length))]) &&
    (s.nested === undefined || s.nested.some((n) => reference(n, truth)));

  test('statements: conditions AND-ed, nested OR-ed and AND-ed with the parent, rules first-match (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(statementArb(MAX_NESTING_DEPTH + 1), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: KEYS, maxLength: KEYS }),
        (rules, truth) => {
          const metadata = Object.fromEntries(truth.map((t, i) => [`k${i}`, t ? '1' : '0']));
          const f = facts({ metadata });
          for (const s of rules.flat()) expect(statementHolds(s, f)).toBe(reference(s, truth));
          const algorithm = program(rules.map((statements, i) => rule(`r${i}`, [mca(10 + i)], ...statements)));
          const expected = rules.findIndex((statements) => statements.some((s) => reference(s, truth)));
          expect(evaluateAlgorithm(algorithm, f)).toEqual([expected === -1 ? D : mca(10 + expected)]);
          // Every generated program is one the schema accepts (depth within bounds).
          expect(refusal({ name: 'generated', algorithm })).toBeNull();
        },
      ),
      fcOptions(300),
    );
  });

  test('a volume split in an advanced rule is drawn per payment too', () => {
    const big = facts({ amount: 5_000_000, card_network: 'visa' });
    const orders = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const f = { ...big, payment_id: newId('payment') };
      const order = evaluateAlgorithm(algorithm, f);
      expect(evaluateAlgorithm(algorithm, f)).toEqual(order);
      orders.add(order.join(','));
    }
    expect(orders).toEqual(new Set([`${A},${C}`, `${C},${A}`]));
  });
});

describe('candidateOrder', () => {
  test('keeps the candidates that may take the payment, in order, and says why the others were passed over', () => {
    const accounts = [
      account(A, [{ payment_method: 'card', currencies: ['NGN'], maximum_amount: 1_000_000 }]),
      account(B, undefined, { disabled: true, status: 'inactive' }),
      account(C, [{ payment_method: 'mobile_money', currencies: ['KES'] }]),
      account(D),
    ];
    const order = candidateOrder([B, mca(99), C, A, D, A], accounts, facts());
    expect(order.accounts.map((a) => a.merchant_connector_id)).toEqual([A, D]);
    expect(order.passed_over).toEqual([
      { merchant_connector_id: B, reason: 'disabled' },
      { merchant_connector_id: mca(99), reason: 'unknown_account' },
      { merchant_connector_id: C, reason: 'not_enabled' },
    ]);
    // Above the account's maximum amount (minor units).
    expect(candidateOrder([A, D], accounts, facts({ amount: 1_000_001 })).accounts.map((a) => a.merchant_connector_id)).toEqual([D]);
    // No method yet: any method of the currency counts.
    expect(candidateOrder([C], accounts, facts({ currency: 'KES', payment_method: undefined })).accounts).toHaveLength(1);
  });
});

describe('validateAlgorithm', () => {
  const everything = [account(A), account(B), account(C), account(D)];

  test('a valid algorithm has no problem; disabled accounts may be named (as in Hyperswitch)', () => {
    expect(validateAlgorithm(advancedBody().algorithm, everything)).toEqual([]);
    const disabled = everything.map((a) => ({ ...a, disabled: true, status: 'inactive' as const }));
    expect(validateAlgorithm(advancedBody().algorithm, disabled)).toEqual([]);
    expect(validateAlgorithm({ type: 'single', data: { merchant_connector_id: A } }, everything)).toEqual([]);
  });

  test('an account that is not the merchant’s (or deleted) is named by its field', () => {
    const accounts = everything.filter((a) => a.merchant_connector_id !== C);
    const problems = validateAlgorithm(advancedBody().algorithm, accounts);
    expect(problems.map((p) => p.param)).toEqual([
      'algorithm.data.rules.1.connector_selection.data.1.merchant_connector_id',
      'algorithm.data.rules.2.connector_selection.data.0.merchant_connector_id',
    ]);
    expect(problems[0]?.message).toMatch(/^No connector account of yours has this merchant_connector_id/);
    expect(validateAlgorithm({ type: 'single', data: { merchant_connector_id: C } }, accounts)).toEqual([
      { param: 'algorithm.data.merchant_connector_id', message: expect.stringContaining('No connector account of yours') },
    ]);
    expect(validateAlgorithm(priority(A, C), accounts).map((p) => p.param)).toEqual(['algorithm.data.1.merchant_connector_id']);
  });

  test('a rule sending KES payments to an account that enables no KES payments', () => {
    const accounts = [account(A, [{ payment_method: 'card', currencies: ['NGN', 'GHS'] }]), account(D)];
    const problems = validateAlgorithm(program([rule('kenya', [A], { condition: [enumIs('currency', 'KES')] })]), accounts);
    expect(problems).toEqual([
      {
        param: 'algorithm.data.rules.0.connector_selection.data.0.merchant_connector_id',
        message: expect.stringContaining('none of the currencies it enables is one the conditions allow'),
      },
    ]);
    expect(problems[0]?.message).not.toContain('KES');
    expect(problems[0]?.message).not.toContain(A);
  });

  test('a rule sending USSD payments to an account without USSD', () => {
    const accounts = [account(A, [{ payment_method: 'card', currencies: ['NGN'] }]), account(D)];
    const problems = validateAlgorithm(program([rule('ussd', [A], { condition: [enumIs('payment_method', 'ussd')] })]), accounts);
    expect(problems).toEqual([
      {
        param: 'algorithm.data.rules.0.connector_selection.data.0.merchant_connector_id',
        message: expect.stringContaining('none of the payment methods it enables is one the conditions allow'),
      },
    ]);
  });

  test('amounts beyond an account’s maximum, and a currency+method pair it does not combine', () => {
    const accounts = [
      account(A, [
        { payment_method: 'card', currencies: ['NGN'], maximum_amount: 1_000_000 },
        { payment_method: 'ussd', currencies: ['KES'] },
      ]),
      account(D),
    ];
    const big = program([
      rule('big', [A], {
        condition: [cmp('amount', 'greater_than', { type: 'number', value: 1_000_000 }), enumIs('payment_method', 'card')],
      }),
    ]);
    expect(validateAlgorithm(big, accounts)[0]?.message).toContain(
      'its minimum and maximum amounts exclude every amount the conditions allow',
    );
    const pair = program([rule('pair', [A], { condition: [enumIs('currency', 'KES'), enumIs('payment_method', 'card')] })]);
    expect(validateAlgorithm(pair, accounts)[0]?.message).toContain('combines a currency, payment method and amount');
  });

  test("the connector's own capabilities count when given", () => {
    const accounts = [account(A, [{ payment_method: 'mobile_money', currencies: ['KES'] }]), account(D)];
    const algorithm = program([rule('kes', [A], { condition: [enumIs('currency', 'KES')] })]);
    expect(validateAlgorithm(algorithm, accounts)).toEqual([]);
    const paystackNoKes: CapabilitiesOf = () => ({ currencies: ['NGN', 'GHS'], payment_methods: [...PAYMENT_METHODS] });
    expect(validateAlgorithm(algorithm, accounts, paystackNoKes)).toEqual([
      expect.objectContaining({ param: 'algorithm.data.rules.0.connector_selection.data.0.merchant_connector_id' }),
      // The default selection's account (D, every currency) is limited to NGN and GHS but still takes payments.
    ]);
  });

  test('each currency a rule lists must be taken by an account of its selection', () => {
    const accounts = [
      account(A, [{ payment_method: 'card', currencies: ['NGN'] }]),
      account(B, [{ payment_method: 'card', currencies: ['GHS'] }]),
      account(D),
    ];
    const listed = (to: string[]) =>
      program([rule('west', to, { condition: [cmp('currency', 'in', { type: 'enum_variant_array', value: ['NGN', 'KES', 'GHS'] })] })]);
    expect(validateAlgorithm(listed([A, B]), accounts)).toEqual([
      {
        param: 'algorithm.data.rules.0.statements.0.condition.0.value.value.1',
        message: expect.stringContaining("No connector account of this rule's connector_selection takes this currency"),
      },
    ]);
    expect(validateAlgorithm(listed([A, B, D]), accounts)).toEqual([]);
    // Under a nested payment method: mobile money in NGN or GHS is taken by no one (the statement is named).
    const nested = program([
      rule('west', [A, B], {
        condition: [cmp('currency', 'in', { type: 'enum_variant_array', value: ['NGN', 'GHS'] })],
        nested: [{ condition: [enumIs('payment_method', 'card')] }, { condition: [enumIs('payment_method', 'mobile_money')] }],
      }),
    ]);
    expect(validateAlgorithm(nested, accounts)).toEqual([
      {
        param: 'algorithm.data.rules.0.statements.0.nested.1.condition',
        message: expect.stringContaining("No connector account of this rule's connector_selection can take the payments this statement"),
      },
    ]);
    // KES card is taken by no one while NGN card is: the value is named.
    const kesCard = program([
      rule('cards', [A], {
        condition: [enumIs('payment_method', 'card')],
        nested: [{ condition: [cmp('currency', 'in', { type: 'enum_variant_array', value: ['NGN', 'KES'] })] }],
      }),
    ]);
    expect(validateAlgorithm(kesCard, accounts).map((p) => p.param)).toEqual([
      'algorithm.data.rules.0.statements.0.nested.0.condition.0.value.value.1',
    ]);
  });

  test('statements that contradict themselves are named', () => {
    const contradictions = program([
      rule('two currencies', [A], { condition: [enumIs('currency', 'NGN'), enumIs('currency', 'KES')] }),
      rule('nested', [A], {
        condition: [enumIs('payment_method', 'card')],
        nested: [{ condition: [cmp('payment_method', 'not_equal', { type: 'enum_variant', value: 'card' })] }],
      }),
      rule('amounts', [A], {
        condition: [
          cmp('amount', 'greater_than', { type: 'number', value: 500 }),
          cmp('amount', 'less_than_equal', { type: 'number', value: 500 }),
        ],
      }),
      rule('every currency excluded', [A], {
        condition: [cmp('currency', 'not_in', { type: 'enum_variant_array', value: [...CURRENCIES] })],
      }),
      rule('metadata', [A], {
        condition: [
          cmp('metadata.tier', 'equal', { type: 'str_value', value: 'gold' }),
          cmp('metadata', 'equal', { type: 'metadata_variant', value: { key: 'tier', value: 'silver' } }),
        ],
      }),
      rule('fine', [A], { condition: [cmp('card_network', 'not_equal', { type: 'enum_variant', value: 'visa' })] }),
    ]);
    const problems = validateAlgorithm(contradictions, everything);
    expect(problems.map((p) => p.param)).toEqual([
      'algorithm.data.rules.0.statements.0.condition',
      'algorithm.data.rules.1.statements.0.nested.0.condition',
      'algorithm.data.rules.2.statements.0.condition',
      'algorithm.data.rules.3.statements.0.condition',
      'algorithm.data.rules.4.statements.0.condition',
    ]);
    expect(problems.map((p) => p.message.match(/on (.+)\. Change/)?.[1])).toEqual([
      'currency',
      'payment_method',
      'amount',
      'currency',
      'a metadata key',
    ]);
  });

  test('the default selection and top-level lists are checked for payments at all', () => {
    const nothing = [account(A, []), account(D)];
    expect(validateAlgorithm(program([], [D, A]), nothing)).toEqual([
      {
        param: 'algorithm.data.default_selection.data.1.merchant_connector_id',
        message: expect.stringContaining('cannot take any payment the default selection sends it: it enables no payments'),
      },
    ]);
    expect(
      validateAlgorithm(
        {
          type: 'volume_split',
          data: [
            { split: 60, merchant_connector_id: D },
            { split: 40, merchant_connector_id: A },
          ],
        },
        nothing,
      ).map((p) => p.param),
    ).toEqual(['algorithm.data.1.merchant_connector_id']);
  });

  test('problems never repeat an id or value of the request (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{20,40}$/), (suffix) => {
        const unknown = `mca_${suffix}`;
        const problems = validateAlgorithm(program([rule('r', [unknown], { condition: [enumIs('currency', 'KES')] })], [unknown]), []);
        return problems.length === 2 && problems.every((p) => !p.message.includes(suffix) && !p.message.includes('KES'));
      }),
      fcOptions(100),
    );
  });
});
