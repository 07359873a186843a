/**
 * The capacity model's arithmetic (scripts/capacity/*): DynamoDB's item size rules, capacity-unit
 * rounding, key patterns and the shard computation. Pure functions, no DynamoDB.
 * Rules: AWS "DynamoDB item sizes and formats" and "DynamoDB read and write operations".
 */
import { itemSize, numberSize, projectedSize, readUnits, valueSize, writeUnits } from '../../scripts/capacity/item-size';
import { keyPattern, listBase, patternScope } from '../../scripts/capacity/key-patterns';
import {
  hottestCounterLeases,
  type Layout,
  type LoadSpec,
  minimumOpenShards,
  minimumShards,
  OPERATIONS,
  operationRates,
  partitionLoad,
  readRequestsPerMerchant,
  totalUnits,
  type UnitRecord,
  writeRequestsPerMerchant,
} from '../../scripts/capacity/model';

describe('item size rules (AWS "DynamoDB item sizes and formats")', () => {
  test('a string is its name and value in UTF-8 bytes', () => {
    expect(itemSize({ name: { S: 'abc' } })).toBe(4 + 3);
    expect(itemSize({ città: { S: 'é€' } })).toBe(6 + 2 + 3);
  });

  test('a number is 1 byte per two significant digits + 1, leading and trailing zeroes trimmed', () => {
    expect(numberSize('7')).toBe(2);
    expect(numberSize('12345')).toBe(4);
    expect(numberSize('123456')).toBe(4);
    expect(numberSize('-1200')).toBe(2);
    expect(numberSize('0.00100')).toBe(2);
    expect(numberSize('1712345678')).toBe(6);
    expect(itemSize({ amount: { N: '12500' } })).toBe(6 + 3); // "125" once trailing zeroes are trimmed
  });

  test('Boolean and null take 1 byte; binary its raw bytes', () => {
    expect(valueSize({ BOOL: false })).toBe(1);
    expect(valueSize({ NULL: true })).toBe(1);
    expect(valueSize({ B: new Uint8Array(10) })).toBe(10);
  });

  test('a List or Map is 3 bytes + 1 byte and the size of each element (a Map element with its name)', () => {
    expect(itemSize({ m: { M: {} } })).toBe(1 + 3);
    expect(itemSize({ l: { L: [] } })).toBe(1 + 3);
    expect(valueSize({ L: [{ S: 'a' }, { S: 'bc' }] })).toBe(3 + (1 + 1) + (1 + 2));
    expect(valueSize({ M: { k: { S: 'v' }, n: { N: '10' } } })).toBe(3 + (1 + 1 + 1) + (1 + 1 + 2));
    expect(valueSize({ M: { inner: { M: { a: { BOOL: true } } } } })).toBe(3 + (1 + 5 + (3 + (1 + 1 + 1))));
  });

  test('a projection counts only its attributes (KEYS_ONLY: the table and index keys)', () => {
    const item = { PK: { S: 'MERCHANT#m#PAYMENT#p' }, SK: { S: 'PAYMENT' }, GSI1PK: { S: 'x' }, body: { S: 'y'.repeat(900) } };
    expect(projectedSize(item, ['PK', 'SK', 'GSI1PK', 'GSI1SK'])).toBe(2 + 20 + 2 + 7 + 6 + 1);
    expect(itemSize(item)).toBe(projectedSize(item, ['PK', 'SK', 'GSI1PK']) + 4 + 900);
  });
});

describe('capacity units (AWS "DynamoDB read and write operations")', () => {
  test('writes: one unit per started 1 KB (1,024 bytes), at least one; transactional writes twice that', () => {
    expect(writeUnits(0)).toBe(1);
    expect(writeUnits(500)).toBe(1);
    expect(writeUnits(1024)).toBe(1);
    expect(writeUnits(1025)).toBe(2);
    expect(writeUnits(1840)).toBe(2);
    expect(writeUnits(1500, true)).toBe(4);
  });

  test('reads: one unit per started 4 KB strongly consistent (a 3,500-byte item costs as 4 KB), half eventually consistent, twice transactional', () => {
    expect(readUnits(3500)).toBe(1);
    expect(readUnits(3500, 'eventual')).toBe(0.5);
    expect(readUnits(4096)).toBe(1);
    expect(readUnits(4097)).toBe(2);
    expect(readUnits(8193, 'eventual')).toBe(1.5);
    expect(readUnits(4096, 'transactional')).toBe(2);
    expect(readUnits(0)).toBe(1);
  });
});

