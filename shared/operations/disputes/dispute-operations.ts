/**
 * Disputes through the API: read, list, accept, answer with evidence; and the scheduled work of a dispute
 * (an answer whose outcome was not recorded, its reminder, its deadline). docs/api.md "Disputes".
 *
 * Answering follows the discipline of every processor call: a claim (`answer_claim`) is written on the dispute
 * before the call, with a lease of the request's time; the processor's answer is recorded with the claim cleared.
 * - storage failing before the call: 503, nothing was changed (the processor was not called);
 * - the processor refusing: the claim is cleared, 502 `connector_error` (nothing changed there);
 * - the processor timing out (it may have done the work), or storage failing after the call: 503 `outcome_unknown`;
 *   the claim stays, and when its lease ends the scheduled worker reads the dispute back from the processor and
 *   records what it shows (the answer is never "nothing was changed").
 */
import { type ConnectorDispute, ConnectorRequestError, type DisputeEvidenceFile, type DisputeRef } from '../../connectors/connector';
import type { Dispute } from '../../domain/dispute';
import type { DisputeEvidence, DisputeStatus } from '../../domain/dispute-vocabulary';
import { ApiError, invalidRequest, OutcomeUnknownError, resourceNotFound } from '../../domain/errors';
import { isIdOf } from '../../domain/ids';
import type { ListPage, ListQuery } from '../../domain/list-query';
import { logger } from '../../observability/logger';
import { connectorForTarget } from '../../processor-call/account-connectors';
import { callWithinBudget } from '../../processor-call/connector-call';
import {
  type DisputeClaim,
  getStoredDispute,
  listDisputes as queryDisputes,
  type StoredDispute,
  writeDisputeChange,
} from '../../storage/disputes-repository';
import { cursorItem } from '../list-cursor';
import type { RequestContext } from '../request-context';
import { disputeAccountKey, disputeDueAt, recordDispute } from './dispute-ingestion';

/** How long an answer's claim holds when the request gives no deadline: 35 s (API Gateway's 30 s and a margin). */
const CLAIM_LEASE_MS = 35_000;

/** 409 `dispute_unexpected_state`: the dispute cannot take this answer in its status. */
function unexpectedState(action: string, status: string): ApiError {
  return new ApiError(
    409,
    'invalid_request_error',
    'dispute_unexpected_state',
    `This dispute has status ${status}; ${action} is possible only while it is dispute_opened.`,
  );
}

/** Reads a dispute of the merchant. @throws ApiError 404 when it does not exist */
export async function getDispute(merchantId: string, disputeId: string): Promise<Dispute> {
  return (await loadDispute(merchantId, disputeId)).dispute;
}

async function loadDispute(merchantId: string, disputeId: string): Promise<StoredDispute> {
  const stored = isIdOf('dispute', disputeId) ? await getStoredDispute(merchantId, disputeId) : undefined;
  if (!stored) throw resourceNotFound('dispute', 'dispute_id');
  return stored;
}

/**
 * Lists disputes newest first, by `dispute_status` and/or `payment_id`, within `created` bounds.
 * @throws ApiError 400 `resource_missing` (param `starting_after`) for an unknown cursor
 */
export async function listDisputes(
  merchantId: string,
  query: ListQuery,
  filters: { payment_id?: string; dispute_status?: DisputeStatus },
): Promise<ListPage<Dispute>> {
  const after = await cursorItem(
    query,
    'dispute',
    { noun: 'dispute', idPhrase: 'a dispute id' },
    async (id) => (await getStoredDispute(merchantId, id))?.dispute,
  );
  if (filters.payment_id && !isIdOf('payment', filters.payment_id)) return { data: [], has_more: false };
  return queryDisputes(merchantId, query, filters, after);
}

/** What the connector calls need to name a dispute. */
const refOf = (d: Dispute): DisputeRef => ({
  connectorDisputeId: d.connector_dispute_id,
  paymentId: d.payment_id,
  connectorTransactionId: null,
  currency: d.currency,
});

