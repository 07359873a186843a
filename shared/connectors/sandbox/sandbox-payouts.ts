/**
 * The sandbox's payouts: test destinations whose account number decides the outcome, as processors' test modes do
 * (`SANDBOX_PAYOUT_ACCOUNTS`, shared/domain/payout.ts; docs/api.md "Payouts in the sandbox"):
 * - `0000000000` (and any other account): `Processing`, then `Succeeded` once `SANDBOX_WEBHOOK_DELAY_MS` has passed
 *   since it was sent;
 * - `0000000001`: `Failed` at once (`account_closed`);
 * - `0000000002`: `RequiresAction` (OTP `123456`), then `Succeeded`;
 * - `0000000003`: `Succeeded` after the delay, `Reversed` after twice the delay.
 * A mobile money wallet stands for the account `000000` + its phone's last 4 digits.
 *
 * Deterministic: every answer is computed from the payout's destination and the sandbox's own ledger (each send is
 * recorded there once under `<reference>#sent` with its time; an accepted OTP under the reference), so every Lambda
 * instance answers alike and the reconciler settles sandbox payouts on a deployed stage. On the local stack the sandbox also posts
 * its webhook (`payout.succeeded`, `payout.reversed`) after the delay, as it does for bank transfers.
 */
import { randomUUID } from 'node:crypto';
import type { Currency } from '../../domain/money';
import { type PayoutType, SANDBOX_PAYOUT_ACCOUNTS, SANDBOX_PAYOUT_OTP, sandboxPayoutAccount } from '../../domain/payout';
import type { SandboxLedger } from '../../domain/sandbox-ledger';
import { ConnectorRequestError } from '../connector';
import type { PayoutAdapter, PayoutLookup, PayoutRequest, PayoutResult, ResolvedAccount } from '../payout-connector';
import { sandboxWebhookDelayMs, scheduleSandboxDelivery } from './sandbox-webhooks';

/** The sandbox's transfer id of a payout: derived from our reference, so every answer names the same one. */
export const sandboxTransferId = (reference: string) => `sbx_tr_${reference.replace(/^po_/, '')}`;

/**
 * The key of the sandbox ledger's record of a payout's send (`<reference>#sent`): written once, when the sandbox
 * takes the transfer; an OTP accepted later is recorded under the reference itself.
 */
export const sandboxSendKey = (reference: string) => `${reference}#sent`;

/** The payout events the sandbox posts to `POST /webhooks/sandbox`. */
export interface SandboxPayoutWebhookBody {
  id: string;
  type: 'payout.succeeded' | 'payout.reversed';
  data: { payout_id: string; transfer_id: string };
}

/** Whether a verified sandbox webhook body is a payout event. */
export function isSandboxPayoutWebhook(body: Record<string, unknown>): boolean {
  return body.type === 'payout.succeeded' || body.type === 'payout.reversed';
}

/**
 * Maps a verified sandbox payout event.
 * @throws nothing: a body whose fields are not strings maps to an ignored event
 */
export function sandboxPayoutEvent(
  body: Record<string, unknown>,
): { kind: 'payout'; eventId: string; payoutId: string; result: PayoutResult } | { kind: 'ignored'; eventId: string; reason: string } {
  const data = (body.data ?? {}) as Record<string, unknown>;
  const id = typeof body.id === 'string' ? body.id : 'sandbox-payout-event';
  if (typeof data.payout_id !== 'string' || typeof data.transfer_id !== 'string') {
    return { kind: 'ignored', eventId: id, reason: 'The sandbox payout event names no payout.' };
  }
  return {
    kind: 'payout',
    eventId: id,
    payoutId: data.payout_id,
    result: { status: body.type === 'payout.reversed' ? 'Reversed' : 'Succeeded', connectorPayoutId: data.transfer_id },
  };
}

/** Posts one signed payout event to the API after `delayMs` (redelivered until acknowledged), on the local stack only (no timer outlives a Lambda invocation). */
function schedulePayoutWebhook(
  baseUrl: string | undefined,
  data: SandboxPayoutWebhookBody['data'],
  type: SandboxPayoutWebhookBody['type'],
  delayMs: number,
): void {
  if (!baseUrl || process.env.AWS_LAMBDA_FUNCTION_NAME || process.env.SANDBOX_WEBHOOKS === 'off') return;
  const rawBody = JSON.stringify({ id: `evt_${randomUUID().replace(/-/g, '')}`, type, data } satisfies SandboxPayoutWebhookBody);
  scheduleSandboxDelivery(baseUrl, rawBody, delayMs);
}

/** The sandbox's payouts (see the module comment). */
export class SandboxPayouts implements PayoutAdapter {
  /** @param ledger the sandbox's ledger (an accepted OTP is recorded there as an approval of the reference) */
  constructor(private readonly ledger: SandboxLedger) {}

  /** The sandbox pays out in every payout currency, to banks and wallets. */
  supportsPayout(_currency: Currency, _payoutType: PayoutType): boolean {
    return true;
  }

