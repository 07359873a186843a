import { CLAIM_LEASE_MS, leaseActive, startPendingOperation, viewPendingOperation } from '../../shared/domain/pending-operation';
import { ANSWER_RESERVE_MS, API_GATEWAY_TIMEOUT_MS, requestDeadline } from '../../shared/operations/request-context';
import { MAX_CHECK_INTERVAL_MS, nextCheckAt, reconcileMinAgeMs } from '../../shared/settings/reconcile-settings';
import {
  DEFAULT_OPEN_INDEX_SHARDS,
  OPEN_INDEX_SHARDS,
  openIndexKeys,
  openIndexShardCount,
  openShard,
  openShards,
} from '../../shared/storage/item-keys';

describe('pending operations', () => {
  const t0 = Date.parse('2026-11-24T10:00:00.000Z');
  const op = startPendingOperation('capture', 'stripe', 'pay_abc', 5000, t0);

  test("a claim on a merchant's connector account records the account, and its view shows it", () => {
    const claim = startPendingOperation('authorize', { name: 'stripe', merchantConnectorId: 'mca_abc' }, 'pay_abc', 5000, t0);
    expect(claim).toMatchObject({ connector: 'stripe', merchant_connector_id: 'mca_abc' });
    expect(viewPendingOperation(claim, t0)).toMatchObject({ merchant_connector_id: 'mca_abc', state: 'in_progress' });
  });

  test('a claim records connector, reference, amount and a lease of CLAIM_LEASE_MS', () => {
    expect(op).toEqual({
      operation: 'capture',
      connector: 'stripe',
      merchant_connector_id: null,
      reference: 'pay_abc',
      amount: 5000,
      started_at: '2026-11-24T10:00:00.000Z',
      lease_expires_at: new Date(t0 + CLAIM_LEASE_MS).toISOString(),
    });
    expect(CLAIM_LEASE_MS).toBeGreaterThan(API_GATEWAY_TIMEOUT_MS); // outlasts any API request that can hold it
  });

  test('in_progress while the lease runs, outcome_unknown from its end', () => {
    expect(leaseActive(op, t0 + CLAIM_LEASE_MS - 1)).toBe(true);
    expect(leaseActive(op, t0 + CLAIM_LEASE_MS)).toBe(false);
    expect(viewPendingOperation(op, t0 + 1)?.state).toBe('in_progress');
    expect(viewPendingOperation(op, t0 + CLAIM_LEASE_MS)?.state).toBe('outcome_unknown');
    expect(viewPendingOperation(null)).toBeNull();
  });
});

describe('reconciler settings', () => {
  afterEach(() => {
    delete process.env.RECONCILE_MIN_AGE_SECONDS;
  });

  test('minimum age from RECONCILE_MIN_AGE_SECONDS (default 60 s; junk falls back)', () => {
    expect(reconcileMinAgeMs()).toBe(60_000);
    process.env.RECONCILE_MIN_AGE_SECONDS = '5';
    expect(reconcileMinAgeMs()).toBe(5000);
    process.env.RECONCILE_MIN_AGE_SECONDS = 'soon';
    expect(reconcileMinAgeMs()).toBe(60_000);
  });

  test('checks back off ×2 from the minimum age and never wait more than 6 h', () => {
    const now = 1_000_000;
    const delays = [0, 1, 2, 3].map((n) => Date.parse(nextCheckAt(n, now)) - now);
    expect(delays).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Date.parse(nextCheckAt(50, now)) - now).toBe(MAX_CHECK_INTERVAL_MS);
  });
});

describe('open-operations index keys', () => {
  test('items spread over every shard; the sort key starts with the due time', () => {
    const seen = new Set(Array.from({ length: 2000 }, (_, i) => openShard(`pay_${i.toString(36)}x`)));
    expect(seen).toEqual(new Set(openShards()));
    expect(openShards()).toHaveLength(OPEN_INDEX_SHARDS);
    expect(openShard('pay_1')).toBe(openShard('pay_1'));
    expect(openIndexKeys('ref_9', '2026-11-24T10:00:00.000Z')).toEqual({
      GSI5PK: openShard('ref_9'),
      GSI5SK: '2026-11-24T10:00:00.000Z#ref_9',
    });
  });
});

describe('request budget', () => {
  test('processor calls end 3 s before API Gateway or the Lambda gives up, whichever is first', () => {
    expect(requestDeadline(29_000, 0)).toBe(29_000 - ANSWER_RESERVE_MS);
    expect(requestDeadline(120_000, 0)).toBe(API_GATEWAY_TIMEOUT_MS - ANSWER_RESERVE_MS);
  });
});

describe('open-operations index shard count (OPEN_INDEX_SHARDS)', () => {
  test('a whole number from 1 to 1,000 is taken; anything else falls back to the default', () => {
    expect(openIndexShardCount('160')).toBe(160);
    expect(openIndexShardCount('1')).toBe(1);
    expect(openIndexShardCount('1000')).toBe(1000);
    for (const bad of [undefined, '', '0', '-4', '2.5', '1001', 'many']) expect(openIndexShardCount(bad)).toBe(DEFAULT_OPEN_INDEX_SHARDS);
  });
});
