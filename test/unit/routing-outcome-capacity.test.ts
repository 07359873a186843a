/**
 * Success-rate routing's outcome counters in the capacity model (scripts/capacity/routing-outcomes.ts, printed by
 * `npm run capacity`): the arithmetic against values worked out by hand, the key pattern against the real keys,
 * and the report's verdict. Pure, no DynamoDB.
 */

import { keyPattern, patternScope } from '../../scripts/capacity/key-patterns';
import { DEFAULT_OUTCOME_LOAD, OUTCOME_PARTITION_PATTERN, outcomeCapacity, outcomeSection } from '../../scripts/capacity/routing-outcomes';
import { ROUTING_OUTCOME_SHARDS, routingOutcomeKeys } from '../../shared/storage/item-keys';

test('the model covers the real counter partitions: every shard of a merchant is one merchant-scoped pattern', () => {
  const m = 'mer_capacity0123456789';
  const patterns = new Set(Array.from({ length: ROUTING_OUTCOME_SHARDS }, (_, k) => keyPattern(routingOutcomeKeys.partition(m, k), [m])));
  expect([...patterns]).toEqual([OUTCOME_PARTITION_PATTERN]);
  expect(patternScope(OUTCOME_PARTITION_PATTERN)).toBe('merchant');
  expect(DEFAULT_OUTCOME_LOAD.shards).toBe(ROUTING_OUTCOME_SHARDS);
});

test('2,000 payments/s of one merchant over 8 shards, 5 % retried once, 1 WCU an outcome: 262.5 WCU/s a partition (26 %)', () => {
  const c = outcomeCapacity({ ...DEFAULT_OUTCOME_LOAD, counterBytes: 396, writeUnitsPerOutcome: 1 });
  expect(c.writesPerPayment).toBeCloseTo(1.05, 10);
  expect(c.writesPerPartition).toBeCloseTo((2000 * 1.05) / 8, 10);
  expect(c.wcuShare).toBeCloseTo(0.2625, 10);
  // A refresh Query returns 3 accounts × 20 segments × 3 buckets = 180 items of 396 B = 71,280 B → 18 × 4 KB,
  // eventually consistent: 9 RCU; 100 containers every 5 s: 20 Queries/s → 180 RCU/s (6 %).
  expect(c.itemsPerQuery).toBe(180);
  expect(c.rcuPerQuery).toBe(9);
  expect(c.rcuPerPartition).toBeCloseTo(180, 10);
  expect(c.rcuShare).toBeCloseTo(0.06, 10);
  expect(c.met).toBe(true);
  // 2,100 WCU/s at 500 a partition.
  expect(c.leastShards).toBe(5);
});

test('not met when the shards are too few for the writes (one partition at 2,000/s), and the report says so', () => {
  const one = { ...DEFAULT_OUTCOME_LOAD, shards: 1 };
  expect(outcomeCapacity(one).met).toBe(false);
  expect(outcomeSection(one)).toContain('not met');
  const report = outcomeSection(DEFAULT_OUTCOME_LOAD);
  expect(report).toContain(`\`${OUTCOME_PARTITION_PATTERN}\` writes`);
  expect(report).toContain(`\`${OUTCOME_PARTITION_PATTERN}\` reads`);
  expect(report).toMatch(/Verdict: met: every counter partition at or under 50 % at 2000 payments\/s for one merchant/);
});

test('reads: more containers or a shorter cache raise the reads, more shards do not lower them', () => {
  const base = outcomeCapacity(DEFAULT_OUTCOME_LOAD);
  expect(outcomeCapacity({ ...DEFAULT_OUTCOME_LOAD, shards: 16 }).rcuPerPartition).toBe(base.rcuPerPartition);
  expect(outcomeCapacity({ ...DEFAULT_OUTCOME_LOAD, containers: 1000 }).rcuShare).toBeCloseTo(base.rcuShare * 10, 10);
  expect(outcomeCapacity({ ...DEFAULT_OUTCOME_LOAD, containers: 2000 }).met).toBe(false);
});
