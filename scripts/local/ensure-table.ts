import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, TABLE_DEFINITION } from '../../shared/storage/table-definition';

/**
 * Creates the single table from the shared definition if it does not exist,
 * waits until it is ACTIVE and turns on TTL. Safe to call on every start.
 * @param endpoint a DynamoDB endpoint (DynamoDB Local)
 * @param options.stream create it with its stream of new images, for a reader of the stream
 *   (scripts/local/event-stream.ts); a table no one reads the stream of goes without (see `createTableInput`).
 *   Create it with the stream rather than have the reader enable it later: DynamoDB Local refuses a
 *   `TRIM_HORIZON` read of a stream enabled on an existing table once other tables' streams hold records
 *   ("attempted to read past the oldest stream record in a shard").
 * @returns true when the table was created, false when it existed
 */
export async function ensureTable(endpoint: string, tableName: string, options: { stream?: boolean } = {}): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION || 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    let created = false;
    try {
      await client.send(new CreateTableCommand(createTableInput(tableName, options)));
      created = true;
    } catch (err) {
      if (!(err instanceof ResourceInUseException)) throw err;
    }
    for (let i = 0; i < 100; i += 1) {
      const out = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (out.Table?.TableStatus === 'ACTIVE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (created) {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: TABLE_DEFINITION.timeToLiveAttribute, Enabled: true },
        }),
      );
    }
    return created;
  } finally {
    client.destroy();
  }
}
