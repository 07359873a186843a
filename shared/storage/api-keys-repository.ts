import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { listPartition, primaryKey } from './item-keys';
import { tableName } from './table-definition';

/** What the table knows of an API key: never the key itself, only its SHA-256 and a short prefix for humans. */
export interface ApiKeyRecord {
  merchant_id: string;
  /** First 12 characters of the key, e.g. `sk_test_ab12`, for people to tell keys apart. */
  prefix: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** SHA-256 of an API key, hex: the only form in which a key is stored or looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Stores an API key for a merchant (as its hash). Idempotent: storing the same
 * key again overwrites its record.
 */
export async function putApiKey(key: string, merchantId: string, name: string | null): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord = {
    merchant_id: merchantId,
    prefix: key.slice(0, 12),
    name,
    created_at: new Date().toISOString(),
    revoked_at: null,
  };
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...primaryKey.apiKey(hashApiKey(key)),
        GSI1PK: listPartition.apiKeys(merchantId),
        GSI1SK: `${record.created_at}#${record.prefix}`,
        entity: 'api_key',
        ...record,
      },
    }),
  );
  return record;
}

/** One read: the record of an API key, or undefined when no such key was issued. */
export async function findApiKey(key: string): Promise<ApiKeyRecord | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.apiKey(hashApiKey(key)) }));
  if (!out.Item) return undefined;
  const { merchant_id, prefix, name, created_at, revoked_at } = out.Item;
  return { merchant_id, prefix, name: name ?? null, created_at, revoked_at: revoked_at ?? null };
}
