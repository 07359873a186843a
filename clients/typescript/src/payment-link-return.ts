/**
 * Verifying a payment link's return: the hosted checkout page sends the payer to the link's `return_url` with
 * `payment_id`, `payment_link_id`, `status` and `signature` in the query. `signature` is the lowercase hex
 * HMAC-SHA256 (RFC 2104) of `payment_id.payment_link_id.status` under the merchant's return signing secret
 * (`plsec_…`, docs/api.md "Payment links"). Computed with the Web Crypto API (`crypto.subtle`), present in Node 18+,
 * Deno, Bun and browsers, so the SDK needs no Node built-in.
 */

/** What a verified return says. */
export interface PaymentLinkReturn {
  payment_id: string;
  payment_link_id: string;
  /** The payment's status when the payer left the page (`Succeeded`, `Failed`, …). */
  status: string;
}

/** A return that must not be trusted: a field is missing, or the signature does not match. */
export class PaymentLinkReturnError extends Error {
  /** @param code `missing_fields` or `invalid_signature` */
  constructor(
    readonly code: 'missing_fields' | 'invalid_signature',
    message: string,
  ) {
    super(message);
    this.name = 'PaymentLinkReturnError';
  }
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Compares two strings in time that depends on their length only. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Verifies the query a payment link's checkout page returned the payer with.
 * @param query the return URL's query: a `URLSearchParams`, a full URL, or a record (Express's `req.query`)
 * @param secret the merchant's return signing secret (`plsec_…`)
 * @returns the verified fields; still fulfil from `GET /payments/{payment_id}` or the `payment.succeeded` event
 * @throws PaymentLinkReturnError `missing_fields` or `invalid_signature`
 * @throws TypeError when `secret` is not a `plsec_…` secret
 */
export async function verifyPaymentLinkReturn(
  query: URLSearchParams | URL | string | Record<string, string | string[] | undefined>,
  secret: string,
): Promise<PaymentLinkReturn> {
  if (typeof secret !== 'string' || !secret.startsWith('plsec_') || secret.length <= 'plsec_'.length) {
    throw new TypeError('verifyPaymentLinkReturn: secret must be your plsec_… return signing secret.');
  }
  const params =
    query instanceof URLSearchParams
      ? query
      : query instanceof URL
        ? query.searchParams
        : typeof query === 'string'
          ? new URL(query, 'https://return.invalid').searchParams
          : new URLSearchParams(Object.entries(query).flatMap(([k, v]): [string, string][] => (typeof v === 'string' ? [[k, v]] : [])));
  const fields = {
    payment_id: params.get('payment_id') ?? '',
    payment_link_id: params.get('payment_link_id') ?? '',
    status: params.get('status') ?? '',
  };
  const signature = params.get('signature') ?? '';
  if (!fields.payment_id || !fields.payment_link_id || !fields.status || !signature) {
    throw new PaymentLinkReturnError('missing_fields', 'The return lacks payment_id, payment_link_id, status or signature.');
  }
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = hex(
    await crypto.subtle.sign('HMAC', key, encoder.encode(`${fields.payment_id}.${fields.payment_link_id}.${fields.status}`)),
  );
  if (!sameText(expected, signature.toLowerCase())) {
    throw new PaymentLinkReturnError('invalid_signature', 'The signature does not match: do not trust this return.');
  }
  return fields;
}
