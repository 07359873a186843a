import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { conditionalUpdate } from './conditional-write';
import { listPartition, primaryKey } from './item-keys';
import { LIST_SHARDS_MAX, type ListShards, listShards } from './list-shards';
import { queryAllItems, queryPage } from './query-pages';
import { isValidRateLimit, type MerchantRateLimits, RATE_LIMIT_MAX } from './rate-limit-repository';
import { tableName } from './table-definition';

/** How many leading characters of a key are kept in clear, for people to tell keys apart (`sk_test_` + 8). */
export const API_KEY_PREFIX_LENGTH = 16;

/** What the table knows of an API key: never the key itself, only its SHA-256 and a short prefix for humans. */
export interface ApiKeyRecord {
  merchant_id: string;
  /** First {@link API_KEY_PREFIX_LENGTH} characters of the key, e.g. `sk_test_ab12cd34`. */
  prefix: string;
  name: string | null;
  /** ISO 8601 UTC. */
  created_at: string;
  /** ISO 8601 UTC of the last successful authentication (updated at most once a minute), or null. */
  last_used_at: string | null;
  /** ISO 8601 UTC when revoked, or null while the key works. */
  revoked_at: string | null;
  /**
   * The merchant's list shard counts (`list_shards_read`, `list_shards_write` on the item; absent = 1),
   * the same on every key of the merchant: docs/sharding.md, shared/storage/list-shards.ts.
   */
  list_shards: ListShards;
  /**
   * The merchant's own rate limits, requests per second per class (`rate_limit_read`,
   * `rate_limit_write` on the item; an absent class uses the stage default), the same on every key of
   * the merchant: docs/rate-limits.md, shared/http/rate-limit.ts.
   */
  rate_limits: MerchantRateLimits;
}

/** The rate limits an item carries (only valid values; an invalid stored value counts as absent). */
function itemRateLimits(item: Record<string, unknown>): MerchantRateLimits {
  return {
    ...(isValidRateLimit(item.rate_limit_read) ? { read: item.rate_limit_read } : {}),
    ...(isValidRateLimit(item.rate_limit_write) ? { write: item.rate_limit_write } : {}),
  };
}

/** SHA-256 of an API key, hex: the only form in which a key is stored or looked up. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const prefixPartition = (prefix: string) => `APIKEY_PREFIX#${prefix}`;

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  return {
    merchant_id: String(item.merchant_id),
    prefix: String(item.prefix),
    name: (item.name as string | undefined) ?? null,
    created_at: String(item.created_at),
    last_used_at: (item.last_used_at as string | undefined) ?? null,
    revoked_at: (item.revoked_at as string | undefined) ?? null,
    list_shards: listShards({ read: item.list_shards_read as number | undefined, write: item.list_shards_write as number | undefined }),
    rate_limits: itemRateLimits(item),
  };
}

/**
 * The rate limits a new key of a merchant takes: per class, the highest its existing keys carry
 * (they are the same on every key unless a `limits` command was interrupted; a re-run evens them out).
 */
function highestRateLimits(records: readonly ApiKeyRecord[]): MerchantRateLimits {
  const highest = (c: 'read' | 'write') => {
    const set = records.map((r) => r.rate_limits[c]).filter((v): v is number => v !== undefined);
    return set.length > 0 ? Math.max(...set) : undefined;
  };
  const read = highest('read');
  const write = highest('write');
  return { ...(read !== undefined ? { read } : {}), ...(write !== undefined ? { write } : {}) };
}

/** The largest shard counts over some key records (a new key joins its merchant's current counts). */
function highestShards(records: readonly ApiKeyRecord[]): ListShards {
  return listShards({
    read: Math.max(1, ...records.map((r) => r.list_shards.read)),
    write: Math.max(1, ...records.map((r) => r.list_shards.write)),
  });
}

/**
 * Stores an API key for a merchant, as its SHA-256 plus the visible prefix. Storing the same key
 * again overwrites its record (used to seed the local development key on every start). The key
 * carries its merchant's list shard counts and rate limits: the highest over the merchant's keys (one
 * Query on GSI1 before the write), so a new key never reads fewer shards than the others and keeps
 * the merchant's limits.
 * @returns the stored record (no secret in it)
 */
