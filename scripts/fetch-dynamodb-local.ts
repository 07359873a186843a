/**
 * Downloads (via `npm pack`, integrity-checked) and extracts DynamoDB Local into
 * `.cache/dynamodb-local/<version>/` if it is not there yet, then prints the directory.
 *
 * Usage: `npm run dynamodb:fetch` (run from the repository root).
 */
import { ensureDynamoDbLocal } from './local/dynamodb-local';

ensureDynamoDbLocal().then(
  (dir) => {
    console.log(dir);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  },
);
