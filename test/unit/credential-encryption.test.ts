import { randomBytes } from 'node:crypto';
import {
  AlgorithmSuiteIdentifier,
  buildClient,
  CommitmentPolicy,
  RawAesKeyringNode,
  RawAesWrappingSuiteIdentifier,
} from '@aws-crypto/client-node';
import fc from 'fast-check';
import {
  CredentialDecryptionError,
  decryptCredentials,
  encryptCredentials,
  isLocalWrappingKey,
  KMS_KEY_ARN_VARIABLE,
  LOCAL_KEY_NAME,
  LOCAL_KEY_NAMESPACE,
  LOCAL_KEY_VARIABLE,
  newLocalWrappingKey,
} from '../../shared/security/credential-encryption';

/*
 * Connector account credentials under the AWS Encryption SDK (shared/security/credential-encryption.ts):
 * with the run's local key (test/setup/global-setup.ts), and with the KMS keyring against a stand-in
 * KMS client (no AWS account here) that counts calls. Secrets are made up; each is long and random
 * enough that finding it in a ciphertext by chance is out of the question.
 */

/** The stand-in KMS: AES-256-GCM under one key, the encryption context as AAD, like KMS binds it. */
const mockKms = {
  key: randomBytes(32),
  calls: { generateDataKey: 0, decrypt: 0, encrypt: 0 },
  lastContext: undefined as Record<string, string> | undefined,
};

jest.mock('@aws-sdk/client-kms', () => {
  const actual = jest.requireActual('@aws-sdk/client-kms');
  const crypto = jest.requireActual('node:crypto');
  const aad = (context: Record<string, string>) => Buffer.from(JSON.stringify(Object.entries(context).sort()));
  const seal = (plaintext: Uint8Array, context: Record<string, string>) => {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', mockKms.key, iv).setAAD(aad(context));
    return new Uint8Array(Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]));
  };
  class KMS {
    config: { region: string };
    constructor(config: { region: string }) {
      this.config = config;
    }
    async generateDataKey({ KeyId, NumberOfBytes, EncryptionContext }: any) {
      mockKms.calls.generateDataKey += 1;
      mockKms.lastContext = EncryptionContext;
      const Plaintext = new Uint8Array(crypto.randomBytes(NumberOfBytes));
      return { KeyId, Plaintext, CiphertextBlob: seal(Plaintext, EncryptionContext) };
    }
    async encrypt({ KeyId, Plaintext, EncryptionContext }: any) {
      mockKms.calls.encrypt += 1;
      return { KeyId, CiphertextBlob: seal(Plaintext, EncryptionContext) };
    }
    async decrypt({ KeyId, CiphertextBlob, EncryptionContext }: any) {
      mockKms.calls.decrypt += 1;
      const blob = Buffer.from(CiphertextBlob);
      const decipher = crypto.createDecipheriv('aes-256-gcm', mockKms.key, blob.subarray(0, 12)).setAAD(aad(EncryptionContext));
      decipher.setAuthTag(blob.subarray(blob.length - 16));
      const Plaintext = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
      return { KeyId, Plaintext: new Uint8Array(Plaintext) };
    }
  }
  return { ...actual, KMS };
});

const ACCOUNT = { merchant_id: 'mer_credtest', merchant_connector_id: 'mca_00112233445566778899aabbccddeeff' };
const OTHER_ACCOUNT_SAME_MERCHANT = { ...ACCOUNT, merchant_connector_id: 'mca_ffeeddccbbaa99887766554433221100' };
const OTHER_MERCHANT_SAME_ID = { ...ACCOUNT, merchant_id: 'mer_credothr' };

/** Credentials of the shape the connectors keep, values random. */
function someCredentials(): Record<string, string> {
  return {
    api_key: `sk_test_${randomBytes(24).toString('hex')}`,
    key1: `FLWSECK_TEST${randomBytes(8).toString('hex')}`,
    webhook_secret: `whsec_${randomBytes(32).toString('base64')}`,
  };
}

/** Every way a secret could sit in a stored message: the base64 text, and its bytes read as UTF-8 and Latin-1. */
function holds(ciphertext: string, secret: string): boolean {
  const bytes = Buffer.from(ciphertext, 'base64');
  return ciphertext.includes(secret) || bytes.includes(Buffer.from(secret, 'utf8')) || bytes.toString('latin1').includes(secret);
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a rejection');
}

/** Message, stack and `cause` chain of an error, as a logger would print them. */
function everythingSaid(err: Error): string {
  const parts: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) parts.push(e.message, e.stack ?? '');
  return parts.join('\n');
}

