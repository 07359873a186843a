/**
 * API key management: `npm run keys -- <command>`.
 *
 *   create --merchant <mer_id> [--name <label>]   issue a key (printed once; only its SHA-256 is stored)
 *   list   --merchant <mer_id>                    prefixes, names, created / last-used / revoked times
 *   revoke <prefix>                               revoke a key (401 within the auth cache bound, 10 s)
 *   shards <mer_id> <n> [--phase read|write|both] raise the merchant's list shard count to n (docs/sharding.md):
 *                                                 `both` (default) sets read = n on every key, waits longer than
 *                                                 the key cache (API_KEY_CACHE_SECONDS + 5 s, or --wait-seconds),
 *                                                 then sets write = n; it refuses to lower a count
 *   limits <mer_id> [read=<n>] [write=<n>]        set the merchant's rate limits, requests per second per class
 *                                                 (docs/rate-limits.md) on every key; `default` removes the merchant's
 *                                                 own limit (the stage default applies again); effective within 10 s
 *
 * Where: beside a running `npm start` it finds that stack's DynamoDB by itself
 * (.data/local-stack.json). Against a deployed stage: `--stage dev|prod` (table
 * `switchyard-<stage>`, or `--table`), with the default AWS credentials and region.
 * Keys are `sk_test_…` locally and on non-prod stages, `sk_live_…` on prod.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { stageConfig } from '../lib/config/stage-config';
import {
  type ListShardPhase,
  listApiKeys,
  putApiKey,
  type RateLimitChange,
  raiseListShards,
  revokeApiKey,
  setRateLimits,
} from '../shared/storage/api-keys-repository';
import { destroyDocumentClient } from '../shared/storage/client';
import { isValidRateLimit, RATE_LIMIT_MAX } from '../shared/storage/rate-limit-repository';
import { readLocalStackInfo } from './local/local-stack-file';

const USAGE = `usage:
  npm run keys -- create --merchant mer_<id> [--name <label>] [--stage dev|prod] [--table <name>]
  npm run keys -- list --merchant mer_<id> [--stage dev|prod] [--table <name>]
  npm run keys -- revoke <prefix> [--stage dev|prod] [--table <name>]
  npm run keys -- shards mer_<id> <n> [--phase read|write|both] [--wait-seconds <s>] [--stage dev|prod] [--table <name>]
  npm run keys -- limits mer_<id> [read=<n>|default] [write=<n>|default] [--stage dev|prod] [--table <name>]
Without --stage, the running local stack (npm start) is used.`;

function fail(message: string): never {
  process.stderr.write(`keys: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** Points the repositories at the right table; returns the key prefix to issue there. */
function target(stage: string | undefined, table: string | undefined): { prefix: string; where: string } {
  if (stage) {
    const config = stageConfig(stage);
    process.env.TABLE_NAME = table ?? `switchyard-${config.stage}`;
    return { prefix: config.apiKeyPrefix, where: `table ${process.env.TABLE_NAME} (stage ${config.stage})` };
  }
  if (!process.env.DYNAMODB_ENDPOINT) {
    const local = readLocalStackInfo();
    if (!local) fail('no local stack is running (start it with `npm start`), and no --stage was given.');
    process.env.DYNAMODB_ENDPOINT = local.dynamodbEndpoint;
    process.env.TABLE_NAME = table ?? local.tableName;
  } else {
    process.env.TABLE_NAME = table ?? process.env.TABLE_NAME ?? 'switchyard-local';
  }
  return { prefix: 'sk_test_', where: `local table ${process.env.TABLE_NAME}` };
}

