import { apiHandler } from '../../shared/http/api-handler';
import { resolvePayoutAccount } from '../../shared/operations/payouts/resolve-account';
import { resolveAccountBodySchema } from '../../shared/schemas/payout-schemas';

/** `POST /payouts/resolve_account`: the holder's name of a bank account, from the processor; changes nothing. */
export const handler = apiHandler({ body: resolveAccountBodySchema }, async (req) => ({
  body: await resolvePayoutAccount(req.operation, req.body),
}));
