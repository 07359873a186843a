/**
 * Flutterwave transfers as our payouts (https://developer.flutterwave.com/docs/making-payments/transfers/overview;
 * https://developer.flutterwave.com/reference/endpoints/transfers/). Shapes from flutterwave-node-v3 1.4.1 (repo
 * Flutterwave/Node-v3, commit 537f9f4455f922a879e4f088cf0f596621c3517c): `documentation/transfers.md`,
 * `services/transfers/rave.initiate.js`, `rave.fetch.js`, `rave.retrieve.transfers.js`, `services/schema/create.js`
 * `transferSchema`, `documentation/misc.md` "Resolve account details", `services/misc/rave.resolve.account.js`
 * (wire types: ./transfer-wire-types.ts; statuses: ./transfer-statuses.ts).
 *
 * - `POST /v3/transfers` `{account_bank, account_number, amount (major units), currency, debit_currency, narration,
 *   reference: <payout id>, beneficiary_name}` from the account's balance in the payout's currency; Flutterwave answers
 *   `NEW` ("queued") and settles later by webhook. No OTP step: Flutterwave's API transfers have none.
 * - Destinations: NGN bank accounts (`account_bank` the CBN bank code); Ghana mobile money (`MTN`, `VODAFONE` for
 *   Telecel, `AIRTELTIGO`, the SDK's `momoSchema` values) and Kenyan M-Pesa (`MPS`), the wallet's phone in
 *   international form without `+` (Flutterwave's mobile money transfer samples: `233…`, `254…`). Ghanaian, Kenyan and
 *   South African bank accounts need fields a payout does not carry (a Ghanaian branch code, the ZAR recipient's
 *   name, e-mail and address in `meta`), so they are not offered.
 * - The transfer's state by its id (`GET /v3/transfers/{id}`), or — when the send's answer was lost and we hold no
 *   id — by our reference, `GET /v3/transfers?reference=<payout id>` (the list endpoint filtered on `reference`, as
 *   integrations use it; Flutterwave's SDK documents the list with `page`/`status`). An empty list is "not made yet"
 *   until {@link FLUTTERWAVE_TRANSFER_WINDOW_MS} has passed since the send, then "never made".
 * - Webhooks: `transfer.completed` (v3) or `"event.type": "Transfer"` (v2) behind `verif-hash`, re-read with
 *   `GET /v3/transfers/{id}` before they are trusted, as Flutterwave recommends for every webhook
 *   (https://developer.flutterwave.com/docs/webhooks "verify the transaction"): the verif-hash is a static secret.
 * - `POST /v3/accounts/resolve` `{account_number, account_bank}` for `POST /payouts/resolve_account` (Nigeria).
 */
import { isIdOf } from '../../domain/ids';
import type { Currency } from '../../domain/money';
import type { MobileMoneyNetwork, PayoutType } from '../../domain/payout';
import { ConnectorRequestError, ConnectorTechnicalError, type WebhookEvent } from '../connector';
import type { PayoutAdapter, PayoutLookup, PayoutRequest, PayoutResult, ResolvedAccount } from '../payout-connector';
import { FLUTTERWAVE_CONNECTOR_NAME } from './connector-name';
import { FLUTTERWAVE_NOT_FOUND_SETTLE_MS } from './lookups';
import { minorToMajor } from './money';
import { flutterwaveTransferResult } from './transfer-statuses';
import type {
  FlutterwaveTransfer,
  FlutterwaveTransferEnvelope,
  FlutterwaveTransferRequest,
  FlutterwaveTransferWebhook,
} from './transfer-wire-types';

