import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { baseClient } from './client';
import { idempotencyRecordKey } from './item-keys';
import { TABLE_DEFINITION, tableName } from './table-definition';

/**
 * Powertools' DynamoDB persistence layer with one partition per idempotency record.
 *
 * Powertools keys a table that has a sort key as `PK = "idempotency#<function>"`,
 * `SK = <record hash>` (its `staticPkValue`): every keyed request of a function, for every
 * merchant, writes the same partition, which caps the whole platform near 1,000 WCU/s per
 * function (DynamoDB's per-partition write limit; docs/capacity.md measures ~1 KB records, so
 * about 330–1,000 keyed requests/s). Its layout for a table without a sort key is one partition
 * per record (`PK = "<function>#<hash>"`); this class gives the single table that layout:
 * `PK = "idempotency#<function>#<hash>"`, `SK = "IDEMPOTENCY"` ({@link idempotencyRecordKey}).
 * Everything else (conditional put, in-progress expiry, payload validation, TTL) is Powertools'
 * own code, unchanged: only `getKey` is overridden, which Powertools declares `protected` for
 * this purpose (packages/idempotency/src/persistence/DynamoDBPersistenceLayer.ts, v2.35.0).
 *
 * Records written under the previous layout are not read: they expire within the 24-hour TTL, so
 * a stage that already served keyed requests should be deployed with this change when a retry of
 * a request older than the deploy is acceptable to run again, or after 24 h of no traffic (no stage
 * was live before this change).
 */
export class SpreadIdempotencyPersistence extends DynamoDBPersistenceLayer {
  constructor() {
    super({
      tableName: tableName(),
      keyAttr: TABLE_DEFINITION.partitionKey.name,
      sortKeyAttr: TABLE_DEFINITION.sortKey.name,
      expiryAttr: TABLE_DEFINITION.timeToLiveAttribute,
      awsSdkV3Client: baseClient(),
    });
  }

  /**
   * The record's primary key, marshalled.
   * @param idempotencyKey Powertools' hashed key, `<function prefix>#<md5 of the key selection>`
   * @returns `{PK: {S: "idempotency#<idempotencyKey>"}, SK: {S: "IDEMPOTENCY"}}`
   */
  protected override getKey(idempotencyKey: string) {
    return marshall(idempotencyRecordKey(idempotencyKey));
  }
}
