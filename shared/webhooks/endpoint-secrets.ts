/**
 * Webhook endpoint signing secrets: their format, and how they rest in the table.
 *
 * Format (Standard Webhooks, https://www.standardwebhooks.com, spec/standard-webhooks.md of
 * github.com/standard-webhooks/standard-webhooks, "Signature scheme"): a symmetric secret is
 * random, at least 24 bytes, serialized as `whsec_` + base64. We use 32 bytes. The
 * `standardwebhooks` npm package's `new Webhook(secret)` accepts exactly this string (it strips
 * `whsec_` and base64-decodes the rest) to sign and verify.
 *
 * At rest: never in clear. Each secret is sealed with AES-256-GCM under a key derived by
 * HKDF-SHA256 (RFC 5869) from the stage's keyed-hash key ({@link keyedHashKey}: Secrets
 * Manager on deployed stages) with info `webhook-endpoint-secret`, a random 96-bit IV per
 * seal, and the endpoint id as additional authenticated data (a sealed secret copied onto
 * another endpoint does not open). Stored form: base64 of iv (12 bytes) ‖ ciphertext ‖ tag
 * (16 bytes).
 *
 * Rotation (the spec's "zero downtime secret rotation"): the rotated-out secret keeps signing
 * beside the new one for `SECRET_ROTATION_OVERLAP_MS` (shared/domain/webhook-endpoint.ts: 24 h); deliveries carry one
 * `v1,` signature per secret in `webhook-signature`.
 *
 * Nothing here logs; never log a secret or a value returned by these functions.
 */
import { createCipheriv, createDecipheriv, hkdf, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import type { StoredWebhookEndpoint, WebhookEndpoint, WebhookEndpointWithSecret } from '../domain/webhook-endpoint';
import { keyedHashKey } from '../security/keyed-hash';

/** Prefix of a Standard Webhooks symmetric secret. */
export const SECRET_PREFIX = 'whsec_';

/** Random bytes in a new secret: 32 (256 bits; the spec asks at least 24). */
export const SECRET_BYTES = 32;

/** HKDF `info` of the key that seals endpoint secrets (binds the derived key to this one use). */
export const SECRET_KEY_INFO = 'webhook-endpoint-secret';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const hkdfAsync = promisify(hkdf);

let derived: { ikm: string; key: Buffer } | undefined;

/** The 32-byte AES key: HKDF-SHA256(ikm = keyedHashKey(), salt = empty, info = {@link SECRET_KEY_INFO}); cached per ikm. */
async function sealingKey(): Promise<Buffer> {
  const ikm = await keyedHashKey();
  if (derived?.ikm !== ikm) {
    derived = { ikm, key: Buffer.from(await hkdfAsync('sha256', Buffer.from(ikm, 'utf8'), Buffer.alloc(0), SECRET_KEY_INFO, 32)) };
  }
  return derived.key;
}

/** A new signing secret: `whsec_` + standard base64 of {@link SECRET_BYTES} random bytes (Standard Webhooks format). */
export function generateEndpointSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * Seals a secret for storage.
 * @param secret the `whsec_…` secret in clear
 * @param endpointId the endpoint it belongs to (authenticated, not encrypted: it must match to open)
 * @returns base64 of iv ‖ AES-256-GCM ciphertext ‖ tag (no `whsec_` in it: base64 has no `_`)
 * @throws Error when the keyed-hash key is not configured inside Lambda (a deployment fault)
 */
export async function sealEndpointSecret(secret: string, endpointId: string): Promise<string> {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', await sealingKey(), iv);
  cipher.setAAD(Buffer.from(endpointId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64');
}

/**
 * Opens a sealed secret.
 * @param sealed what {@link sealEndpointSecret} returned
 * @param endpointId the endpoint it was sealed for
 * @returns the `whsec_…` secret in clear
 * @throws Error when it does not authenticate (another key or endpoint, or tampered); the message holds no secret
 */
export async function openEndpointSecret(sealed: string, endpointId: string): Promise<string> {
  const raw = Buffer.from(sealed, 'base64');
  if (raw.length <= IV_BYTES + TAG_BYTES) throw new Error('Sealed webhook secret is malformed.');
  const decipher = createDecipheriv('aes-256-gcm', await sealingKey(), raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(endpointId, 'utf8'));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error(`Sealed webhook secret of ${endpointId} does not open with this stage's key.`);
  }
}

/**
 * The secrets that sign a delivery to this endpoint now, newest first: the current secret,
 * then the previous one while its overlap runs (`previous_secret_expires_at` > `nowMs`).
 * Sign with each and send every `v1,<signature>` in `webhook-signature`, space-separated
 * (Standard Webhooks). The delivery worker's entry point; needs the keyed-hash key
 * (`CARD_FINGERPRINT_SECRET_ID` and read on that secret when deployed).
 * @param stored the endpoint as stored (from `listEndpointsForDelivery` or `getStoredWebhookEndpoint`)
 * @param nowMs the current time, Unix epoch milliseconds
 * @returns one or two `whsec_…` secrets in clear; never log them
 * @throws Error when a sealed secret does not open (wrong key or tampered item)
 */
export async function signingSecrets(
  stored: Pick<
    StoredWebhookEndpoint,
    'webhook_endpoint_id' | 'secret_encrypted' | 'previous_secret_encrypted' | 'previous_secret_expires_at'
  >,
  nowMs: number,
): Promise<string[]> {
  const secrets = [await openEndpointSecret(stored.secret_encrypted, stored.webhook_endpoint_id)];
  const expiresAt = stored.previous_secret_expires_at ? Date.parse(stored.previous_secret_expires_at) : Number.NaN;
  if (stored.previous_secret_encrypted && expiresAt > nowMs) {
    secrets.push(await openEndpointSecret(stored.previous_secret_encrypted, stored.webhook_endpoint_id));
  }
  return secrets;
}

/**
 * Marker of a secret sealed inside an API answer. An answer that carries a secret
 * (create, rotate_secret) leaves the domain with the secret sealed, so that what the
 * idempotency layer stores in the table for replay holds no secret in clear; the function's
 * outermost wrapper (`revealingSecret`, shared/http/revealing-secret.ts) opens it just before the answer leaves Lambda,
 * for the first answer and for every replay alike.
 */
export const SEALED_IN_ANSWER = 'sealed:';

/**
 * The answer body of create / rotate_secret before it leaves the function: the endpoint with
 * `secret` sealed ({@link SEALED_IN_ANSWER} + {@link sealEndpointSecret}).
 */
export async function answerWithSealedSecret(endpoint: WebhookEndpoint, secret: string): Promise<WebhookEndpointWithSecret> {
  const { created_at, updated_at, ...rest } = endpoint;
  return { ...rest, secret: SEALED_IN_ANSWER + (await sealEndpointSecret(secret, endpoint.webhook_endpoint_id)), created_at, updated_at };
}
