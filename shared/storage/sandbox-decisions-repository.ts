/**
 * The sandbox processor's ledger of hosted-page decisions (so that the sandbox never reports money on a
 * payment the API has closed): one item per payment, `PK = SANDBOX#<payment_id>`, `SK = DECISION`,
 * written once — the payer's approve or decline on the sandbox page, or a void that reached the
 * sandbox first — with a conditional put, so across every Lambda container of a deployed stage the
 * first of an approval and a void wins, as at a real processor. Expires (TTL) after 30 days.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CaptureMethod } from '../domain/payment';
import type { SandboxDecision, SandboxDecisionKind } from '../domain/sandbox-ledger';
import { documentClient } from './client';
import { conditionalPut } from './conditional-write';
import { primaryKey } from './item-keys';
import { tableName } from './table-definition';

/** How long a decision is kept: 30 days, in seconds (payments waiting on the page expire long before). */
const DECISION_TTL_SECONDS = 30 * 24 * 60 * 60;

const fromItem = (item: Record<string, unknown>): SandboxDecision => ({
  decision: item.decision as SandboxDecisionKind,
  amount: Number(item.amount ?? 0),
  captureMethod: (item.capture_method as CaptureMethod | undefined) ?? 'automatic',
  decidedAt: String(item.decided_at),
});

/**
 * Records a decision unless one is recorded already (conditional put), and answers the one that
 * stands: this one, or the earlier one (a consistent read after the condition failed).
 * @throws storage errors
 */
export async function decideSandboxPayment(paymentId: string, decision: Omit<SandboxDecision, 'decidedAt'>): Promise<SandboxDecision> {
  const decidedAt = new Date().toISOString();
  const out = await conditionalPut({
    TableName: tableName(),
    Item: {
      ...primaryKey.sandboxDecision(paymentId),
      entity: 'sandbox_decision',
      payment_id: paymentId,
      decision: decision.decision,
      amount: decision.amount,
      capture_method: decision.captureMethod,
      decided_at: decidedAt,
      expires_at: Math.floor(Date.now() / 1000) + DECISION_TTL_SECONDS,
    },
    ConditionExpression: 'attribute_not_exists(PK)',
  });
  if (out.written) return { ...decision, decidedAt };
  const standing = await getSandboxDecision(paymentId);
  if (!standing) throw out.error; // expired between the put and the read: as good as a storage fault
  return standing;
}

/**
 * The decision recorded for a payment, if any (consistent read).
 * @throws storage errors
 */
export async function getSandboxDecision(paymentId: string): Promise<SandboxDecision | undefined> {
  const out = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: primaryKey.sandboxDecision(paymentId), ConsistentRead: true }),
  );
  return out.Item ? fromItem(out.Item) : undefined;
}
