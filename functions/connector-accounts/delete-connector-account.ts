import { apiHandler } from '../../shared/http/api-handler';
import { deleteConnectorAccount } from '../../shared/operations/connector-accounts/connector-account-operations';

/**
 * `DELETE /connector_accounts/{merchant_connector_id}`: `{merchant_connector_id, deleted: true}`; its
 * credentials are destroyed. 409 `connector_account_in_use` while it holds open operations or the active
 * routing algorithm names it.
 */
export const handler = apiHandler({}, async (req) => ({
  body: await deleteConnectorAccount(
    req.merchantId,
    req.path.merchant_connector_id ?? '',
    req.publicBaseUrl,
    req.operation.listShards?.read ?? 1,
  ),
}));