  /**
   * Sends a payout to a test destination: the account decides (module comment). The send is recorded in the
   * sandbox's ledger under our reference, once (a second send of the same reference is the same transfer, as
   * Paystack and Flutterwave refuse a duplicate reference): the ledger is what {@link findPayout} reads.
   */
  async sendPayout(request: PayoutRequest): Promise<PayoutResult> {
    const account = sandboxPayoutAccount(request.destination);
    const id = sandboxTransferId(request.reference);
    const sent = await this.ledger.decide(sandboxSendKey(request.reference), {
      decision: account === SANDBOX_PAYOUT_ACCOUNTS.fails ? 'declined' : 'approved',
      amount: request.amount,
      captureMethod: 'automatic',
    });
    if (account === SANDBOX_PAYOUT_ACCOUNTS.fails) return closedAccount(id);
    if (account === SANDBOX_PAYOUT_ACCOUNTS.otp) {
      return { status: 'RequiresAction', connectorPayoutId: id, fee: 0 };
    }
    const delay = Math.max(0, Date.parse(sent.decidedAt) + sandboxWebhookDelayMs() - Date.now());
    const base = request.publicBaseUrl;
    schedulePayoutWebhook(base, { payout_id: request.reference, transfer_id: id }, 'payout.succeeded', delay);
    if (account === SANDBOX_PAYOUT_ACCOUNTS.reversed) {
      schedulePayoutWebhook(base, { payout_id: request.reference, transfer_id: id }, 'payout.reversed', delay + sandboxWebhookDelayMs());
    }
    return { status: 'Processing', connectorPayoutId: id, fee: 0 };
  }

  /** Takes the OTP `123456` (recorded in the ledger: the payout then succeeds); any other is wrong. */
  async authenticatePayout(request: PayoutLookup & { otp: string }): Promise<PayoutResult> {
    const id = sandboxTransferId(request.reference);
    if (request.otp !== SANDBOX_PAYOUT_OTP) {
      return {
        status: 'RequiresAction',
        connectorPayoutId: id,
        wrongOtp: true,
        errorCode: 'invalid_otp',
        errorMessage: 'The OTP is not the one the sandbox sent (its test OTP is 123456).',
      };
    }
    await this.ledger.decide(request.reference, { decision: 'approved', amount: request.amount, captureMethod: 'automatic' });
    return { status: 'Succeeded', connectorPayoutId: id, fee: 0 };
  }

  /**
   * The sandbox's status of a payout, from its ledger (no send recorded under our reference: null, nothing was
   * sent), its destination and the time since the sandbox took it.
   */
  async findPayout(request: PayoutLookup): Promise<PayoutResult | null> {
    const sent = await this.ledger.decision(sandboxSendKey(request.reference));
    if (!sent) return null;
    const account = sandboxPayoutAccount(request.destination);
    const id = sandboxTransferId(request.reference);
    if (account === SANDBOX_PAYOUT_ACCOUNTS.fails) return closedAccount(id);
    if (account === SANDBOX_PAYOUT_ACCOUNTS.otp) {
      const decided = await this.ledger.decision(request.reference);
      return decided?.decision === 'approved'
        ? { status: 'Succeeded', connectorPayoutId: id, fee: 0 }
        : { status: 'RequiresAction', connectorPayoutId: id, fee: 0 };
    }
    const delay = sandboxWebhookDelayMs();
    const sentMs = Date.parse(sent.decidedAt);
    const age = Date.now() - sentMs;
    if (account === SANDBOX_PAYOUT_ACCOUNTS.reversed) {
      if (age >= 2 * delay) {
        return {
          status: 'Reversed',
          connectorPayoutId: id,
          fee: 0,
          errorCode: 'payout_reversed',
          errorMessage: 'The receiving bank returned the payout.',
        };
      }
      if (age >= delay)
        return { status: 'Succeeded', connectorPayoutId: id, fee: 0, recheckAt: new Date(sentMs + 2 * delay).toISOString() };
      return { status: 'Processing', connectorPayoutId: id, fee: 0 };
    }
    return age >= delay ? { status: 'Succeeded', connectorPayoutId: id, fee: 0 } : { status: 'Processing', connectorPayoutId: id, fee: 0 };
  }

  /** Names the holder of a test account (`0000000001` is closed: not resolved). */
  async resolveAccount(request: { country: string; bankCode: string; accountNumber: string }): Promise<ResolvedAccount> {
    if (request.accountNumber === SANDBOX_PAYOUT_ACCOUNTS.fails) {
      throw new ConnectorRequestError('sandbox', 'account_not_resolved', 'The sandbox bank has no open account with this number.');
    }
    return { accountName: `SANDBOX TEST ACCOUNT ${request.accountNumber.slice(-4)}` };
  }
}

/** The answer for the closed test account. */
function closedAccount(id: string): PayoutResult {
  return {
    status: 'Failed',
    connectorPayoutId: id,
    fee: 0,
    errorCode: 'account_closed',
    errorMessage: 'The receiving bank refused the payout: the account is closed (the sandbox test account 0000000001).',
  };
}
