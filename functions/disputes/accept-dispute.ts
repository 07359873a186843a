import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { acceptDispute } from '../../shared/operations/disputes/dispute-operations';

/** `POST /disputes/{dispute_id}/accept`: accepts the dispute at its processor (the money stays with the cardholder). 200 with it. */
export const handler = apiHandler({ idempotency: idempotentRequests }, async (req) => ({
  body: await acceptDispute(req.operation, req.path.dispute_id ?? ''),
}));