describe('key patterns', () => {
  const m = 'mer_capacity0123abcd';
  test('ids, hashes, merchants and shard numbers become placeholders; statuses and types stay', () => {
    expect(keyPattern(`MERCHANT#${m}#PAYMENT#pay_0123456789abcdef0123456789abcdef`, [m])).toBe('MERCHANT#<m>#PAYMENT#<pay>');
    expect(keyPattern(`MERCHANT#${m}#PAYMENTS#S7`, [m])).toBe('MERCHANT#<m>#PAYMENTS#S<k>');
    expect(keyPattern(`MERCHANT#${m}#PAYMENTS#STATUS#Succeeded`, [m])).toBe('MERCHANT#<m>#PAYMENTS#STATUS#Succeeded');
    expect(keyPattern('OPEN#13')).toBe('OPEN#<k>');
    expect(keyPattern(`APIKEY#${'ab'.repeat(32)}`)).toBe('APIKEY#<hash>');
  });

  test('scopes: one item, a merchant list (shardable), a merchant, the platform', () => {
    expect(patternScope('MERCHANT#<m>#PAYMENT#<pay>')).toBe('item');
    expect(patternScope('MERCHANT#<m>#PAYMENTS')).toBe('merchant-list');
    expect(patternScope('MERCHANT#<m>#PAYMENTS#S<k>')).toBe('merchant-list');
    expect(patternScope('MERCHANT#<m>#PAYMENTS#STATUS#Processing')).toBe('merchant-list');
    expect(patternScope('MERCHANT#<m>#EVENTS#TYPE#payment.succeeded')).toBe('merchant-list');
    expect(patternScope('MERCHANT#<m>#WEBHOOK_ENDPOINTS')).toBe('merchant');
    expect(patternScope('OPENWH#<k>')).toBe('global-sharded');
    expect(patternScope('idempotency#CreatePayment')).toBe('global');
    expect(patternScope('APIKEY#<hash>')).toBe('api-key');
    expect(listBase('MERCHANT#<m>#PAYMENTS#S<k>')).toBe('MERCHANT#<m>#PAYMENTS');
  });
});

