import { apiHandler } from '../../shared/http/api-handler';
import { receiveConnectorWebhook } from '../../shared/operations/webhook-operations';

/**
 * `POST /webhooks/{connector}` (no api-key; the connector's signature
 * authenticates it): the raw body is verified before it is parsed, then applied
 * once. 200 `{received, event_id, applied, reason?}`; 401 on a bad signature.
 */
export const handler = apiHandler({ auth: false }, async (req) => {
  const raw = req.event.body ?? '';
  const rawBody = req.event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  return { body: await receiveConnectorWebhook(req.path.connector ?? '', { rawBody, headers: req.event.headers ?? {} }) };
});
