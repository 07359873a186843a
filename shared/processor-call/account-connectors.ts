import type { ConnectorCredentials } from '../domain/connector-account';
import { ApiError } from '../domain/errors';
import { decryptCredentials } from '../security/credential-encryption';
import { getConnectorAccount, type StoredConnectorAccount } from '../storage/connector-accounts-repository';
import { merchantConnectorConfig } from './connector-config-cache';
import { configuredConnector, connectorSettings, connectorWithCredentials } from './connector-registry';
import { RoutedConnector } from './connector-target';

/**
 * How long a container keeps an account's adapter (and so its decrypted credentials, held only in the
 * adapter's private fields) after building it: 300,000 ms (5 minutes). A credential change makes a new
 * version of the account, which is built afresh; a deleted account's adapter is dropped at the period's
 * end at the latest (docs/security.md "Connector account credentials").
 */
export const ACCOUNT_ADAPTER_TTL_MS = 300_000;

const adapters = new Map<string, { key: string; at: number; connector: Promise<RoutedConnector | undefined> }>();

/**
 * The adapter of one account: its credentials decrypted (encryption context `{merchant_id,
 * merchant_connector_id}`) and the connector built with them and the stage's base URLs and timeouts.
 * Cached per container for {@link ACCOUNT_ADAPTER_TTL_MS} per account version.
 * @returns the adapter, or undefined when the account has no credentials any more (deleted) or its
 *   connector cannot be built on this stage (the sandbox where it is off)
 * @throws CredentialDecryptionError when the stored credentials do not decrypt for this account
 */
export async function accountConnector(account: StoredConnectorAccount, nowMs = Date.now()): Promise<RoutedConnector | undefined> {
  if (!account.credentials_encrypted) return undefined;
  const key = `${account.version}:${account.updated_at}`;
  const hit = adapters.get(account.merchant_connector_id);
  if (hit && hit.key === key && nowMs - hit.at < ACCOUNT_ADAPTER_TTL_MS) return hit.connector;
  const ciphertext = account.credentials_encrypted;
  const connector = (async () => {
    const credentials = (await decryptCredentials(ciphertext, {
      merchant_id: account.merchant_id,
      merchant_connector_id: account.merchant_connector_id,
    })) as unknown as ConnectorCredentials;
    const adapter = await connectorWithCredentials(account.connector_name, credentials, await connectorSettings());
    return adapter ? new RoutedConnector(adapter, account.merchant_connector_id) : undefined;
  })();
  sweep(nowMs);
  adapters.set(account.merchant_connector_id, { key, at: nowMs, connector });
  connector.catch(
    () => adapters.get(account.merchant_connector_id)?.connector === connector && adapters.delete(account.merchant_connector_id),
  );
  return connector;
}

/** Most adapters a container keeps at once: 500 (the oldest go first). */
const MAX_ADAPTERS = 500;

/** Drops expired adapters, and the oldest beyond {@link MAX_ADAPTERS}: decrypted credentials never outlive their period. */
function sweep(nowMs: number): void {
  for (const [id, entry] of adapters) if (nowMs - entry.at >= ACCOUNT_ADAPTER_TTL_MS) adapters.delete(id);
  while (adapters.size >= MAX_ADAPTERS) adapters.delete(adapters.keys().next().value as string);
}

/** Drops an account's cached adapter in this container (after its credentials changed or it was deleted). */
export function forgetAccountConnector(merchantConnectorId: string): void {
  adapters.delete(merchantConnectorId);
}

/**
 * The connector that holds an existing payment or refund: the merchant connector account it was
 * routed to (whatever routing says now, disabled or not), or the stage's own account of the connector
 * when it was routed by the platform's rules (`merchantConnectorId` null).
 * @param connectorName the payment's (or claim's) `connector`
 * @param merchantConnectorId its `merchant_connector_id`, null for the platform's account
 * @throws ApiError 502 `connector_unavailable` when that connector or account cannot be used any more
 *   (not configured on this stage; the account deleted, its credentials destroyed)
 */
export async function connectorForTarget(
  merchantId: string,
  connectorName: string,
  merchantConnectorId: string | null,
): Promise<RoutedConnector> {
  if (!merchantConnectorId) {
    const platform = await configuredConnector(connectorName);
    if (!platform)
      throw new ApiError(502, 'connector_error', 'connector_unavailable', `Connector ${connectorName} is not configured on this stage.`);
    return new RoutedConnector(platform, null);
  }
  const cached = (await merchantConnectorConfig(merchantId)).accounts.find((a) => a.merchant_connector_id === merchantConnectorId);
  // Not in the cached configuration (created moments ago in another container, or deleted): read it.
  const account = cached ?? (await getConnectorAccount(merchantId, merchantConnectorId));
  const connector = account ? await accountConnector(account) : undefined;
  if (!connector) {
    throw new ApiError(
      502,
      'connector_error',
      'connector_unavailable',
      `The connector account this payment was made on (${merchantConnectorId}) has been deleted; its credentials are gone, so ${connectorName} cannot be called for it. Settle it in the processor's dashboard.`,
    );
  }
  return connector;
}
