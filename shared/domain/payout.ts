/**
 * Payouts: money sent from the merchant's own processor balance to a bank account or a mobile money wallet (a
 * vendor, a rider, a seller). The vocabulary, the resource type and the state machine; nothing of ours outside
 * the domain is imported.
 *
 * Field and status names follow the payments and refunds of this API; the model is Hyperswitch's payouts
 * (`payout_type`, `payout_method_data`, a `RequiresConfirmation` → … → `Succeeded`/`Failed`/`Reversed` life,
 * juspay/hyperswitch `PayoutStatus`), mapped onto Paystack transfers (https://paystack.com/docs/transfers/) and
 * Flutterwave transfers (https://developer.flutterwave.com/docs/making-payments/transfers/overview).
 */
import type { Currency } from './money';
import type { PendingOperationView } from './pending-operation';

/**
 * Every status a payout can be in:
 * - `RequiresConfirmation`: created with `confirm: false`; nothing was sent;
 * - `RequiresAction`: the processor holds the transfer and asks for the merchant's OTP (`next_action.type`
 *   `submit_otp`); no money moved yet;
 * - `Processing`: sent, the processor has not said how it ended (or its answer is not recorded yet);
 * - `Succeeded`: the processor paid it out;
 * - `Failed`: the processor refused or failed it (`error_code`, `error_message`); no money left;
 * - `Cancelled`: cancelled before it was sent;
 * - `Reversed`: the receiving bank returned it after it succeeded (the money is back in the balance).
 */
export const PAYOUT_STATUSES = [
  'RequiresConfirmation',
  'RequiresAction',
  'Processing',
  'Succeeded',
  'Failed',
  'Cancelled',
  'Reversed',
] as const;

/** One of {@link PAYOUT_STATUSES}. */
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Where a payout goes: a bank account or a mobile money wallet. */
export const PAYOUT_TYPES = ['bank', 'mobile_money'] as const;

/** One of {@link PAYOUT_TYPES}. */
export type PayoutType = (typeof PAYOUT_TYPES)[number];

/**
 * Mobile money networks a payout can go to, by the names merchants use: Ghana's MTN, Telecel (formerly Vodafone)
 * and AirtelTigo, Kenya's M-Pesa and Airtel Money. Each adapter maps them to its processor's code (Paystack's
 * `bank_code` of a `mobile_money` recipient, `MTN`/`VOD`/`ATL`/`MPESA`; Flutterwave's `account_bank`).
 */
export const MOBILE_MONEY_NETWORKS = ['mtn', 'telecel', 'airteltigo', 'mpesa', 'airtel'] as const;

/** One of {@link MOBILE_MONEY_NETWORKS}. */
export type MobileMoneyNetwork = (typeof MOBILE_MONEY_NETWORKS)[number];

/** Currencies payouts are offered in: those of the processors' transfer APIs among ours (no USD payouts). */
export const PAYOUT_CURRENCIES = ['NGN', 'GHS', 'KES', 'ZAR'] as const satisfies readonly Currency[];

/** A bank account to pay, as given (the account number is kept to send the payout; shown only as its last 4 digits). */
export interface PayoutBankAccount {
  /** Digits only; 10 for a Nigerian NUBAN. */
  account_number: string;
  /** The bank's code as the processors list it (Nigeria: the CBN's 3-digit code, e.g. `058`). */
  bank_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** The holder's name as the merchant knows it (optional; `POST /payouts/resolve_account` gives the bank's). */
  account_name?: string | null;
}

/** A mobile money wallet to pay. */
export interface PayoutMobileMoney {
  /** E.164. */
  phone: string;
  network: MobileMoneyNetwork;
}

/** `payout_method_data` as stored: exactly one of the two. */
export type PayoutMethodData = { bank: PayoutBankAccount } | { mobile_money: PayoutMobileMoney };

/** `payout_method` as the API shows it: never the whole account number or phone. */
export type PayoutMethodView =
  | { bank: { last4: string; bank_code: string; country: string; account_name: string | null } }
  | { mobile_money: { last4: string; network: MobileMoneyNetwork } };

/** What the processor asks of the merchant next: the OTP it sent to the merchant's business phone. */
export interface PayoutNextAction {
  type: 'submit_otp';
  /** Wrong OTPs still accepted before the payout fails ({@link MAX_PAYOUT_OTP_ATTEMPTS} in all). */
  attempts_remaining: number;
}

/**
 * A payout as the API returns it (component `Payout`, shared/schemas/payout-resource-schema.ts). Amounts in minor
 * units; timestamps ISO 8601 UTC.
 */
