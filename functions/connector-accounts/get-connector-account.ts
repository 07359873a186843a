import { apiHandler } from '../../shared/http/api-handler';
import { getConnectorAccountView } from '../../shared/operations/connector-accounts/connector-account-operations';

/** `GET /connector_accounts/{merchant_connector_id}`: the account, credentials masked; another merchant's is 404. */
export const handler = apiHandler({}, async (req) => ({
  body: await getConnectorAccountView(req.merchantId, req.path.merchant_connector_id ?? '', req.publicBaseUrl),
}));
