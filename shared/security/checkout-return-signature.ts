/**
 * The signature on a payment link's return: when the hosted checkout page sends the payer to the merchant's
 * `return_url`, it adds `payment_id`, `payment_link_id`, `status` and `signature`, an HMAC-SHA256 (RFC 2104) the
 * merchant's server checks with its return signing secret before it trusts the query (as Hyperswitch signs its
 * redirect with the profile's `payment_response_hash_key`). Fulfilment should still rest on the API's own read or the
 * webhook; the signature proves the query came from Switchyard unchanged.
 *
 * The secret is derived, never stored: `plsec_` + HMAC-SHA256(stage keyed-hash key, `payment-link-return:<merchant>`),
 * so a merchant has one, the same on every container, and a table dump holds nothing to forge with.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { keyedHashKey } from './keyed-hash';

/** What the return's signature covers, in this order. */
export interface ReturnFields {
  payment_id: string;
  payment_link_id: string;
  status: string;
}

/**
 * The merchant's return signing secret: `plsec_` + 64 hex characters.
 * @throws Error inside Lambda when the stage's keyed-hash key is not configured (shared/security/keyed-hash.ts)
 */
export async function returnSigningSecret(merchantId: string): Promise<string> {
  const key = await keyedHashKey();
  return `plsec_${createHmac('sha256', key).update(`payment-link-return:${merchantId}`, 'utf8').digest('hex')}`;
}

/** The signed text: `payment_id.payment_link_id.status` (ids and statuses hold no `.`). */
export function signedReturnText(fields: ReturnFields): string {
  return `${fields.payment_id}.${fields.payment_link_id}.${fields.status}`;
}

/**
 * The signature of a return: lowercase hex HMAC-SHA256 of {@link signedReturnText} under the secret.
 * @param secret the merchant's `plsec_…` secret (the whole string is the key)
 */
export function signReturn(secret: string, fields: ReturnFields): string {
  return createHmac('sha256', secret).update(signedReturnText(fields), 'utf8').digest('hex');
}

/** Whether `signature` is the return's signature under `secret` (constant-time comparison). */
export function verifyReturn(secret: string, fields: ReturnFields, signature: string): boolean {
  const expected = Buffer.from(signReturn(secret, fields), 'hex');
  const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
