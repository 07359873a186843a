/**
 * Paystack transfers as our payouts (https://paystack.com/docs/transfers/single-transfers/), shapes from the
 * PaystackOSS/openapi files of test/connectors/fixtures/paystack/openapi (commit
 * 9678dea922a900b2485969592055ccf634460352: `paths/transferrecipient.yaml` + `TransferRecipientCreate`,
 * `paths/transfer.yaml` + `TransferInitiate`, `paths/transfer_finalize_transfer.yaml` + `TransferFinalize`,
 * `paths/transfer_verify_{reference}.yaml`, `paths/bank_resolve.yaml`) and the samples of PaystackOSS/doc-code-snippets
 * (commit 94af513d752dfc9f85dd0718301e7257091eb7f2: `src/api/transfers/{initiate,finalize,verify}/response.json`,
 * `src/api/transfer-recipient/create/response.json`, `src/api/verification/resolve-account/response.json`,
 * `src/doc/transfers/manage/initiate-transfer-otp/index.json`, `src/doc/payments/webhooks/events/transfer-*.json`).
 *
 * - A transfer recipient per destination (`POST /transferrecipient`), cached per account in this adapter (one adapter
 *   per connector account and container: shared/processor-call/account-connectors.ts); Paystack returns a recipient for
 *   the same details again, so a cold cache costs one call, never a second recipient that matters.
 * - `POST /transfer` with our payout id as `reference` (Paystack's idempotency key for transfers); `status: "otp"` when
 *   the integration has transfer OTP on → `RequiresAction`, finalized by `POST /transfer/finalize_transfer`.
 * - The transfer's state by our reference: `GET /transfer/verify/:reference`.
 * - Webhooks `transfer.success`, `transfer.failed`, `transfer.reversed` ({@link paystackTransferEvent}).
 */
import { isIdOf } from '../../domain/ids';
import type { Currency } from '../../domain/money';
import type { MobileMoneyNetwork, PayoutMethodData, PayoutType } from '../../domain/payout';
import { ConnectorRequestError, ConnectorTechnicalError, type WebhookEvent } from '../connector';
import type { PayoutAdapter, PayoutLookup, PayoutRequest, PayoutResult, ResolvedAccount } from '../payout-connector';

