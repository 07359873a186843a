/**
 * Disputes: the vocabularies, Hyperswitch's (`DisputeStage`, `DisputeStatus`, hyperswitch
 * crates/common_enums/src/enums.rs). Pure; shared/schemas builds the resource from them.
 */

/** Where a dispute is in the card scheme's process: an inquiry (retrieval request), a chargeback, or its second round. */
export const DISPUTE_STAGES = ['pre_dispute', 'dispute', 'pre_arbitration'] as const;
/** One of {@link DISPUTE_STAGES}. */
export type DisputeStage = (typeof DISPUTE_STAGES)[number];

/**
 * A dispute's status:
 * - `dispute_opened`: the processor opened it; the merchant may accept it or challenge it with evidence until
 *   `challenge_required_by`;
 * - `dispute_challenged`: evidence was submitted; the issuer decides;
 * - `dispute_accepted`: the merchant accepted it (the money stays with the cardholder);
 * - `dispute_expired`: nobody answered by the deadline (the money stays with the cardholder);
 * - `dispute_cancelled`: the cardholder or issuer withdrew it (the money comes back);
 * - `dispute_won` (money back) / `dispute_lost` (the money stays out).
 */
export const DISPUTE_STATUSES = [
  'dispute_opened',
  'dispute_expired',
  'dispute_accepted',
  'dispute_cancelled',
  'dispute_challenged',
  'dispute_won',
  'dispute_lost',
] as const;
/** One of {@link DISPUTE_STATUSES}. */
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

/** Statuses in which the merchant can still act or the issuer still decide. */
export const OPEN_DISPUTE_STATUSES: readonly DisputeStatus[] = ['dispute_opened', 'dispute_challenged'];

/** Final statuses whose money comes back to the merchant. */
export const RESTORING_DISPUTE_STATUSES: readonly DisputeStatus[] = ['dispute_won', 'dispute_cancelled'];

/** Whether a status is final (nothing moves it again, whatever arrives later). */
export const isFinalDisputeStatus = (s: DisputeStatus): boolean => !OPEN_DISPUTE_STATUSES.includes(s);

/** How far a status is along: opened 0, challenged 1, any final status 2. */
export const disputeStatusRank = (s: DisputeStatus): number => (s === 'dispute_opened' ? 0 : s === 'dispute_challenged' ? 1 : 2);

/**
 * Whether a dispute may move from `from` to `to`: forward only (opened → challenged → a final status; opened → a
 * final status). A final one never moves, and a challenged one never goes back to opened, so a replayed, reordered
 * or stale report (a poll that read the processor before the evidence arrived there) never undoes an answer or an
 * outcome. A processor asking for more evidence after a submission is rare and shows on its dashboard; here the
 * dispute stays challenged until decided.
 */
export function canMoveDispute(from: DisputeStatus, to: DisputeStatus): boolean {
  return disputeStatusRank(to) > disputeStatusRank(from);
}

/** Fields of dispute evidence (Stripe's `DisputeUpdateParams.Evidence` text fields and file fields, the common subset). */
export const DISPUTE_EVIDENCE_TEXT_FIELDS = [
  'product_description',
  'customer_name',
  'customer_email_address',
  'billing_address',
  'shipping_address',
  'shipping_date',
  'shipping_tracking_number',
  'service_date',
  'refund_policy_disclosure',
  'refund_refusal_explanation',
  'cancellation_policy_disclosure',
  'access_activity_log',
  'uncategorized_text',
] as const;
/** File fields of evidence: ids of files uploaded with `POST /files` (`purpose: dispute_evidence`). */
export const DISPUTE_EVIDENCE_FILE_FIELDS = [
  'receipt',
  'customer_communication',
  'shipping_documentation',
  'service_documentation',
  'refund_policy',
  'cancellation_policy',
  'uncategorized_file',
] as const;

/** Evidence as the API takes it and a connector relays it: text fields as text, file fields as our file ids. */
export type DisputeEvidence = Partial<
  Record<(typeof DISPUTE_EVIDENCE_TEXT_FIELDS)[number] | (typeof DISPUTE_EVIDENCE_FILE_FIELDS)[number], string>
>;
