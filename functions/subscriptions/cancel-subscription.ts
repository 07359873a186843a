// Registers billing's step after a payment's outcome (an invoice's payment moves its invoice).
import '../../shared/operations/billing/invoice-settlement-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { cancelSubscription } from '../../shared/operations/billing/subscription-operations';

/** `POST /subscriptions/{subscription_id}/cancel`: cancels it now; 200 with it. */
export const handler = apiHandler({}, async (req) => ({
  body: await cancelSubscription(req.merchantId, req.path.subscription_id ?? ''),
}));
