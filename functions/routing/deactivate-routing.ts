import { apiHandler } from '../../shared/http/api-handler';
import { deactivateRouting } from '../../shared/operations/routing/routing-operations';
import { rotateSecretSchema as emptyBodySchema } from '../../shared/schemas/webhook-endpoint-schemas';

/** `POST /routing/deactivate`: no algorithm is active any more (the default fallback list routes); emits `routing.activated`. */
export const handler = apiHandler({ body: emptyBodySchema }, async (req) => ({
  body: await deactivateRouting(req.merchantId),
}));