/** One Paystack call of this adapter: `send` (a transfer or its OTP: 60 s) or `read` (30 s). */
export type PaystackTransferCall = <T>(kind: 'send' | 'read', method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/** Paystack's envelope. */
interface Envelope<T> {
  status: boolean;
  message: string;
  data: T;
}

/** The transfer object of the initiate, finalize and verify answers (the fields read). */
export interface PaystackTransferData {
  reference?: string;
  transfer_code?: string;
  status?: string;
  amount?: number;
  currency?: string;
  fee_charged?: number;
  failures?: unknown;
  gateway_response?: string | null;
}

/**
 * Paystack's transfer statuses (https://paystack.com/docs/transfers/single-transfers/ "Transfer statuses"; `otp` from
 * the initiate-transfer-otp sample) mapped to ours. An unknown status is treated as still `Processing`.
 */
export const PAYSTACK_TRANSFER_STATUS: Readonly<Record<string, PayoutResult['status']>> = {
  success: 'Succeeded',
  pending: 'Processing',
  received: 'Processing',
  processing: 'Processing',
  queued: 'Processing',
  otp: 'RequiresAction',
  failed: 'Failed',
  abandoned: 'Failed',
  blocked: 'Failed',
  rejected: 'Failed',
  reversed: 'Reversed',
};

/**
 * How long after a send a transfer missing at `GET /transfer/verify/:reference` may still appear, in ms: 120 000 —
 * twice Paystack's send timeout here (60 s, `PAYSTACK_TIMEOUTS_MS.refund` of ./timeouts.ts). After it a missing
 * transfer was never made.
 */
export const PAYSTACK_TRANSFER_WINDOW_MS = 120_000;

/** Paystack's `bank_code` of a mobile money recipient, by network (the momo and M-Pesa recipient samples: `MTN`, `MPESA`). */
const MOBILE_MONEY_BANK_CODES: Readonly<Partial<Record<MobileMoneyNetwork, string>>> = {
  mtn: 'MTN',
  telecel: 'VOD',
  airteltigo: 'ATL',
  mpesa: 'MPESA',
};

/** The transfer recipient `type` of a bank account by currency (`TransferRecipientCreate.type`: nuban, ghipss, basa). */
const BANK_RECIPIENT_TYPE: Readonly<Partial<Record<Currency, string>>> = { NGN: 'nuban', GHS: 'ghipss', ZAR: 'basa' };

/** The `POST /transferrecipient` body of a destination. */
export function buildTransferRecipient(destination: PayoutMethodData, currency: Currency): Record<string, string> {
  if ('bank' in destination) {
    const type = BANK_RECIPIENT_TYPE[currency];
    if (!type) throw new ConnectorRequestError('paystack', 'payout_not_supported', `Paystack sends no bank payouts in ${currency}.`);
    return {
      type,
      name: destination.bank.account_name ?? 'Payout recipient',
      account_number: destination.bank.account_number,
      bank_code: destination.bank.bank_code,
      currency,
    };
  }
  const bankCode = MOBILE_MONEY_BANK_CODES[destination.mobile_money.network];
  if (!bankCode) {
    throw new ConnectorRequestError('paystack', 'payout_not_supported', 'Paystack sends no mobile money payouts to this network.');
  }
  return {
    type: 'mobile_money',
    name: 'Payout recipient',
    // Local format, as Paystack's samples write the wallet (`0551234987`): E.164 less its country code, with a 0.
    account_number: `0${destination.mobile_money.phone.replace(/^\+(233|254)/, '')}`,
    bank_code: bankCode,
    currency,
  };
}

/** Our result of a Paystack transfer object. */
export function transferToPayoutResult(data: PaystackTransferData): PayoutResult {
  const status = PAYSTACK_TRANSFER_STATUS[String(data.status)] ?? 'Processing';
  const reason = typeof data.gateway_response === 'string' && data.gateway_response ? data.gateway_response : null;
  return {
    status,
    connectorPayoutId: typeof data.transfer_code === 'string' ? data.transfer_code : null,
    fee: typeof data.fee_charged === 'number' ? data.fee_charged : null,
    ...(status === 'Failed' || status === 'Reversed'
      ? {
          errorCode: `transfer_${String(data.status)}`,
          errorMessage: reason ?? (status === 'Failed' ? 'Paystack failed the transfer.' : 'The receiving bank returned the transfer.'),
        }
      : {}),
  };
}

/** Paystack's payout webhooks. */
const TRANSFER_EVENTS = new Set(['transfer.success', 'transfer.failed', 'transfer.reversed']);

/**
 * Maps a verified Paystack `transfer.*` event (the doc-code-snippets samples `transfer-successful.json`,
 * `transfer-failed.json`, `transfer-reversed.json`) to a payout event naming our reference; other `transfer.*` events
 * are ignored. Paystack events carry no id: the event id is the event name and the transfer code.
 * @returns undefined when the body is not a `transfer.*` event
 */
export function paystackTransferEvent(body: { event?: unknown; data?: unknown }): WebhookEvent | undefined {
  if (typeof body.event !== 'string' || !body.event.startsWith('transfer.')) return undefined;
  const data = (body.data ?? {}) as PaystackTransferData;
  const eventId = `${body.event}:${String(data.transfer_code ?? data.reference ?? '')}`;
  if (!TRANSFER_EVENTS.has(body.event) || typeof data.reference !== 'string') {
    return { kind: 'ignored', eventId, reason: `Paystack ${body.event} changes no payout.` };
  }
  // A transfer made outside Switchyard on the same Paystack account (its reference is not one of our payout ids).
  if (!isIdOf('payout', data.reference)) return { kind: 'ignored', eventId, reason: 'The transfer is not a Switchyard payout.' };
  return { kind: 'payout', eventId, payoutId: data.reference, result: transferToPayoutResult(data) };
}

/** Whether Paystack refused an OTP as wrong (its 400 on finalize names the OTP). */
function wrongOtp(err: unknown): boolean {
  return err instanceof ConnectorRequestError && /otp/i.test(`${err.code} ${err.message}`);
}

/** Paystack transfers as a {@link PayoutAdapter} (see the module comment). */
export class PaystackTransfers implements PayoutAdapter {
  /** Recipient codes by destination, for this account. */
  private readonly recipients = new Map<string, string>();

  /**
   * @param call one Paystack call with the account's key (PaystackConnector's, with its timeouts and error mapping)
   * @param now the clock (epoch ms)
   */
  constructor(
    private readonly call: PaystackTransferCall,
    private readonly now: () => number = Date.now,
  ) {}

  /** NGN, GHS and ZAR banks; GHS and KES mobile money (Paystack's transfer recipients). */
  supportsPayout(currency: Currency, payoutType: PayoutType): boolean {
    if (payoutType === 'bank') return currency in BANK_RECIPIENT_TYPE;
    return currency === 'GHS' || currency === 'KES';
  }

  /** The recipient code of a destination: cached, else created. */
  private async recipientOf(destination: PayoutMethodData, currency: Currency): Promise<string> {
    const body = buildTransferRecipient(destination, currency);
    const key = `${body.type}:${body.bank_code}:${body.account_number}:${currency}`;
    const cached = this.recipients.get(key);
    if (cached) return cached;
    const created = await this.call<Envelope<{ recipient_code?: string }>>('read', 'POST', '/transferrecipient', body);
    const code = created.data?.recipient_code;
    if (typeof code !== 'string') throw new ConnectorTechnicalError('paystack', 'Paystack answered a recipient without its code.');
    this.recipients.set(key, code);
    return code;
  }

  /**
   * `POST /transfer` from the balance, under our reference.
   * @throws ConnectorRequestError on Paystack's 4xx (nothing sent); ConnectorTechnicalError when the outcome is unknown
   */
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    const recipient = await this.recipientOf(request.destination, request.currency);
    const answer = await this.call<Envelope<PaystackTransferData>>('send', 'POST', '/transfer', {
      source: 'balance',
      amount: request.amount,
      currency: request.currency,
      recipient,
      reason: request.description,
      reference: request.reference,
    });
    return transferToPayoutResult(answer.data ?? {});
  }

  /** `POST /transfer/finalize_transfer` with the OTP (held in memory only); a refused OTP is a `wrongOtp` result. */
  async authenticatePayout(request: PayoutLookup & { otp: string }): Promise<PayoutResult> {
    if (!request.connectorPayoutId)
      throw new ConnectorRequestError('paystack', 'transfer_code_missing', 'The transfer has no code to finalize.');
    try {
      const answer = await this.call<Envelope<PaystackTransferData>>('send', 'POST', '/transfer/finalize_transfer', {
        transfer_code: request.connectorPayoutId,
        otp: request.otp,
      });
      return transferToPayoutResult(answer.data ?? {});
    } catch (err) {
      if (wrongOtp(err)) return { status: 'RequiresAction', connectorPayoutId: request.connectorPayoutId, wrongOtp: true };
      throw err;
    }
  }

  /**
   * `GET /transfer/verify/:reference`. Not found: null once {@link PAYSTACK_TRANSFER_WINDOW_MS} has passed since the
   * send (it was never made), else a ConnectorTechnicalError (not visible yet: asked again later).
   */
  async findPayout(request: PayoutLookup): Promise<PayoutResult | null> {
    try {
      const answer = await this.call<Envelope<PaystackTransferData>>(
        'read',
        'GET',
        `/transfer/verify/${encodeURIComponent(request.reference)}`,
      );
      return transferToPayoutResult(answer.data ?? {});
    } catch (err) {
      if (err instanceof ConnectorRequestError && (err.code === 'transfer_not_found' || err.code === 'http_404')) {
        if (this.now() - Date.parse(request.sentAt) >= PAYSTACK_TRANSFER_WINDOW_MS) return null;
        throw new ConnectorTechnicalError('paystack', 'Paystack shows no transfer under this reference yet.');
      }
      throw err;
    }
  }

  /** `GET /bank/resolve?account_number=&bank_code=`: the holder's name. @throws ConnectorRequestError when not resolved */
  async resolveAccount(request: { country: string; bankCode: string; accountNumber: string }): Promise<ResolvedAccount> {
    const query = new URLSearchParams({ account_number: request.accountNumber, bank_code: request.bankCode });
    const answer = await this.call<Envelope<{ account_name?: string }>>('read', 'GET', `/bank/resolve?${query}`);
    if (typeof answer.data?.account_name !== 'string') {
      throw new ConnectorRequestError('paystack', 'account_not_resolved', 'Paystack returned no account name.');
    }
    return { accountName: answer.data.account_name };
  }
}
