import { apiHandler } from '../../shared/http/api-handler';
import { setPayoutPriority } from '../../shared/operations/payouts/payout-priority';
import { payoutPriorityBodySchema } from '../../shared/schemas/payout-priority-schema';

/** `PUT /routing/payouts`: `{priority: [{merchant_connector_id}, …]}` sets the payout priority list (`[]` clears it). */
export const handler = apiHandler({ body: payoutPriorityBodySchema }, async (req) => ({
  body: await setPayoutPriority(
    req.merchantId,
    req.body.priority.map((e) => e.merchant_connector_id),
  ),
}));
