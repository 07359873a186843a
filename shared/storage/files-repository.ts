/**
 * Uploaded files' metadata: one item per file, `primaryKey.file`. The bytes are in the file store
 * (shared/storage/file-store.ts), written first. The item's `expires_at` is the table's TTL attribute (epoch
 * seconds), so the metadata goes when the bucket's lifecycle removes the bytes; the resource's `expires_at`
 * (ISO 8601) is read back from it.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { FileObject } from '../domain/file';
import { documentClient } from './client';
import { conditionalPut } from './conditional-write';
import { primaryKey } from './item-keys';
import { ItemExistsError } from './storage-errors';
import { tableName } from './table-definition';

/** Stores a new file's metadata. @throws ItemExistsError when its id exists */
export async function putFile(merchantId: string, file: FileObject): Promise<void> {
  const { expires_at, ...fields } = file;
  const out = await conditionalPut({
    TableName: tableName(),
    Item: {
      ...primaryKey.file(merchantId, file.file_id),
      entity: 'file',
      merchant_id: merchantId,
      ...fields,
      expires_at: Math.floor(Date.parse(expires_at) / 1000),
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  if (!out.written) throw new ItemExistsError(file.file_id);
}

/** One consistent read of a file's metadata; undefined when it does not exist for this merchant (or has expired). */
export async function getFile(merchantId: string, fileId: string): Promise<FileObject | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.file(merchantId, fileId), ConsistentRead: true }),
  );
  const item = out.Item;
  if (!item) return undefined;
  const expiresAt = new Date(Number(item.expires_at) * 1000);
  // TTL deletes within days of expiry, not at it: an expired item still read is treated as gone.
  if (expiresAt.getTime() <= Date.now()) return undefined;
  return {
    file_id: item.file_id,
    purpose: item.purpose,
    filename: item.filename,
    size: Number(item.size),
    type: item.type,
    created_at: item.created_at,
    expires_at: expiresAt.toISOString(),
  };
}
