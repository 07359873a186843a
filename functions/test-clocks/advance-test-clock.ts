// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { advanceTestClock } from '../../shared/operations/billing/test-clocks';
import { advanceTestClockBodySchema } from '../../shared/schemas/test-clock-schemas';

/**
 * `POST /test_helpers/test_clocks/{test_clock_id}/advance` (stages with the sandbox only): advances the clock,
 * running its customers' renewals, retries and expiry notices that fall due on the way. 200 with the clock
 * (`ready`, or `advancing` when it stopped at its work bound: advance again).
 */
export const handler = apiHandler({ body: advanceTestClockBodySchema }, async (req) => ({
  body: await advanceTestClock(req.operation, req.path.test_clock_id ?? '', req.body),
}));
