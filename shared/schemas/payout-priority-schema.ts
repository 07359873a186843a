/**
 * `PUT /routing/payouts` body and the `PayoutPriority` component (docs/api.md "Payouts", routing).
 */
import * as z from 'zod';
import { idField } from './resource-fields';

/** Body of `PUT /routing/payouts`: 0–50 of your connector accounts, each once, in the order payouts try them (`[]` clears it). */
export const payoutPriorityBodySchema = z.strictObject({
  priority: z
    .array(
      z.strictObject({
        merchant_connector_id: z
          .string({ error: 'must be a connector account id (mca_…)' })
          .regex(/^mca_[0-9A-Za-z]{1,64}$/, { error: 'must be a connector account id (mca_…)' }),
      }),
    )
    .max(50, { error: 'must list at most 50 connector accounts' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((entry, i) => {
        if (seen.has(entry.merchant_connector_id))
          ctx.addIssue({ code: 'custom', path: [i, 'merchant_connector_id'], message: 'is listed twice' });
        seen.add(entry.merchant_connector_id);
      });
    })
    // The rule in the document too: each account once (entries are `{merchant_connector_id}` only).
    .meta({ uniqueItems: true }),
});

/** Component `PayoutPriority`: the merchant's payout priority list, as `GET|PUT /routing/payouts` answer it. */
export const PayoutPriorityResource = z
  .strictObject({
    priority: z
      .array(
        z.strictObject({
          merchant_connector_id: idField('mca', 'A connector account'),
          connector_name: z.string().describe('Its connector.'),
        }),
      )
      .describe('Your accounts in the order payouts try them (accounts since deleted left out); empty when you set none.'),
    is_custom: z
      .boolean()
      .describe('Whether you set a list; when false payouts follow your default fallback list (`GET /routing/default`).'),
  })
  .meta({
    id: 'PayoutPriority',
    description:
      'Which of your connector accounts send payouts, in order, before your default fallback list (docs/api.md "Payouts", routing).',
  });
