/**
 * Evaluates a merchant's routing algorithm for one payment: which connector accounts to try, in
 * order. Pure: no I/O, no clock, no randomness (a volume split draws from a hash of the payment id).
 *
 * Semantics are Hyperswitch's (juspay/hyperswitch):
 * - an advanced program is run as euclid's VIR interpreter runs it
 *   (crates/euclid/src/backend/vir_interpreter.rs, the backend its router builds for `advanced`
 *   algorithms): rules in order, the first whose statements hold wins, else `default_selection`;
 *   a rule holds when any of its statements holds; a statement when all comparisons of its
 *   `condition` hold and, when it has `nested` statements, one of them holds too;
 * - a fact the payment does not have (no payment method yet, no card network, no billing country,
 *   no such metadata key) makes `equal` / `in` / ordering comparisons false and `not_equal` /
 *   `not_in` true: the VIR interpreter checks `equal` as "one of the values is present" and
 *   `not_equal` as "none of them is" (crates/euclid/src/backend/vir_interpreter/types.rs `check_presence`);
 * - a `success_rate` algorithm or selection gives its accounts as listed, with its fields: the router orders
 *   them by success rate in the payment's segment (./success-rate-order.ts), as Hyperswitch's dynamic routing
 *   re-orders the connectors its static routing chose (crates/router/src/core/payments/routing.rs
 *   `perform_success_based_routing`);
 * - a volume split puts the drawn account first and the others after it
 *   (crates/router/src/core/payments/routing.rs `perform_volume_split`, seeded by an id so a
 *   retry draws the same). Here the others follow by descending split (declaration order among
 *   equal splits), and the draw is seeded by the payment id.
 *
 * Which of the candidates may take the payment now (disabled accounts, what an account enables,
 * open circuits) is decided by the router; {@link candidateOrder} does the account part.
 */
import { createHash } from 'node:crypto';
import { accountEnables, type ConnectorAccount, type RoutingFacts } from '../../domain/connector-account';
import {
  type ConnectorSelection,
  type ConnectorVolumeSplit,
  type IfStatement,
  ORDERING_COMPARISONS,
  type ResolvedSuccessRateConfig,
  type RoutingAlgorithm,
  type RoutingApproach,
  type RoutingComparison,
  type RoutingProgram,
  type RoutingRule,
  resolveSuccessRateConfig,
  routingLhsOf,
} from '../../domain/routing-algorithm';

/**
 * The bucket a payment falls in for a volume split: the first 4 bytes of SHA-256 of `paymentId`
 * (UTF-8) as an unsigned 32-bit big-endian integer, modulo `total`. SHA-256 spreads similar ids
 * (`pay_…1`, `pay_…2`) uniformly; the modulo bias of 2^32 mod 100 is below 10^-7 per bucket.
 * @param total the sum of the splits (100 for a valid split); a positive integer
 * @returns an integer in [0, total)
 * @throws RangeError when `total` is not a positive integer
 */
export function volumeSplitBucket(paymentId: string, total = 100): number {
  if (!Number.isInteger(total) || total <= 0) throw new RangeError('total must be a positive integer');
  return createHash('sha256').update(paymentId, 'utf8').digest().readUInt32BE(0) % total;
}

/**
 * The accounts of a volume split in the order to try them for one payment: the one whose
 * cumulative range (in declaration order) holds the payment's {@link volumeSplitBucket} first,
 * then the others by descending split (declaration order among equal splits). The same
 * `paymentId` always gives the same order, so a retried confirm goes to the same account.
 * An account listed twice (refused by the schema) appears once, at its first place.
 * @param splits entries with integer `split` percentages (1–100, adding up to 100 when valid)
 * @returns merchant_connector_ids, empty when `splits` is empty or its splits add up to 0
 */
export function orderVolumeSplit(splits: readonly ConnectorVolumeSplit[], paymentId: string): string[] {
  const total = splits.reduce((sum, s) => sum + Math.max(0, s.split), 0);
  if (total <= 0) return [];
  const bucket = volumeSplitBucket(paymentId, total);
  let cumulative = 0;
  const drawn = splits.find((s) => {
    cumulative += Math.max(0, s.split);
    return bucket < cumulative;
  });
  const rest = splits
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => s !== drawn)
    .sort((a, b) => b.s.split - a.s.split || a.index - b.index)
    .map(({ s }) => s);
  return unique([...(drawn ? [drawn] : []), ...rest].map((s) => s.merchant_connector_id));
}

