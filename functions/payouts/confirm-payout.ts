import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { confirmPayout } from '../../shared/operations/payouts/payout-operations';
import { emptyPayoutActionBodySchema } from '../../shared/schemas/payout-schemas';

/** `POST /payouts/{payout_id}/confirm`: sends a RequiresConfirmation payout once; 409 from any other status. */
export const handler = apiHandler({ body: emptyPayoutActionBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await confirmPayout(req.operation, req.path.payout_id ?? ''),
}));
