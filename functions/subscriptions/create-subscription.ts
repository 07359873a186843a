// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createSubscription } from '../../shared/operations/billing/subscription-operations';
import { createSubscriptionBodySchema } from '../../shared/schemas/subscription-schemas';

/** `POST /subscriptions`: creates a subscription and bills its first period (or starts its trial). 200 with it. */
export const handler = apiHandler({ body: createSubscriptionBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createSubscription(req.operation, req.body),
}));
