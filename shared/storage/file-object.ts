/**
 * What every file store shares: its interface and the object key of a file. Imported by the store chooser
 * (./file-store.ts) and by each store (the local directory there, S3 in ./s3-file-store.ts), so the S3 store,
 * loaded only on deployed stages, does not import its chooser.
 */

/** Where a file's bytes are kept. */
export interface FileStore {
  /** Stores (or replaces) a file's bytes. */
  put(merchantId: string, fileId: string, bytes: Buffer, mediaType: string): Promise<void>;
  /** A file's bytes; undefined when there are none (never uploaded, or expired). */
  get(merchantId: string, fileId: string): Promise<Buffer | undefined>;
}

const SAFE_SEGMENT = /^[A-Za-z0-9_]{1,100}$/;

/**
 * A file's object key, `<merchant_id>/<file_id>`: tenant-prefixed, so one merchant's files are one prefix.
 * @throws Error when either id is not a plain id (no path can be made of caller input)
 */
export function fileObjectKey(merchantId: string, fileId: string): string {
  if (!SAFE_SEGMENT.test(merchantId) || !SAFE_SEGMENT.test(fileId)) throw new Error('file store: not an id');
  return `${merchantId}/${fileId}`;
}
