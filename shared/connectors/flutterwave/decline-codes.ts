/**
 * The codes a failed Flutterwave call or charge leaves on our result: the one place per processor for its
 * decline codes. Flutterwave has no decline code: a declined transaction says why in `processor_response` text
 * (e.g. "Insufficient Funds") and an error body only in `message`, so the code we keep is the slug of that text.
 */
import type { FlutterwaveTransaction } from './wire-types';

/** `"No transaction was found for this id"` → `no_transaction_was_found_for_this_id` (at most 64 characters). */
export function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
}

/** A failed transaction's error fields: Flutterwave has no decline code, only `processor_response` text (e.g. "Insufficient Funds" → `insufficient_funds`). */
export function declineOf(tx: Pick<FlutterwaveTransaction, 'processor_response'>): { errorCode: string; errorMessage: string } {
  const text = tx.processor_response?.trim();
  return { errorCode: (text && slugOf(text)) || 'payment_failed', errorMessage: text || 'Flutterwave reported the payment as failed.' };
}
