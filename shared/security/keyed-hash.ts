import { createHmac } from 'node:crypto';
import { readStageSecret } from './stage-secrets';

/**
 * The local stack's and tests' key for keyed hashes. Local only: a deployed
 * stage reads its own generated key from AWS Secrets Manager.
 */
export const LOCAL_KEYED_HASH_KEY = 'switchyard-local-card-fingerprint-key';

/** How long a fetched secret is reused by a function instance (seconds). */
const SECRET_MAX_AGE_SECONDS = 300;

/**
 * The secret key of keyed hashes (card fingerprints, idempotency body hashes):
 * `CARD_FINGERPRINT_KEY` if set; else the Secrets Manager secret named by
 * `CARD_FINGERPRINT_SECRET_ID` (Powertools Parameters, cached 5 minutes); else,
 * outside Lambda, {@link LOCAL_KEYED_HASH_KEY}.
 * @throws Error inside Lambda when neither is configured (a deployment fault)
 */
export async function keyedHashKey(): Promise<string> {
  if (process.env.CARD_FINGERPRINT_KEY) return process.env.CARD_FINGERPRINT_KEY;
  const secretId = process.env.CARD_FINGERPRINT_SECRET_ID;
  if (secretId) {
    const value = await readStageSecret(secretId, { maxAge: SECRET_MAX_AGE_SECONDS });
    if (typeof value === 'string' && value.length > 0) return value;
    throw new Error(`Secret ${secretId} is empty.`);
  }
  if (process.env.AWS_LAMBDA_FUNCTION_NAME) throw new Error('CARD_FINGERPRINT_SECRET_ID is not configured for this function.');
  return LOCAL_KEYED_HASH_KEY;
}

/**
 * HMAC-SHA256 of `text` under {@link keyedHashKey}, hex. A keyed hash, as
 * PCI DSS v4.0 requirement 3.5.1.1 asks of any hash of a PAN.
 */
export async function keyedHash(text: string): Promise<string> {
  return createHmac('sha256', await keyedHashKey())
    .update(text, 'utf8')
    .digest('hex');
}

/**
 * A card's fingerprint: the same card number always gives the same value (so a
 * card can be recognized across payments) and the number cannot be recovered
 * from it. `fp_` + 32 hex characters of the keyed hash of the PAN.
 */
export async function cardFingerprint(pan: string): Promise<string> {
  return `fp_${(await keyedHash(`card:${pan}`)).slice(0, 32)}`;
}

/**
 * The id of the resource an idempotent request creates, derived from the
 * merchant, the scope (e.g. the payment refunded) and the `Idempotency-Key`: a
 * retry computes the same id, so its conditional write finds the first
 * request's resource instead of creating (and charging or refunding) again —
 * also when the first attempt failed after the connector call and its
 * idempotency record was released.
 * @returns `<prefix>_` + 32 hex characters of a keyed hash
 */
export async function idempotentId(
  prefix: 'pay' | 'ref' | 'mca' | 'po',
  merchantId: string,
  scope: string,
  idempotencyKey: string,
): Promise<string> {
  return `${prefix}_${(await keyedHash(`id:${prefix}:${merchantId}:${scope}:${idempotencyKey}`)).slice(0, 32)}`;
}
