import { boundedListPage } from '../../shared/domain/bounded-list-page';
import { listQuerySchema, nestCreatedParams } from '../../shared/schemas/list-query-schema';
import { sortKeyBounds } from '../../shared/storage/list-items';

const T = '2026-11-21T10:00:00.000Z';
const key = (iso: string, id = 'pay_abc') => `${iso}#${id}`;
const inBounds = (b: { lower?: string; upper?: string }, k: string) =>
  (b.lower === undefined || k >= b.lower) && (b.upper === undefined || k <= b.upper);

describe('created range → sort key bounds', () => {
  test('gte includes T, gt excludes it', () => {
    expect(inBounds(sortKeyBounds({ gte: T }), key(T))).toBe(true);
    expect(inBounds(sortKeyBounds({ gt: T }), key(T))).toBe(false);
    expect(inBounds(sortKeyBounds({ gt: T }), key('2026-11-21T10:00:00.001Z'))).toBe(true);
  });

  test('lte includes T, lt excludes it', () => {
    expect(inBounds(sortKeyBounds({ lte: T }), key(T, 'pay_zzzzzzzz'))).toBe(true);
    expect(inBounds(sortKeyBounds({ lt: T }), key(T))).toBe(false);
    expect(inBounds(sortKeyBounds({ lt: T }), key('2026-11-21T09:59:59.999Z'))).toBe(true);
  });

  test('the stricter of two lower bounds wins; an impossible range is empty', () => {
    const b = sortKeyBounds({ gte: '2026-01-01T00:00:00.000Z', gt: T });
    expect(inBounds(b, key(T))).toBe(false);
    expect(sortKeyBounds({ gt: T, lt: T }).empty).toBe(true);
    expect(sortKeyBounds({ gte: T, lte: T }).empty).toBe(false);
  });
});

describe('list query parsing', () => {
  const schema = listQuerySchema({});
  const parse = (q: Record<string, string>) => schema.safeParse(nestCreatedParams(q));

  test('defaults and both created spellings', () => {
    const a = parse({ 'created[gte]': '1763719200', 'created.lt': '2026-11-22T00:00:00Z' });
    expect(a.success && a.data.list).toEqual({
      limit: 20,
      created: { gte: new Date(1763719200 * 1000).toISOString(), lt: '2026-11-22T00:00:00.000Z' },
    });
  });

  test('rejects out-of-range limits, both cursors, bad timestamps and unknown keys', () => {
    const cases: Record<string, string>[] = [
      { limit: '0' },
      { limit: '101' },
      { limit: '2.5' },
      { offset: '-1' },
      { offset: '1', starting_after: 'pay_x' },
      { 'created[gte]': 'yesterday' },
      { colour: 'red' },
    ];
    for (const q of cases) {
      expect(parse(q).success).toBe(false);
    }
  });
});

describe('boundedListPage with ending_before', () => {
  const items = ['e', 'd', 'c', 'b', 'a'].map((id, i) => ({ id, created_at: `2026-01-0${5 - i}T00:00:00.000Z` }));
  const page = (query: Record<string, unknown>) =>
    boundedListPage(
      items,
      { limit: 2, ...query } as never,
      (x) => x.id,
      (x) => x.created_at,
      () => new Error('unknown') as never,
    );
  test('the items just before the cursor, newest first; has_more when newer ones remain; none before the newest', () => {
    expect(page({ endingBefore: 'b' })).toEqual({ data: [items[1], items[2]], has_more: true });
    expect(page({ endingBefore: 'd' })).toEqual({ data: [items[0]], has_more: false });
    expect(page({ endingBefore: 'e' })).toEqual({ data: [], has_more: false });
    expect(() => page({ endingBefore: 'zz' })).toThrow('unknown');
  });
});
