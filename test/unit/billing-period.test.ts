import fc from 'fast-check';
import {
  BILLING_INTERVALS,
  BILLING_TIME_MAX,
  BILLING_TIME_MIN,
  instantOf,
  isBillingTime,
  isLastBillingTime,
  MAX_INTERVAL_COUNT,
  nextPeriodEnd,
  periodBoundary,
  trialEnd,
} from '../../shared/domain/billing-period';
import { DEFAULT_DUNNING_POLICY, nextRetryAt } from '../../shared/domain/dunning';
import { invoiceIdFor } from '../../shared/domain/subscription';

const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

describe('billing period arithmetic', () => {
  test('anchored on the 31st: last day of shorter months, back to the 31st after', () => {
    const anchor = '2026-01-31T10:00:00.000Z';
    const ends = [1, 2, 3, 4, 5].map((n) => periodBoundary(anchor, 'month', 1, n));
    expect(ends).toEqual([
      '2026-02-28T10:00:00.000Z',
      '2026-03-31T10:00:00.000Z',
      '2026-04-30T10:00:00.000Z',
      '2026-05-31T10:00:00.000Z',
      '2026-06-30T10:00:00.000Z',
    ]);
    expect(periodBoundary('2024-02-29T00:00:00.000Z', 'year', 1, 1)).toBe('2025-02-28T00:00:00.000Z');
    expect(periodBoundary('2024-02-29T00:00:00.000Z', 'year', 1, 4)).toBe('2028-02-29T00:00:00.000Z');
    expect(periodBoundary('2026-01-01T00:00:00.000Z', 'week', 2, 1)).toBe('2026-01-15T00:00:00.000Z');
    expect(periodBoundary('2026-12-15T00:00:00.000Z', 'month', 3, 1)).toBe('2027-03-15T00:00:00.000Z');
    expect(nextPeriodEnd(anchor, 'month', 1, '2026-02-28T10:00:00.000Z')).toBe('2026-03-31T10:00:00.000Z');
    expect(trialEnd('2026-01-01T00:00:00.000Z', 14)).toBe('2026-01-15T00:00:00.000Z');
    expect(MAX_INTERVAL_COUNT).toEqual({ day: 365, week: 52, month: 12, year: 1 });
  });

  test('property: a monthly boundary keeps the anchor day, clamped to the month, and its time of day', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2090-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 60 }),
        (date, count, n) => {
          const anchor = date.toISOString();
          const end = new Date(periodBoundary(anchor, 'month', count, n));
          const months = date.getUTCFullYear() * 12 + date.getUTCMonth() + n * count;
          expect(end.getUTCFullYear() * 12 + end.getUTCMonth()).toBe(months);
          expect(end.getUTCDate()).toBe(Math.min(date.getUTCDate(), lastDay(end.getUTCFullYear(), end.getUTCMonth())));
          expect(end.toISOString().slice(10)).toBe(anchor.slice(10));
        },
      ),
    );
  });

  test('property: nextPeriodEnd is the first boundary strictly after the given time', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2080-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'year' as const),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 3_000 * 86_400_000 }),
        (date, interval, rawCount, offset) => {
          const count = Math.min(rawCount, { day: 365, week: 52, month: 12, year: 1 }[interval]);
          const anchor = date.toISOString();
          const at = new Date(date.getTime() + offset).toISOString();
          const end = nextPeriodEnd(anchor, interval, count, at);
          expect(end > at).toBe(true);
          let n = 1;
          while (periodBoundary(anchor, interval, count, n) !== end) n += 1;
          expect(n === 1 || periodBoundary(anchor, interval, count, n - 1) <= at).toBe(true);
        },
      ),
    );
  });
});

describe('invoice ids', () => {
  test('derived from (subscription, period start): the same period gives the same id, another period another', () => {
    const a = invoiceIdFor('sub_1', '2026-01-31T10:00:00.000Z');
    expect(a).toMatch(/^in_[0-9a-f]{32}$/);
    expect(invoiceIdFor('sub_1', '2026-01-31T10:00:00.000Z')).toBe(a);
    expect(invoiceIdFor('sub_1', '2026-02-28T10:00:00.000Z')).not.toBe(a);
    expect(invoiceIdFor('sub_2', '2026-01-31T10:00:00.000Z')).not.toBe(a);
  });
});

describe('billing time is bounded (1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z)', () => {
  const FIXED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
  test('a boundary past the end of billing time is the end; from there no later period exists', () => {
    expect(periodBoundary('9999-11-15T00:00:00.000Z', 'month', 1, 1)).toBe('9999-12-15T00:00:00.000Z');
    expect(periodBoundary('9999-11-15T00:00:00.000Z', 'month', 1, 2)).toBe(BILLING_TIME_MAX);
    expect(periodBoundary('9999-12-31T00:00:00.000Z', 'day', 1, 1)).toBe(BILLING_TIME_MAX);
    expect(nextPeriodEnd('9999-11-15T00:00:00.000Z', 'month', 1, '9999-12-15T00:00:00.000Z')).toBe(BILLING_TIME_MAX);
    expect(nextPeriodEnd('9999-11-15T00:00:00.000Z', 'month', 1, BILLING_TIME_MAX)).toBe(BILLING_TIME_MAX);
    expect(trialEnd('9999-12-20T00:00:00.000Z', 30)).toBe(BILLING_TIME_MAX);
    expect(nextRetryAt(DEFAULT_DUNNING_POLICY, '9999-12-30T00:00:00.000Z', 3, null)).toBe(BILLING_TIME_MAX);
    expect(isLastBillingTime(BILLING_TIME_MAX)).toBe(true);
    expect(isBillingTime('9999-12-31T23:59:59.001Z')).toBe(false);
    expect(isBillingTime('+010000-01-01T00:00:00.000Z')).toBe(false);
    expect(isBillingTime('1969-12-31T23:59:59.999Z')).toBe(false);
    expect(isBillingTime(BILLING_TIME_MIN)).toBe(true);
    expect(() => instantOf('not a time')).toThrow(RangeError);
  });

  test('property: every boundary is fixed-width, within the bound, ordered as text as in time, and walks forward to the bound', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.constantFrom(...BILLING_INTERVALS),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 20 }),
        (anchorDate, interval, rawCount, n) => {
          const count = Math.min(rawCount, MAX_INTERVAL_COUNT[interval]);
          const anchor = anchorDate.toISOString();
          const a = periodBoundary(anchor, interval, count, n);
          const b = periodBoundary(anchor, interval, count, n + 1);
          expect(a).toMatch(FIXED);
          expect(b).toMatch(FIXED);
          expect(isBillingTime(b)).toBe(true);
          // Text order is time order for every value billing writes.
          expect(a <= b).toBe(instantOf(a) <= instantOf(b));
          expect(instantOf(a)).toBeLessThanOrEqual(instantOf(b));
          const next = nextPeriodEnd(anchor, interval, count, a);
          expect(isBillingTime(next)).toBe(true);
          if (isLastBillingTime(a)) expect(next).toBe(BILLING_TIME_MAX);
          else expect(instantOf(next)).toBeGreaterThan(instantOf(a));
        },
      ),
      { numRuns: 300 },
    );
  });
});
