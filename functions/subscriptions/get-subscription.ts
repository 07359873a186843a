import { apiHandler } from '../../shared/http/api-handler';
import { getSubscription } from '../../shared/operations/billing/subscription-reads';

/** `GET /subscriptions/{subscription_id}`: one subscription; 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({
  body: await getSubscription(req.merchantId, req.path.subscription_id ?? ''),
}));
