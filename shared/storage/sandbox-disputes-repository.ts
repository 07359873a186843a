/**
 * The sandbox processor's dispute ledger: what a processor keeps of a dispute, for the sandbox connector
 * to answer from — one item per disputed payment (`SANDBOX#<payment_id>`, `DISPUTE`), opened when a payment with a
 * dispute test card succeeds, and listed on GSI5 (`SANDBOX_DISPUTES`, sorted by when it last changed or will change)
 * for the scheduled worker's polling, as Flutterwave's chargebacks are polled. Only test cards write it, so the one
 * partition sees test traffic only. Statuses are Stripe's (`needs_response`, `warning_needs_response`,
 * `under_review`, `won`, `lost`, `warning_closed`). Expires (TTL) after 180 days.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { SandboxDispute } from '../domain/sandbox-ledger';
import { documentClient } from './client';
import { conditionalPut } from './conditional-write';
import { primaryKey } from './item-keys';
import { queryAllItems } from './query-pages';
import { tableName } from './table-definition';

/** The GSI5 partition of the sandbox's disputes. */
const PARTITION = 'SANDBOX_DISPUTES';
const TTL_SECONDS = 180 * 86_400;

const toDispute = (item: Record<string, unknown>): SandboxDispute => item.record as SandboxDispute;

/** Writes the dispute (a new one only once: `create`); the listing follows `changedAt`. @returns false when `create` found one */
export async function putSandboxDispute(d: SandboxDispute, create: boolean): Promise<boolean> {
  const item = {
    ...primaryKey.sandboxDispute(d.paymentId),
    GSI5PK: PARTITION,
    GSI5SK: `${d.changedAt}#${d.paymentId}`,
    entity: 'sandbox_dispute',
    record: d,
    expires_at: Math.floor(Date.now() / 1000) + TTL_SECONDS,
  };
  if (create)
    return (await conditionalPut({ TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(PK)' })).written;
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
  return true;
}

/** The sandbox's dispute of a payment, or undefined. */
export async function getSandboxDispute(paymentId: string): Promise<SandboxDispute | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.sandboxDispute(paymentId), ConsistentRead: true }),
  );
  return out.Item ? toDispute(out.Item) : undefined;
}

/** The sandbox's disputes that changed after `since` and by `until` (ISO 8601 UTC), oldest change first (paged). */
export async function sandboxDisputesChanged(since: string, until: string): Promise<SandboxDispute[]> {
  const items = await queryAllItems({
    IndexName: 'GSI5',
    KeyConditionExpression: 'GSI5PK = :pk AND GSI5SK BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': PARTITION, ':from': `${since}#~`, ':to': `${until}#~` },
  });
  return items.map(toDispute);
}
