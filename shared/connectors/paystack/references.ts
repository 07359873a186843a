/**
 * How our ids travel through Paystack, so a call whose answer was lost can be found again: our payment id as the
 * charge `reference` (and back), and our refund id in the refund's `merchant_note`.
 *
 * Sources: https://paystack.com/docs/api/charge/ (`reference`: only `-`, `.`, `=` and alphanumerics);
 * https://paystack.com/docs/api/refund/#create and [OAS] PaystackOSS/openapi
 * components/schemas/RefundCreate.yaml (`merchant_note`).
 */

/**
 * Our payment id → the Paystack `reference`. Paystack allows only `-`, `.`, `=` and
 * alphanumerics in a reference (Charge API `reference`), our ids are `pay_<hex>`, so `_` becomes `-`
 * (`pay_3f2b…` → `pay-3f2b…`). The mapping is deterministic, so a sync can find a payment whose
 * authorize timed out without knowing anything Paystack returned.
 */
export function paystackReference(paymentId: string): string {
  return paymentId.replace(/_/g, '-');
}

/**
 * The Paystack `reference` → our payment id, the inverse of {@link paystackReference}.
 * @returns `pay_<id>`, or null for a reference this service did not create (`pay-` followed by alphanumerics)
 */
export function paymentIdFromReference(reference: string): string | null {
  const match = /^pay-([A-Za-z0-9]{1,64})$/.exec(reference);
  return match ? `pay_${match[1]}` : null;
}

/** The `merchant_note` POST /refund carries, `Switchyard refund <our refund id>`: how `ourPaystackRefund` (./lookups.ts) finds it again. */
export function refundMerchantNote(refundId: string): string {
  return `Switchyard refund ${refundId}`;
}
