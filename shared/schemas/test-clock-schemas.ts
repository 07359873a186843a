/**
 * Test clocks (issue 24, non-prod stages; Stripe's test clocks): the resource and the bodies of
 * `POST /test_helpers/test_clocks` and `POST /test_helpers/test_clocks/{test_clock_id}/advance`.
 * docs/api.md "Test clocks".
 */
import * as z from 'zod';
import { idField, timestampField } from './resource-fields';
import { text } from './scalar-schemas';

export { MAX_ADVANCE_MS } from '../domain/test-clock';

/** Component `TestClock`. */
export const TestClockResource = z
  .strictObject({
    test_clock_id: idField('clock', 'The test clock'),
    name: z.string().nullable().describe('A name for it, or null.'),
    frozen_time: timestampField('The time it shows: every subscription, invoice and payment method of its customers lives by it.'),
    status: z
      .enum(['ready', 'advancing'])
      .describe(
        '`ready`: every renewal, retry and expiry due by `frozen_time` was run. `advancing`: an advance stopped at its work bound before its target (`frozen_time` is where it got to); advance again to go on.',
      ),
    created_at: timestampField('When it was created (real time).'),
  })
  .meta({
    id: 'TestClock',
    description:
      'A clock of its own for test customers (non-prod stages only): advancing it runs every renewal, dunning retry and payment method expiry of its customers that falls due, in order, so a year of billing can be watched in a minute.',
  });

const frozenTime = z.iso.datetime({ error: 'must be an ISO 8601 UTC timestamp, e.g. 2026-01-31T00:00:00.000Z' });

/** Body of `POST /test_helpers/test_clocks`. */
export const createTestClockBodySchema = z.strictObject({
  frozen_time: frozenTime,
  name: text(256).optional(),
});
/** Parsed create body. */
export type CreateTestClockBody = z.infer<typeof createTestClockBodySchema>;

/** Body of `POST /test_helpers/test_clocks/{test_clock_id}/advance`: the time to advance to (later than its `frozen_time`, by at most 2 years). */
export const advanceTestClockBodySchema = z.strictObject({ frozen_time: frozenTime });
/** Parsed advance body. */
export type AdvanceTestClockBody = z.infer<typeof advanceTestClockBodySchema>;
