/**
 * The payout side of a connector: sending money from the account's balance (Paystack transfers, Flutterwave
 * transfers, the sandbox's test destinations). An adapter that can send payouts exposes a {@link PayoutAdapter} as
 * its `payouts` property (shared/connectors/connector.ts); one that cannot (Stripe: paying third parties needs
 * Connect, which a merchant's own account does not give) has none.
 *
 * Outcomes follow the payment calls: a business answer (queued, sent, failed, OTP wanted) is a {@link PayoutResult};
 * a refusal with nothing done at the processor (4xx) is a thrown `ConnectorRequestError`; a technical failure
 * (timeout, network, 5xx) a thrown `ConnectorTechnicalError`: the outcome is unknown, and the payout is never sent
 * again — it is found by our reference ({@link PayoutAdapter.findPayout}).
 */
import type { Currency } from '../domain/money';
import type { PayoutMethodData, PayoutStatus, PayoutType } from '../domain/payout';

/** What a payout send needs. `reference` is our payout id: the processor's idempotency key and lookup key. */
export interface PayoutRequest {
  /** Our payout id (`po_…`), sent as the processor's `reference`. */
  reference: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  destination: PayoutMethodData;
  /** The narration the recipient sees. */
  description: string;
  /** Public base URL of this API, when known (the sandbox posts its local webhooks there). */
  publicBaseUrl?: string;
}

/** A payout's status as its processor reports it, mapped. */
export interface PayoutResult {
  status: Extract<PayoutStatus, 'RequiresAction' | 'Processing' | 'Succeeded' | 'Failed' | 'Reversed'>;
  /** The processor's id of the transfer (Paystack `transfer_code`, Flutterwave `id`). */
  connectorPayoutId: string | null;
  /** The processor's fee in minor units, when it says. */
  fee?: number | null;
  errorCode?: string | null;
  errorMessage?: string | null;
  /**
   * Set with `RequiresAction` after a wrong OTP: the processor refused the OTP and keeps the transfer waiting for
   * another (the core counts the attempt).
   */
  wrongOtp?: boolean;
  /**
   * ISO 8601 UTC: when the processor will have news of this payout although it sends no webhook (the sandbox's
   * reversal): the core keeps the payout due for a look then, even once final.
   */
  recheckAt?: string | null;
}

/** What a lookup by our reference needs. */
export interface PayoutLookup {
  reference: string;
  /** The processor's id when recorded; null when the send's answer was lost. */
  connectorPayoutId: string | null;
  amount: number;
  currency: Currency;
  destination: PayoutMethodData;
  /** ISO 8601 UTC: when the payout was sent (windows of "not found yet" run from it). */
  sentAt: string;
}

/** An account holder's name, as the bank has it. */
export interface ResolvedAccount {
  accountName: string;
}

/** A connector's payout calls. */
export interface PayoutAdapter {
  /** Whether this processor sends payouts of this type in this currency. */
  supportsPayout(currency: Currency, payoutType: PayoutType): boolean;
  /**
   * Sends a payout under our reference.
   * @throws ConnectorRequestError when refused with nothing done; ConnectorTechnicalError when the outcome is unknown
   */
  sendPayout(request: PayoutRequest): Promise<PayoutResult>;
  /**
   * Relays the merchant's OTP for a payout in `RequiresAction` (Paystack `POST /transfer/finalize_transfer`). A wrong
   * OTP is a result with `wrongOtp: true`, never a throw. Held in memory only: never logged, stored or echoed.
   * @throws ConnectorRequestError / ConnectorTechnicalError as {@link sendPayout}
   */
  authenticatePayout?(request: PayoutLookup & { otp: string }): Promise<PayoutResult>;
  /**
   * The processor's view of a payout, by our reference (or its id): changes nothing there.
   * @returns the result, or null when the processor has no transfer under our reference and its window for one to
   *   appear has passed (nothing was sent)
   * @throws ConnectorRequestError / ConnectorTechnicalError when the lookup itself fails
   */
  findPayout(request: PayoutLookup): Promise<PayoutResult | null>;
  /**
   * The name of a bank account's holder (Paystack `GET /bank/resolve`).
   * @throws ConnectorRequestError `account_not_resolved` when the bank knows no such account
   */
  resolveAccount?(request: { country: string; bankCode: string; accountNumber: string }): Promise<ResolvedAccount>;
}
