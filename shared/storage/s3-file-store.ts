/**
 * The deployed file store: the stage's S3 bucket (lib/data-stack.ts), through the AWS SDK's S3 client, traced.
 * Loaded by ./file-store.ts on first use only, so that a cold start does not load the S3 client.
 */
import { GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { tracer } from '../observability/tracer';
import { type FileStore, fileObjectKey } from './file-object';

/** The S3 store of a bucket. */
export function s3FileStore(bucket: string, client: S3Client): FileStore {
  return {
    async put(merchantId, fileId, bytes, mediaType) {
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: fileObjectKey(merchantId, fileId),
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: mediaType,
          ServerSideEncryption: 'AES256',
        }),
      );
    },
    async get(merchantId, fileId) {
      try {
        const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: fileObjectKey(merchantId, fileId) }));
        if (!out.Body) return undefined;
        return Buffer.from(await out.Body.transformToByteArray());
      } catch (err) {
        if (err instanceof NoSuchKey || (err as { name?: string }).name === 'NoSuchKey') return undefined;
        throw err;
      }
    },
  };
}

/**
 * The S3 store of `bucket` with its client: 3 attempts, 1 s to connect, 10 s per request (a file is at most
 * a few MB; S3's own guidance is to retry with backoff: https://docs.aws.amazon.com/AmazonS3/latest/userguide/optimizing-performance.html).
 */
export function s3FileStoreOf(bucket: string, region: string): FileStore {
  const client = tracer.captureAWSv3Client(
    new S3Client({ region, maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 10_000 } }),
  );
  return s3FileStore(bucket, client);
}
