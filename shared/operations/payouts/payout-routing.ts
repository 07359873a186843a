/**
 * Which connector account sends a payout (docs/api.md "Payouts", routing), in this order:
 * 1. the pinned account (`merchant_connector_id`): that account only;
 * 2. the merchant's own accounts: first its payout priority list (`PUT /routing/payouts`, ./payout-priority.ts), then
 *    its default fallback order (`PUT /routing/default`; its accounts in creation order when it set none): the first
 *    that is enabled, not deleted, and whose connector sends payouts of this currency and type;
 * 3. for a merchant with no connector accounts at all (as for payments), the stage's platform settings: the
 *    connectors of the first `ROUTING_RULES` rule for the currency (the sandbox on dev), the first that sends them;
 * 4. else 400 `no_payout_connector`.
 * A pinned Stripe account answers 400 `payout_not_supported`: paying third parties from a Stripe balance needs
 * Stripe Connect (https://docs.stripe.com/connect), which a merchant's own account does not give.
 */
import { beingDeleted } from '../../domain/connector-account-deletion';
import { invalidRequest } from '../../domain/errors';
import type { Currency } from '../../domain/money';
import type { PayoutType } from '../../domain/payout';
import { logger } from '../../observability/logger';
import { accountConnector } from '../../processor-call/account-connectors';
import { merchantConnectorConfig } from '../../processor-call/connector-config-cache';
import { configuredConnector } from '../../processor-call/connector-registry';
import { RoutedConnector } from '../../processor-call/connector-target';
import type { StoredConnectorAccount } from '../../storage/connector-accounts-repository';
import { connectorsFor } from '../routing/routing-rules';

/** A routed connector that sends payouts. */
export type PayoutTarget = RoutedConnector & { readonly payouts: NonNullable<RoutedConnector['payouts']> };

/** 400 `payout_not_supported`: the connector cannot send payouts from the merchant's own account. */
export function payoutNotSupported(connector: string): Error {
  return invalidRequest(
    'payout_not_supported',
    connector === 'stripe'
      ? 'Stripe cannot send payouts from this account: paying third parties from a Stripe balance needs Stripe Connect, which a connected Stripe account does not give here. Pin a Paystack account (or the sandbox) in merchant_connector_id.'
      : `${connector} does not send payouts of this currency and type: pin another connector account in merchant_connector_id.`,
    'merchant_connector_id',
  );
}

/** 400 `no_payout_connector`: nothing can send this payout. */
function noPayoutConnector(currency: Currency, payoutType: PayoutType): Error {
  return invalidRequest(
    'no_payout_connector',
    `None of your connector accounts sends ${currency} ${payoutType} payouts: connect a Paystack or Flutterwave account that does (POST /connector_accounts), or use another currency.`,
    'currency',
  );
}

function sendsPayouts(connector: RoutedConnector | undefined, currency: Currency, payoutType: PayoutType): connector is PayoutTarget {
  return Boolean(connector?.payouts?.supportsPayout(currency, payoutType));
}

function usable(account: StoredConnectorAccount): boolean {
  return !account.disabled && !beingDeleted(account) && Boolean(account.credentials_encrypted);
}

/**
 * Routes a new payout (see the module comment).
 * @param pinned an explicit `merchant_connector_id`
 * @returns the connector account that sends it
 * @throws ApiError 400 `resource_missing` (param `merchant_connector_id`) for a pinned account that does not exist or
 *   is disabled; 400 `payout_not_supported` for a pinned account whose connector cannot send it; 400
 *   `no_payout_connector` when nothing can
 */
export async function routePayout(merchantId: string, currency: Currency, payoutType: PayoutType, pinned?: string): Promise<PayoutTarget> {
  const config = await merchantConnectorConfig(merchantId);
  if (pinned) {
    const account = config.accounts.find((a) => a.merchant_connector_id === pinned);
    if (!account || !usable(account)) {
      throw invalidRequest('resource_missing', 'No such enabled connector account (check merchant_connector_id).', 'merchant_connector_id');
    }
    const connector = await accountConnector(account);
    if (!sendsPayouts(connector, currency, payoutType)) throw payoutNotSupported(account.connector_name);
    return connector;
  }
  if (config.accounts.length === 0) {
    for (const name of connectorsFor(currency, undefined)) {
      const platform = await configuredConnector(name);
      const routed = platform ? new RoutedConnector(platform, null) : undefined;
      if (sendsPayouts(routed, currency, payoutType)) return routed;
    }
    throw noPayoutConnector(currency, payoutType);
  }
  const byId = new Map(config.accounts.map((a) => [a.merchant_connector_id, a]));
  const fallback = config.profile?.default_fallback ?? config.accounts.map((a) => a.merchant_connector_id);
  const order = [...new Set([...(config.profile?.payout_priority ?? []), ...fallback])];
  for (const id of order) {
    const account = byId.get(id);
    if (!account || !usable(account)) continue;
    let connector: RoutedConnector | undefined;
    try {
      connector = await accountConnector(account);
    } catch (err) {
      logger.error('connector account credentials unreadable; account passed over', {
        merchant_connector_id: account.merchant_connector_id,
        error: (err as Error).name,
      });
      continue;
    }
    if (sendsPayouts(connector, currency, payoutType)) return connector;
  }
  throw noPayoutConnector(currency, payoutType);
}
