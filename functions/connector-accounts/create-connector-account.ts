import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests } from '../../shared/http/idempotency';
import { createConnectorAccount } from '../../shared/operations/connector-accounts/connector-account-operations';
import { createConnectorAccountSchema } from '../../shared/schemas/connector-account-schemas';

/**
 * `POST /connector_accounts`: connects one of the merchant's processor accounts. The credentials are
 * verified at the processor (one read-only call) before anything is stored, then stored encrypted;
 * 200 with the account, credentials masked. 400 `connector_credentials_invalid` / `connector_credentials_mode`,
 * 409 `connector_label_taken`, 503 `connector_unreachable` (nothing stored).
 */
export const handler = apiHandler({ body: createConnectorAccountSchema, idempotency: idempotentRequests }, async (req) => ({
  body: await createConnectorAccount(req.merchantId, req.body, req.publicBaseUrl, req.operation.idempotencyKey),
}));
