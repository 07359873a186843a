/**
 * The answer of `POST /webhooks/{connector}` to a processor (shared/operations/inbound-webhooks/receive-connector-webhook.ts
 * `WebhookReceipt`, kept equal to this by a unit test). docs/connectors.md "Webhooks".
 */
import * as z from 'zod';

/** Component `WebhookReceipt`. */
export const WebhookReceiptResource = z
  .strictObject({
    received: z.literal(true).describe('Always `true`: the event was verified and taken.'),
    event_id: z.string().describe("The processor's event id."),
    applied: z.boolean().describe('Whether the event changed a payment or refund here.'),
    reason: z.string().optional().describe('Why nothing changed, when `applied` is false (or the reconcile outcome of a refund event).'),
    unmatched: z
      .literal(true)
      .optional()
      .describe('Present when the event names a payment or refund id of ours that exists nowhere and was acknowledged after the bound.'),
    payment_id: z.string().optional().describe('The payment the event applies to, when it names one of ours.'),
    status: z.string().optional().describe('The status of the payment or refund after the event.'),
  })
  .meta({
    id: 'WebhookReceipt',
    description: "Switchyard's acknowledgement of a processor's event. A 2xx tells the processor not to deliver it again.",
  });
