/**
 * Encryption of merchant connector accounts' processor credentials (`api_key`, `key1`, the webhook
 * secret) with the AWS Encryption SDK for JavaScript (`@aws-crypto/client-node`, pinned in
 * package.json). The only module that imports the SDK. Summary in docs/security.md, "Connector
 * account credentials".
 *
 * - Stored form: the SDK's encrypted message, base64. Its header carries, in clear, the encryption
 *   context `{merchant_id, merchant_connector_id}` (not secret) and is authenticated with it, so a
 *   message copied onto another account does not decrypt (it is refused by the check below).
 * - Wrapping key: AWS KMS on deployed stages (`CONNECTOR_ACCOUNTS_KMS_KEY_ARN`), a raw AES-256 key
 *   locally and in tests (`CONNECTOR_ACCOUNTS_LOCAL_KEY`).
 * - Commitment policy `REQUIRE_ENCRYPT_REQUIRE_DECRYPT`, the SDK's default algorithm suite (AES-256-GCM,
 *   HKDF-SHA512, key commitment, ECDSA P-384 signature), at most one encrypted data key per message.
 *   The signature costs about 6 ms per encrypt and 7 ms per decrypt (local keyring, loaded 2-vCPU
 *   machine; 2 and 0.4 ms without it) and is kept as best-practices.html advises: a principal that
 *   can only decrypt cannot forge or alter a message.
 *
 * The SDK is loaded on first use (`import()`), not when this module is imported: a handler that
 * imports the repository but never touches credentials does not evaluate it on a cold start.
 *
 * Sources (AWS Encryption SDK Developer Guide, docs.aws.amazon.com/encryption-sdk/latest/developer-guide/):
 * js-examples.html (buildClient, KmsKeyringNode, "Verify the encryption context"), configure.html
 * (#config-limit-keys), best-practices.html, concepts.html (#encryption-context: `aws-crypto-public-key`),
 * use-raw-aes-keyring.html, thresholds.html and data-caching-details.html (caching CMM; JavaScript's
 * maxAge is in milliseconds); and the SDK's source at v5.0.2 (github.com/aws/aws-encryption-sdk-javascript:
 * modules/decrypt-node/src/decrypt.ts takes no encryption context to check, and the JavaScript SDK has
 * no required-encryption-context CMM, so the check is ours).
 */
import { randomBytes } from 'node:crypto';
import type { KeyringNode, NodeMaterialsManager } from '@aws-crypto/client-node';

/** The encryption context of an account's credentials: whose account they are. Both non-empty. */
export interface CredentialContext {
  merchant_id: string;
  merchant_connector_id: string;
}

/** Environment variable: key ARN of the stage's KMS key (deployed stages; declared in the CDK stack). */
export const KMS_KEY_ARN_VARIABLE = 'CONNECTOR_ACCOUNTS_KMS_KEY_ARN';

/** Environment variable: base64 of the 32-byte local wrapping key (`npm start`, tests; never on Lambda). */
export const LOCAL_KEY_VARIABLE = 'CONNECTOR_ACCOUNTS_LOCAL_KEY';

/**
 * Key namespace of the local raw AES keyring. Written in clear in every message's encrypted data key
 * and matched exactly (case-sensitive) on decrypt: changing it makes existing local messages
 * undecryptable. Not `aws-kms` (reserved by the SDK for KMS keys).
 */
export const LOCAL_KEY_NAMESPACE = 'switchyard-local';

/** Key name of the local raw AES keyring (same rules as {@link LOCAL_KEY_NAMESPACE}). */
export const LOCAL_KEY_NAME = 'connector-accounts-aes-256-gcm';

/** The pair the SDK adds to the encryption context when the algorithm suite signs (concepts.html#encryption-context). */
const SDK_PUBLIC_KEY_CONTEXT_KEY = 'aws-crypto-public-key';

/** Size of the local wrapping key (bytes): AES-256. */
const LOCAL_KEY_BYTES = 32;

