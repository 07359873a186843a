import { apiHandler } from '../../shared/http/api-handler';
import { successRates } from '../../shared/operations/routing/success-rates';

/** `GET /routing/success_rates`: the merchant's recent authorization rates per connector account and segment. */
export const handler = apiHandler({}, async (req) => ({ body: await successRates(req.merchantId) }));
