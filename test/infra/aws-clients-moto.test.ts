/**
 * The AWS clients a deployed stage loads on first use (not at cold start): Secrets Manager through Powertools Parameters
 * (the keyed-hash key, the platform connector settings: shared/security/stage-secrets.ts) and S3 (dispute evidence
 * files: shared/storage/s3-file-store.ts). Locally and in the other tests neither is used (the environment gives the
 * key and the settings, a directory holds the files), so these paths run here against moto's server
 * (`python3 -m moto.server`, moto 5.2 in the image: https://docs.getmoto.org/en/latest/docs/server_mode.html), a
 * loopback stand-in of both APIs: never AWS. The SDK reaches it through `AWS_ENDPOINT_URL`
 * (https://docs.aws.amazon.com/sdkref/latest/guide/feature-ss-endpoints.html).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { connectorSettings } from '../../shared/processor-call/connector-registry';
import { keyedHash, keyedHashKey } from '../../shared/security/keyed-hash';
import { fileStore } from '../../shared/storage/file-store';
import { scopedEnv } from '../helpers/scoped-env';

const env = scopedEnv();
let moto: ChildProcess | undefined;
let endpoint = '';
const region = 'eu-west-1';
const credentials = { accessKeyId: 'testing', secretAccessKey: 'testing' };

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port'))));
    });
  });
}

async function waitUntilUp(url: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      await fetch(url);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`moto did not start at ${url}: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

beforeAll(async () => {
  const port = await freePort();
  endpoint = `http://127.0.0.1:${port}`;
  moto = spawn(process.env.PYTHON ?? 'python3', ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  await waitUntilUp(endpoint, Date.now() + 20_000);
  env.set({
    AWS_ENDPOINT_URL: endpoint,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_REGION: region,
  });
}, 120_000);

afterAll(() => {
  env.restore();
  moto?.kill();
});

const secrets = () => new SecretsManagerClient({ region, endpoint, credentials });

test('the keyed-hash key comes from the Secrets Manager secret CARD_FINGERPRINT_SECRET_ID names', async () => {
  const name = `switchyard-test/keyed-hash-${Date.now()}`;
  await secrets().send(new CreateSecretCommand({ Name: name, SecretString: 'a-key-only-this-secret-holds' }));
  env.set({ CARD_FINGERPRINT_SECRET_ID: name, CARD_FINGERPRINT_KEY: '' });
  expect(await keyedHashKey()).toBe('a-key-only-this-secret-holds');
  const { createHmac } = await import('node:crypto');
  expect(await keyedHash('card:4242')).toBe(createHmac('sha256', 'a-key-only-this-secret-holds').update('card:4242').digest('hex'));
});

test('an unknown secret fails the read (a deployment fault), it never falls back to the local key', async () => {
  env.set({ CARD_FINGERPRINT_SECRET_ID: `switchyard-test/missing-${Date.now()}`, CARD_FINGERPRINT_KEY: '' });
  await expect(keyedHashKey()).rejects.toThrow();
});

test('the platform connector settings merge the JSON secret CONNECTOR_SECRETS_ID names over the environment', async () => {
  const name = `switchyard-test/connectors-${Date.now()}`;
  await secrets().send(
    new CreateSecretCommand({
      Name: name,
      SecretString: JSON.stringify({ PAYSTACK_SECRET_KEY: 'sk_test_from_secret', STRIPE_BASE_URL: 'http://127.0.0.1:1' }),
    }),
  );
  env.set({ CONNECTOR_SECRETS_ID: name, PAYSTACK_SECRET_KEY: 'sk_test_from_env', FLUTTERWAVE_BASE_URL: 'http://127.0.0.1:2' });
  const settings = await connectorSettings();
  expect(settings.PAYSTACK_SECRET_KEY).toBe('sk_test_from_secret');
  expect(settings.STRIPE_BASE_URL).toBe('http://127.0.0.1:1');
  expect(settings.FLUTTERWAVE_BASE_URL).toBe('http://127.0.0.1:2');
});

test('a deployed file store writes each file encrypted to its merchant prefix and reads it back; a missing file is undefined', async () => {
  const bucket = `switchyard-test-files-${Date.now()}`;
  const s3 = new S3Client({ region, endpoint, credentials, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: region } }));
  const store = await fileStore({ ...process.env, FILES_BUCKET: bucket, AWS_REGION: region });
  const bytes = Buffer.from('%PDF-1.7 evidence');
  await store.put('mer_a', 'file_0123456789abcdef0123456789abcdef', bytes, 'application/pdf');
  expect(await store.get('mer_a', 'file_0123456789abcdef0123456789abcdef')).toEqual(bytes);
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'mer_a/file_0123456789abcdef0123456789abcdef' }));
  expect(head.ServerSideEncryption).toBe('AES256');
  expect(head.ContentType).toBe('application/pdf');
  // Another merchant's prefix holds nothing under the same file id.
  expect(await store.get('mer_b', 'file_0123456789abcdef0123456789abcdef')).toBeUndefined();
});
