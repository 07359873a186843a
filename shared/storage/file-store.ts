/**
 * The file store (dispute evidence): the bytes of uploaded files, one object per file under its
 * merchant's prefix, `<merchant_id>/<file_id>`. Their metadata is an item of the table
 * (shared/storage/files-repository.ts). Nothing here serves a file to anyone: the dispute operations read
 * the bytes to pass them to a processor.
 *
 * - Deployed (`FILES_BUCKET` set, by lib/api/route-functions.ts): the stage's S3 bucket (lib/data-stack.ts: private,
 *   SSE-S3, TLS only, lifecycle). Each put also asks for SSE (`AES256`), so an object is encrypted even if
 *   the bucket's default were changed.
 * - `npm start` and tests (no `FILES_BUCKET`): a local directory, `FILES_DIR` (default `.local/files` under
 *   the working directory, the repository; gitignored). A directory rather than an S3-compatible server
 *   (MinIO, LocalStack, moto's server mode): each of those is one more program to download and run (a Go
 *   binary, Docker, or Python), while `npm ci && npm start` must need nothing besides Node and Java. What
 *   the directory cannot show (SSE, IAM, lifecycle) is the bucket's, checked by test/infra/files.test.ts.
 *   Refused inside Lambda: a function without the bucket must fail, not write to its read-only disk.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { type FileStore, fileObjectKey } from './file-object';

/** Environment variable naming the bucket (deployed stages). */
export const FILES_BUCKET_VARIABLE = 'FILES_BUCKET';
/** Environment variable naming the local directory (no bucket). */
export const FILES_DIR_VARIABLE = 'FILES_DIR';
/** The local directory's default, from the working directory (the repository root for `npm start` and tests). */
export const DEFAULT_FILES_DIR = '.local/files';

/** The local directory store: `<dir>/<merchant_id>/<file_id>`, files mode 0600, written whole (temporary file, then rename). */
export function directoryFileStore(dir: string): FileStore {
  const pathOf = (merchantId: string, fileId: string) => join(dir, fileObjectKey(merchantId, fileId));
  return {
    async put(merchantId, fileId, bytes) {
      const path = pathOf(merchantId, fileId);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, bytes, { mode: 0o600 });
      await rename(temporary, path);
    },
    async get(merchantId, fileId) {
      try {
        return await readFile(pathOf(merchantId, fileId));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}

let cached: { key: string; store: FileStore } | undefined;

/**
 * The process's file store, chosen from the environment (see the module comment); re-chosen when
 * `FILES_BUCKET` or `FILES_DIR` changes (tests point `FILES_DIR` at a temporary directory). The S3 client is
 * loaded with the first deployed use (./s3-file-store.ts): an evidence submission without files, and every
 * local run, never loads it, and no cold start pays for it.
 * @throws Error inside Lambda without `FILES_BUCKET`
 */
export async function fileStore(env: NodeJS.ProcessEnv = process.env): Promise<FileStore> {
  const bucket = env[FILES_BUCKET_VARIABLE];
  const dir = resolve(env[FILES_DIR_VARIABLE] || DEFAULT_FILES_DIR);
  const key = bucket ? `s3:${bucket}` : `dir:${dir}`;
  if (cached?.key === key) return cached.store;
  let store: FileStore;
  if (bucket) {
    const { s3FileStoreOf } = await import('./s3-file-store');
    store = s3FileStoreOf(bucket, env.AWS_REGION || 'us-east-1');
  } else {
    if (env.AWS_LAMBDA_FUNCTION_NAME) throw new Error(`${FILES_BUCKET_VARIABLE} is not set: this function has no file bucket`);
    store = directoryFileStore(dir);
  }
  cached = { key, store };
  return store;
}
