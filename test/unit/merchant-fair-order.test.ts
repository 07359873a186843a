/** Round-robin by merchant (shared/domain/merchant-fair-order.ts), as the reconciler hands due webhook retries over. */
import fc from 'fast-check';
import { interleaveByMerchant } from '../../shared/domain/merchant-fair-order';

test('a merchant with many due items takes one turn per round; each merchant keeps its own order', () => {
  const flood = Array.from({ length: 1000 }, (_, i) => ({ merchantId: 'mer_flood', id: `f${i}` }));
  const items = [...flood.slice(0, 500), { merchantId: 'mer_quiet', id: 'q0' }, ...flood.slice(500), { merchantId: 'mer_other', id: 'o0' }];
  const ordered = interleaveByMerchant(items);
  // Cut at 3 (a run's cap): every merchant is in, not 3 of the flood's.
  expect(ordered.slice(0, 3).map((i) => i.id)).toEqual(['f0', 'q0', 'o0']);
  expect(ordered.filter((i) => i.merchantId === 'mer_flood').map((i) => i.id)).toEqual(flood.map((i) => i.id));
});

test('property: a permutation of its input, each merchant in its order, and no merchant twice before every other with items left had a turn', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { maxLength: 60 }), (merchants) => {
      const items = merchants.map((merchantId, i) => ({ merchantId, i }));
      const out = interleaveByMerchant(items);
      expect([...out].sort((x, y) => x.i - y.i)).toEqual(items);
      for (const m of new Set(merchants)) expect(out.filter((x) => x.merchantId === m)).toEqual(items.filter((x) => x.merchantId === m));
      // Within any prefix, counts of two merchants differ by at most 1 while both still have items.
      const total = new Map<string, number>();
      for (const m of merchants) total.set(m, (total.get(m) ?? 0) + 1);
      const seen = new Map<string, number>();
      for (const x of out) {
        seen.set(x.merchantId, (seen.get(x.merchantId) ?? 0) + 1);
        for (const [m, n] of total) {
          if ((seen.get(m) ?? 0) < n) expect((seen.get(x.merchantId) ?? 0) - (seen.get(m) ?? 0)).toBeLessThanOrEqual(1);
        }
      }
    }),
  );
});
