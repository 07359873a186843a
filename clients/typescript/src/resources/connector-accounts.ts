/** `switchyard.connectorAccounts`: the merchant's own processor accounts (docs/api.md, Connector accounts). */
import type { Switchyard } from '../client.js';
import type { RequestOptions } from '../transport.js';
import type {
  ConnectorAccount,
  ConnectorAccountCreateParams,
  ConnectorAccountList,
  ConnectorAccountListParams,
  ConnectorAccountUpdateParams,
  DeletedConnectorAccount,
} from '../types.js';
import { pathId } from './path-id.js';

/**
 * `/connector_accounts`: connect a Paystack, Flutterwave, Stripe (or sandbox) account with its own
 * credentials, which are verified at the processor before anything is stored and never answered but
 * masked; routing then sends the merchant's payments to its accounts.
 */
export class ConnectorAccounts {
  /** @param client the client whose transport the calls use */
  constructor(private readonly client: Switchyard) {}

  /**
   * `POST /connector_accounts`: verifies the credentials at the processor (one read-only call), then stores
   * them encrypted → the account, credentials masked, with its `webhook_url`. Keyed (a retry never connects
   * twice). A refused key throws `InvalidRequestError` `connector_credentials_invalid`; an unreachable
   * processor `ConnectorError` `connector_unreachable` (503, retried: nothing was stored).
   */
  create(params: ConnectorAccountCreateParams, options?: RequestOptions): Promise<ConnectorAccount> {
    return this.client.call((init) => this.client.api.POST('/connector_accounts', { body: params, ...init }), options);
  }

  /** `GET /connector_accounts/{merchant_connector_id}` (credentials masked). */
  retrieve(merchantConnectorId: string, options?: RequestOptions): Promise<ConnectorAccount> {
    return this.client.call(
      (init) =>
        this.client.api.GET('/connector_accounts/{merchant_connector_id}', {
          params: { path: { merchant_connector_id: pathId('merchantConnectorId', merchantConnectorId) } },
          ...init,
        }),
      options,
    );
  }

  /**
   * `PUT /connector_accounts/{merchant_connector_id}`: sets `connector_label`, credentials (verified again),
   * the webhook secret, `payment_methods_enabled`, `disabled`, `metadata`.
   */
  update(merchantConnectorId: string, params: ConnectorAccountUpdateParams, options?: RequestOptions): Promise<ConnectorAccount> {
    return this.client.call(
      (init) =>
        this.client.api.PUT('/connector_accounts/{merchant_connector_id}', {
          params: { path: { merchant_connector_id: pathId('merchantConnectorId', merchantConnectorId) } },
          body: params,
          ...init,
        }),
      options,
    );
  }

  /**
   * `DELETE /connector_accounts/{merchant_connector_id}` → `{ merchant_connector_id, deleted: true }`; its
   * credentials are destroyed. Takes about 6 s (the API waits out its configuration cache before it checks
   * for open operations). Throws `InvalidRequestError` `connector_account_in_use` (409) while the active
   * routing algorithm names it or it holds open operations. A retry after a lost answer may meet the
   * account already deleted and throw 404 `resource_missing` (check `error.attempts > 1`).
   */
  delete(merchantConnectorId: string, options?: RequestOptions): Promise<DeletedConnectorAccount> {
    return this.client.call(
      (init) =>
        this.client.api.DELETE('/connector_accounts/{merchant_connector_id}', {
          params: { path: { merchant_connector_id: pathId('merchantConnectorId', merchantConnectorId) } },
          ...init,
        }),
      options,
    );
  }

  /** `GET /connector_accounts`: one page, newest first (`connector_name`, `disabled`, paging). */
  list(params?: ConnectorAccountListParams, options?: RequestOptions): Promise<ConnectorAccountList> {
    return this.client.call(
      (init) => this.client.api.GET('/connector_accounts', { params: { ...(params ? { query: params } : {}) }, ...init }),
      options,
    );
  }
}
