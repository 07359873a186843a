/**
 * Request shapes of the dispute routes: the evidence body (the list's filters: ./dispute-list-schema.ts). docs/api.md "Disputes".
 */
import * as z from 'zod';
import { DISPUTE_EVIDENCE_FILE_FIELDS, DISPUTE_EVIDENCE_TEXT_FIELDS } from '../domain/dispute-vocabulary';
import { NO_CARD_NUMBERS, noCardNumberInId } from './card-number-refinement';
import { text } from './text-schemas';

const fileId = z
  .string({ error: 'must be a file id (file_…) from POST /files' })
  .regex(/^file_[0-9A-Za-z]{1,64}$/, { error: 'must be a file id (file_…) from POST /files' })
  .refine(noCardNumberInId, { error: NO_CARD_NUMBERS });

/**
 * Body of `POST /disputes/{dispute_id}/evidence`: `evidence` (Stripe's field names: text fields of at most 20,000
 * characters — Stripe's limit for `uncategorized_text` and the other text fields is 20,000 in all; file fields are
 * ids of files uploaded with `POST /files`) and `submit` (default false: saved, not yet sent for the issuer's
 * decision). At least one field.
 */
export const disputeEvidenceBodySchema = z.strictObject({
  evidence: z
    .strictObject({
      ...Object.fromEntries(DISPUTE_EVIDENCE_TEXT_FIELDS.map((f) => [f, text(20_000).optional()])),
      ...Object.fromEntries(DISPUTE_EVIDENCE_FILE_FIELDS.map((f) => [f, fileId.optional()])),
    } as Record<(typeof DISPUTE_EVIDENCE_TEXT_FIELDS)[number] | (typeof DISPUTE_EVIDENCE_FILE_FIELDS)[number], z.ZodOptional<z.ZodString>>)
    .refine((e) => Object.values(e).some((v) => v !== undefined), { error: 'must hold at least one field' }),
  submit: z.boolean({ error: 'must be true or false' }).default(false),
});
