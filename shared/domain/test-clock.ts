/**
 * A test clock's statuses: `ready` (everything due by `frozen_time` was run), `advancing` (an advance stopped at its
 * work bound before its target; advance again to go on).
 */
export const TEST_CLOCK_STATUSES = ['ready', 'advancing'] as const;

/** One of {@link TEST_CLOCK_STATUSES}. */
export type TestClockStatus = (typeof TEST_CLOCK_STATUSES)[number];

/** A test clock as the API returns it (component `TestClock`, non-prod stages); timestamps ISO 8601 UTC. */
export interface TestClock {
  /** `clock_…` */
  test_clock_id: string;
  name: string | null;
  /** The time it shows. */
  frozen_time: string;
  status: TestClockStatus;
  /** Real time. */
  created_at: string;
}

/** The fields of a {@link TestClock}, in the order responses list them. */
export const TEST_CLOCK_FIELDS: readonly (keyof TestClock)[] = ['test_clock_id', 'name', 'frozen_time', 'status', 'created_at'];

/** The longest a clock may be advanced in one call: 2 years (730 days), in ms. */
export const MAX_ADVANCE_MS = 730 * 86_400_000;
