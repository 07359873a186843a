// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createTestClock } from '../../shared/operations/billing/test-clocks';
import { createTestClockBodySchema } from '../../shared/schemas/test-clock-schemas';

/** `POST /test_helpers/test_clocks` (stages with the sandbox only): creates a test clock at `frozen_time`. 200 with it. */
export const handler = apiHandler({ body: createTestClockBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createTestClock(req.merchantId, req.body),
}));
