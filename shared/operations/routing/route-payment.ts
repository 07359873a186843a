import { accountEnables, type RoutingFacts } from '../../domain/connector-account';
import { beingDeleted } from '../../domain/connector-account-deletion';
import { invalidRequest } from '../../domain/errors';
import type { RoutingAlgorithm } from '../../domain/routing-algorithm';
import { logger } from '../../observability/logger';
import { accountConnector } from '../../processor-call/account-connectors';
import { merchantConnectorConfig } from '../../processor-call/connector-config-cache';
import { healthKey, type RoutedConnector as Routed } from '../../processor-call/connector-target';
import type { StoredConnectorAccount } from '../../storage/connector-accounts-repository';
import { type RoutingDecision, routingDecision } from './evaluate-algorithm';
import { OutcomeSnapshot } from './outcome-window';
import { type CandidateRouting, type RoutedCandidates, routeCandidates, withoutOpenCircuits } from './route-candidates';
import { outcomeWindows } from './routing-outcomes';
import { successRateOrder } from './success-rate-order';

/** What routing a payment needs beyond its facts. */
export interface PaymentRoutingOptions {
  /** USSD: the payer's bank (CBN code); accounts whose connector does not serve it are passed over. */
  ussdBankCode?: string | undefined;
  /** An explicit `merchant_connector_id` from the request: that account only. */
  pinned?: string | undefined;
  /**
   * The target chosen earlier (at create) for this payment. Kept first on the stage's platform rules
   * (as before merchants had accounts); a merchant's own routing decides again at confirm with what is
   * known then (the method and card: rules on them could not apply at create), a `volume_split` choosing
   * the same account for the same payment. A create's explicit pin is passed as `pinned` instead.
   */
  preferred?: { name: string; merchantConnectorId: string | null } | undefined;
  /** Whether accounts with an open circuit are passed over (default true); false for a create without confirm. */
  respectCircuits?: boolean;
}

/**
 * Routes a payment (docs/api.md "Routing", precedence in this order):
 * 1. an explicit `merchant_connector_id` on create/confirm (that account only);
 * 2. the merchant's active routing algorithm (single, priority, volume_split, advanced, success_rate), its choice
 *    first and its other accounts as fallbacks; a `success_rate` algorithm or rule selection orders its eligible
 *    accounts by their authorization rate in the payment's segment (./success-rate-order.ts), from this
 *    container's outcome windows (./routing-outcomes.ts: read at most every 5 s, no read of its own while fresh);
 * 3. the merchant's default fallback list (its accounts in creation order when it set none);
 * 4. for a merchant with no connector accounts at all, the stage's platform rules (`ROUTING_RULES`),
 *    as before merchants could connect their own.
 * An ineligible account (disabled or being deleted, currency/method/amount not enabled, its connector
 * not serving the currency, method or USSD bank, the sandbox on a stage without it, its circuit open)
 * is passed over, never an error. Reads the merchant's configuration from the per-container cache
 * (shared/processor-call/connector-config-cache.ts): no DynamoDB round trip of its own while warm.
 * @returns the connector accounts to try, in order (at least one), with those skipped for open circuits, and why
 *   each is there (`routing`: the attempts' `routing_approach` and success-rate segment)
 * @throws ApiError 400 `resource_missing` (param `merchant_connector_id`) for a pinned account that does not exist;
 *   400 `no_connector_available` when no account (or no platform connector) can take the payment
 * @throws ConnectorUnavailableError (503) when every account that could take it has its circuit open
 */
