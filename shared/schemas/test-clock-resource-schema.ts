/** The test clock as the API answers it (OpenAPI component `TestClock`), apart from the bodies: handlers never build it at import. */
import * as z from 'zod';
import { TEST_CLOCK_STATUSES } from '../domain/test-clock';
import { idField, timestampField } from './resource-fields';

/** Component `TestClock`. */
export const TestClockResource = z
  .strictObject({
    test_clock_id: idField('clock', 'The test clock'),
    name: z.string().nullable().describe('A name for it, or null.'),
    frozen_time: timestampField(
      'The time it shows: every subscription, invoice and payment method of its customers lives by it. From 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z.',
    ),
    status: z
      .enum(TEST_CLOCK_STATUSES)
      .describe(
        '`ready`: every renewal, retry and expiry due by `frozen_time` was run. `advancing`: an advance is running (another one answers 409 `test_clock_advancing` until it ends), or one stopped at its work bound before its target (`frozen_time` is where it got to); advance again to go on.',
      ),
    created_at: timestampField('When it was created (real time).'),
  })
  .meta({
    id: 'TestClock',
    description:
      'A clock of its own for test customers (non-prod stages only): advancing it runs every renewal, dunning retry and payment method expiry of its customers that falls due, in order, so a year of billing can be watched in a minute.',
  });
