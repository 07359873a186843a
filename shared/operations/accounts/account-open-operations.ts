import { accountHasOpenItems } from '../../storage/account-open-operations-repository';

/**
 * Whether a connector account still holds money in motion: payments processing, awaiting the payer or a
 * capture, processor calls not yet settled, refunds pending. Deleting it then would destroy the
 * credentials those need (shared/storage/account-open-operations-repository.ts says how it is read).
 * @param readShards the merchant's list shard `read` count (default 1)
 */
export async function accountHasOpenOperations(merchantId: string, merchantConnectorId: string, readShards = 1): Promise<boolean> {
  return accountHasOpenItems(merchantId, merchantConnectorId, readShards);
}