/**
 * How long a decrypted data key is reused from the decrypt cache (milliseconds; KMS only): a warm
 * function decrypts the same account's credentials again without a KMS call for 5 minutes, as the
 * keyed-hash secret is cached (shared/security/keyed-hash.ts). Also the bound on how long a revoked
 * grant or disabled key goes unnoticed by a warm function.
 */
const DECRYPT_CACHE_MAX_AGE_MS = 5 * 60 * 1000;

/** How many accounts' data keys the decrypt cache holds (least recently used evicted; KMS only). */
const DECRYPT_CACHE_CAPACITY = 200;

/** Largest credentials object encrypted (bytes of its JSON): processor keys are well under 1 KiB. */
const MAX_PLAINTEXT_BYTES = 16 * 1024;

/**
 * An encrypted credentials message that does not decrypt for the account asked: not an Encryption
 * SDK message, tampered with, under another key, bound to another account (encryption context), or
 * not a credentials object once decrypted. Its message is fixed: never the plaintext, key material
 * or the ciphertext. `cause` holds the SDK's error when the SDK refused the message (those name no
 * plaintext or key), never a parse error of the plaintext.
 */
export class CredentialDecryptionError extends Error {
  /** `context_mismatch`: decrypted, but bound to another account; `undecryptable`: any other failure. */
  readonly reason: 'context_mismatch' | 'undecryptable';

  constructor(reason: 'context_mismatch' | 'undecryptable', cause?: unknown) {
    super(
      reason === 'context_mismatch'
        ? 'Connector account credentials belong to another account (encryption context mismatch).'
        : 'Connector account credentials could not be decrypted.',
      cause === undefined ? undefined : { cause },
    );
    this.name = 'CredentialDecryptionError';
    this.reason = reason;
  }
}

type Sdk = typeof import('@aws-crypto/client-node');
type Client = ReturnType<Sdk['buildClient']>;

/** What one configuration builds: the encrypt keyring and the decrypt materials source. */
interface Materials {
  /** The configuration these were built from (the env values), to rebuild when it changes. */
  config: string;
  encryptWith: KeyringNode;
  decryptWith: KeyringNode | NodeMaterialsManager;
}

let sdkPromise: Promise<Sdk> | undefined;
let client: Client | undefined;
let materials: Materials | undefined;

/** The SDK, imported once per container on first use. */
function sdk(): Promise<Sdk> {
  sdkPromise ??= import('@aws-crypto/client-node');
  return sdkPromise;
}

/**
 * The SDK client, built once per container: commitment policy REQUIRE_ENCRYPT_REQUIRE_DECRYPT and at
 * most 1 encrypted data key per message (configure.html#config-limit-keys: a message may otherwise
 * carry up to 65,535, each costing a KMS call on decrypt). Every message here has exactly one.
 */
function sdkClient(mod: Sdk): Client {
  client ??= mod.buildClient({
    commitmentPolicy: mod.CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT,
    maxEncryptedDataKeys: 1,
  });
  return client;
}

/** Whether `value` is base64 of exactly 32 bytes, canonical (what {@link newLocalWrappingKey} makes). */
export function isLocalWrappingKey(value: string): boolean {
  const bytes = Buffer.from(value, 'base64');
  return bytes.length === LOCAL_KEY_BYTES && bytes.toString('base64') === value;
}

/** A new local wrapping key: base64 of 32 random bytes (`crypto.randomBytes`), for {@link LOCAL_KEY_VARIABLE}. */
export function newLocalWrappingKey(): string {
  return randomBytes(LOCAL_KEY_BYTES).toString('base64');
}

