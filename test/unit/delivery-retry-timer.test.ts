/**
 * When the local retry timer (scripts/local/delivery-retry-timer.ts) looks at the index again: at the
 * next due time it saw, so a retry 1 s away is handed over after 1 s, not at the reconciler's next
 * run. A pure decision on a given clock.
 */
import { nextLookAt } from '../../scripts/local/delivery-retry-timer';

const NOW = Date.parse('2026-12-05T10:00:00.000Z');
const at = (offsetMs: number) => ({ dueAt: new Date(NOW + offsetMs).toISOString() });

test('the next look is at the earliest due time not yet reached, at most the poll interval away', () => {
  expect(
    nextLookAt(
      [
        { items: [at(-5), at(1_000)], more: false },
        { items: [at(2_000)], more: false },
      ],
      NOW,
      5_000,
    ),
  ).toBe(NOW + 1_000);
  expect(nextLookAt([{ items: [at(10_000)], more: false }], NOW, 5_000)).toBe(NOW + 5_000);
  expect(nextLookAt([{ items: [], more: false }], NOW, 1_000)).toBe(NOW + 1_000);
  // A retry scheduled 28 s ahead by a 30 s timer would be seen late; here the poll bounds the wait.
  expect(nextLookAt([], NOW, 1_000)).toBe(NOW + 1_000);
});

test('a partition whose page was full and all due is read again at once; one all due but complete is not', () => {
  expect(nextLookAt([{ items: [at(-10), at(-1)], more: true }], NOW, 1_000)).toBe(NOW);
  expect(nextLookAt([{ items: [at(-10), at(-1)], more: false }], NOW, 1_000)).toBe(NOW + 1_000);
  // Due exactly now counts as due.
  expect(nextLookAt([{ items: [at(0)], more: true }], NOW, 1_000)).toBe(NOW);
});
