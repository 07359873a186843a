import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { cancelPayout } from '../../shared/operations/payouts/payout-operations';
import { emptyPayoutActionBodySchema } from '../../shared/schemas/payout-schemas';

/** `POST /payouts/{payout_id}/cancel`: → Cancelled before it is sent; 409 once it was sent. */
export const handler = apiHandler({ body: emptyPayoutActionBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await cancelPayout(req.operation, req.path.payout_id ?? ''),
}));