/** The processor's view as a ConnectorDispute, from what is stored (for changes of our own: a reminder, an expiry). */
export function storedView(d: Dispute): ConnectorDispute {
  return {
    connectorDisputeId: d.connector_dispute_id,
    paymentId: d.payment_id,
    connectorTransactionId: null,
    amount: d.amount,
    currency: d.currency,
    stage: d.dispute_stage,
    status: d.dispute_status,
    connectorStatus: d.connector_status,
    connectorReason: d.connector_reason,
    connectorReasonCode: d.connector_reason_code,
    challengeRequiredBy: d.challenge_required_by,
    createdAt: d.created_at,
  };
}

/** The status an answer leaves: an accept is recorded as `dispute_accepted` whatever final status the processor shows for it (Stripe: `lost`). */
function statusAfterAnswer(claim: DisputeClaim, cd: ConnectorDispute): DisputeStatus | undefined {
  // Stripe closes an accepted chargeback as `lost`, an accepted inquiry as `warning_closed` (cancelled): both were ours.
  if (claim.operation === 'accept' && ['dispute_lost', 'dispute_accepted', 'dispute_cancelled'].includes(cd.status))
    return 'dispute_accepted';
  return undefined;
}

/** Evidence as the request gives it. */
export interface EvidenceBody {
  evidence: DisputeEvidence;
  submit: boolean;
}

/**
 * Accepts a dispute at its processor: the money stays with the cardholder (`dispute_accepted`, `dispute.accepted`).
 * @throws ApiError 404; 409 `dispute_unexpected_state` unless `dispute_opened`; 409 `concurrent_update` while another
 *   answer runs; 400 `dispute_action_unsupported` where the processor takes no answers through its API; 502 when the
 *   processor refuses; OutcomeUnknownError (see the module comment)
 */
export async function acceptDispute(ctx: RequestContext, disputeId: string): Promise<Dispute> {
  // answerDispute checks the connector has the call before anything is claimed.
  return answerDispute(ctx, disputeId, 'accept', false, async (connector, d) => connector.acceptDispute!(refOf(d)));
}

/**
 * Relays evidence to the processor, and submits it when `submit` (then `dispute_challenged`, `dispute.challenged`);
 * without `submit` the evidence is saved there and here (`dispute.updated`) and can be completed later.
 * @param readFiles reads the evidence's files (every file id of the evidence as merged with what was saved before,
 *   so a processor that takes the whole evidence again gets every file): before anything is claimed or called
 * @throws as {@link acceptDispute}; ApiError 400 `resource_missing` (param `evidence`) for a file id that is not the merchant's
 */
export async function submitDisputeEvidence(
  ctx: RequestContext,
  disputeId: string,
  body: EvidenceBody,
  readFiles: (merchantId: string, fileIds: string[]) => Promise<DisputeEvidenceFile[]> = async () => [],
): Promise<Dispute> {
  const current = (await loadDispute(ctx.merchantId, disputeId)).dispute;
  const merged = { ...current.evidence, ...body.evidence };
  const fileIds = [...new Set(Object.values(merged).filter((v): v is string => typeof v === 'string' && isIdOf('file', v)))];
  const files = fileIds.length > 0 ? await readFiles(ctx.merchantId, fileIds) : [];
  return answerDispute(
    ctx,
    disputeId,
    'evidence',
    body.submit,
    async (connector, d) =>
      connector.submitDisputeEvidence!({ ...refOf(d), evidence: { ...d.evidence, ...body.evidence }, files, submit: body.submit }),
    body.evidence,
  );
}

function unsupported(connector: string): ApiError {
  return invalidRequest(
    'dispute_action_unsupported',
    `Disputes at ${connector} cannot be answered through its API: answer it on the processor's dashboard.`,
  );
}

/**
 * Refusals an adapter makes before sending anything, because the processor does not take this evidence
 * (Flutterwave: no files, a text comment required; Paystack: a file to decline, the customer's contact; Stripe: a file
 * field naming no file given): bad input for this dispute, answered 400 `evidence_not_accepted`, nothing changed.
 */
const EVIDENCE_REFUSALS: ReadonlySet<string> = new Set([
  'evidence_files_unsupported',
  'evidence_comment_required',
  'evidence_file_required',
  'evidence_incomplete',
  'missing_evidence_file',
]);

