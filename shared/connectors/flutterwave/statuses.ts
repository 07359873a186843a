/**
 * Flutterwave's statuses → ours: the one place each table lives. Transactions (with the preauthorization
 * variant), a pending charge's authorization mode, what a sync that finds a pending or no transaction means per
 * charge type, refunds, and chargebacks (status and stage). Each mapping function documents its fallback for a
 * status outside its table.
 *
 * Sources (the tags cited on each export):
 * - [DC] Direct charge guides: https://developer.flutterwave.com/docs/direct-charge/overview (card, bank-transfer, ussd, ghana-mobile-money, mpesa pages)
 * - [CARD] Card charge guide: https://developer.flutterwave.com/docs/direct-charge/card/ (current copy:
 *   https://developer.flutterwave.com/docs/collections-inflow/cards): initiate → `meta.authorization.mode`
 *   (`pin`, `avs_noauth`, `redirect`, `otp`) → re-send the same charge with `authorization` → validate with the OTP.
 * - [VAL] Validate a charge, `POST /v3/validate-charge` `{otp, flw_ref, type}`:
 *   https://developer.flutterwave.com/reference/endpoints/validate-charge/ (200 sample "Charge validated"; the 400
 *   example is printed as `{}`: Flutterwave publishes no body for a wrong OTP).
 * - [RS] Refund statuses: https://developer.flutterwave.com/v3.0.0/docs/refunds ("completed: Refund has been initiated and is
 *   pending disbursement…"), https://developer.flutterwave.com/docs/collecting-payments/refunds ("completed: General status
 *   for completed refunds for cards and other payment types") and https://flutterwaveinc.mintlify.app/other-features/refunds
 *   ("complete: General status for completed refunds"). See docs/connectors/flutterwave.md for the decision.
 * - [PRE] Preauthorization: https://developer.flutterwave.com/docs/preauthorization and
 *   https://developer.flutterwave.com/v3.0.0/reference/capture-preauth-charge (…/void-preauth-charge)
 * - [VER] Transaction verification: https://developer.flutterwave.com/docs/integration-guides/transaction-verification
 * - [REF] Refunds: https://developer.flutterwave.com/v3.0.0/docs/refunds (status table) and GET /v3/refunds/{id}
 * - [SDK] The official Node SDK flutterwave-node-v3 1.4.1 (repo Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c):
 *   services/charge/encryp.js (3DES-ECB), services/schema/create.js and base.js (the joi request schemas the
 *   contract tests validate every body against), documentation/collections.md and documentation/transactions.md
 *   (sample responses for bank transfer, USSD, M-Pesa, Ghana MoMo, verify, refund)
 * - [HS] A Hyperswitch-layout Flutterwave connector (repo Zapier-codes/B-PAY-backend,
 *   crates/hyperswitch_connectors/src/connectors/flutterwave/transformers.rs): verify and refund status enums.
 * - [CB] Chargebacks:
 *   - "Get all Chargebacks", `GET /v3/chargebacks` with query `page`, `status` ("lost, won, initiated, accepted,
 *   declined"), `from`/`to` ("Date format is YYYY-MM-DD"), `currency`, `flw_ref`, `id` ("The id of the transaction"):
 *   https://developer.flutterwave.com/reference/endpoints/charge-backs/ ; its 200 sample (`meta.page_info`, items `id`,
 *   `amount` in major units, `flw_ref`, `status`, `stage`, `comment`, `meta.uploaded_proof`, `meta.history`, `due_date`,
 *   `settlement_id`, `created_at`, `transaction_id`, `tx_ref`; no currency):
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/get-all-chargebacks (kept as
 *   test/connectors/fixtures/flutterwave/disputes/chargebacks-list.json).
 *   - "Accept/Decline Chargeback", `PUT /v3/chargebacks/{id}` `{action: "accept" | "decline", comment}` (both required)
 *   and a link to the proof: https://developer.flutterwave.com/reference/endpoints/charge-backs/ and
 *   https://flutterwaveinc.mintlify.app/api-reference/chargebacks/acceptdecline-chargebacks (200 sample "Chargeback
 *   accepted", `data` the chargeback without `tx_ref`/`transaction_id`: fixtures/flutterwave/disputes/chargeback-accept.json).
 *   - Stages `new`, `second`, `pre-arbitration`, `arbitration`; statuses at creation `pending`, `initiated`; `due_date` computed
 *   from the chargeback's `expiry` hours: the v4 "Create a chargeback" reference, https://developer.flutterwave.com/reference/chargebacks_post.
 *   - Deadlines: "Local transactions: 10 working hours … International transactions: 30 working hours from the
 *   notification time", https://developer.flutterwave.com/docs/payment-operations/chargebacks (the core applies them
 *   when `due_date` is absent).
 *   - Webhooks: "We also send webhooks to your server when a chargeback is raised. This notification service is available
 *   on request." (https://developer.flutterwave.com/docs/chargebacks-1); no payload is published (the guide's sample
 *   history only shows `"action": "hooknotifier"` entries, https://flutterwaveinc.mintlify.app/other-features/chargebacks),
 *   so chargebacks are polled (`FlutterwaveChargeback` (./wire-types.ts) through `listDisputes`).
 */
