// Registers the steps after a payment's outcome: billing's (an invoice's payment moves its invoice) and payment links'
// (a failed or cancelled link payment gives its place back).
import '../../shared/operations/billing/invoice-settlement-hook';
import '../../shared/operations/payment-links/link-place-hook';
import { apiHandler } from '../../shared/http/api-handler';
import { cancelSubscription } from '../../shared/operations/billing/subscription-operations';

/** `POST /subscriptions/{subscription_id}/cancel`: cancels it now; 200 with it. */
export const handler = apiHandler({}, async (req) => ({
  body: await cancelSubscription(req.merchantId, req.path.subscription_id ?? ''),
}));
