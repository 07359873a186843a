/**
 * API key management against a stage's table.
 *
 *   npm run keys -- create --merchant <merchant_id> [--name <label>] [--stage dev|prod] [--table <name>]
 *
 * Uses the default AWS credentials and region (AWS_PROFILE, AWS_REGION), or
 * DYNAMODB_ENDPOINT for a local DynamoDB. The table defaults to the stage's
 * (`switchyard-<stage>`). Prints the new key once: only its SHA-256 is stored.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { stageConfig } from '../lib/config/stage-config';
import { putApiKey } from '../shared/storage/api-keys-repository';

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      merchant: { type: 'string' },
      name: { type: 'string' },
      stage: { type: 'string', default: 'dev' },
      table: { type: 'string' },
    },
  });
  const [command] = positionals;
  if (command !== 'create' || !values.merchant || !/^mer_[A-Za-z0-9]{1,64}$/.test(values.merchant)) {
    process.stderr.write('usage: npm run keys -- create --merchant mer_<id> [--name <label>] [--stage dev|prod] [--table <name>]\n');
    process.exit(2);
  }
  const config = stageConfig(values.stage ?? 'dev');
  process.env.TABLE_NAME = values.table ?? `switchyard-${config.stage}`;
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ||= 'true';
  const key = `${config.apiKeyPrefix}${randomBytes(24).toString('base64url')}`;
  const record = await putApiKey(key, values.merchant, values.name ?? null);
  process.stdout.write(
    `API key for ${record.merchant_id} in table ${process.env.TABLE_NAME} (shown once, store it now):\n${key}\nprefix ${record.prefix}  created ${record.created_at}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`keys: ${(err as Error).message}\n`);
  process.exit(1);
});
