import fc from 'fast-check';
import { mergeNewestFirst } from '../../shared/storage/list-items';
import {
  LIST_SHARDS_MAX,
  listShards,
  shardCount,
  shardOf,
  shardPartition,
  shardPartitions,
  stableHash,
} from '../../shared/storage/list-shards';

describe('list shard keys', () => {
  test('stableHash is 32-bit FNV-1a: fixed values, so an id maps to the same shard in every process and release', () => {
    expect(stableHash('')).toBe(0x811c9dc5);
    expect(stableHash('a')).toBe(0xe40c292c);
    expect(stableHash('foobar')).toBe(0xbf9cf968);
  });

  test('shard 0 is the unsuffixed partition (data written before sharding); k ≥ 1 is #S<k>', () => {
    expect(shardPartition('MERCHANT#m#PAYMENTS', 0)).toBe('MERCHANT#m#PAYMENTS');
    expect(shardPartition('MERCHANT#m#PAYMENTS', 3)).toBe('MERCHANT#m#PAYMENTS#S3');
    expect(shardPartitions('MERCHANT#m#EVENTS', 3)).toEqual(['MERCHANT#m#EVENTS', 'MERCHANT#m#EVENTS#S1', 'MERCHANT#m#EVENTS#S2']);
    expect(shardPartitions('P', 0)).toEqual(['P']);
  });

  test('shardOf stays in 0..N−1, is 0 for one shard, and spreads ids evenly', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: LIST_SHARDS_MAX }), (id, n) => {
        const k = shardOf(id, n);
        return Number.isInteger(k) && k >= 0 && k < n && (n > 1 || k === 0);
      }),
    );
    const counts = new Array(8).fill(0) as number[];
    for (let i = 0; i < 8000; i += 1) {
      const k = shardOf(`pay_${i.toString(16).padStart(32, '0')}`, 8);
      counts[k] = (counts[k] ?? 0) + 1;
    }
    for (const c of counts) expect(c).toBeGreaterThan(800);
  });

  test('stored counts are normalised; read is never below write', () => {
    expect(shardCount(undefined)).toBe(1);
    expect(shardCount('x')).toBe(1);
    expect(shardCount(0)).toBe(1);
    expect(shardCount(4.7)).toBe(4);
    expect(shardCount(10_000)).toBe(LIST_SHARDS_MAX);
    expect(listShards(undefined)).toEqual({ read: 1, write: 1 });
    expect(listShards({ read: 2, write: 4 })).toEqual({ read: 4, write: 4 });
    expect(listShards({ read: 8, write: 4 })).toEqual({ read: 8, write: 4 });
  });
});

describe('merging shard pages', () => {
  test('property: the top `wanted` of every shard, merged, is the top `wanted` of the whole list', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.stringMatching(/^[0-9a-f]{4}$/)), {
          selector: ([t, id]) => `${t}#${id}`,
          maxLength: 200,
        }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 60 }),
        (rows, shards, wanted) => {
          const items = rows.map(([t, id]) => ({ id, GSI1SK: `2026-01-01T00:00:00.${String(t).padStart(3, '0')}Z#${id}` }));
          const newest = (xs: typeof items) => [...xs].sort((a, b) => (a.GSI1SK < b.GSI1SK ? 1 : -1));
          const pages = Array.from({ length: shards }, (_, k) => newest(items.filter((x) => shardOf(x.id, shards) === k)).slice(0, wanted));
          const merged = mergeNewestFirst(pages, 'GSI1SK', wanted);
          expect(merged.map((x) => x.GSI1SK)).toEqual(
            newest(items)
              .slice(0, wanted)
              .map((x) => x.GSI1SK),
          );
        },
      ),
    );
  });
});
