/**
 * Polling processors that send no dispute webhooks: Flutterwave (its chargebacks are listed with
 * `GET /v3/chargebacks`; its guide mentions webhooks "available on request" with no documented payload:
 * docs/connectors/flutterwave.md "Disputes") and the sandbox. Each run of the scheduled worker asks every such
 * account — the stage's own, and each merchant's (merchants found through the billing directory) — for the disputes
 * that changed since its cursor, and records them (shared/operations/disputes/dispute-ingestion.ts: idempotent, so
 * the cursor overlaps the previous run by {@link CURSOR_OVERLAP_MS}). Accounts are polled a few at a time, each on its
 * own; one account failing is logged and retried next run, and one hanging holds only its own turn.
 */
import type { Connector } from '../../connectors/connector';
import { isIdOf } from '../../domain/ids';
import { logger } from '../../observability/logger';
import { accountConnector } from '../../processor-call/account-connectors';
import { merchantConnectorConfig } from '../../processor-call/connector-config-cache';
import { CONNECTOR_FACTORIES, configuredConnector } from '../../processor-call/connector-registry';
import { getDisputePollCursor, setDisputePollCursor } from '../../storage/disputes-repository';
import { findPaymentOwner, getPayment } from '../../storage/payments-repository';
import { disputeAccountKey, recordDispute } from './dispute-ingestion';

/** How far back the next poll starts before this run's time: 10 minutes (a processor's listing may lag). */
export const CURSOR_OVERLAP_MS = 10 * 60_000;
/** Accounts polled at once: 4. */
const POLL_CONCURRENCY = 4;

/** Where a first poll of an account starts: 2 days back. */
const FIRST_POLL_MS = 2 * 86_400_000;

/**
 * Polls every account whose connector lists disputes (see the module comment).
 * @param merchants the merchants of the billing directory
 * @returns counts by outcome (`recorded`, `unchanged`, `unmatched`, `failed`)
 */
export async function pollDisputes(merchants: readonly string[], now: string, deadlineMs: number): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const count = (k: string, n = 1) => {
    counts[k] = (counts[k] ?? 0) + n;
  };
  const accounts: { key: string; connector: Connector; merchantId: string | null; mca: string | null }[] = [];
  for (const name of Object.keys(CONNECTOR_FACTORIES)) {
    const c = await configuredConnector(name).catch(() => undefined);
    if (c?.listDisputes) accounts.push({ key: disputeAccountKey(name, null), connector: c, merchantId: null, mca: null });
  }
  for (const merchantId of merchants) {
    try {
      const config = await merchantConnectorConfig(merchantId);
      for (const account of config.accounts) {
        const c = await accountConnector(account);
        if (c?.listDisputes)
          accounts.push({ key: account.merchant_connector_id, connector: c, merchantId, mca: account.merchant_connector_id });
      }
    } catch (err) {
      count('failed');
      logger.error('reading a merchant’s connector accounts for dispute polling failed', {
        merchant_id: merchantId,
        error: (err as Error).name,
      });
    }
  }
  const pollAccount = async (a: (typeof accounts)[number]) => {
    try {
      const since = (await getDisputePollCursor(a.key)) ?? new Date(Date.parse(now) - FIRST_POLL_MS).toISOString();
      const disputes = await a.connector.listDisputes!(since);
      for (const cd of disputes) {
        const paymentId = cd.paymentId;
        const merchantId = a.merchantId ?? (paymentId && isIdOf('payment', paymentId) ? await findPaymentOwner(paymentId) : undefined);
        const stored = merchantId && paymentId ? await getPayment(merchantId, paymentId) : undefined;
        // The payment must have gone through this account (no account's listing moves another's payment).
        if (
          !merchantId ||
          !stored ||
          (stored.payment.merchant_connector_id ?? null) !== a.mca ||
          stored.payment.connector !== a.connector.name
        ) {
          count('unmatched');
          continue;
        }
        const r = await recordDispute({
          merchantId,
          connector: a.connector.name,
          merchantConnectorId: a.mca,
          paymentId: stored.payment.payment_id,
          dispute: cd,
        });
        count(r.applied ? 'recorded' : 'unchanged');
      }
      await setDisputePollCursor(a.key, new Date(Date.parse(now) - CURSOR_OVERLAP_MS).toISOString());
    } catch (err) {
      count('failed');
      logger.error('polling an account’s disputes failed; the next run retries', { account: a.key, error: (err as Error).name });
    }
  };
  // A few accounts at a time, each on its own: one account's slow listing holds only its own turn.
  let next = 0;
  await Promise.all(
    Array.from({ length: POLL_CONCURRENCY }, async () => {
      for (let a = accounts[next++]; a !== undefined; a = accounts[next++]) {
        if (Date.now() > deadlineMs) return;
        await pollAccount(a);
      }
    }),
  );
  return counts;
}