async function main(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      merchant: { type: 'string' },
      name: { type: 'string' },
      stage: { type: 'string' },
      table: { type: 'string' },
      phase: { type: 'string' },
      'wait-seconds': { type: 'string' },
    },
  });
  const [command, arg] = positionals;
  const merchantOk = values.merchant !== undefined && /^mer_[A-Za-z0-9_]{1,64}$/.test(values.merchant);
  if (command === 'create') {
    if (!merchantOk) fail('--merchant mer_<id> is required.');
    const { prefix, where } = target(values.stage, values.table);
    const key = `${prefix}${randomBytes(24).toString('base64url')}`;
    const record = await putApiKey(key, values.merchant as string, values.name ?? null);
    process.stdout.write(
      `New API key for ${record.merchant_id} in ${where}. It is shown once; store it now:\n\n  ${key}\n\nprefix ${record.prefix}  created ${record.created_at}\n`,
    );
  } else if (command === 'list') {
    if (!merchantOk) fail('--merchant mer_<id> is required.');
    const { where } = target(values.stage, values.table);
    const keys = await listApiKeys(values.merchant as string);
    process.stdout.write(`${keys.length} key(s) of ${values.merchant} in ${where}:\n`);
    for (const k of keys) {
      process.stdout.write(
        `  ${k.prefix}…  ${(k.name ?? '').padEnd(24)}  created ${k.created_at}  last used ${k.last_used_at ?? 'never'}  ${k.revoked_at ? `REVOKED ${k.revoked_at}` : 'active'}  list shards read ${k.list_shards.read} write ${k.list_shards.write}  rate limits read ${k.rate_limits.read ?? 'default'} write ${k.rate_limits.write ?? 'default'}\n`,
      );
    }
  } else if (command === 'revoke') {
    if (!arg) fail('revoke needs the key prefix (as `list` shows it).');
    target(values.stage, values.table);
    const record = await revokeApiKey(arg.replace(/(…|\.\.\.)$/, ''));
    process.stdout.write(
      `Revoked ${record.prefix}… of ${record.merchant_id} at ${record.revoked_at}. Requests with it answer 401 within 10 s.\n`,
    );
  } else if (command === 'shards') {
    const merchant = arg;
    const n = Number(positionals[2]);
    if (!merchant || !/^mer_[A-Za-z0-9_]{1,64}$/.test(merchant)) fail('shards needs the merchant id (mer_<id>).');
    if (!Number.isInteger(n) || n < 1) fail('shards needs the new shard count, an integer ≥ 1.');
    const phase = values.phase ?? 'both';
    if (!['read', 'write', 'both'].includes(phase)) fail('--phase is read, write or both.');
    const { where } = target(values.stage, values.table);
    const waitSeconds = Number(values['wait-seconds'] ?? Number(process.env.API_KEY_CACHE_SECONDS ?? 10) + 5);
    const phases: ListShardPhase[] = phase === 'both' ? ['read', 'write'] : [phase as ListShardPhase];
    for (const [i, p] of phases.entries()) {
      if (i > 0) {
        process.stdout.write(`Waiting ${waitSeconds} s, longer than the API key cache, so every container lists ${n} shards…\n`);
        await new Promise((resolve) => setTimeout(resolve, waitSeconds * 1000));
      }
      const keys = await raiseListShards(merchant, p, n);
      process.stdout.write(`${merchant} in ${where}: ${p} shard count ${n} on ${keys.length} key(s).\n`);
    }
  } else if (command === 'limits') {
    const merchant = arg;
    if (!merchant || !/^mer_[A-Za-z0-9_]{1,64}$/.test(merchant)) fail('limits needs the merchant id (mer_<id>).');
    const change: RateLimitChange = {};
    for (const setting of positionals.slice(2)) {
      const match = /^(read|write)=(\d+|default)$/.exec(setting);
      if (!match) fail(`limits takes read=<n> and/or write=<n> (requests per second, 1 to ${RATE_LIMIT_MAX}) or =default.`);
      const value = match[2] === 'default' ? null : Number(match[2]);
      if (value !== null && !isValidRateLimit(value)) fail(`a rate limit is an integer from 1 to ${RATE_LIMIT_MAX} requests per second.`);
      change[match[1] as 'read' | 'write'] = value;
    }
    if (change.read === undefined && change.write === undefined) fail('limits needs read=<n> and/or write=<n>.');
    const { where } = target(values.stage, values.table);
    const keys = await setRateLimits(merchant, change);
    const now = keys[0]?.rate_limits ?? {};
    process.stdout.write(
      `${merchant} in ${where}: rate limits read ${now.read ?? 'default'} write ${now.write ?? 'default'} (requests per second) on ${keys.length} key(s); containers apply them within ${Number(process.env.API_KEY_CACHE_SECONDS ?? 10)} s.\n`,
    );
  } else {
    fail(`unknown command ${command ?? '(none)'}.`);
  }
  destroyDocumentClient();
}

main().catch((err: unknown) => {
  process.stderr.write(`keys: ${(err as Error).message}\n`);
  process.exit(1);
});
