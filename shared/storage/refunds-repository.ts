import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ListPage, ListQuery } from '../domain/list-query';
import { type Refund, type RefundStatus, REFUND_FIELDS } from '../domain/refund';
import { documentClient } from './client';
import { idLookup, listPartition, listSortKey, primaryKey } from './item-keys';
import { queryListPage, pickFields, type ListLocation } from './list-items';
import { tableName } from './table-definition';

/** The stored item of a refund (keys + the API object). Written by the refund reservation transaction. */
export function refundItem(merchantId: string, refund: Refund): Record<string, unknown> {
  return {
    ...primaryKey.refund(merchantId, refund.refund_id),
    GSI1PK: listPartition.refundsOfPayment(merchantId, refund.payment_id),
    GSI1SK: listSortKey(refund.created_at, refund.refund_id),
    ...idLookup.refund(refund.refund_id),
    entity: 'refund',
    merchant_id: merchantId,
    ...refund,
  };
}

const toRefund = (item: Record<string, unknown>) => pickFields<Refund>(item, REFUND_FIELDS);

/** One read of a refund; undefined when it does not exist for this merchant. */
export async function getRefund(merchantId: string, refundId: string): Promise<Refund | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.refund(merchantId, refundId), ConsistentRead: true }),
  );
  return out.Item ? toRefund(out.Item) : undefined;
}

/**
 * Records the connector's answer on a `Pending` refund (conditional on it still being Pending).
 * @returns the refund after the write
 */
export async function settleRefund(
  merchantId: string,
  refundId: string,
  status: RefundStatus,
  connectorRefundId: string | null,
): Promise<Refund> {
  try {
    return await writeSettlement(merchantId, refundId, status, connectorRefundId);
  } catch (err) {
    // Settled meanwhile by a concurrent sync or webhook: that settlement stands.
    if (err instanceof ConditionalCheckFailedException) return (await getRefund(merchantId, refundId)) as Refund;
    throw err;
  }
}

async function writeSettlement(merchantId: string, refundId: string, status: RefundStatus, connectorRefundId: string | null): Promise<Refund> {
  const out = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: primaryKey.refund(merchantId, refundId),
      UpdateExpression: 'SET #status = :status, connector_refund_id = :cref, updated_at = :now',
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':status': status, ':cref': connectorRefundId, ':pending': 'Pending', ':now': new Date().toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return toRefund(out.Attributes ?? {});
}

/**
 * Lists the refunds of one payment, newest first (Query on GSI1).
 * @param startingAfter the refund named by `starting_after`, already read by the caller
 */
export async function listRefunds(
  merchantId: string,
  paymentId: string,
  query: ListQuery,
  startingAfter?: Refund,
): Promise<ListPage<Refund>> {
  const location: ListLocation = { indexName: 'GSI1', partitionValue: listPartition.refundsOfPayment(merchantId, paymentId) };
  if (startingAfter) {
    location.startAfter = { key: primaryKey.refund(merchantId, startingAfter.refund_id), createdAt: startingAfter.created_at, id: startingAfter.refund_id };
  }
  const page = await queryListPage(location, query);
  return { data: page.items.map(toRefund), has_more: page.hasMore };
}