describe('load and shards', () => {
  const load: LoadSpec = {
    paymentsPerSecond: 2000,
    merchants: 1,
    confirmRatio: 1,
    webhookRatio: 0.2,
    refundRatio: 0.1,
    retrieveRatio: 1,
    idempotencyRatio: 1,
    listPerSecond: 5,
    eventListPerSecond: 1,
    containersPerKey: 50,
    apiKeyCacheSeconds: 10,
  };
  const today: Layout = { name: 'today', shards: 1, projection: 'ALL', idempotency: 'per-function' };

  test('rate-limit counters: ~5 leases a second per container, over ceil(requests / 500) shards, never more than the requests', () => {
    expect(writeRequestsPerMerchant(load)).toBeCloseTo(4200);
    expect(readRequestsPerMerchant(load)).toBeCloseTo(2006);
    // 4,200 writes/s → 9 counter shards; 50 containers × 5 leases → 250 leases/s over 9.
    expect(hottestCounterLeases(load, 4200)).toBeCloseTo(250 / 9);
    // A quiet merchant: one lease per request at most, on one shard.
    expect(hottestCounterLeases(load, 3)).toBe(3);
    expect(hottestCounterLeases(load, 0)).toBe(0);
    expect(keyPattern('RATELIMIT#mer_1#write#1795507835#3', ['mer_1'])).toBe('RATELIMIT#<m>#write#<window>#<k>');
    expect(patternScope('RATELIMIT#<m>#write#<window>#<k>')).toBe('merchant');
  });
  const rec = (r: Partial<UnitRecord> & Pick<UnitRecord, 'operation' | 'pattern' | 'kind' | 'units'>): UnitRecord => ({
    command: 'PutItem',
    target: 'GSI1',
    unitsKeysOnly: r.units,
    detail: '',
    ...r,
  });
  const records: UnitRecord[] = [
    rec({ operation: OPERATIONS.create, pattern: 'MERCHANT#<m>#PAYMENTS', kind: 'write', units: 2, unitsKeysOnly: 1 }),
    rec({ operation: OPERATIONS.listPayments, pattern: 'MERCHANT#<m>#PAYMENTS', kind: 'read', units: 3 }),
    rec({ operation: OPERATIONS.create, pattern: 'MERCHANT#<m>#PAYMENT#<pay>', kind: 'write', units: 4, target: 'table' }),
    rec({ operation: OPERATIONS.confirmCard, pattern: 'MERCHANT#<m>#PAYMENT#<pay>', kind: 'write', units: 8, target: 'table' }),
    rec({ operation: OPERATIONS.idempotencyCreate, pattern: 'idempotency#<CreatePayment>', kind: 'write', units: 2, target: 'table' }),
    rec({ operation: OPERATIONS.create, pattern: 'OPEN#<k>', kind: 'write', units: 2, target: 'GSI5' }),
  ];

  test('rates per operation follow the load', () => {
    const r = operationRates(load);
    expect(r[OPERATIONS.create]).toBe(2000);
    expect(r[OPERATIONS.confirmCard]).toBe(1600);
    expect(r[OPERATIONS.confirmAsync]).toBe(400);
    expect(r[OPERATIONS.webhook]).toBe(400);
    expect(r[OPERATIONS.refund]).toBe(200);
    expect(r[OPERATIONS.listPayments]).toBe(5);
    expect(r[OPERATIONS.authTouch]).toBeCloseTo(1 / 60);
  });

  test('hottest partitions: a merchant list takes every write, an item one operation, the open index 1/16', () => {
    const rows = partitionLoad(records, load, today);
    const list = rows.find((r) => r.pattern === 'MERCHANT#<m>#PAYMENTS');
    expect(list).toMatchObject({ wcu: 4000, rcu: 15, scope: 'merchant-list' });
    expect(list?.share).toBeCloseTo(4 + 15 / 3000);
    expect(rows.find((r) => r.pattern === 'MERCHANT#<m>#PAYMENT#<pay>')).toMatchObject({ wcu: 8, rcu: 0 });
    expect(rows.find((r) => r.pattern === 'OPEN#<k>')?.wcu).toBe(250);
    expect(rows.find((r) => r.pattern === 'idempotency#<CreatePayment>')?.wcu).toBe(4000);
    expect(rows[0]?.pattern).toBe('MERCHANT#<m>#PAYMENTS');
  });

  test('list shards divide writes, not reads; hashed idempotency records leave the shared partition', () => {
    const rows = partitionLoad(records, load, { name: 's', shards: 10, projection: 'ALL', idempotency: 'per-record' });
    expect(rows.find((r) => r.pattern === 'MERCHANT#<m>#PAYMENTS')).toMatchObject({ wcu: 400, rcu: 15 });
    expect(rows.find((r) => r.pattern === 'IDEMPOTENCY#<hash>')).toMatchObject({ wcu: 2, scope: 'item' });
    expect(rows.find((r) => r.pattern.startsWith('idempotency#'))).toBeUndefined();
  });

  test('the least shard count: W/(1000·N) + R/3000 ≤ 50 %', () => {
    const rows = partitionLoad(records, load, today);
    // 4000 WCU/s and 15 RCU/s: N ≥ 4 / (0.5 − 0.005) = 8.08 → 9.
    expect(minimumShards(rows)).toBe(9);
    const keysOnly = partitionLoad(records, load, { ...today, projection: 'KEYS_ONLY' });
    // 2000 WCU/s: N ≥ 2 / 0.495 = 4.04 → 5.
    expect(minimumShards(keysOnly)).toBe(5);
    const atNine = partitionLoad(records, load, { ...today, shards: 9 }).find((r) => r.pattern === 'MERCHANT#<m>#PAYMENTS');
    expect(atNine?.share).toBeLessThanOrEqual(0.5);
    const atEight = partitionLoad(records, load, { ...today, shards: 8 }).find((r) => r.pattern === 'MERCHANT#<m>#PAYMENTS');
    expect(atEight?.share).toBeGreaterThan(0.5);
  });

  test('an exact fit needs no extra shard; reads alone above the target cannot be sharded away', () => {
    const exact = partitionLoad(
      [rec({ operation: OPERATIONS.create, pattern: 'MERCHANT#<m>#EVENTS', kind: 'write', units: 1 })],
      load,
      today,
    );
    expect(minimumShards(exact)).toBe(4); // 2000 WCU/s → 500 per shard at N = 4: exactly 50 %
    const readHeavy = partitionLoad(
      [rec({ operation: OPERATIONS.listPayments, pattern: 'MERCHANT#<m>#PAYMENTS', kind: 'read', units: 400 })],
      load,
      today,
    );
    expect(minimumShards(readHeavy)).toBe(Number.POSITIVE_INFINITY);
  });

  test('open-index shards: 250 WCU/s per shard at 16 shards = 4000 WCU/s → 8 shards at 50 %', () => {
    const rows = partitionLoad(records, load, today);
    expect(minimumOpenShards(rows)).toBe(8);
  });

  test('whole-table units: Σ units × rate over every partition', () => {
    expect(totalUnits(records, load, today)).toEqual({ wcu: 2000 * 2 + 2000 * 4 + 1600 * 8 + 2000 * 2 + 2000 * 2, rcu: 5 * 3 });
  });
});
