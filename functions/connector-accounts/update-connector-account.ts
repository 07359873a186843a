import { apiHandler } from '../../shared/http/api-handler';
import { updateConnectorAccount } from '../../shared/operations/connector-accounts/connector-account-operations';
import { updateConnectorAccountSchema } from '../../shared/schemas/connector-account-schemas';

/**
 * `PUT /connector_accounts/{merchant_connector_id}`: changes label, credentials (verified at the processor
 * first), webhook secret, `payment_methods_enabled`, `disabled`, metadata. 200 with the account.
 */
export const handler = apiHandler({ body: updateConnectorAccountSchema }, async (req) => ({
  body: await updateConnectorAccount(
    req.merchantId,
    req.path.merchant_connector_id ?? '',
    req.body,
    req.publicBaseUrl,
    req.operation.listShards?.read ?? 1,
  ),
}));
