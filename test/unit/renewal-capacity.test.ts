/**
 * The renewal worker's cost model (scripts/capacity/renewals.ts, docs/capacity.md "Renewals"): the arithmetic
 * against values worked out by hand. Pure, no DynamoDB.
 */
import { DEFAULT_RENEWAL_LOAD, RENEWAL_CALLS, renewalCapacity, renewalSection } from '../../scripts/capacity/renewals';

describe('renewal capacity', () => {
  test('calls per renewal, counted from the code: 8 GetItem, 5 TransactWriteItems of 13 items, 1 UpdateItem, 1/100 Query', () => {
    const c = renewalCapacity(DEFAULT_RENEWAL_LOAD);
    expect(RENEWAL_CALLS).toHaveLength(14);
    expect(c.calls).toEqual({ getItem: 8, transactWrite: 5, transactWriteItems: 13, updateItem: 1, queryShare: 0.01 });
  });

  test('units per renewal at the default sizes', () => {
    const c = renewalCapacity(DEFAULT_RENEWAL_LOAD);
    // 8 strong GetItems of items under 4 KB; a due Query of 100 × 1,328 B = 132,800 B → 33 × 4 KB × 0.5 = 16.5 RCU / 100.
    expect(c.rcu.getItems).toBe(8);
    expect(c.rcu.queryShare).toBeCloseTo(0.165, 10);
    expect(c.rcu.total).toBeCloseTo(8.165, 10);
    // Transactional 2 WCU per KB: renew 4+2+4+4 = 14; the try marked on the invoice 2; payment 4+4+2 = 10;
    // outcome of the call 4+4 = 8; last_used_at 2 (not transactional); invoice outcome 4+2+4 = 10 → 46.
    expect(c.baseWcu).toBe(46);
    // The due entry moves twice (to now, then to the next period's end): 4 index writes × 2 WCU (1,328 B).
    expect(c.dueIndexWrites).toBe(4);
    expect(c.dueIndexWcu).toBe(8);
  });

  test('1,000,000 renewals of one merchant on the 1st, the worker as deployed (4 partitions, 100 each, 8 at once)', () => {
    const c = renewalCapacity(DEFAULT_RENEWAL_LOAD);
    expect(c.entriesPerPartition).toBe(250_000);
    expect(c.itemMs).toBe(300 + 14 * 8); // 412 ms
    expect(c.perRun).toBe(400); // read-bound: 4 × 100 (8 slots could finish floor(8 × 285,000 / 412) = 5,533)
    expect(c.runSeconds).toBeCloseTo(20.6, 10); // 50 rounds × 412 ms
    expect(c.perSecond).toBeCloseTo(400 / 60, 10);
    expect(c.runs).toBe(2500);
    expect(c.hours).toBeCloseTo(2500 / 60, 10); // 41.7 h
    expect(c.duePartitionWcuPerSecond).toBeCloseTo((400 / 60 / 4) * 8, 10); // 13.3 WCU/s
    expect(c.duePartitionsLimitPerSecond).toBe(500); // 1,000 / 8 × 4
  });

  test('raising BILLING_DUE_SHARDS and the concurrency together', () => {
    const c = renewalCapacity({ ...DEFAULT_RENEWAL_LOAD, dueShards: 12, concurrency: 24 });
    expect(c.perRun).toBe(1200);
    expect(c.runSeconds).toBeCloseTo(20.6, 10);
    expect(c.runs).toBe(834);
    expect(c.hours).toBeCloseTo((834 * 60) / 3600, 10); // 13.9 h
    // More partitions alone, with 8 slots: 1,600 read, 1,600 finished in 200 × 412 ms = 82.4 s, so a run every 82.4 s.
    const shardsOnly = renewalCapacity({ ...DEFAULT_RENEWAL_LOAD, dueShards: 16 });
    expect(shardsOnly.perRun).toBe(1600);
    expect(shardsOnly.runSeconds).toBeCloseTo(82.4, 10);
    expect(shardsOnly.perSecond).toBeCloseTo(1600 / 82.4, 10);
  });

  test('a slow processor makes the slots the bound', () => {
    const c = renewalCapacity({ ...DEFAULT_RENEWAL_LOAD, dueShards: 100, processorMs: 2888 });
    // 3,000 ms an item: 8 slots finish floor(8 × 285,000 / 3,000) = 760 of the 10,000 read.
    expect(c.itemMs).toBe(3000);
    expect(c.perRun).toBe(760);
  });

  test('the printed section names the backlog', () => {
    expect(renewalSection()).toContain('**41.7 h**');
  });
});