/** A key ARN (`arn:<partition>:kms:<region>:<account>:key/<id>`); aliases are refused, since strict-mode decrypt matches key ARNs only. */
const KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/**
 * The keyrings of the current configuration, built once per configuration (so once per container).
 * - {@link KMS_KEY_ARN_VARIABLE} set: a `KmsKeyringNode` with that key as generator (strict mode: it
 *   decrypts only data keys wrapped by that key). Encrypt uses it directly, so each message gets a fresh
 *   data key (one `GenerateDataKey` per write; writes are rare). Decrypt goes through a
 *   `NodeCachingMaterialsManager` over a local LRU cache ({@link DECRYPT_CACHE_CAPACITY} entries,
 *   {@link DECRYPT_CACHE_MAX_AGE_MS}): the cache entry is keyed by the message's encrypted data key and
 *   its whole encryption context, so it only spares the KMS `Decrypt` of a message already decrypted
 *   by this container; plaintext data keys stay in memory that long at most (zeroed on eviction).
 * - else {@link LOCAL_KEY_VARIABLE}: a `RawAesKeyringNode` (AES-256-GCM wrapping, {@link LOCAL_KEY_NAMESPACE}
 *   / {@link LOCAL_KEY_NAME}), refused inside Lambda (`AWS_LAMBDA_FUNCTION_NAME` set). No cache: unwrapping is local.
 * @throws Error naming the variable when neither is set, or when a value is malformed (the value is never repeated)
 */
async function currentMaterials(): Promise<{ mod: Sdk; materials: Materials }> {
  const kmsKeyArn = process.env[KMS_KEY_ARN_VARIABLE]?.trim() || undefined;
  const localKey = process.env[LOCAL_KEY_VARIABLE]?.trim() || undefined;
  if (!kmsKeyArn && !localKey) {
    throw new Error(
      `Connector account credentials cannot be encrypted or decrypted: set ${KMS_KEY_ARN_VARIABLE} (deployed stages) or ${LOCAL_KEY_VARIABLE} (local: base64 of 32 random bytes; npm start makes one).`,
    );
  }
  if (kmsKeyArn && !KEY_ARN.test(kmsKeyArn)) {
    throw new Error(`${KMS_KEY_ARN_VARIABLE} must be a KMS key ARN (arn:aws:kms:<region>:<account>:key/<key id>), not an alias or key id.`);
  }
  if (!kmsKeyArn) {
    if (process.env.AWS_LAMBDA_FUNCTION_NAME) {
      throw new Error(`${KMS_KEY_ARN_VARIABLE} is not configured for this function (${LOCAL_KEY_VARIABLE} is for local use only).`);
    }
    if (!isLocalWrappingKey(localKey!)) throw new Error(`${LOCAL_KEY_VARIABLE} must be base64 of exactly ${LOCAL_KEY_BYTES} bytes.`);
  }
  const config = kmsKeyArn ? `kms:${kmsKeyArn}` : `local:${localKey}`;
  const mod = await sdk();
  if (materials?.config === config) return { mod, materials };

  if (kmsKeyArn) {
    const keyring = new mod.KmsKeyringNode({ generatorKeyId: kmsKeyArn });
    const decryptWith = new mod.NodeCachingMaterialsManager({
      backingMaterials: keyring,
      cache: mod.getLocalCryptographicMaterialsCache(DECRYPT_CACHE_CAPACITY),
      maxAge: DECRYPT_CACHE_MAX_AGE_MS,
    });
    materials = { config, encryptWith: keyring, decryptWith };
  } else {
    // The SDK wants the key in an ArrayBuffer of its own: a short Buffer.from() lies in Node's shared pool.
    const pooled = Buffer.from(localKey!, 'base64');
    const unencryptedMasterKey = new Uint8Array(pooled);
    pooled.fill(0);
    const keyring = new mod.RawAesKeyringNode({
      keyNamespace: LOCAL_KEY_NAMESPACE,
      keyName: LOCAL_KEY_NAME,
      unencryptedMasterKey,
      wrappingSuite: mod.RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
    });
    materials = { config, encryptWith: keyring, decryptWith: keyring };
  }
  return { mod, materials };
}

/** The context as the SDK takes it, after checking both ids are non-empty strings. */
function encryptionContext(context: CredentialContext): Record<string, string> {
  const { merchant_id, merchant_connector_id } = context ?? {};
  if (typeof merchant_id !== 'string' || merchant_id === '' || typeof merchant_connector_id !== 'string' || merchant_connector_id === '') {
    throw new TypeError('The credentials context needs a non-empty merchant_id and merchant_connector_id.');
  }
  return { merchant_id, merchant_connector_id };
}

