/**
 * `npx tsx scripts/backfill-open-index.ts [--stage dev|prod] [--table <name>] [--dry-run]`:
 * the one-off migration that puts items written before the open-operations index (GSI5)
 * existed — `Processing`/`RequiresAction` payments, claims, `Pending` refunds — into it, so
 * the reconciler settles them. Run it once per stage after deploying the reconciler (default
 * AWS credentials and region); without --stage, against the running local stack.
 */
import { stageConfig } from '../lib/config/stage-config';
import { destroyDocumentClient } from '../shared/storage/client';
import { readLocalStackInfo } from './local/local-stack-file';
import { backfillOpenIndex } from './migrations/open-index-backfill';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  const stage = value('--stage');
  const table = value('--table');
  if (stage) {
    process.env.TABLE_NAME = table ?? `switchyard-${stageConfig(stage).stage}`;
  } else {
    const local = readLocalStackInfo();
    if (!local) throw new Error('no local stack is running (start it with `npm start`), and no --stage was given.');
    process.env.DYNAMODB_ENDPOINT = local.dynamodbEndpoint;
    process.env.TABLE_NAME = table ?? local.tableName;
  }
  const result = await backfillOpenIndex({ dryRun: args.includes('--dry-run') });
  process.stdout.write(
    `table ${process.env.TABLE_NAME}: ${result.found} open item(s) without the index, ${result.indexed} indexed${args.includes('--dry-run') ? ' (dry run)' : ''}\n`,
  );
  destroyDocumentClient();
}

main().catch((err: unknown) => {
  process.stderr.write(`backfill failed: ${(err as Error).message}\n`);
  process.exit(1);
});
