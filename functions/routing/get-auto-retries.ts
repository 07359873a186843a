import { apiHandler } from '../../shared/http/api-handler';
import { getAutoRetries } from '../../shared/operations/routing/auto-retries';

/** `GET /routing/auto_retries`: whether soft declines are retried on another account, and how many times. */
export const handler = apiHandler({}, async (req) => ({ body: await getAutoRetries(req.merchantId) }));
