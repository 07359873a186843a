/**
 * Flutterwave transfer statuses mapped to payout statuses, and a transfer object to our result.
 *
 * Sources: "When a transfer is initiated, it comes with a status NEW this means the transfer has been queued for
 * processing" and the `SUCCESSFUL` / `Failed` webhooks of https://developer.flutterwave.com/v2.0/reference/how-transfers-work;
 * `NEW`, `FAILED` and `complete_message` in flutterwave-node-v3 1.4.1 `documentation/transfers.md` (Flutterwave/Node-v3
 * commit 537f9f4455f922a879e4f088cf0f596621c3517c); `PENDING` (queued at the bank) and `SUCCESSFUL` in the transfer
 * webhook sample test/connectors/fixtures/flutterwave/webhook-transfer-completed.json.
 */
import type { PayoutResult } from '../payout-connector';
import { majorToMinor } from './money';
import type { FlutterwaveTransfer } from './transfer-wire-types';

/**
 * Flutterwave's transfer statuses (upper-cased; the v2 webhook writes `Failed`) → ours. Flutterwave publishes no
 * reversal status for v3 transfers: a bank's return arrives as a separate credit, so `Reversed` is never reported by
 * this adapter. An unknown status is treated as still `Processing` (asked again later), never as an outcome.
 */
export const FLUTTERWAVE_TRANSFER_STATUS: Readonly<Record<string, PayoutResult['status']>> = {
  NEW: 'Processing',
  PENDING: 'Processing',
  SUCCESSFUL: 'Succeeded',
  FAILED: 'Failed',
};

/** Our result of a Flutterwave transfer object: its status, its numeric id as the processor's id, its fee in minor units. */
export function flutterwaveTransferResult(transfer: FlutterwaveTransfer): PayoutResult {
  const raw = String(transfer.status ?? '').toUpperCase();
  const status = FLUTTERWAVE_TRANSFER_STATUS[raw] ?? 'Processing';
  const fee = transfer.fee === null || transfer.fee === undefined || transfer.fee === '' ? null : majorToMinor(transfer.fee);
  const reason = typeof transfer.complete_message === 'string' && transfer.complete_message ? transfer.complete_message : null;
  return {
    status,
    connectorPayoutId: typeof transfer.id === 'number' ? String(transfer.id) : null,
    fee,
    ...(status === 'Failed' ? { errorCode: 'transfer_failed', errorMessage: reason ?? 'Flutterwave failed the transfer.' } : {}),
  };
}
