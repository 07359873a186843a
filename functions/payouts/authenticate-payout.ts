import { apiHandler } from '../../shared/http/api-handler';
import { authenticatePayout } from '../../shared/operations/payouts/payout-operations';
import { authenticatePayoutBodySchema } from '../../shared/schemas/payout-schemas';

/**
 * `POST /payouts/{payout_id}/authenticate`: relays the merchant's OTP for a RequiresAction payout; 200 with the
 * payout. Takes no Idempotency-Key: the OTP must never rest in an idempotency record.
 */
export const handler = apiHandler({ body: authenticatePayoutBodySchema }, async (req) => ({
  body: await authenticatePayout(req.operation, req.path.payout_id ?? '', req.body.otp),
}));
