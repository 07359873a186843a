import { apiHandler } from '../../shared/http/api-handler';
import { getPayoutPriority } from '../../shared/operations/payouts/payout-priority';

/** `GET /routing/payouts`: the merchant's payout priority list of connector accounts. */
export const handler = apiHandler({}, async (req) => ({ body: await getPayoutPriority(req.merchantId) }));
