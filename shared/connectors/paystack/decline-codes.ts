/**
 * The codes a failed Paystack charge or refund leaves on our result: the one place per processor for its decline
 * codes. Paystack publishes no list of decline codes: a declined charge says why in `gateway_response` (e.g.
 * "Insufficient Funds") and `message`, so the code we keep is the slug of that text (`insufficient_funds`); the
 * codes this adapter gives itself are constants here.
 *
 * Sources: https://paystack.com/docs/api/errors/ and https://docs-v2.paystack.com/api/errors/charge; the
 * `gateway_response` and `message` of the [DCS] samples (PaystackOSS/doc-code-snippets at commit
 * 94af513d752dfc9f85dd0718301e7257091eb7f2, src/api/charges/submit-{pin,otp,phone,birthday,address}/response.json `200_failed`); [OAS]
 * PaystackOSS/openapi paths/refund_retry_with_customer_details_{id}.yaml (`needs-attention`).
 */

/** errorCode of a refund Paystack holds in `needs-attention` (still `Pending`; an operator must act). */
export const PAYSTACK_REFUND_NEEDS_ATTENTION_CODE = 'refund_needs_attention';

/** Lower-case snake_case slug of a Paystack message (`"Invalid key"` → `invalid_key`), at most 64 chars. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/** `errorCode`/`errorMessage` of a failed charge or transaction: slug of `gateway_response`, and `message`. */
export function declineOf(
  data: { gateway_response?: string | null; message?: string | null },
  fallback: string,
): { errorCode: string; errorMessage: string } {
  const gateway = data.gateway_response?.trim();
  return {
    errorCode: gateway ? slug(gateway) || fallback : fallback,
    errorMessage: data.message?.trim() || gateway || 'Paystack declined the payment.',
  };
}
