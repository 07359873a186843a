/**
 * jest's `node` environment, plus a DynamoDB table of its own for each test file, in the run's one DynamoDB Local.
 *
 * Why: the platform's background work reads across merchants by design (the reconciler reads every shard of the
 * open-operations index, GSI5, for its gauges and due items; a connector account's delete looks through the same
 * shards; the renewal worker reads due subscriptions). In one table shared by the whole run, every file's leftovers
 * (payments left `Processing` on purpose, pending refunds, subscriptions) were read, and retried against stand-ins that
 * had stopped, by every later file's reconciler runs: the emulator's CPU per request grew through the run (one file
 * measured alone: 6.5 CPU-seconds of the `java` process; after 34 other files in the same emulator: 48). With a table
 * per file, what a file's background work reads is its own, as a merchant's own account would be.
 *
 * How: the table's name is derived from the file's path (`switchyard-test-<path with / as ->`, so a log or a
 * DynamoDB Local dump names the file), set as `TABLE_NAME` in the worker's environment before jest copies it into
 * the file's `process.env` (child processes a test starts inherit it too), and the table is created before the
 * file's first test, from the definition the global setup publishes in `SWITCHYARD_TEST_TABLE`
 * (test/setup/global-setup.ts: the `CreateTable` input of shared/storage/table-definition.ts and the TTL attribute).
 * Creating one costs DynamoDB Local about 20 ms of CPU. A file that sets `TABLE_NAME` itself (fault suites with a
 * table of their own) still may; restoring it restores this one. Without `DYNAMODB_ENDPOINT` (a file run outside
 * the global setup), nothing is created.
 */
const { relative } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');

/** Environment variable holding `{ create, ttlAttribute }`: the table's CreateTable input (any name) and TTL attribute. */
const TABLE_DEFINITION_ENV = 'SWITCHYARD_TEST_TABLE';

/** One DynamoDB client per jest worker (this module is loaded once per worker, outside the files' module registries). */
let client;

/**
 * The table name of a test file: `switchyard-test-` and its path from the project root, characters DynamoDB does not
 * allow in a table name (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html:
 * 3-255 of `a-z A-Z 0-9 _ - .`) as `-`.
 */
function fileTableName(file) {
  return `switchyard-test-${file.replace(/[^A-Za-z0-9_.-]/g, '-')}`.slice(0, 255);
}

class FileTableEnvironment extends TestEnvironment {
  constructor(config, context) {
    const file = relative(process.cwd(), context.testPath);
    const table = fileTableName(file);
    // Set before jest copies the worker's environment into the file's `process` (in the base constructor).
    if (process.env.DYNAMODB_ENDPOINT && process.env[TABLE_DEFINITION_ENV]) process.env.TABLE_NAME = table;
    super(config, context);
    this.file = file;
    this.table = process.env.TABLE_NAME === table ? table : undefined;
  }

  async setup() {
    await super.setup();
    if (!this.table) return;
    const { CreateTableCommand, DynamoDBClient, ResourceInUseException, UpdateTimeToLiveCommand } = require('@aws-sdk/client-dynamodb');
    client ??= new DynamoDBClient({
      endpoint: process.env.DYNAMODB_ENDPOINT,
      region: process.env.AWS_REGION || 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    const { create, ttlAttribute } = JSON.parse(process.env[TABLE_DEFINITION_ENV]);
    try {
      // DynamoDB Local creates a table ACTIVE at once: no wait for its status.
      await client.send(new CreateTableCommand({ ...create, TableName: this.table }));
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
      return;
    }
    await client.send(
      new UpdateTimeToLiveCommand({ TableName: this.table, TimeToLiveSpecification: { AttributeName: ttlAttribute, Enabled: true } }),
    );
  }
}

module.exports = { FileTableEnvironment, TABLE_DEFINITION_ENV };