export async function putApiKey(key: string, merchantId: string, name: string | null): Promise<ApiKeyRecord> {
  const existing = await listApiKeys(merchantId);
  const shards = highestShards(existing);
  const rateLimits = highestRateLimits(existing);
  const record: ApiKeyRecord = {
    merchant_id: merchantId,
    prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
    name,
    created_at: new Date().toISOString(),
    last_used_at: null,
    revoked_at: null,
    list_shards: shards,
    rate_limits: rateLimits,
  };
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...primaryKey.apiKey(hashApiKey(key)),
        GSI1PK: listPartition.apiKeys(merchantId),
        GSI1SK: `${record.created_at}#${record.prefix}`,
        GSI2PK: prefixPartition(record.prefix),
        GSI2SK: `${record.created_at}#${record.prefix}`,
        entity: 'api_key',
        merchant_id: record.merchant_id,
        prefix: record.prefix,
        created_at: record.created_at,
        ...(shards.read > 1 ? { list_shards_read: shards.read } : {}),
        ...(shards.write > 1 ? { list_shards_write: shards.write } : {}),
        ...(rateLimits.read !== undefined ? { rate_limit_read: rateLimits.read } : {}),
        ...(rateLimits.write !== undefined ? { rate_limit_write: rateLimits.write } : {}),
        // name, last_used_at and revoked_at are absent until set: conditions test for their existence.
        ...(record.name !== null ? { name: record.name } : {}),
      },
    }),
  );
  return record;
}

/** One read: the record of an API key, or undefined when no such key was issued. */
export async function findApiKey(key: string): Promise<ApiKeyRecord | undefined> {
  const out = await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.apiKey(hashApiKey(key)) }));
  return out.Item ? toRecord(out.Item) : undefined;
}

/**
 * Notes that a key was just used, at most once a minute (a conditional write
 * that does nothing when the last note is recent). Best effort: failures are ignored.
 */
export async function touchApiKey(key: string, now: Date = new Date()): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.apiKey(hashApiKey(key)),
        UpdateExpression: 'SET last_used_at = :now',
        ConditionExpression: 'attribute_exists(PK) AND (attribute_not_exists(last_used_at) OR last_used_at < :recent)',
        ExpressionAttributeValues: { ':now': now.toISOString(), ':recent': new Date(now.getTime() - 60_000).toISOString() },
      }),
    );
  } catch {
    // Usage notes must never fail a request.
  }
}

/** The merchant's keys, newest first (Query on GSI1, every page); no secrets, only prefixes. */
export async function listApiKeys(merchantId: string): Promise<ApiKeyRecord[]> {
  return (await apiKeyItems(merchantId)).map(toRecord);
}

async function apiKeyItems(merchantId: string): Promise<Record<string, unknown>[]> {
  return queryAllItems({
    IndexName: 'GSI1',
    KeyConditionExpression: 'GSI1PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.apiKeys(merchantId) },
    ScanIndexForward: false,
  });
}

/** Which of a merchant's two shard counts {@link raiseListShards} sets. */
export type ListShardPhase = 'read' | 'write';

/**
 * Raises one of a merchant's list shard counts on every one of its API-key items (revoked ones
 * too, so a key created later inherits the highest): one conditional UpdateItem per key, each
 * refusing to lower the count, and for `write` refusing to pass the key's `read` count. The two
 * phases of a raise (docs/sharding.md "Raising N"): first `read` = n, then — after more than the
 * key cache's lifetime (`API_KEY_CACHE_SECONDS`), so every container lists n shards — `write` = n.
 * Containers pick the new counts up when their cached key record expires.
 * @param n the new count, an integer in 1..{@link LIST_SHARDS_MAX}
 * @returns the merchant's keys after the change
 * @throws Error when n is out of range, the merchant has no key, a key's count is already above n
 *   (counts never go down), or (for `write`) a key's `read` count is below n
 */
