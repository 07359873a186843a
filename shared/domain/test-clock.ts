import type * as z from 'zod';
import type { TestClockResource } from '../schemas/test-clock-resource-schema';

/** A test clock as the API returns it (component `TestClock`; issue 24, non-prod stages). */
export type TestClock = z.output<typeof TestClockResource>;

/** The fields of a {@link TestClock}, in the order responses list them. */
export const TEST_CLOCK_FIELDS: readonly (keyof TestClock)[] = ['test_clock_id', 'name', 'frozen_time', 'status', 'created_at'];

/** The longest a clock may be advanced in one call: 2 years (730 days), in ms. */
export const MAX_ADVANCE_MS = 730 * 86_400_000;
