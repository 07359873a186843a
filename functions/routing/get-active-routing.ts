import { apiHandler } from '../../shared/http/api-handler';
import { activeRouting } from '../../shared/operations/routing/routing-operations';

/** `GET /routing/active`: which routing algorithm is active (`active: false` when none). */
export const handler = apiHandler({}, async (req) => ({ body: await activeRouting(req.merchantId) }));
