/**
 * Test clocks (non-prod stages; Stripe's test clocks): the bodies of (the resource: ./test-clock-resource-schema.ts)
 * `POST /test_helpers/test_clocks` and `POST /test_helpers/test_clocks/{test_clock_id}/advance`.
 * docs/api.md "Test clocks".
 */
import * as z from 'zod';
import { text } from './text-schemas';

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
