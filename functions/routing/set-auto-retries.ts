import { apiHandler } from '../../shared/http/api-handler';
import { setAutoRetries } from '../../shared/operations/routing/auto-retries';
import { autoRetriesBodySchema } from '../../shared/schemas/auto-retries-schema';

/** `PUT /routing/auto_retries`: `{enabled, max_auto_retries?}` turns automatic retries of soft declines on or off. */
export const handler = apiHandler({ body: autoRetriesBodySchema }, async (req) => ({
  body: await setAutoRetries(req.merchantId, req.body),
}));
