/**
 * How our ids travel through Flutterwave, so a call whose answer was lost can be found again: our refund id in
 * a refund's `comments`, and the reference recorded while a card waits for a PIN or address step.
 */

/** The refund note `Refund <our refund id>` sent as `comments` (listed back as `comment`): how `ourFlutterwaveRefund` (./lookups.ts) finds it. */
export function refundComment(refundId: string): string {
  return `Refund ${refundId}`;
}

/**
 * The `connectorTransactionId` recorded while a card waits for a `submit_pin` or `submit_address` step: the
 * payment's `tx_ref` (our payment id). Flutterwave's `pin` and `avs_noauth` answers create no transaction
 * (no `data.id`), yet the charge is known there by this reference once re-sent; recording it lets a sync tell
 * "waiting for the payer's PIN or address, nothing created yet" (the step stays open) from "the charge never
 * answered" (a card with no id at all, see `FlutterwaveConnector.sync`).
 */
export function cardStepReference(paymentId: string): string {
  return paymentId;
}

/** Whether a recorded `connectorTransactionId` is {@link cardStepReference} of the payment (a PIN or address step, nothing created yet). */
export function isCardStepReference(connectorTransactionId: string | null, paymentId: string): boolean {
  return connectorTransactionId !== null && connectorTransactionId === cardStepReference(paymentId);
}
