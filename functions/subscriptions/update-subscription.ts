// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { updateSubscription } from '../../shared/operations/billing/subscription-operations';
import { updateSubscriptionBodySchema } from '../../shared/schemas/subscription-schemas';

/** `PUT /subscriptions/{subscription_id}`: sets `payment_method_id`, `cancel_at_period_end`, `metadata`; 200 with it. */
export const handler = apiHandler({ body: updateSubscriptionBodySchema }, async (req) => ({
  body: await updateSubscription(req.merchantId, req.path.subscription_id ?? '', req.body),
}));