async function answerDispute(
  ctx: RequestContext,
  disputeId: string,
  operation: DisputeClaim['operation'],
  submit: boolean,
  call: (connector: Awaited<ReturnType<typeof connectorForTarget>>, d: Dispute) => Promise<ConnectorDispute>,
  evidence?: DisputeEvidence,
): Promise<Dispute> {
  let stored = await loadDispute(ctx.merchantId, disputeId);
  const connector = await connectorForTarget(ctx.merchantId, stored.dispute.connector, stored.dispute.merchant_connector_id);
  const nowMs = Date.now();
  const earlier = stored.claim;
  if (earlier && Date.parse(earlier.lease_expires_at) <= nowMs && connector.fetchDispute) {
    // An earlier answer whose outcome was not recorded (a retry after 503 outcome_unknown): the processor's view
    // first, never the answer sent twice blind. The same answer already taken there is answered as done.
    await settleAnswer(ctx.merchantId, stored, await connector.fetchDispute(refOf(stored.dispute)));
    stored = await loadDispute(ctx.merchantId, disputeId);
    if (earlier.operation === operation && stored.dispute.dispute_status !== 'dispute_opened') return stored.dispute;
  }
  const d = stored.dispute;
  const action = operation === 'accept' ? 'accepting it' : 'answering it with evidence';
  if (d.dispute_status !== 'dispute_opened') throw unexpectedState(action, d.dispute_status);
  if (stored.claim && Date.parse(stored.claim.lease_expires_at) > nowMs) {
    throw new ApiError(
      409,
      'api_error',
      'concurrent_update',
      'Another answer to this dispute is being sent right now. Retry after it ends.',
    ).asTransient();
  }
  if (!(operation === 'accept' ? connector.acceptDispute : connector.submitDisputeEvidence)) throw unsupported(d.connector);
  const claim: DisputeClaim = {
    operation,
    submit,
    started_at: new Date(nowMs).toISOString(),
    lease_expires_at: new Date((ctx.deadlineMs ?? nowMs + CLAIM_LEASE_MS - 3_000) + 3_000).toISOString(),
  };
  // The claim first: a failure here changed nothing (the processor was not called).
  const claimed = await writeClaim(ctx.merchantId, stored, claim);
  let view: ConnectorDispute;
  try {
    view = await callWithinBudget(ctx, connector, `dispute_${operation}`, () => call(connector, d));
  } catch (err) {
    if (err instanceof ApiError || err instanceof ConnectorRequestError) {
      // Refused (or not possible): nothing happened there; the claim is given back.
      await writeClaim(ctx.merchantId, claimed, null).catch(() => undefined);
      if (err instanceof ApiError) throw err;
      if (EVIDENCE_REFUSALS.has(err.code)) {
        throw invalidRequest(
          'evidence_not_accepted',
          `${d.connector} does not take this evidence (${err.code}): ${err.message} Nothing was sent or changed.`,
          'evidence',
        );
      }
      throw new ApiError(
        502,
        'connector_error',
        'connector_declined',
        `${d.connector} refused this answer (${err.code}); nothing was changed. Check the dispute on the processor and try again.`,
      );
    }
    throw new OutcomeUnknownError('dispute', d.dispute_id, d.connector, `/disputes/${d.dispute_id}`, { cause: err });
  }
  try {
    const recorded = await recordDispute({
      merchantId: ctx.merchantId,
      connector: d.connector,
      merchantConnectorId: d.merchant_connector_id,
      paymentId: d.payment_id,
      dispute: view,
      ...(statusAfterAnswer(claim, view) ? { statusOverride: statusAfterAnswer(claim, view) } : {}),
      answer: {
        claim: null,
        ...(evidence ? { evidence } : {}),
        ...(operation === 'evidence' && submit ? { submittedAt: claim.started_at } : {}),
      },
    });
    return recorded.dispute ?? (await getDispute(ctx.merchantId, disputeId));
  } catch (err) {
    throw new OutcomeUnknownError('dispute', d.dispute_id, d.connector, `/disputes/${d.dispute_id}`, { cause: err });
  }
}

