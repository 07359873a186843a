import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { primaryKey } from './item-keys';
import { tableName } from './table-definition';

/**
 * Probes the table with one small read.
 * @returns true when DynamoDB answered, false when it could not be reached or the table is missing
 */
export async function tableAnswers(): Promise<boolean> {
  try {
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: primaryKey.health() }));
    return true;
  } catch {
    return false;
  }
}
