/**
 * Flutterwave's transfer objects on the wire (the fields this adapter reads or sends). Amounts are in MAJOR units, as
 * Flutterwave writes them (./money.ts converts).
 *
 * Sources:
 * - flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *   `documentation/transfers.md` ("Create a transfer" and "Get all transfers" Sample Responses),
 *   `services/transfers/rave.initiate.js` (`POST v3/transfers`), `rave.fetch.js` (`GET /v3/transfers/{id}`),
 *   `services/schema/create.js` `transferSchema` (the request body), `documentation/misc.md` "Resolve account details"
 *   and `services/misc/rave.resolve.account.js` (`POST v3/accounts/resolve`, `services/schema/auxillary.js`
 *   `resolveSchema`);
 * - the transfer webhook: test/connectors/fixtures/flutterwave/webhook-transfer-completed.json (`transfer.completed`,
 *   `"event.type": "Transfer"`) and the v2 form `{"event.type": "Transfer", transfer: {…}}` of
 *   https://developer.flutterwave.com/v2.0/reference/how-transfers-work.
 */

/** `POST /v3/transfers` body (`transferSchema`): our payout id is `reference`. */
export interface FlutterwaveTransferRequest {
  /** The bank's code (CBN code in Nigeria) or the mobile money operator (`MTN`, `VODAFONE`, `AIRTELTIGO`, `MPS`). */
  account_bank: string;
  /** The bank account number, or the wallet's phone in international form without `+` (`233…`, `254…`). */
  account_number: string;
  /** Major units. */
  amount: number;
  currency: string;
  debit_currency: string;
  narration: string;
  /** Our payout id: "a merchant's unique reference for the transfer, it can be used to query for the status". */
  reference: string;
  /** The recipient's name; Flutterwave fails a mobile money transfer without it ("beneficiary_name is required"). */
  beneficiary_name?: string;
}

/** A transfer as Flutterwave answers it (create, fetch, list, webhook `data`). */
export interface FlutterwaveTransfer {
  id?: number;
  account_number?: string;
  bank_code?: string;
  currency?: string;
  /** Major units. */
  amount?: number | string;
  /** Major units (`26.875`). */
  fee?: number | string | null;
  /** `NEW`, `PENDING`, `SUCCESSFUL`, `FAILED` (./transfer-statuses.ts). */
  status?: string;
  reference?: string;
  narration?: string | null;
  /** Flutterwave's reason for the outcome (`"DISBURSE FAILED: Insufficient wallet balance"`, `"Successful"`). */
  complete_message?: string | null;
  created_at?: string;
}

/** The envelope of every Flutterwave answer. */
export interface FlutterwaveTransferEnvelope<T> {
  status?: string;
  message?: string;
  data?: T;
}

/** A transfer webhook: v3 `{event: "transfer.completed", "event.type": "Transfer", data}`, or v2 `{"event.type": "Transfer", transfer}`. */
export interface FlutterwaveTransferWebhook {
  event?: unknown;
  'event.type'?: unknown;
  data?: unknown;
  transfer?: unknown;
}