/** One Flutterwave call of this adapter: `send` (a transfer: 35 s) or `read` (35 s), with the account's key. */
export type FlutterwaveTransferCall = <T>(kind: 'send' | 'read', method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/**
 * How long after a send a transfer missing from `GET /v3/transfers?reference=` may still appear, in ms: 15 minutes,
 * the window the adapter already gives a payment missing at `verify_by_reference` (./lookups.ts
 * `FLUTTERWAVE_NOT_FOUND_SETTLE_MS`; Flutterwave documents none). After it a missing transfer was never made.
 */
export const FLUTTERWAVE_TRANSFER_WINDOW_MS = FLUTTERWAVE_NOT_FOUND_SETTLE_MS;

/** Flutterwave's `account_bank` of a mobile money wallet, by network (Ghana: the SDK's `momoSchema` values; Kenya: `MPS`). */
const MOBILE_MONEY_BANKS: Readonly<Partial<Record<MobileMoneyNetwork, { bank: string; currency: Currency }>>> = {
  mtn: { bank: 'MTN', currency: 'GHS' },
  telecel: { bank: 'VODAFONE', currency: 'GHS' },
  airteltigo: { bank: 'AIRTELTIGO', currency: 'GHS' },
  mpesa: { bank: 'MPS', currency: 'KES' },
};

/** The name sent when the merchant gave none (Flutterwave requires one for mobile money). */
const UNNAMED_BENEFICIARY = 'Payout recipient';

/**
 * The `POST /v3/transfers` body of a payout.
 * @throws ConnectorRequestError `payout_not_supported` for a destination this adapter does not send to (nothing sent)
 */
export function buildFlutterwaveTransfer(request: PayoutRequest): FlutterwaveTransferRequest {
  const common = {
    amount: Number(minorToMajor(request.amount)),
    currency: request.currency,
    debit_currency: request.currency,
    narration: request.description,
    reference: request.reference,
  };
  const destination = request.destination;
  if ('bank' in destination) {
    if (request.currency !== 'NGN') {
      throw new ConnectorRequestError(
        FLUTTERWAVE_CONNECTOR_NAME,
        'payout_not_supported',
        `Flutterwave bank payouts are sent in NGN only here, not ${request.currency}.`,
      );
    }
    return {
      account_bank: destination.bank.bank_code,
      account_number: destination.bank.account_number,
      ...common,
      beneficiary_name: destination.bank.account_name ?? UNNAMED_BENEFICIARY,
    };
  }
  const wallet = MOBILE_MONEY_BANKS[destination.mobile_money.network];
  if (!wallet || wallet.currency !== request.currency) {
    throw new ConnectorRequestError(
      FLUTTERWAVE_CONNECTOR_NAME,
      'payout_not_supported',
      `Flutterwave sends no ${request.currency} mobile money payouts to this network.`,
    );
  }
  return {
    account_bank: wallet.bank,
    account_number: destination.mobile_money.phone.replace(/^\+/, ''),
    ...common,
    beneficiary_name: UNNAMED_BENEFICIARY,
  };
}

/**
 * The transfer a webhook names: the v3 `{event: "transfer.completed", data}` or the v2 `{"event.type": "Transfer",
 * transfer}`.
 * @returns its id and our reference, or undefined when the body is not a transfer event
 */
export function flutterwaveTransferOf(body: FlutterwaveTransferWebhook): { event: string; transfer: FlutterwaveTransfer } | undefined {
  const isTransfer =
    (typeof body.event === 'string' && body.event.startsWith('transfer.')) ||
    (typeof body['event.type'] === 'string' && body['event.type'].toLowerCase() === 'transfer');
  if (!isTransfer) return undefined;
  const data = (body.data ?? body.transfer ?? {}) as FlutterwaveTransfer;
  return { event: typeof body.event === 'string' ? body.event : 'transfer', transfer: data };
}

/** A transfer webhook's event id, stable across redeliveries (Flutterwave sends none): event, transfer id and status. */
function transferEventId(event: string, transfer: FlutterwaveTransfer): string {
  return `flw_${event}_${String(transfer.id ?? transfer.reference ?? '')}_${String(transfer.status ?? '')}`.toLowerCase();
}

/** Flutterwave transfers as a {@link PayoutAdapter} (see the module comment). */
export class FlutterwaveTransfers implements PayoutAdapter {
  /**
   * @param call one Flutterwave call with the account's key (FlutterwaveConnector's, with its timeouts and error mapping)
   * @param now the clock (epoch ms)
   */
  constructor(
    private readonly call: FlutterwaveTransferCall,
    private readonly now: () => number = Date.now,
  ) {}

  /** NGN bank accounts; GHS (MTN, Telecel, AirtelTigo) and KES (M-Pesa) mobile money. */
  supportsPayout(currency: Currency, payoutType: PayoutType): boolean {
    if (payoutType === 'bank') return currency === 'NGN';
    return currency === 'GHS' || currency === 'KES';
  }

  /**
   * `POST /v3/transfers` under our reference.
   * @throws ConnectorRequestError on Flutterwave's 4xx or an unsupported destination (nothing sent);
   *   ConnectorTechnicalError when the outcome is unknown
   */
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    const body = buildFlutterwaveTransfer(request);
    const answer = await this.call<FlutterwaveTransferEnvelope<FlutterwaveTransfer>>('send', 'POST', '/v3/transfers', body);
    if (answer.status !== 'success' || !answer.data) {
      throw new ConnectorRequestError(
        FLUTTERWAVE_CONNECTOR_NAME,
        'transfer_refused',
        answer.message ?? 'Flutterwave refused the transfer.',
      );
    }
    return flutterwaveTransferResult(answer.data);
  }

  /** `GET /v3/transfers/{id}`. @throws ConnectorRequestError / ConnectorTechnicalError */
  private async byId(id: string): Promise<FlutterwaveTransfer> {
    const answer = await this.call<FlutterwaveTransferEnvelope<FlutterwaveTransfer>>(
      'read',
      'GET',
      `/v3/transfers/${encodeURIComponent(id)}`,
    );
    if (!answer.data) throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave answered a transfer without its data.');
    return answer.data;
  }

  /**
   * By id when recorded, else `GET /v3/transfers?reference=`. None under our reference: null once
   * {@link FLUTTERWAVE_TRANSFER_WINDOW_MS} has passed since the send (it was never made), else a ConnectorTechnicalError
   * (not visible yet: asked again later).
   */
  async findPayout(request: PayoutLookup): Promise<PayoutResult | null> {
    if (request.connectorPayoutId) return flutterwaveTransferResult(await this.byId(request.connectorPayoutId));
    const answer = await this.call<FlutterwaveTransferEnvelope<FlutterwaveTransfer[]>>(
      'read',
      'GET',
      `/v3/transfers?${new URLSearchParams({ reference: request.reference })}`,
    );
    const found = (Array.isArray(answer.data) ? answer.data : []).find((t) => t.reference === request.reference);
    if (found) return flutterwaveTransferResult(found);
    if (this.now() - Date.parse(request.sentAt) >= FLUTTERWAVE_TRANSFER_WINDOW_MS) return null;
    throw new ConnectorTechnicalError(FLUTTERWAVE_CONNECTOR_NAME, 'Flutterwave shows no transfer under this reference yet.');
  }

  /**
   * A verified transfer webhook as a payout event: the transfer re-read by its id (the webhook's status is not trusted
   * alone), naming our reference. A transfer made outside Switchyard on the same account, or one Flutterwave does not
   * confirm, is ignored.
   * @throws ConnectorTechnicalError when the re-read fails technically (Flutterwave redelivers on a non-2xx answer)
   */
  async transferEvent(body: FlutterwaveTransferWebhook): Promise<WebhookEvent | undefined> {
    const named = flutterwaveTransferOf(body);
    if (!named) return undefined;
    const eventId = transferEventId(named.event, named.transfer);
    const { id, reference } = named.transfer;
    if (typeof reference !== 'string' || !isIdOf('payout', reference)) {
      return { kind: 'ignored', eventId, reason: 'The transfer is not a Switchyard payout.' };
    }
    if (typeof id !== 'number') return { kind: 'ignored', eventId, reason: 'The transfer event carries no transfer id.' };
    let transfer: FlutterwaveTransfer;
    try {
      transfer = await this.byId(String(id));
    } catch (err) {
      if (err instanceof ConnectorRequestError)
        return { kind: 'ignored', eventId, reason: `Flutterwave does not confirm transfer ${id}: ${err.message}` };
      throw err;
    }
    if (transfer.reference !== reference) {
      return { kind: 'ignored', eventId, reason: `Transfer ${id} does not carry the reference the event names.` };
    }
    return { kind: 'payout', eventId, payoutId: reference, result: flutterwaveTransferResult(transfer) };
  }

  /**
   * `POST /v3/accounts/resolve` `{account_number, account_bank}`: the holder's name.
   * @throws ConnectorRequestError when Flutterwave cannot resolve the account
   */
  async resolveAccount(request: { country: string; bankCode: string; accountNumber: string }): Promise<ResolvedAccount> {
    const answer = await this.call<FlutterwaveTransferEnvelope<{ account_name?: string }>>('read', 'POST', '/v3/accounts/resolve', {
      account_number: request.accountNumber,
      account_bank: request.bankCode,
    });
    if (typeof answer.data?.account_name !== 'string' || !answer.data.account_name) {
      throw new ConnectorRequestError(FLUTTERWAVE_CONNECTOR_NAME, 'account_not_resolved', 'Flutterwave returned no account name.');
    }
    return { accountName: answer.data.account_name };
  }
}