/** Runs `body` with the variables set (`undefined`: unset), then puts them back. */
async function withEnv<T>(values: Record<string, string | undefined>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]));
  const apply = (v: Record<string, string | undefined>) => {
    for (const [k, value] of Object.entries(v)) {
      if (value === undefined) delete process.env[k];
      else process.env[k] = value;
    }
  };
  apply(values);
  try {
    return await body();
  } finally {
    apply(saved);
  }
}

/** An SDK client and keyring for the run's local key, to write messages this module would not. */
function rawSdk() {
  const keyring = new RawAesKeyringNode({
    keyNamespace: LOCAL_KEY_NAMESPACE,
    keyName: LOCAL_KEY_NAME,
    unencryptedMasterKey: new Uint8Array(Buffer.from(process.env[LOCAL_KEY_VARIABLE]!, 'base64')),
    wrappingSuite: RawAesWrappingSuiteIdentifier.AES256_GCM_IV12_TAG16_NO_PADDING,
  });
  return { keyring, ...buildClient(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT) };
}

describe('configuration for the test run', () => {
  it('gets a fresh local key from the global setup, and no KMS key', () => {
    const key = process.env[LOCAL_KEY_VARIABLE];
    expect(key && isLocalWrappingKey(key)).toBe(true);
    expect(process.env[KMS_KEY_ARN_VARIABLE]).toBeUndefined();
  });

  it('makes local keys of 32 random bytes and recognizes only those', () => {
    const a = newLocalWrappingKey();
    expect(Buffer.from(a, 'base64')).toHaveLength(32);
    expect(a).not.toBe(newLocalWrappingKey());
    expect(isLocalWrappingKey(a)).toBe(true);
    expect(isLocalWrappingKey(randomBytes(16).toString('base64'))).toBe(false);
    expect(isLocalWrappingKey(`${a} `)).toBe(false);
    expect(isLocalWrappingKey(randomBytes(32).toString('hex'))).toBe(false);
  });
});