import type { DisputeStage, DisputeStatus } from '../../domain/dispute-vocabulary';
import type { AuthenticationStep } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import type { PaymentResult } from '../connector';
import type { FlutterwaveChargeType } from './supported-methods';

/**
 * A transaction's `data.status` → our payment status [VER][HS][SDK]:
 * `successful` is final success (a hold for a preauth, see {@link FLUTTERWAVE_PREAUTH_STATUS});
 * `pending` waits on the payer or the network — refined by the authorization mode
 * ({@link FLUTTERWAVE_AUTH_MODES}) at authorize and by the method ({@link FLUTTERWAVE_PENDING_STATUS})
 * at sync; `success-pending-validation` waits on the payer's validation (an OTP or
 * redirect) [SDK collections.md, ACH sample]; `failed` is a decline; `voided` is a preauthorization
 * whose hold was released (the void sample of [PRE]: `"status": "voided"`). Any other
 * status reads as `pending` (nothing is settled on a status we do not know).
 */
export const FLUTTERWAVE_PAYMENT_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'Succeeded',
  pending: 'Processing',
  'success-pending-validation': 'RequiresAction',
  failed: 'Failed',
  voided: 'Cancelled',
};

/**
 * The same statuses for a preauthorized card charge (`preauthorize: true`,
 * `charge_type: "preauth"`) [PRE]: `successful` means the lien is placed and the
 * funds wait to be captured. Statuses not listed here map as in {@link FLUTTERWAVE_PAYMENT_STATUS}.
 */
export const FLUTTERWAVE_PREAUTH_STATUS: Readonly<Record<string, PaymentResult['status']>> = {
  successful: 'RequiresCapture',
};

/**
 * What a charge's `meta.authorization.mode` means for us: a next action shown to the payer, an
 * authentication step answered with `POST /payments/{id}/authenticate` (`cardRequired`: the step
 * re-sends the whole card charge, so the card must come again with it), or waiting.
 */
export type FlutterwaveModeOutcome =
  | { status: 'RequiresAction'; action: 'redirect' | 'bank_transfer' | 'ussd' }
  | { status: 'RequiresAction'; action: 'step'; step: AuthenticationStep; cardRequired: boolean }
  | { status: 'Processing'; action: 'none' };

/**
 * A pending charge's `meta.authorization.mode` → our status and next action [DC][CARD][SDK]:
 * - `redirect` → `RequiresAction` + `redirect_to_url` (card 3DS; Ghana MoMo verification page);
 * - `banktransfer` → `RequiresAction` + `bank_transfer_instructions`;
 * - `ussd` → `RequiresAction` + `display_ussd_code`;
 * - `callback` → `Processing` (the operator prompts the payer);
 * - `pin` → `RequiresAction` + `submit_pin` with `card_required: true`: Flutterwave's PIN mode takes the
 *   PIN inside the whole card charge sent again (`authorization: {mode: "pin", pin}`, same `tx_ref`) and
 *   Switchyard never keeps the card, so the card travels again with the PIN [CARD];
 * - `avs_noauth` → `RequiresAction` + `submit_address` with `card_required: true` (the charge is sent again
 *   with `authorization: {mode: "avs_noauth", city, address, state, country, zipcode}`) [CARD];
 * - `otp` → `RequiresAction` + `submit_otp` (`card_required: false`; the prompt is `data.processor_response`),
 *   answered with `POST /v3/validate-charge` `{otp, flw_ref, type: "card"}` [CARD][VAL].
 * For `pin`/`avs_noauth` nothing exists at Flutterwave yet (the answer has no `data`).
 * A pending charge without a mode waits on the network (M-Pesa STK push): see {@link FLUTTERWAVE_PENDING_STATUS}.
 */