export interface Payout {
  /** `po_…` */
  payout_id: string;
  amount: number;
  currency: Currency;
  status: PayoutStatus;
  payout_type: PayoutType;
  payout_method: PayoutMethodView;
  description: string;
  /** The merchant's own reference, unique per merchant; null when none was given. */
  reference: string | null;
  customer_id: string | null;
  connector: string;
  merchant_connector_id: string | null;
  /** The processor's id of the transfer (Paystack `transfer_code`, the sandbox's `sbx_tr_…`); null until it has one. */
  connector_payout_id: string | null;
  /** The processor's fee in minor units, when it says. */
  fee: number | null;
  error_code: string | null;
  error_message: string | null;
  next_action: PayoutNextAction | null;
  pending_operation: PendingOperationView | null;
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** The fields of a {@link Payout}, in the order responses list them. */
export const PAYOUT_FIELDS: readonly (keyof Payout)[] = [
  'payout_id',
  'amount',
  'currency',
  'status',
  'payout_type',
  'payout_method',
  'description',
  'reference',
  'customer_id',
  'connector',
  'merchant_connector_id',
  'connector_payout_id',
  'fee',
  'error_code',
  'error_message',
  'next_action',
  'pending_operation',
  'metadata',
  'created_at',
  'updated_at',
];

/** Operations on a payout. */
export type PayoutOperation = 'confirm' | 'authenticate' | 'cancel' | 'connector_update';

/**
 * Which statuses each operation may start from: confirm a payout created with `confirm: false`; authenticate one
 * waiting on its OTP; cancel only before anything was sent (Paystack and Flutterwave have no call that recalls a
 * transfer, so a sent payout cannot be cancelled); a processor's answer settles one sent or waiting on its OTP.
 */
export const PAYOUT_ALLOWED_FROM: Readonly<Record<PayoutOperation, readonly PayoutStatus[]>> = {
  confirm: ['RequiresConfirmation'],
  authenticate: ['RequiresAction'],
  cancel: ['RequiresConfirmation'],
  connector_update: ['Processing', 'RequiresAction', 'Succeeded'],
};

/**
 * Every edge of the payout state machine. `Succeeded` → `Reversed` is the bank returning the money; `Failed`,
 * `Cancelled` and `Reversed` are final.
 */
export const PAYOUT_TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  RequiresConfirmation: ['Processing', 'Cancelled'],
  Processing: ['RequiresAction', 'Succeeded', 'Failed', 'Reversed'],
  RequiresAction: ['Processing', 'Succeeded', 'Failed', 'Reversed'],
  Succeeded: ['Reversed'],
  Failed: [],
  Cancelled: [],
  Reversed: [],
};

/** @returns true when a payout may move from `from` to `to` (the same status is always allowed: a note, an id). */
export function canMovePayout(from: PayoutStatus, to: PayoutStatus): boolean {
  return from === to || PAYOUT_TRANSITIONS[from].includes(to);
}

/** Statuses whose outcome we do not know yet: the reconciler keeps asking the processor about them. */
export const OPEN_PAYOUT_STATUSES: readonly PayoutStatus[] = ['Processing', 'RequiresAction'];

/**
 * Wrong OTPs a payout accepts in all: 3. The third wrong one fails the payout (`otp_attempts_exceeded`): the
 * processor's transfer is never finalized, so nothing is sent (Paystack leaves an unfinalized transfer in `otp`).
 */
export const MAX_PAYOUT_OTP_ATTEMPTS = 3;

/**
 * The sandbox's test destinations: a bank account number (or the last 4 digits of a mobile money phone) decides the
 * outcome, as processors' test modes do. Any other account succeeds like `0000000000`.
 */
export const SANDBOX_PAYOUT_ACCOUNTS = {
  /** Processing, then Succeeded after `SANDBOX_WEBHOOK_DELAY_MS`. */
  succeeds: '0000000000',
  /** Failed at once (`account_closed`). */
  fails: '0000000001',
  /** RequiresAction: OTP {@link SANDBOX_PAYOUT_OTP}, then Succeeded. */
  otp: '0000000002',
  /** Succeeded after the delay, then Reversed after twice the delay. */
  reversed: '0000000003',
} as const;

/** The OTP the sandbox accepts. */
export const SANDBOX_PAYOUT_OTP = '123456';

/**
 * The sandbox's test account a destination stands for: a bank account number as given; a mobile money phone by
 * its last 4 digits (`+233240000001` → `0000000001`, which fails).
 */
export function sandboxPayoutAccount(method: PayoutMethodData): string {
  return 'bank' in method ? method.bank.account_number : `000000${method.mobile_money.phone.slice(-4)}`;
}

/** The API view of a stored destination: last 4 digits only. */
export function viewPayoutMethod(method: PayoutMethodData): PayoutMethodView {
  if ('bank' in method) {
    return {
      bank: {
        last4: method.bank.account_number.slice(-4),
        bank_code: method.bank.bank_code,
        country: method.bank.country,
        account_name: method.bank.account_name ?? null,
      },
    };
  }
  return { mobile_money: { last4: method.mobile_money.phone.slice(-4), network: method.mobile_money.network } };
}
