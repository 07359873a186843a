// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { updateSubscription } from '../../shared/operations/billing/subscription-operations';
import { updateSubscriptionBodySchema } from '../../shared/schemas/subscription-schemas';

/** `PUT /subscriptions/{subscription_id}`: sets `payment_method_id`, `cancel_at_period_end`, `metadata`; 200 with it. */
export const handler = apiHandler({ body: updateSubscriptionBodySchema }, async (req) => ({
  body: await updateSubscription(req.merchantId, req.path.subscription_id ?? '', req.body),
}));