/**
 * The accounts of a connector selection in order: a `priority` list as written, a `volume_split`
 * by {@link orderVolumeSplit} for this payment, a `success_rate` selection's `connectors` as written (the
 * router orders them by success rate: ./route-payment.ts).
 */
export function selectionCandidates(selection: ConnectorSelection, paymentId: string): string[] {
  switch (selection.type) {
    case 'priority':
      return unique(selection.data.map((c) => c.merchant_connector_id));
    case 'volume_split':
      return orderVolumeSplit(selection.data, paymentId);
    case 'success_rate':
      return unique(selection.data.connectors.map((c) => c.merchant_connector_id));
  }
}

/** The fact a comparison's `lhs` names, or undefined when the payment does not have it. */
function factOf(lhs: string, facts: RoutingFacts): string | number | undefined {
  const named = routingLhsOf(lhs);
  switch (named.field) {
    case 'amount':
      return facts.amount;
    case 'currency':
      return facts.currency;
    case 'payment_method':
      return facts.payment_method ?? undefined;
    case 'card_network':
      return facts.card_network ?? undefined;
    case 'billing_country':
      return facts.billing_country ?? undefined;
    case 'metadata':
      return undefined; // compared by key and value in comparisonHolds
    case 'metadata_key':
      return metadataValue(facts, named.key);
  }
}

/** A metadata value of the payment, own keys only (a key such as `constructor` is not inherited). */
function metadataValue(facts: RoutingFacts, key: string): string | undefined {
  const metadata = facts.metadata;
  return metadata && Object.hasOwn(metadata, key) ? metadata[key] : undefined;
}

/**
 * Whether one comparison holds for a payment (see the module comment for absent facts).
 * `equal` / `in` with an array: the fact is one of the values; `not_equal` / `not_in`: it is none
 * of them. Ordering comparisons compare the amount (minor units) with a `number`; with any other
 * value they do not hold. `lhs: "metadata"` with a `metadata_variant` `{key, value}` holds for
 * `equal` when the payment's metadata has `key` with exactly `value`.
 */
export function comparisonHolds(comparison: RoutingComparison, facts: RoutingFacts): boolean {
  const { value } = comparison;
  const negative = comparison.comparison === 'not_equal' || comparison.comparison === 'not_in';
  if (value.type === 'metadata_variant') {
    const present = metadataValue(facts, value.value.key) === value.value.value;
    return negative ? !present : comparison.comparison === 'equal' && present;
  }
  const fact = routingLhsOf(comparison.lhs).field === 'metadata' ? undefined : factOf(comparison.lhs, facts);
  if (fact === undefined) return negative;
  const values: readonly (string | number)[] = Array.isArray(value.value) ? value.value : [value.value];
  if (negative) return values.every((v) => v !== fact);
  if (ORDERING_COMPARISONS.includes(comparison.comparison)) {
    if (value.type !== 'number' || typeof fact !== 'number') return false;
    switch (comparison.comparison) {
      case 'less_than':
        return fact < value.value;
      case 'less_than_equal':
        return fact <= value.value;
      case 'greater_than':
        return fact > value.value;
      default:
        return fact >= value.value;
    }
  }
  return values.some((v) => v === fact);
}

/**
 * Whether a statement holds: every comparison of its `condition` holds (AND) and, when `nested` is
 * given, at least one nested statement holds (OR among them). As in euclid, a `nested: []` never holds.
 */
export function statementHolds(statement: IfStatement, facts: RoutingFacts): boolean {
  if (!statement.condition.every((c) => comparisonHolds(c, facts))) return false;
  return statement.nested === undefined || statement.nested.some((s) => statementHolds(s, facts));
}

/** The first rule of a program one of whose statements holds for the payment, or undefined when none does. */
export function matchingRule(program: RoutingProgram, facts: RoutingFacts): RoutingRule | undefined {
  return program.rules.find((rule) => rule.statements.some((s) => statementHolds(s, facts)));
}

/**
 * The outcome of an algorithm for one payment:
 * - `candidates`: merchant_connector_ids in the order to try them (first = preferred), each once;
 * - `rule_name`: the advanced rule that matched, or null (no rule matched: the default selection
 *   decided; or the algorithm is not `advanced`) — as Hyperswitch's `BackendOutput.rule_name`.
 */
