import { apiHandler } from '../../shared/http/api-handler';
import { getRefund } from '../../shared/operations/refund-operations';

/** `GET /refunds/{refund_id}`: one refund; 404 when unknown. */
export const handler = apiHandler({}, async (req) => ({ body: await getRefund(req.merchantId, req.path.refund_id ?? '') }));
