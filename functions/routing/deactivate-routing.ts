import { apiHandler } from '../../shared/http/api-handler';
import { deactivateRouting } from '../../shared/operations/routing/routing-operations';
import { emptyBodySchema } from '../../shared/schemas/empty-body-schema';

/** `POST /routing/deactivate`: no algorithm is active any more (the default fallback list routes); emits `routing.activated`. */
export const handler = apiHandler({ body: emptyBodySchema }, async (req) => ({
  body: await deactivateRouting(req.merchantId),
}));