export async function raiseListShards(merchantId: string, phase: ListShardPhase, n: number): Promise<ApiKeyRecord[]> {
  if (!Number.isInteger(n) || n < 1 || n > LIST_SHARDS_MAX) throw new Error(`A shard count is an integer from 1 to ${LIST_SHARDS_MAX}.`);
  const items = await apiKeyItems(merchantId);
  if (items.length === 0) throw new Error(`The merchant ${merchantId} has no API key.`);
  const attr = phase === 'read' ? 'list_shards_read' : 'list_shards_write';
  const out: ApiKeyRecord[] = [];
  for (const item of items) {
    const current = toRecord(item).list_shards;
    if (current[phase] > n)
      throw new Error(`The ${phase} shard count of ${merchantId} is ${current[phase]}: shard counts are never lowered.`);
    if (phase === 'write' && current.read < n) {
      throw new Error(`Raise the read shard count to ${n} first, and wait longer than the API key cache (API_KEY_CACHE_SECONDS).`);
    }
    if (current[phase] === n) {
      out.push(toRecord(item)); // already there: a re-run changes nothing
      continue;
    }
    const updated = await conditionalUpdate({
      TableName: tableName(),
      Key: { PK: item.PK, SK: item.SK },
      UpdateExpression: 'SET #count = :n',
      // Never lower a count (absent = 1), and never let write pass read: checked by DynamoDB at write time.
      ConditionExpression:
        phase === 'read'
          ? 'attribute_exists(PK) AND (attribute_not_exists(#count) OR #count <= :n)'
          : 'attribute_exists(PK) AND (attribute_not_exists(#count) OR #count <= :n) AND list_shards_read >= :n',
      ExpressionAttributeNames: { '#count': attr },
      ExpressionAttributeValues: { ':n': n },
      ReturnValues: 'ALL_NEW',
    });
    if (!updated.written) throw new Error(`The ${phase} shard count of ${merchantId} changed meanwhile; run again.`);
    out.push(toRecord(updated.attributes ?? {}));
  }
  return out;
}

/** A class's new limit for {@link setRateLimits}: requests per second, or `null` to go back to the stage default. */
export type RateLimitChange = { read?: number | null; write?: number | null };

/**
 * Sets a merchant's rate limits on every one of its API-key items (revoked ones too, so a key created
 * later inherits them): one UpdateItem per key (`SET` a number, `REMOVE` for `null`; a class not named
 * is left as it is). Unlike list shard counts, limits may go up or down in one step: a container
 * picks the new value up when its cached key record expires (`API_KEY_CACHE_SECONDS`, 10 s), and until
 * then enforces the old one (docs/rate-limits.md "A merchant's own limits").
 * @param change per class: an integer in 1..{@link RATE_LIMIT_MAX}, or null for the stage default
 * @returns the merchant's keys after the change
 * @throws Error when a value is out of range, nothing is to change, or the merchant has no key
 */
export async function setRateLimits(merchantId: string, change: RateLimitChange): Promise<ApiKeyRecord[]> {
  const entries = (['read', 'write'] as const).filter((c) => change[c] !== undefined);
  if (entries.length === 0) throw new Error('Name at least one class to change: read=<n> and/or write=<n>.');
  for (const c of entries) {
    const v = change[c];
    if (v !== null && !isValidRateLimit(v)) throw new Error(`A rate limit is an integer from 1 to ${RATE_LIMIT_MAX} requests per second.`);
  }
  const items = await apiKeyItems(merchantId);
  if (items.length === 0) throw new Error(`The merchant ${merchantId} has no API key.`);
  const sets = entries.filter((c) => change[c] !== null);
  const removes = entries.filter((c) => change[c] === null);
  const update = [
    sets.length > 0 ? `SET ${sets.map((c) => `rate_limit_${c} = :${c}`).join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.map((c) => `rate_limit_${c}`).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const values = Object.fromEntries(sets.map((c) => [`:${c}`, change[c]]));
  const out: ApiKeyRecord[] = [];
  for (const item of items) {
    const updated = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { PK: item.PK, SK: item.SK },
        UpdateExpression: update,
        ConditionExpression: 'attribute_exists(PK)',
        ...(sets.length > 0 ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    out.push(toRecord(updated.Attributes ?? {}));
  }
  return out;
}

/**
 * Revokes the key with this prefix (Query on GSI2, then a conditional update).
 * @returns the revoked record
 * @throws Error when no key, or more than one key, has this prefix, or it is already revoked
 */
export async function revokeApiKey(prefix: string): Promise<ApiKeyRecord> {
  const { items } = await queryPage({
    IndexName: 'GSI2',
    KeyConditionExpression: 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': prefixPartition(prefix) },
  });
  if (items.length === 0) throw new Error(`No API key has the prefix ${prefix}.`);
  if (items.length > 1) throw new Error(`${items.length} keys share the prefix ${prefix}; revoke them by their full prefix is ambiguous.`);
  const item = items[0] as Record<string, unknown>;
  const updated = await conditionalUpdate({
    TableName: tableName(),
    Key: { PK: item.PK, SK: item.SK },
    UpdateExpression: 'SET revoked_at = :now',
    ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(revoked_at)',
    ExpressionAttributeValues: { ':now': new Date().toISOString() },
    ReturnValues: 'ALL_NEW',
  });
  if (!updated.written) throw new Error(`The key ${prefix} is already revoked.`);
  return toRecord(updated.attributes ?? {});
}