/** Records the processor's view after an answer whose outcome was not recorded, with its claim cleared. */
async function settleAnswer(merchantId: string, stored: StoredDispute, view: ConnectorDispute): Promise<void> {
  const d = stored.dispute;
  const claim = stored.claim;
  const override = claim ? statusAfterAnswer(claim, view) : undefined;
  await recordDispute({
    merchantId,
    connector: d.connector,
    merchantConnectorId: d.merchant_connector_id,
    paymentId: d.payment_id,
    dispute: view,
    ...(override ? { statusOverride: override } : {}),
    answer: {
      claim: null,
      ...(claim?.operation === 'evidence' && claim.submit && view.status === 'dispute_challenged' ? { submittedAt: claim.started_at } : {}),
    },
  });
}

/** Writes (or, with null, clears) the answer claim on the dispute, nothing else. */
async function writeClaim(merchantId: string, stored: StoredDispute, claim: DisputeClaim | null): Promise<StoredDispute> {
  const d = stored.dispute;
  const now = new Date().toISOString();
  const after: Dispute = { ...d, updated_at: now > d.updated_at ? now : new Date(Date.parse(d.updated_at) + 1).toISOString() };
  await writeDisputeChange(merchantId, {
    after,
    accountKey: disputeAccountKey(d.connector, d.merchant_connector_id),
    readAt: d.updated_at,
    claim,
    dueAt: disputeDueAt(after, claim, stored.reminded),
    reminded: stored.reminded,
    events: [],
  });
  return { ...stored, dispute: after, claim, dueAt: disputeDueAt(after, claim, stored.reminded) };
}

/**
 * The scheduled work of one dispute due at `now` (the worker): an answer whose lease ended is settled from the
 * processor's view; an open dispute gets its `dispute.reminder` before its deadline, and at the deadline the
 * processor is asked once more (when it can be) and the dispute expires if still unanswered (`dispute.expired`; the
 * money stays withdrawn).
 * @returns what was done
 * @throws storage errors; connector errors (the dispute stays due: the next run tries again)
 */
export async function workDueDispute(
  merchantId: string,
  disputeId: string,
  now: string,
): Promise<'settled' | 'reminded' | 'expired' | 'not_due'> {
  const stored = await getStoredDispute(merchantId, disputeId);
  if (!stored || !stored.dueAt || stored.dueAt > now) return 'not_due';
  const d = stored.dispute;
  const base = {
    merchantId,
    connector: d.connector,
    merchantConnectorId: d.merchant_connector_id,
    paymentId: d.payment_id,
    now,
  };
  const connector = await connectorForTarget(merchantId, d.connector, d.merchant_connector_id).catch(() => undefined);
  if (stored.claim) {
    if (!connector?.fetchDispute) {
      // Nothing to read back: the answer's outcome cannot be known; the claim is given back for a new answer.
      logger.warn('a dispute answer could not be read back: its claim is released', { dispute_id: d.dispute_id });
      await recordDispute({ ...base, dispute: storedView(d), answer: { claim: null } });
      return 'settled';
    }
    await settleAnswer(merchantId, stored, await connector.fetchDispute(refOf(d)));
    return 'settled';
  }
  if (d.dispute_status === 'dispute_challenged') {
    const view = connector?.fetchDispute ? await connector.fetchDispute(refOf(d)) : storedView(d);
    const r = await recordDispute({ ...base, dispute: view });
    // Still waiting on the issuer: looked at again a day later.
    if (!r.applied) await writeClaim(merchantId, stored, null);
    return 'settled';
  }
  if (d.dispute_status !== 'dispute_opened' || !d.challenge_required_by) return 'not_due';
  if (now < d.challenge_required_by) {
    await recordDispute({ ...base, dispute: storedView(d), reminder: 'scheduled' });
    return 'reminded';
  }
  // The deadline passed: the processor's view first (an answer given on its dashboard), else expired.
  const view = connector?.fetchDispute ? await connector.fetchDispute(refOf(d)) : storedView(d);
  if (view.status !== 'dispute_opened') {
    await recordDispute({ ...base, dispute: view });
    return 'settled';
  }
  await recordDispute({ ...base, dispute: view, statusOverride: 'dispute_expired' });
  return 'expired';
}
