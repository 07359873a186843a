import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createPayout } from '../../shared/operations/payouts/payout-operations';
import { createPayoutBodySchema } from '../../shared/schemas/payout-schemas';

/** `POST /payouts`: creates a payout (and sends it when `confirm: true`); 200 with the payout. */
export const handler = apiHandler({ body: createPayoutBodySchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createPayout(req.operation, req.body),
}));
