/**
 * The sandbox's disputes: a payment made with a dispute test card (shared/connectors/sandbox/transformers.ts:
 * 4000000000000259, a chargeback for fraud; 4000000000001976, an inquiry) is disputed by the sandbox as soon as it
 * succeeds, in the sandbox's own ledger (shared/storage/sandbox-disputes-repository.ts), with Stripe's statuses and a
 * 7-day deadline. The scheduled worker polls it (`listDisputes`), as it polls Flutterwave's chargebacks.
 * Answers, as Stripe's test mode decides them: accepting closes it (`lost`); submitted evidence whose
 * `uncategorized_text` holds `winning_evidence` is decided `won`, `losing_evidence` `lost` (Stripe's test values,
 * docs.stripe.com/testing#disputes), anything else stays `under_review`; a decision shows after
 * `SANDBOX_WEBHOOK_DELAY_MS` (3 s by default), like the sandbox's other delayed outcomes.
 */
import { randomUUID } from 'node:crypto';
import type { DisputeEvidence } from '../../domain/dispute-vocabulary';
import type { Currency } from '../../domain/money';
import type { SandboxDispute, SandboxLedger } from '../../domain/sandbox-ledger';
import { type ConnectorDispute, ConnectorRequestError, type DisputeEvidenceFile, type DisputeRef } from '../connector';
import { mapDisputeStatus } from '../stripe/statuses';
import { sandboxWebhookDelayMs } from './sandbox-webhooks';

/** The sandbox's evidence window: 7 days (Stripe test mode's `due_by` is days after the dispute). */
const DEADLINE_MS = 7 * 86_400_000;

/** The sandbox dispute as a processor shows it at `nowMs` (a decision shows from its time on). */
function view(d: SandboxDispute, nowMs = Date.now()): ConnectorDispute {
  const raw = d.decided && Date.parse(d.decided.at) <= nowMs ? d.decided.status : d.status;
  // The sandbox speaks Stripe's statuses: Stripe's table maps them (one source of truth).
  const mapped = mapDisputeStatus(raw, d.disputeId);
  return {
    connectorDisputeId: d.disputeId,
    paymentId: d.paymentId,
    connectorTransactionId: d.transactionId,
    amount: d.amount,
    currency: d.currency,
    stage: mapped.stage,
    status: mapped.status,
    connectorStatus: raw,
    connectorReason: d.reason,
    connectorReasonCode: d.reason === 'fraudulent' ? '10.4' : null,
    challengeRequiredBy: d.dueBy,
    createdAt: d.createdAt,
  };
}

/**
 * Opens the sandbox's dispute of a payment that just succeeded with a dispute test card (once per payment).
 * @param stage `dispute` (a chargeback: `needs_response`) or `pre_dispute` (an inquiry: `warning_needs_response`)
 */
export async function openSandboxDispute(
  ledger: SandboxLedger,
  paymentId: string,
  transactionId: string,
  amount: number,
  currency: Currency,
  stage: 'dispute' | 'pre_dispute',
): Promise<void> {
  const now = new Date();
  await ledger.putDispute(
    {
      paymentId,
      disputeId: `sbdp_${randomUUID().replace(/-/g, '')}`,
      transactionId,
      amount,
      currency,
      status: stage === 'dispute' ? 'needs_response' : 'warning_needs_response',
      reason: stage === 'dispute' ? 'fraudulent' : 'general',
      createdAt: now.toISOString(),
      dueBy: new Date(now.getTime() + DEADLINE_MS).toISOString(),
      evidence: {},
      decided: null,
      changedAt: now.toISOString(),
    },
    true,
  );
}

async function load(ledger: SandboxLedger, ref: DisputeRef): Promise<SandboxDispute> {
  const d = ref.paymentId ? await ledger.dispute(ref.paymentId) : undefined;
  if (!d || d.disputeId !== ref.connectorDisputeId) {
    throw new ConnectorRequestError('sandbox', 'resource_missing', 'The sandbox has no such dispute.');
  }
  return d;
}

/** `Connector.fetchDispute` of the sandbox. */
export async function fetchSandboxDispute(ledger: SandboxLedger, ref: DisputeRef): Promise<ConnectorDispute> {
  return view(await load(ledger, ref));
}

/** `Connector.listDisputes` of the sandbox: its disputes that changed after `since` (and by now). */
export async function listSandboxDisputes(ledger: SandboxLedger, since: string): Promise<ConnectorDispute[]> {
  const now = new Date().toISOString();
  return (await ledger.disputesChanged(since, now)).map((d) => view(d));
}

const answerable = (d: SandboxDispute) => d.status === 'needs_response' || d.status === 'warning_needs_response';

/** `Connector.acceptDispute` of the sandbox: closed, `lost` (as Stripe's close). An accepted one answers as it is. */
export async function acceptSandboxDispute(ledger: SandboxLedger, ref: DisputeRef): Promise<ConnectorDispute> {
  const d = await load(ledger, ref);
  if (d.status === 'lost' && !d.decided) return view(d);
  if (!answerable(d)) throw new ConnectorRequestError('sandbox', 'dispute_not_answerable', 'This dispute can no longer be accepted.');
  const now = new Date().toISOString();
  const after: SandboxDispute = { ...d, status: d.status === 'warning_needs_response' ? 'warning_closed' : 'lost', changedAt: now };
  await ledger.putDispute(after, false);
  return view(after);
}

/** `Connector.submitDisputeEvidence` of the sandbox (see the module comment for its decisions). */
export async function submitSandboxDisputeEvidence(
  ledger: SandboxLedger,
  ref: DisputeRef & { evidence: DisputeEvidence; files: DisputeEvidenceFile[]; submit: boolean },
): Promise<ConnectorDispute> {
  const d = await load(ledger, ref);
  if (!answerable(d)) throw new ConnectorRequestError('sandbox', 'dispute_not_answerable', 'This dispute no longer takes evidence.');
  const now = Date.now();
  const evidence: Record<string, string> = { ...d.evidence };
  for (const [k, v] of Object.entries(ref.evidence)) if (typeof v === 'string') evidence[k] = v;
  for (const f of ref.files) evidence[`file:${f.fileId}`] = `${f.filename} (${f.content.length} bytes)`;
  let after: SandboxDispute = { ...d, evidence, changedAt: new Date(now).toISOString() };
  if (ref.submit) {
    const text = evidence.uncategorized_text ?? '';
    const decision = text.includes('winning_evidence') ? 'won' : text.includes('losing_evidence') ? 'lost' : null;
    const at = new Date(now + sandboxWebhookDelayMs()).toISOString();
    after = {
      ...after,
      status: d.status === 'warning_needs_response' ? 'warning_under_review' : 'under_review',
      decided: decision ? { status: decision, at } : null,
      changedAt: decision ? at : after.changedAt,
    };
  }
  await ledger.putDispute(after, false);
  return view(after, now);
}