describe('encryptCredentials / decryptCredentials with the local key', () => {
  it('round-trips credentials', async () => {
    const credentials = someCredentials();
    const ciphertext = await encryptCredentials(credentials, ACCOUNT);
    expect(ciphertext).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    await expect(decryptCredentials(ciphertext, ACCOUNT)).resolves.toEqual(credentials);
  });

  it('gives a different message each time (fresh data key), and holds no secret', async () => {
    const credentials = someCredentials();
    const [a, b] = [await encryptCredentials(credentials, ACCOUNT), await encryptCredentials(credentials, ACCOUNT)];
    expect(a).not.toBe(b);
    for (const secret of Object.values(credentials)) {
      expect(holds(a, secret)).toBe(false);
      expect(holds(b, secret)).toBe(false);
    }
    // The encryption context is in clear in the header (not secret): the ids are readable.
    expect(Buffer.from(a, 'base64').includes(Buffer.from(ACCOUNT.merchant_connector_id))).toBe(true);
  });

  it('writes a committing, signed message with one data key under the documented local key names', async () => {
    const { keyring, decrypt } = rawSdk();
    const { messageHeader } = await decrypt(keyring, Buffer.from(await encryptCredentials(someCredentials(), ACCOUNT), 'base64'));
    expect(messageHeader.suiteId).toBe(AlgorithmSuiteIdentifier.ALG_AES256_GCM_IV12_TAG16_HKDF_SHA512_COMMIT_KEY_ECDSA_P384);
    expect(messageHeader.encryptedDataKeys).toHaveLength(1);
    expect(messageHeader.encryptedDataKeys[0]!.providerId).toBe(LOCAL_KEY_NAMESPACE);
    expect(Object.keys(messageHeader.encryptionContext).sort()).toEqual(['aws-crypto-public-key', 'merchant_connector_id', 'merchant_id']);
  });

  it.each([
    ['another account of the same merchant', OTHER_ACCOUNT_SAME_MERCHANT],
    ['the same account id under another merchant', OTHER_MERCHANT_SAME_ID],
  ])('refuses a message moved to %s', async (_, elsewhere) => {
    const credentials = someCredentials();
    const ciphertext = await encryptCredentials(credentials, ACCOUNT);
    const err = await rejection(decryptCredentials(ciphertext, elsewhere));
    expect(err).toBeInstanceOf(CredentialDecryptionError);
    expect((err as CredentialDecryptionError).reason).toBe('context_mismatch');
    for (const secret of Object.values(credentials)) expect(everythingSaid(err)).not.toContain(secret);
  });

  it('refuses a message whose context holds more or less than the account', async () => {
    const { keyring, encrypt } = rawSdk();
    const plaintext = JSON.stringify(someCredentials());
    for (const encryptionContext of [{ ...ACCOUNT, purpose: 'other' }, { merchant_id: ACCOUNT.merchant_id }]) {
      const { result } = await encrypt(keyring, plaintext, { encryptionContext });
      const err = await rejection(decryptCredentials(result.toString('base64'), ACCOUNT));
      expect(err).toBeInstanceOf(CredentialDecryptionError);
      expect((err as CredentialDecryptionError).reason).toBe('context_mismatch');
    }
  });

  it('refuses a tampered message: any byte flipped, the context rewritten in the header, truncated, or not a message', async () => {
    const credentials = someCredentials();
    const bytes = Buffer.from(await encryptCredentials(credentials, ACCOUNT), 'base64');
    const tampered: Buffer[] = [];
    // A byte in the header, in the encrypted data key, in the body and in the signature.
    for (const at of [1, 40, Math.floor(bytes.length / 2), bytes.length - 120, bytes.length - 1]) {
      const copy = Buffer.from(bytes);
      copy[at] = copy[at]! ^ 0x01;
      tampered.push(copy);
    }
    // The header's merchant_connector_id rewritten to another account's (same length): authentication fails.
    const at = bytes.indexOf(Buffer.from(ACCOUNT.merchant_connector_id));
    const moved = Buffer.from(bytes);
    Buffer.from(OTHER_ACCOUNT_SAME_MERCHANT.merchant_connector_id).copy(moved, at);
    tampered.push(moved, bytes.subarray(0, bytes.length - 10), bytes.subarray(0, 30));
    const inputs = [
      ...tampered.map((b) => b.toString('base64')),
      '',
      'not base64 at all!',
      Buffer.from('{"api_key":"x"}').toString('base64'),
    ];
    for (const input of inputs) {
      for (const context of [ACCOUNT, OTHER_ACCOUNT_SAME_MERCHANT]) {
        const err = await rejection(decryptCredentials(input, context));
        expect(err).toBeInstanceOf(CredentialDecryptionError);
        expect((err as CredentialDecryptionError).reason).toBe('undecryptable');
        for (const secret of Object.values(credentials)) expect(everythingSaid(err)).not.toContain(secret);
      }
    }
  });

  it('refuses a message under another key', async () => {
    const ciphertext = await withEnv({ [LOCAL_KEY_VARIABLE]: newLocalWrappingKey() }, () => encryptCredentials(someCredentials(), ACCOUNT));
    const err = await rejection(decryptCredentials(ciphertext, ACCOUNT));
    expect(err).toBeInstanceOf(CredentialDecryptionError);
    expect((err as CredentialDecryptionError).reason).toBe('undecryptable');
  });

  it('refuses a message for the account that holds no credentials object, without quoting it', async () => {
    const { keyring, encrypt } = rawSdk();
    const secret = `sk_test_${randomBytes(24).toString('hex')}`;
    for (const plaintext of [`${secret} is not JSON`, JSON.stringify([secret]), JSON.stringify({ api_key: secret, key1: 1 })]) {
      const { result } = await encrypt(keyring, plaintext, { encryptionContext: ACCOUNT });
      const err = await rejection(decryptCredentials(result.toString('base64'), ACCOUNT));
      expect(err).toBeInstanceOf(CredentialDecryptionError);
      expect(everythingSaid(err)).not.toContain(secret);
    }
  });

  it('refuses values that are not strings and incomplete contexts, repeating no value', async () => {
    const secret = `sk_test_${randomBytes(24).toString('hex')}`;
    const notString = await rejection(encryptCredentials({ api_key: secret, key1: 42 } as unknown as Record<string, string>, ACCOUNT));
    expect(notString).toBeInstanceOf(TypeError);
    expect(everythingSaid(notString)).not.toContain(secret);
    for (const context of [{ ...ACCOUNT, merchant_id: '' }, { merchant_id: 'mer_x' }]) {
      await expect(encryptCredentials({ api_key: secret }, context as typeof ACCOUNT)).rejects.toThrow(TypeError);
      await expect(decryptCredentials('AAAA', context as typeof ACCOUNT)).rejects.toThrow(TypeError);
    }
  });

  it('round-trips any strings, holds none of them, and opens for no other account (property)', async () => {
    const secretValue = fc.string({ unit: 'binary', minLength: 12, maxLength: 200 });
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), secretValue, { minKeys: 1, maxKeys: 4 }),
        async (credentials) => {
          const ciphertext = await encryptCredentials(credentials, ACCOUNT);
          expect(await decryptCredentials(ciphertext, ACCOUNT)).toEqual(credentials);
          for (const value of Object.values(credentials)) expect(holds(ciphertext, value)).toBe(false);
          await expect(decryptCredentials(ciphertext, OTHER_ACCOUNT_SAME_MERCHANT)).rejects.toThrow(CredentialDecryptionError);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('key configuration', () => {
  it('names both variables when neither is set', async () => {
    const ciphertext = await encryptCredentials(someCredentials(), ACCOUNT);
    await withEnv({ [LOCAL_KEY_VARIABLE]: undefined, [KMS_KEY_ARN_VARIABLE]: undefined }, async () => {
      for (const attempt of [encryptCredentials(someCredentials(), ACCOUNT), decryptCredentials(ciphertext, ACCOUNT)]) {
        const err = await rejection(attempt);
        expect(err).not.toBeInstanceOf(CredentialDecryptionError);
        expect(err.message).toContain(KMS_KEY_ARN_VARIABLE);
        expect(err.message).toContain(LOCAL_KEY_VARIABLE);
      }
    });
  });

  it('refuses a malformed local key without repeating it', async () => {
    const malformed = randomBytes(16).toString('base64');
    await withEnv({ [LOCAL_KEY_VARIABLE]: malformed }, async () => {
      const err = await rejection(encryptCredentials(someCredentials(), ACCOUNT));
      expect(err.message).toContain(LOCAL_KEY_VARIABLE);
      expect(err.message).not.toContain(malformed);
    });
  });

  it('refuses the local key inside Lambda', async () => {
    await withEnv({ AWS_LAMBDA_FUNCTION_NAME: 'switchyard-test-fn' }, async () => {
      await expect(encryptCredentials(someCredentials(), ACCOUNT)).rejects.toThrow(KMS_KEY_ARN_VARIABLE);
    });
  });

  it('wants a key ARN for KMS, not an alias', async () => {
    await withEnv({ [KMS_KEY_ARN_VARIABLE]: 'arn:aws:kms:eu-west-1:111122223333:alias/switchyard' }, async () => {
      await expect(encryptCredentials(someCredentials(), ACCOUNT)).rejects.toThrow(KMS_KEY_ARN_VARIABLE);
    });
  });
});

describe('with CONNECTOR_ACCOUNTS_KMS_KEY_ARN (stand-in KMS client)', () => {
  const KEY_ARN = 'arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';

  it('wraps one data key per message under the key, decrypts through the cache, and still checks the account', async () => {
    await withEnv({ [KMS_KEY_ARN_VARIABLE]: KEY_ARN }, async () => {
      const credentials = someCredentials();
      const before = { ...mockKms.calls };
      const ciphertext = await encryptCredentials(credentials, ACCOUNT);
      expect(mockKms.calls.generateDataKey - before.generateDataKey).toBe(1);
      expect(mockKms.lastContext).toMatchObject(ACCOUNT);

      const { messageHeader } = await buildClient(CommitmentPolicy.REQUIRE_ENCRYPT_REQUIRE_DECRYPT).decrypt(
        new (await import('@aws-crypto/client-node')).KmsKeyringNode({ generatorKeyId: KEY_ARN }),
        Buffer.from(ciphertext, 'base64'),
      );
      expect(messageHeader.encryptedDataKeys.map((k) => [k.providerId, k.providerInfo])).toEqual([['aws-kms', KEY_ARN]]);
      const direct = mockKms.calls.decrypt;

      // Three reads of the same message: one KMS Decrypt, then the cache.
      for (let i = 0; i < 3; i++) expect(await decryptCredentials(ciphertext, ACCOUNT)).toEqual(credentials);
      expect(mockKms.calls.decrypt - direct).toBe(1);
      // Another account's message is another cache entry (another KMS call).
      const other = await encryptCredentials(someCredentials(), OTHER_ACCOUNT_SAME_MERCHANT);
      await decryptCredentials(other, OTHER_ACCOUNT_SAME_MERCHANT);
      expect(mockKms.calls.decrypt - direct).toBe(2);
      // A cached message moved to another account is still refused.
      const err = await rejection(decryptCredentials(ciphertext, OTHER_ACCOUNT_SAME_MERCHANT));
      expect((err as CredentialDecryptionError).reason).toBe('context_mismatch');
      expect(mockKms.calls.encrypt).toBe(0);
    });
  });

  it('does not decrypt a local-key message with the KMS keyring (strict: only its own data keys)', async () => {
    const local = await encryptCredentials(someCredentials(), ACCOUNT);
    await withEnv({ [KMS_KEY_ARN_VARIABLE]: KEY_ARN }, async () => {
      const err = await rejection(decryptCredentials(local, ACCOUNT));
      expect((err as CredentialDecryptionError).reason).toBe('undecryptable');
    });
  });
});
