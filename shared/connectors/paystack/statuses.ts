/**
 * Paystack's statuses → ours: the one place each table lives. Charges (the Charge API's `data.status`, with the
 * authentication step each `send_*` status asks for), transactions (verify and `charge.success`), refunds, and
 * disputes (status and resolution). A status outside a table has a documented fallback where it is mapped
 * (./responses.ts, ./paystack-disputes.ts).
 *
 * Sources: https://paystack.com/docs/payments/payment-channels/ ("Handling Charge API responses") and the v1 guide
 * https://docs-v1.paystack.com/docs/charging-from-your-backend (the charge statuses, including `timeout`);
 * https://paystack.com/docs/payments/verify-payments/ (transaction statuses); https://paystack.com/docs/api/refund/
 * and https://paystack.com/docs/payments/refunds/ (refund statuses); [OAS] PaystackOSS/openapi at commit
 * 9678dea922a900b2485969592055ccf634460352: paths/dispute.yaml (the dispute `status` enum),
 * components/schemas/DisputeResolve.yaml; [DCS] PaystackOSS/doc-code-snippets at commit
 * 94af513d752dfc9f85dd0718301e7257091eb7f2: src/doc/payments/refunds/events/*.json,
 * src/doc/payments/webhooks/events/charge-dispute-{create,remind,resolve}.json; the Manage Disputes guide
 * https://paystack.com/docs/payments/manage-disputes/. Cross-checked with Hyperswitch's `PaystackPSyncStatus` →
 * `AttemptStatus` and `PaystackRefundStatus` → `RefundStatus` (juspay/hyperswitch
 * crates/hyperswitch_connectors/src/connectors/paystack/transformers.rs).
 */
import type { DisputeStage, DisputeStatus } from '../../domain/dispute-vocabulary';
import type { AuthenticationStep } from '../../domain/payment';
import type { RefundStatus } from '../../domain/refund';
import type { PaymentResult } from '../connector';

/** Our payment statuses a connector may answer with. */
export type OurPaymentStatus = PaymentResult['status'];

/**
 * `data.status` values of the Charge API (POST /charge, GET /charge/:reference), from
 * https://paystack.com/docs/payments/payment-channels/ ("Handling Charge API responses"),
 * the v1 statuses list (https://docs-v1.paystack.com/docs/charging-from-your-backend: pending,
 * timeout, success, send_pin, send_phone, send_birthday, send_otp, open_url, failed),
 * `send_address` (POST /charge/submit_address), `pay_offline` (USSD, mobile money) and
 * `pending_bank_transfer` (Pay with Transfer and Pesalink samples).
 */
export const PAYSTACK_CHARGE_STATUSES = [
  'success',
  'failed',
  'timeout',
  'pending',
  'open_url',
  'pay_offline',
  'pending_bank_transfer',
  'send_pin',
  'send_otp',
  'send_phone',
  'send_birthday',
  'send_address',
] as const;

/** One of {@link PAYSTACK_CHARGE_STATUSES}. */
export type PaystackChargeStatus = (typeof PAYSTACK_CHARGE_STATUSES)[number];

/**
 * Charge API `data.status` → our payment status.
 *
 * - `success` → Succeeded (automatic capture: Paystack has no separate capture on the Charge API).
 * - `failed` → Failed; `timeout` → Failed ("no remedy, you may start a new charge", v1 guide).
 * - `pending` → Processing ("wait 10 seconds or more, then check", Check Pending Charge).
 * - `open_url` → RequiresAction: the payer completes 3-D Secure at `data.url`.
 * - `pay_offline` → RequiresAction: the payer dials the USSD code or approves the mobile-money
 *   prompt on their phone; the result arrives as `charge.success`.
 * - `pending_bank_transfer` → RequiresAction: the payer transfers to the temporary account.
 * - `send_pin`, `send_otp`, `send_phone`, `send_birthday`, `send_address` → RequiresAction with the
 *   authentication step of {@link PAYSTACK_STEP_OF_STATUS} (`submit_pin` … `submit_address`), answered
 *   through `POST /payments/{id}/authenticate` and relayed to POST /charge/submit_* (`PAYSTACK_SUBMIT_PATHS` (./requests.ts)).
 *   The same table maps the answer of every submit step, so a step may lead to another (PIN, then OTP).
 */
export const PAYSTACK_CHARGE_STATUS: Readonly<Record<PaystackChargeStatus, OurPaymentStatus>> = {
  success: 'Succeeded',
  failed: 'Failed',
  timeout: 'Failed',
  pending: 'Processing',
  open_url: 'RequiresAction',
  pay_offline: 'RequiresAction',
  pending_bank_transfer: 'RequiresAction',
  send_pin: 'RequiresAction',
  send_otp: 'RequiresAction',
  send_phone: 'RequiresAction',
  send_birthday: 'RequiresAction',
  send_address: 'RequiresAction',
};

/** The Charge API statuses that ask the payer for an input ({@link PAYSTACK_STEP_OF_STATUS}). */
export type PaystackStepStatus = 'send_pin' | 'send_otp' | 'send_phone' | 'send_birthday' | 'send_address';

