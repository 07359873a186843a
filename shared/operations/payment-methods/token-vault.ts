/**
 * The processor tokens of saved payment methods, encrypted and decrypted with the same
 * envelope encryption as connector credentials (shared/security/credential-encryption.ts: the AWS
 * Encryption SDK, the stage's KMS key on AWS, a local AES key locally). The encryption context binds a
 * token to its merchant and to the connector account that issued it (`merchant_connector_id`, or
 * `platform:<connector>` for the stage's own account): a token copied to another merchant's or
 * account's method does not decrypt. The plaintext lives in memory only.
 */
import { decryptCredentials, encryptCredentials } from '../../security/credential-encryption';

/** Where a token was issued: the merchant and its connector account (null: the stage's own account of `connector`). */
export interface TokenOwner {
  merchantId: string;
  merchantConnectorId: string | null;
  connector: string;
}

const contextOf = (owner: TokenOwner) => ({
  merchant_id: owner.merchantId,
  merchant_connector_id: owner.merchantConnectorId ?? `platform:${owner.connector}`,
});

/**
 * Encrypts a processor token for storage.
 * @returns the Encryption SDK message, base64
 * @throws Error when the key is not configured; the SDK's or KMS's errors
 */
export async function sealToken(token: string, owner: TokenOwner): Promise<string> {
  return encryptCredentials({ token }, contextOf(owner));
}

/**
 * Decrypts a stored token, checking it belongs to this merchant and account.
 * @throws CredentialDecryptionError when it does not decrypt or belongs elsewhere; Error when the key is not configured
 */
export async function openToken(ciphertext: string, owner: TokenOwner): Promise<string> {
  const { token } = await decryptCredentials(ciphertext, contextOf(owner));
  if (typeof token !== 'string' || token === '') throw new Error('The stored token is empty.');
  return token;
}