export interface RoutingDecision {
  candidates: string[];
  rule_name: string | null;
  /** Why the candidates are in this order (the attempts' `routing_approach`), unless `success_rate` orders them. */
  approach: Extract<RoutingApproach, 'single' | 'priority' | 'volume_split' | 'rule'>;
  /**
   * When the deciding selection is `success_rate` (the algorithm, or the matched rule's selection): its
   * fields with defaults filled in, `candidates` being its accounts as listed, for the router to order by
   * success rate in the payment's segment. Else null.
   */
  success_rate: ResolvedSuccessRateConfig | null;
}

/** {@link evaluateAlgorithm} with the name of the rule that decided, the approach, and a success-rate selection's fields. */
export function routingDecision(algorithm: RoutingAlgorithm, facts: RoutingFacts): RoutingDecision {
  switch (algorithm.type) {
    case 'single':
      return { candidates: [algorithm.data.merchant_connector_id], rule_name: null, approach: 'single', success_rate: null };
    case 'priority':
      return {
        candidates: unique(algorithm.data.map((c) => c.merchant_connector_id)),
        rule_name: null,
        approach: 'priority',
        success_rate: null,
      };
    case 'volume_split':
      return {
        candidates: orderVolumeSplit(algorithm.data, facts.payment_id),
        rule_name: null,
        approach: 'volume_split',
        success_rate: null,
      };
    case 'success_rate':
      return {
        candidates: selectionCandidates(algorithm, facts.payment_id),
        rule_name: null,
        approach: 'priority',
        success_rate: resolveSuccessRateConfig(algorithm.data),
      };
    case 'advanced': {
      const rule = matchingRule(algorithm.data, facts);
      const selection = rule ? rule.connector_selection : algorithm.data.default_selection;
      return {
        candidates: selectionCandidates(selection, facts.payment_id),
        rule_name: rule ? rule.name : null,
        approach: 'rule',
        success_rate: selection.type === 'success_rate' ? resolveSuccessRateConfig(selection.data) : null,
      };
    }
  }
}

/**
 * The connector accounts a routing algorithm sends a payment to, in the order to try them: the
 * first is preferred, the others are fallbacks in order. `single`: its account; `priority`: the
 * list; `volume_split`: the account drawn for `facts.payment_id` ({@link orderVolumeSplit}),
 * then the others by descending split; `advanced`: the selection of the first rule that holds
 * (else `default_selection`), ordered the same way. Deterministic and pure.
 * @param facts the payment (`amount` in minor units)
 * @returns merchant_connector_ids, each once; they are not checked against the merchant's accounts
 */
export function evaluateAlgorithm(algorithm: RoutingAlgorithm, facts: RoutingFacts): string[] {
  return routingDecision(algorithm, facts).candidates;
}

/** Why {@link candidateOrder} passed over a candidate: no such account (deleted), disabled, or it does not enable the payment. */
export type PassOverReason = 'unknown_account' | 'disabled' | 'not_enabled';

/** The result of {@link candidateOrder}: the accounts to try, in order, and those passed over, in order, with why. */
export interface CandidateOrder {
  accounts: ConnectorAccount[];
  passed_over: { merchant_connector_id: string; reason: PassOverReason }[];
}

/**
 * The candidates of {@link evaluateAlgorithm} that may take the payment, as accounts, in the same
 * order: those among `accounts` (the merchant's, not deleted) that are neither disabled nor
 * `inactive`, and whose `payment_methods_enabled` cover the payment's currency, method and amount
 * (`accountEnables`; with no method yet, any method of the currency counts). Whether the
 * connector itself supports the payment, and its circuit, are the router's to check.
 * @param candidates merchant_connector_ids in routing order
 */
export function candidateOrder(
  candidates: readonly string[],
  accounts: readonly ConnectorAccount[],
  facts: Pick<RoutingFacts, 'amount' | 'currency' | 'payment_method'>,
): CandidateOrder {
  const byId = new Map(accounts.map((a) => [a.merchant_connector_id, a]));
  const out: CandidateOrder = { accounts: [], passed_over: [] };
  for (const id of unique(candidates)) {
    const account = byId.get(id);
    const reason: PassOverReason | null = !account
      ? 'unknown_account'
      : account.disabled || account.status !== 'active'
        ? 'disabled'
        : accountEnables(account, facts.currency, facts.payment_method, facts.amount)
          ? null
          : 'not_enabled';
    if (reason === null && account) out.accounts.push(account);
    else out.passed_over.push({ merchant_connector_id: id, reason: reason ?? 'unknown_account' });
  }
  return out;
}

/** The values in order, each at its first place only. */
function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
