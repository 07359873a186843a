/**
 * The dispute resource (Hyperswitch's `DisputeResponse` fields): the one definition of its shape, as
 * `GET /disputes/{id}`, its list, the payment's `disputes` and the `dispute.*` events answer it.
 * docs/api.md "Disputes".
 */
import * as z from 'zod';
import { DISPUTE_EVIDENCE_FILE_FIELDS, DISPUTE_EVIDENCE_TEXT_FIELDS, DISPUTE_STAGES, DISPUTE_STATUSES } from '../domain/dispute-vocabulary';
import {
  CurrencyResource,
  connectorField,
  idField,
  merchantConnectorIdField,
  minorUnitsField,
  nullableText,
  timestampField,
} from './resource-fields';

/** The evidence held for a dispute: text fields as given, file fields as file ids (`file_…`). */
export const DisputeEvidenceResource = z
  .strictObject(
    Object.fromEntries([
      ...DISPUTE_EVIDENCE_TEXT_FIELDS.map((f) => [f, z.string().optional()]),
      ...DISPUTE_EVIDENCE_FILE_FIELDS.map((f) => [f, z.string().optional().describe('A file id (`file_…`) uploaded with `POST /files`.')]),
    ]) as Record<(typeof DISPUTE_EVIDENCE_TEXT_FIELDS)[number] | (typeof DISPUTE_EVIDENCE_FILE_FIELDS)[number], z.ZodOptional<z.ZodString>>,
  )
  .meta({
    id: 'DisputeEvidence',
    description: 'Evidence for a dispute (Stripe’s field names): text, and files uploaded with `POST /files`.',
  });

/** Component `Dispute`. */
export const DisputeResource = z
  .strictObject({
    dispute_id: idField('dp', 'The dispute'),
    payment_id: idField('pay', 'The disputed payment'),
    amount: minorUnitsField('What the cardholder disputes.'),
    currency: CurrencyResource,
    dispute_stage: z
      .enum(DISPUTE_STAGES)
      .describe('`pre_dispute` (an inquiry: no money moved yet), `dispute` (a chargeback: the money was withdrawn) or `pre_arbitration`.'),
    dispute_status: z
      .enum(DISPUTE_STATUSES)
      .describe(
        '`dispute_opened` (answer it by `challenge_required_by`), `dispute_challenged` (evidence submitted; the issuer decides), `dispute_accepted`, `dispute_expired` (not answered in time), `dispute_cancelled` (withdrawn: money back), `dispute_won` (money back) or `dispute_lost`.',
      ),
    connector: connectorField('The processor the disputed payment went through.'),
    merchant_connector_id: merchantConnectorIdField('The account the dispute arrived on'),
    connector_dispute_id: z.string().describe("The processor's id of the dispute."),
    connector_status: z.string().describe("The processor's own status, raw (kept even when it is one Switchyard does not know)."),
    connector_reason: nullableText("The processor's reason (e.g. `fraudulent`, `product_not_received`), or null."),
    connector_reason_code: nullableText("The card network's reason code, when the processor gives it, or null."),
    challenge_required_by: timestampField(
      'When evidence must be submitted by: the processor’s deadline, or its documented window from the opening.',
    ).nullable(),
    evidence: DisputeEvidenceResource,
    evidence_submitted_at: timestampField('When evidence was submitted.').nullable(),
    amount_held: minorUnitsField(
      "What the dispute withholds of the payment's captured money (its `amount`, less what was already refunded when it arrived); counted in the payment's `amount_disputed` until it is won or withdrawn.",
    ),
    created_at: timestampField('When it arrived here.'),
    updated_at: timestampField('When it last changed.'),
  })
  .meta({
    id: 'Dispute',
    description:
      "A cardholder's dispute of a payment at their bank (an inquiry or a chargeback), as the processor reported it, with its deadline; it can be accepted, or challenged with evidence, through Switchyard.",
  });

/** A dispute as a payment lists it (component `PaymentDispute`). */
export const PaymentDisputeResource = z
  .strictObject({
    dispute_id: idField('dp', 'The dispute'),
    amount: minorUnitsField('What the cardholder disputes.'),
    dispute_stage: z.enum(DISPUTE_STAGES),
    dispute_status: z.enum(DISPUTE_STATUSES),
    created_at: timestampField('When it arrived here.'),
  })
  .meta({ id: 'PaymentDispute', description: 'A dispute of the payment (the whole resource at `GET /disputes/{dispute_id}`).' });
