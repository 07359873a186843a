import { apiHandler } from '../../shared/http/api-handler';
import { getDispute } from '../../shared/operations/disputes/dispute-operations';

/** `GET /disputes/{dispute_id}`: one dispute; 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({
  body: await getDispute(req.merchantId, req.path.dispute_id ?? ''),
}));
