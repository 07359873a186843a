/**
 * The links from payments to their customer (`customer_id`, and the payment's entry in the customer's payments list,
 * GSI3) and their removal when the customer is deleted (shared/operations/customers/customer-deletion.ts).
 */
import { conditionalUpdate } from './conditional-write';
import { listPartition } from './item-keys';
import { queryPages } from './query-pages';
import { tableName } from './table-definition';

/** How many payment unlinks run at once: bounded so a large customer never queues past the client's connection timeout. */
export const UNLINK_CONCURRENCY = 8;

/**
 * Removes the customer link from every payment of a customer being deleted (Query
 * on GSI3 page by page, 100 payments a page, then one conditional update per payment, at most
 * {@link UNLINK_CONCURRENCY} at a time). Payments themselves stay. Safe to run
 * again: a payment already unlinked is skipped by its condition; one holding a processor
 * claim is skipped too and makes the result incomplete (the reconciler comes back for it).
 * The unlink changes no status, so it writes no payment event (`customer.deleted` says it).
 * @param deadlineMs epoch ms after which no new page is started (the rest is left for a later run)
 * @returns how many payments were unlinked and whether the index had no more linked payments
 */
export async function unlinkCustomerPayments(
  merchantId: string,
  customerId: string,
  deadlineMs = Number.POSITIVE_INFINITY,
): Promise<{ unlinked: number; complete: boolean }> {
  let unlinked = 0;
  let claimed = 0;
  if (Date.now() > deadlineMs) return { unlinked, complete: false };
  const pages = queryPages({
    IndexName: 'GSI3',
    KeyConditionExpression: 'GSI3PK = :pk',
    ExpressionAttributeValues: { ':pk': listPartition.paymentsByCustomer(merchantId, customerId) },
    ProjectionExpression: 'PK, SK',
    Limit: 100,
  });
  for await (const page of pages) {
    const keys = [...(page.Items ?? [])];
    const worker = async () => {
      for (let key = keys.shift(); key; key = keys.shift()) {
        const out = await conditionalUpdate({
          TableName: tableName(),
          Key: { PK: key.PK, SK: key.SK },
          // Bumps the version, so a guarded write that read the payment before the unlink re-reads
          // instead of writing (or announcing in its event) the old customer. A payment whose
          // processor call is in flight is left for a later pass: its outcome write must not lose.
          UpdateExpression: 'SET customer_id = :null, updated_at = :now, version = version + :one REMOVE GSI3PK, GSI3SK',
          ConditionExpression: 'customer_id = :cid AND attribute_not_exists(pending_operation)',
          ExpressionAttributeValues: { ':null': null, ':cid': customerId, ':now': new Date().toISOString(), ':one': 1 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        });
        if (out.written) unlinked += 1;
        // Still linked (skipped because of a claim): the unlink is not complete yet.
        else if (out.current?.customer_id === customerId) claimed += 1;
      }
    };
    await Promise.all(Array.from({ length: UNLINK_CONCURRENCY }, worker));
    // The next page is started only before the deadline.
    if (page.LastEvaluatedKey && Date.now() > deadlineMs) return { unlinked, complete: false };
  }
  return { unlinked, complete: claimed === 0 };
}