export const FLUTTERWAVE_AUTH_MODES: Readonly<Record<string, FlutterwaveModeOutcome>> = {
  redirect: { status: 'RequiresAction', action: 'redirect' },
  banktransfer: { status: 'RequiresAction', action: 'bank_transfer' },
  ussd: { status: 'RequiresAction', action: 'ussd' },
  callback: { status: 'Processing', action: 'none' },
  pin: { status: 'RequiresAction', action: 'step', step: 'submit_pin', cardRequired: true },
  avs_noauth: { status: 'RequiresAction', action: 'step', step: 'submit_address', cardRequired: true },
  otp: { status: 'RequiresAction', action: 'step', step: 'submit_otp', cardRequired: false },
};

/**
 * A `pending` transaction found by a sync, by charge type: the status authorize
 * answered for that method, so a sync that finds nothing new changes nothing
 * (and keeps the payer's instructions). M-Pesa waits on the STK push (`Processing`);
 * the others wait on the payer (`RequiresAction`).
 */
export const FLUTTERWAVE_PENDING_STATUS: Readonly<Record<FlutterwaveChargeType, 'RequiresAction' | 'Processing'>> = {
  card: 'RequiresAction',
  bank_transfer: 'RequiresAction',
  ussd: 'RequiresAction',
  mobile_money_ghana: 'RequiresAction',
  mpesa: 'Processing',
};

/**
 * A sync by reference that finds no transaction, by charge type. Card, USSD and
 * M-Pesa charges create a transaction when initiated [SDK samples carry `data.id`],
 * so none means the charge never reached Flutterwave (`Failed`, `transaction_not_found`).
 * Bank transfer and Ghana MoMo initiations answer without `data`: the payer may simply
 * not have paid yet, so the payment keeps waiting (`RequiresAction`).
 */
export const FLUTTERWAVE_NOT_FOUND_STATUS: Readonly<Record<FlutterwaveChargeType, 'RequiresAction' | 'Failed'>> = {
  card: 'Failed',
  ussd: 'Failed',
  mpesa: 'Failed',
  bank_transfer: 'RequiresAction',
  mobile_money_ghana: 'RequiresAction',
};

/**
 * A refund's `status` → our refund status [REF][RS]. Flutterwave's refund guides list:
 * `completed` (see below), `completed-bank-transfer`, `completed-momo`, `completed-mpgs` (cards),
 * `completed-offline`, `completed-preauth` — completed per channel; `pending-momo` and `processing`
 * ("a transient state between initiated and completed refunds") — in progress.
 *
 * `completed` is final → `Succeeded` (decision recorded in docs/connectors/flutterwave.md): two of
 * Flutterwave's three refund pages call it "General status for completed refunds" (the third, the
 * v3.0.0 page, says "initiated and is pending disbursement", i.e. accepted and taken from the
 * merchant's balance, with only the bank's credit to the payer left); no page documents any later
 * status for a `completed` refund, so holding it `Pending` would leave it open for ever. `complete`
 * is the spelling of Flutterwave's OpenAPI-based pages and means the same.
 * `failed` is not in the guides' tables; it is mapped because public Flutterwave integrations handle
 * it as a failed refund. Other `completed-…` channel statuses read as completed
 * ({@link refundStatusOf}); anything else stays `Pending` and the reconciler asks again.
 */
export const FLUTTERWAVE_REFUND_STATUS: Readonly<Record<string, RefundStatus>> = {
  completed: 'Succeeded',
  complete: 'Succeeded',
  'completed-bank-transfer': 'Succeeded',
  'completed-momo': 'Succeeded',
  'completed-mpgs': 'Succeeded',
  'completed-offline': 'Succeeded',
  'completed-preauth': 'Succeeded',
  'pending-momo': 'Pending',
  processing: 'Pending',
  failed: 'Failed',
};

