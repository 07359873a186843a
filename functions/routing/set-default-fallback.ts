import { apiHandler } from '../../shared/http/api-handler';
import { setDefaultFallback } from '../../shared/operations/routing/routing-operations';
import { defaultFallbackBodySchema } from '../../shared/schemas/routing-activation-schema';

/** `PUT /routing/default`: `{default_fallback: [{merchant_connector_id}, …]}` sets the ordered fallback list. */
export const handler = apiHandler({ body: defaultFallbackBodySchema }, async (req) => ({
  body: await setDefaultFallback(
    req.merchantId,
    req.body.default_fallback.map((e) => e.merchant_connector_id),
  ),
}));