export async function routePayment(
  merchantId: string,
  facts: RoutingFacts,
  options: PaymentRoutingOptions = {},
): Promise<RoutedCandidates> {
  const config = await merchantConnectorConfig(merchantId);
  const respect = options.respectCircuits ?? true;
  if (config.accounts.length === 0 && !options.pinned) {
    const preferred = options.preferred?.merchantConnectorId === null ? options.preferred.name : undefined;
    const platform = await routeCandidates(facts.currency, facts.payment_method, preferred, undefined, {
      ussdBankCode: options.ussdBankCode,
      respectCircuits: respect,
    });
    const routing = new Map(
      platform.map((c): [string, CandidateRouting] => [healthKey(c), { approach: 'default_fallback', segment: null }]),
    );
    return Object.assign(platform, { routing });
  }
  const byId = new Map(config.accounts.map((a) => [a.merchant_connector_id, a]));
  let order: string[];
  let decision: RoutingDecision | null = null;
  if (options.pinned) {
    if (!byId.has(options.pinned)) {
      throw invalidRequest('resource_missing', 'No such connector account (check merchant_connector_id).', 'merchant_connector_id');
    }
    order = [options.pinned];
  } else {
    decision = config.profile?.active_algorithm
      ? routingDecision(config.profile.active_algorithm.algorithm as RoutingAlgorithm, facts)
      : null;
    const fallback = config.profile?.default_fallback ?? config.accounts.map((a) => a.merchant_connector_id);
    order = [...new Set([...(decision?.candidates ?? []), ...fallback])];
  }
  const eligible: Routed[] = [];
  for (const id of order) {
    const account = byId.get(id);
    if (!account || !accountTakesPayments(account, facts)) continue;
    let connector: Routed | undefined;
    try {
      connector = await accountConnector(account);
    } catch (err) {
      // One account whose credentials cannot be read now (a KMS throttle or outage, a damaged item) is
      // passed over like any ineligible one: it must not fail the merchant's other accounts.
      logger.error('connector account credentials unreadable; account passed over', {
        merchant_connector_id: account.merchant_connector_id,
        error: (err as Error).name,
      });
      continue;
    }
    if (!connector) continue;
    if (facts.payment_method !== undefined) {
      const bank = options.ussdBankCode ? { ussdBankCode: options.ussdBankCode } : undefined;
      if (!connector.supports(facts.currency, facts.payment_method, bank)) continue;
    }
    eligible.push(connector);
  }
  const { ordered, routing } = await explain(merchantId, facts, eligible, decision, Boolean(options.pinned));
  const [first, ...rest] = ordered;
  if (!first) {
    throw invalidRequest(
      'no_connector_available',
      options.pinned
        ? 'The connector account in merchant_connector_id cannot take this payment (disabled, or its payment_methods_enabled do not cover this currency, method and amount).'
        : `None of your connector accounts can take ${facts.currency}${facts.payment_method ? ` ${facts.payment_method}` : ''} payments of this amount: enable one (PUT /connector_accounts/{id} payment_methods_enabled) or connect another.`,
      options.pinned ? 'merchant_connector_id' : facts.payment_method ? 'payment_method' : 'currency',
    );
  }
  return Object.assign(withoutOpenCircuits([first, ...rest], respect), { routing });
}

/**
 * The eligible accounts in their final order, and why each is there: a `success_rate` selection's accounts ordered
 * by success rate (its first with the decision's approach, the others as ranked: `success_rate_exploit`), the
 * decision's other candidates with its approach, the rest `default_fallback`; a pinned account `straight_through`.
 * Without outcome windows (a first read failing), a success-rate selection keeps its listed order (`priority`), its
 * outcomes still counted.
 */
async function explain(
  merchantId: string,
  facts: RoutingFacts,
  eligible: Routed[],
  decision: RoutingDecision | null,
  pinned: boolean,
): Promise<{ ordered: Routed[]; routing: Map<string, CandidateRouting> }> {
  const routing = new Map<string, CandidateRouting>();
  const idOf = (c: Routed) => c.merchantConnectorId ?? c.name;
  if (pinned || !decision) {
    for (const c of eligible) routing.set(healthKey(c), { approach: pinned ? 'straight_through' : 'default_fallback', segment: null });
    return { ordered: eligible, routing };
  }
  const chosen = new Set(decision.candidates);
  let ordered = eligible;
  const config = decision.success_rate;
  const selected = eligible.filter((c) => chosen.has(idOf(c)));
  if (config && selected.length > 0) {
    const now = Date.now();
    let snapshot: OutcomeSnapshot | null = null;
    try {
      snapshot = await outcomeWindows.snapshot(merchantId, now);
    } catch (err) {
      logger.warn('routing outcome windows unreadable; success-rate accounts kept in listed order', { error: (err as Error).name });
    }
    const ids = selected.map(idOf);
    const choice = successRateOrder(config, ids, facts, snapshot ?? new OutcomeSnapshot([]), now);
    const byId = new Map(selected.map((c) => [idOf(c), c]));
    const ranked = (snapshot ? choice.order : ids).map((id) => byId.get(id)!);
    for (const [i, c] of ranked.entries()) {
      const approach = !snapshot ? 'priority' : i === 0 ? choice.approach : 'success_rate_exploit';
      routing.set(healthKey(c), { approach, segment: choice.segment });
    }
    ordered = [...ranked, ...eligible.filter((c) => !chosen.has(idOf(c)))];
  }
  for (const c of ordered) {
    if (!routing.has(healthKey(c)))
      routing.set(healthKey(c), { approach: chosen.has(idOf(c)) ? decision.approach : 'default_fallback', segment: null });
  }
  return { ordered, routing };
}

/** Whether an account may take a new payment with these facts (not disabled or being deleted; method, currency and amount enabled). */
export function accountTakesPayments(
  account: StoredConnectorAccount,
  facts: Pick<RoutingFacts, 'currency' | 'payment_method' | 'amount'>,
): boolean {
  return (
    !account.disabled &&
    !beingDeleted(account) &&
    Boolean(account.credentials_encrypted) &&
    accountEnables(account, facts.currency, facts.payment_method, facts.amount)
  );
}
