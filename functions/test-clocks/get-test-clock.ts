// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { getTestClock } from '../../shared/operations/billing/test-clocks';

/** `GET /test_helpers/test_clocks/{test_clock_id}` (stages with the sandbox only): one test clock; 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({
  body: await getTestClock(req.merchantId, req.path.test_clock_id ?? ''),
}));
