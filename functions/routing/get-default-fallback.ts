import { apiHandler } from '../../shared/http/api-handler';
import { getDefaultFallback } from '../../shared/operations/routing/routing-operations';

/** `GET /routing/default`: the merchant's ordered fallback list of connector accounts. */
export const handler = apiHandler({}, async (req) => ({ body: await getDefaultFallback(req.merchantId) }));