/**
 * Charge status asking for an input → the authentication step our API exposes for it
 * (`next_action.type`, `AUTHENTICATION_STEPS` in shared/domain/payment.ts).
 */
export const PAYSTACK_STEP_OF_STATUS: Readonly<Record<PaystackStepStatus, AuthenticationStep>> = {
  send_pin: 'submit_pin',
  send_otp: 'submit_otp',
  send_phone: 'submit_phone',
  send_birthday: 'submit_birthday',
  send_address: 'submit_address',
};

/**
 * Transaction statuses (GET /transaction/verify/:reference and the `charge.success` webhook's
 * `data.status`), with their meaning from https://paystack.com/docs/payments/verify-payments/.
 */
export const PAYSTACK_TRANSACTION_STATUSES = [
  'success',
  'failed',
  'abandoned',
  'ongoing',
  'pending',
  'processing',
  'queued',
  'reversed',
] as const;

/** One of {@link PAYSTACK_TRANSACTION_STATUSES}. */
export type PaystackTransactionStatus = (typeof PAYSTACK_TRANSACTION_STATUSES)[number];

/**
 * Transaction status → our payment status (Hyperswitch's `PaystackPSyncStatus` mapping, adjusted
 * to the meanings on the verify-payments page):
 * - `success` → Succeeded; `failed` → Failed;
 * - `abandoned` ("the customer has not completed the transaction") and `ongoing` ("waiting on the
 *   customer to enter an otp or to make a transfer") → RequiresAction: the payer still has to act;
 * - `pending`, `processing` (direct debit), `queued` (bulk charges) → Processing;
 * - `reversed` ("refunded, or a chargeback was logged") → Cancelled (Hyperswitch: Voided): no money
 *   is kept on this payment.
 */
export const PAYSTACK_TRANSACTION_STATUS: Readonly<Record<PaystackTransactionStatus, OurPaymentStatus>> = {
  success: 'Succeeded',
  failed: 'Failed',
  abandoned: 'RequiresAction',
  ongoing: 'RequiresAction',
  pending: 'Processing',
  processing: 'Processing',
  queued: 'Processing',
  reversed: 'Cancelled',
};

/**
 * Refund statuses (POST /refund, GET /refund/:id, refund.* webhooks), from
 * https://paystack.com/docs/api/refund/ and https://paystack.com/docs/payments/refunds/.
 */
export const PAYSTACK_REFUND_STATUSES = ['pending', 'processing', 'processed', 'failed', 'needs-attention'] as const;

/** One of {@link PAYSTACK_REFUND_STATUSES}. */
export type PaystackRefundStatus = (typeof PAYSTACK_REFUND_STATUSES)[number];

/**
 * Refund status → ours (Hyperswitch's `PaystackRefundStatus` mapping plus `needs-attention`):
 * `processed` → Succeeded; `failed` → Failed ("your account will be credited with refund amount");
 * `pending`, `processing` → Pending; `needs-attention` → Pending with errorCode
 * `PAYSTACK_REFUND_NEEDS_ATTENTION_CODE` (./decline-codes.ts) (Paystack could not pay the customer back
 * automatically; an operator retries it with the customer's bank details — [OAS]
 * paths/refund_retry_with_customer_details_{id}.yaml "Retry a refund with a `needs-attention` status" —
 * so the refund is neither done nor failed; the `refund.needs-attention` event is [DCS]
 * src/doc/payments/refunds/events/refund-needs-attention.json). These five are every refund status
 * Paystack's material names ([DCS] refunds/events/*.json, [OAS] refund retry).
 */
export const PAYSTACK_REFUND_STATUS: Readonly<Record<PaystackRefundStatus, RefundStatus>> = {
  pending: 'Pending',
  processing: 'Pending',
  processed: 'Succeeded',
  failed: 'Failed',
  'needs-attention': 'Pending',
};

/** @returns true when `status` is a key of `table` (and not an inherited property). */
export function isKey<K extends string>(table: Readonly<Record<K, unknown>>, status: string): status is K {
  return Object.hasOwn(table, status);
}

/**
 * Paystack's dispute `status` values: the enum of List Disputes' `status` filter, [OAS] `paths/dispute.yaml`
 * (PaystackOSS/openapi 9678dea922a9; also `src/assets/sdk/paystack.yaml`: "Dispute Status. Acceptable values are
 * awaiting-merchant-feedback, awaiting-bank-feedback, pending, resolved").
 */
export const PAYSTACK_DISPUTE_STATUSES = ['awaiting-merchant-feedback', 'awaiting-bank-feedback', 'pending', 'resolved'] as const;

/** One of {@link PAYSTACK_DISPUTE_STATUSES}. */
export type PaystackDisputeStatus = (typeof PAYSTACK_DISPUTE_STATUSES)[number];

