import { apiHandler } from '../../shared/http/api-handler';
import { listConnectorAccounts } from '../../shared/operations/connector-accounts/connector-account-operations';
import { listConnectorAccountsQuerySchema } from '../../shared/schemas/connector-account-list-schema';
import { nestCreatedParams } from '../../shared/schemas/list-query-schema';

/** `GET /connector_accounts`: `{data, has_more}`, newest first; filters `connector_name`, `disabled`; credentials masked. */
export const handler = apiHandler({ query: listConnectorAccountsQuerySchema, shapeQuery: nestCreatedParams }, async (req) => ({
  body: await listConnectorAccounts(req.merchantId, req.query.list, req.query.filters, req.publicBaseUrl),
}));