/**
 * Encrypts an account's credentials, bound to the account by the encryption context.
 * @param plaintext credential name → value (`api_key`, `key1`, `webhook_secret`, …), strings only,
 *   at most 16 KiB as JSON
 * @param context the account: `merchant_id`, `merchant_connector_id` (stored in clear in the message header)
 * @returns the Encryption SDK message, base64 (about 0.9 KB for three keys with the local key, 1.1 KB with KMS)
 * @throws TypeError when a value is not a string or the context is incomplete (no value is repeated);
 *   Error when the key is not configured (see {@link KMS_KEY_ARN_VARIABLE}) or the plaintext is too large;
 *   the SDK's or KMS's error when encryption fails (they hold no plaintext)
 */
export async function encryptCredentials(plaintext: Record<string, string>, context: CredentialContext): Promise<string> {
  const encryption = encryptionContext(context);
  if (typeof plaintext !== 'object' || plaintext === null || Array.isArray(plaintext)) {
    throw new TypeError('Credentials must be an object of strings.');
  }
  if (!Object.values(plaintext).every((v) => typeof v === 'string')) throw new TypeError('Credential values must be strings.');
  const bytes = Buffer.from(JSON.stringify(plaintext), 'utf8');
  try {
    if (bytes.length > MAX_PLAINTEXT_BYTES) throw new Error(`Credentials exceed ${MAX_PLAINTEXT_BYTES} bytes.`);
    const { mod, materials } = await currentMaterials();
    const { result } = await sdkClient(mod).encrypt(materials.encryptWith, bytes, { encryptionContext: encryption });
    return result.toString('base64');
  } finally {
    bytes.fill(0);
  }
}

/**
 * Decrypts an account's credentials and checks they were encrypted for that account: the message's
 * encryption context must hold exactly `merchant_id` and `merchant_connector_id` with these values,
 * plus only the SDK's own `aws-crypto-public-key` (added by the signing suite). The SDK authenticates
 * the context with the message but does not compare it with anything (js-examples.html, step 3).
 * @param ciphertext what {@link encryptCredentials} returned (base64)
 * @param context the account the caller reads
 * @returns credential name → value
 * @throws CredentialDecryptionError when the message does not decrypt or belongs to another account
 *   (`reason`); TypeError when the context is incomplete; Error when the key is not configured
 */
export async function decryptCredentials(ciphertext: string, context: CredentialContext): Promise<Record<string, string>> {
  const expected = encryptionContext(context);
  if (typeof ciphertext !== 'string' || ciphertext === '') throw new CredentialDecryptionError('undecryptable');
  const { mod, materials } = await currentMaterials();

  let plaintext: Buffer;
  let actual: Record<string, string>;
  try {
    const out = await sdkClient(mod).decrypt(materials.decryptWith, Buffer.from(ciphertext, 'base64'));
    plaintext = out.plaintext;
    actual = out.messageHeader.encryptionContext;
  } catch (err) {
    throw new CredentialDecryptionError('undecryptable', err);
  }
  try {
    const extra = Object.keys(actual).filter((k) => !(k in expected) && k !== SDK_PUBLIC_KEY_CONTEXT_KEY);
    if (extra.length > 0 || Object.entries(expected).some(([k, v]) => actual[k] !== v)) {
      throw new CredentialDecryptionError('context_mismatch');
    }
    return parseCredentials(plaintext);
  } finally {
    plaintext.fill(0);
  }
}

/** The credentials object of a decrypted plaintext (own properties only, so `__proto__` stays a plain key). */
function parseCredentials(plaintext: Buffer): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(plaintext.toString('utf8'));
  } catch {
    // No cause: a JSON parse error quotes the text it failed on.
    throw new CredentialDecryptionError('undecryptable');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new CredentialDecryptionError('undecryptable');
  const entries = Object.entries(parsed);
  if (!entries.every(([, v]) => typeof v === 'string')) throw new CredentialDecryptionError('undecryptable');
  return Object.fromEntries(entries) as Record<string, string>;
}