/**
 * Paystack's dispute `resolution` values: `merchant-accepted` and `declined`, the values Resolve Dispute accepts
 * ([OAS] `components/schemas/DisputeResolve.yaml`: "Dispute resolution. Accepted values, merchant-accepted,
 * declined"; [DCS] `src/api/disputes/resolve/response.json` answers `merchant-accepted`); `auto-accepted`, the
 * resolution of Paystack's `charge.dispute.resolve` sample ([DCS] `src/doc/payments/webhooks/events/charge-dispute-resolve.json`:
 * resolved 2 s after its `dueAt`, i.e. Paystack accepted it for a merchant who did not answer in time: "All disputes
 * raised against your integration/business should be handled within 16 hours", https://paystack.com/docs/payments/manage-disputes/);
 * `merchant-declined`, a spelling some integrations read (not in Paystack's material), read as `declined`.
 */
export const PAYSTACK_DISPUTE_RESOLUTIONS = ['merchant-accepted', 'auto-accepted', 'declined', 'merchant-declined'] as const;

/** One of {@link PAYSTACK_DISPUTE_RESOLUTIONS}. */
export type PaystackDisputeResolution = (typeof PAYSTACK_DISPUTE_RESOLUTIONS)[number];

/** The resolution this adapter sends to accept a dispute (`PUT /dispute/:id/resolve`). */
export const PAYSTACK_ACCEPT_RESOLUTION: PaystackDisputeResolution = 'merchant-accepted';

/**
 * The resolution this adapter sends to challenge a dispute with evidence: `declined`, the value Paystack's
 * DisputeResolve schema documents (not `merchant-declined`, which no Paystack material names).
 */
export const PAYSTACK_DECLINE_RESOLUTION: PaystackDisputeResolution = 'declined';

/** Our stage and status for one Paystack status (or resolution). */
export interface PaystackDisputeMapping {
  status: DisputeStatus;
  stage: DisputeStage;
}

/**
 * Open Paystack statuses → ours. Paystack has one stage (a chargeback or a fraud claim, `category`), so the stage
 * is always `dispute`:
 * - `awaiting-merchant-feedback` → `dispute_opened` (the merchant must accept or decline, by `dueAt`);
 * - `pending` → `dispute_opened` (the status Paystack's samples record at creation, `history[0].status`; nothing
 *   answered yet);
 * - `awaiting-bank-feedback` → `dispute_challenged` (the merchant declined with evidence; the issuer decides).
 * `resolved` is read through {@link PAYSTACK_DISPUTE_RESOLUTION}.
 */
export const PAYSTACK_DISPUTE_STATUS: Readonly<Record<Exclude<PaystackDisputeStatus, 'resolved'>, PaystackDisputeMapping>> = {
  'awaiting-merchant-feedback': { status: 'dispute_opened', stage: 'dispute' },
  pending: { status: 'dispute_opened', stage: 'dispute' },
  'awaiting-bank-feedback': { status: 'dispute_challenged', stage: 'dispute' },
};

/**
 * A `resolved` dispute's `resolution` → ours:
 * - `merchant-accepted` → `dispute_accepted` (the merchant accepted; `refund_amount` goes back to the cardholder);
 * - `auto-accepted` → `dispute_expired` (nobody answered by `dueAt`; Paystack accepted it: the money stays out);
 * - `declined` / `merchant-declined` → `dispute_won` (the decline stood: Paystack closes the dispute in the merchant's
 *   favour; Paystack documents no later stage).
 * A resolved dispute with another (or no) resolution is an unknown value: `dispute_opened` with a warning.
 */
export const PAYSTACK_DISPUTE_RESOLUTION: Readonly<Record<PaystackDisputeResolution, PaystackDisputeMapping>> = {
  'merchant-accepted': { status: 'dispute_accepted', stage: 'dispute' },
  'auto-accepted': { status: 'dispute_expired', stage: 'dispute' },
  declined: { status: 'dispute_won', stage: 'dispute' },
  'merchant-declined': { status: 'dispute_won', stage: 'dispute' },
};

/**
 * The raw value kept in `connectorStatus`: the status, with the resolution after a colon when there is one
 * (`resolved:merchant-accepted`), so the raw pair survives.
 */
export function paystackDisputeConnectorStatus(status: string, resolution: string | null | undefined): string {
  return resolution ? `${status}:${resolution}` : status;
}

/**
 * Paystack's status and resolution → ours, through {@link PAYSTACK_DISPUTE_STATUS} and {@link PAYSTACK_DISPUTE_RESOLUTION}.
 * @returns the mapping, or null for a value the tables do not know (the caller maps it to `dispute_opened` and warns)
 */
export function paystackDisputeMapping(status: string, resolution: string | null | undefined): PaystackDisputeMapping | null {
  if (status === 'resolved') {
    return resolution && Object.hasOwn(PAYSTACK_DISPUTE_RESOLUTION, resolution)
      ? PAYSTACK_DISPUTE_RESOLUTION[resolution as PaystackDisputeResolution]
      : null;
  }
  return Object.hasOwn(PAYSTACK_DISPUTE_STATUS, status) ? PAYSTACK_DISPUTE_STATUS[status as keyof typeof PAYSTACK_DISPUTE_STATUS] : null;
}