/**
 * @param status a transaction's `data.status`
 * @param preauthorized whether the charge is a preauth (funds held, not captured)
 * @returns our status from {@link FLUTTERWAVE_PREAUTH_STATUS} / {@link FLUTTERWAVE_PAYMENT_STATUS}; `Processing` (as `pending`) for an unknown status
 */
export function paymentStatusOf(status: string, preauthorized: boolean): PaymentResult['status'] {
  const key = status.toLowerCase();
  if (preauthorized && Object.hasOwn(FLUTTERWAVE_PREAUTH_STATUS, key)) return FLUTTERWAVE_PREAUTH_STATUS[key] ?? 'Processing';
  return Object.hasOwn(FLUTTERWAVE_PAYMENT_STATUS, key) ? (FLUTTERWAVE_PAYMENT_STATUS[key] ?? 'Processing') : 'Processing';
}

/**
 * @returns our refund status for a Flutterwave refund `status`: {@link FLUTTERWAVE_REFUND_STATUS}; any other
 *   `completed-<channel>` status (the guides' naming of completed refunds per channel) `Succeeded`; `Pending`
 *   for anything else (the reconciler syncs it again)
 */
export function refundStatusOf(status: string): RefundStatus {
  const key = status.trim().toLowerCase();
  if (Object.hasOwn(FLUTTERWAVE_REFUND_STATUS, key)) return FLUTTERWAVE_REFUND_STATUS[key] ?? 'Pending';
  return /^completed-[a-z0-9-]+$/.test(key) ? 'Succeeded' : 'Pending';
}

/**
 * A chargeback's `status` → our dispute status [CB]:
 * - `pending`, `initiated`: raised, the merchant may accept or decline (the amount is held: "Debit and hold chargeback amount");
 * - `accepted`: the merchant accepted it ("Merchant accepts claim");
 * - `declined`: the merchant refuted it with a comment and proof ("Merchant denies claim with a proof"); the bank decides;
 * - `won`: the merchant's evidence prevailed ("the lien is lifted, and the amount is released");
 * - `lost`: upheld ("the amount is debited permanently"), also when nobody answered ("No merchant response" in its history).
 * Anything else is kept raw and read as `dispute_opened` with a warning ({@link disputeStatusOf}).
 */
export const FLUTTERWAVE_DISPUTE_STATUS: Readonly<Record<string, DisputeStatus>> = {
  pending: 'dispute_opened',
  initiated: 'dispute_opened',
  accepted: 'dispute_accepted',
  declined: 'dispute_challenged',
  won: 'dispute_won',
  lost: 'dispute_lost',
};

/**
 * A chargeback's `stage` → our stage [CB]: `new` (the first chargeback) → `dispute`; `second`, `pre-arbitration` and
 * `arbitration` (later rounds) → `pre_arbitration` (our vocabulary's second round; it has no arbitration). Unknown or
 * absent → `dispute`.
 */
export const FLUTTERWAVE_DISPUTE_STAGE: Readonly<Record<string, DisputeStage>> = {
  new: 'dispute',
  second: 'pre_arbitration',
  'pre-arbitration': 'pre_arbitration',
  pre_arbitration: 'pre_arbitration',
  arbitration: 'pre_arbitration',
};

/** Our status of a chargeback `status`, and whether Flutterwave's value was known to the table. */
export function disputeStatusOf(status: string): { status: DisputeStatus; known: boolean } {
  const key = status.trim().toLowerCase();
  const mapped = Object.hasOwn(FLUTTERWAVE_DISPUTE_STATUS, key) ? FLUTTERWAVE_DISPUTE_STATUS[key] : undefined;
  return mapped ? { status: mapped, known: true } : { status: 'dispute_opened', known: false };
}

/** Our stage of a chargeback `stage` (absent or unknown → `dispute`). */
export function disputeStageOf(stage: string | null | undefined): { stage: DisputeStage; known: boolean } {
  const key = (stage ?? '').trim().toLowerCase();
  const mapped = Object.hasOwn(FLUTTERWAVE_DISPUTE_STAGE, key) ? FLUTTERWAVE_DISPUTE_STAGE[key] : undefined;
  return mapped ? { stage: mapped, known: true } : { stage: 'dispute', known: !key };
}
