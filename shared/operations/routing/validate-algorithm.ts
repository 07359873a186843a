/**
 * Checks a routing algorithm (already valid by shared/schemas/routing-schemas.ts) against the
 * merchant's connector accounts, before it is stored. Pure: the caller reads the accounts.
 *
 * What is checked, and where Hyperswitch does the same (juspay/hyperswitch):
 * - every `merchant_connector_id` is one of the merchant's accounts
 *   (crates/router/src/core/routing/helpers.rs `validate_connectors_in_routing_config`);
 * - **disabled accounts are allowed**: Hyperswitch checks the ids against the merchant's accounts
 *   read with `find_merchant_connector_account_by_merchant_id_and_disabled_list(merchant_id, true, …)`,
 *   `true` meaning disabled ones included (crates/diesel_models/src/query/merchant_connector_account.rs
 *   `find_by_merchant_id(…, get_disabled)`). An algorithm can so name an account disabled for a
 *   while; the router passes it over while it is disabled. Deleted accounts are not among `accounts`;
 * - a statement whose comparisons (with those of the statements it is nested in) contradict each
 *   other can never hold: euclid's static analysis refuses the same
 *   (crates/euclid/src/dssa/analyzer.rs: conflicting assertions, negated assertions, exhaustive
 *   negations), here for currency, payment_method, card_network, billing_country, metadata keys
 *   and amount ranges;
 * - each account a rule sends payments to can take at least one payment the rule can send it
 *   (currency, payment method, amount, under its `payment_methods_enabled` and, when given, its
 *   connector's own capabilities), and each currency or payment method a rule names explicitly
 *   is taken by at least one account of its selection. Hyperswitch models what accounts take as a
 *   constraint graph built from their enabled payment methods (crates/kgraph_utils/src/mca.rs
 *   `make_mca_graph`), which euclid's analyzer can check a program against
 *   (crates/euclid/src/dssa/analyzer.rs `analyze(program, knowledge_graph)`) and its router uses to
 *   filter connectors per payment; here the check is made when the algorithm is created, on
 *   currency, payment method and amount.
 * The analysis over-approximates what a rule can send (`not_equal` on an amount is ignored, a list
 * of amounts is read as its range), so it never reports an account that could in fact be reached.
 *
 * Problems name the field as zod's errors do (shared/schemas/zod-errors.ts: dotted, indices as
 * segments, under `algorithm`), e.g. `algorithm.data.rules.2.connector_selection.data.0.merchant_connector_id`;
 * messages say what to fix and never repeat a value of the request.
 */
import type { ConnectorAccount, ConnectorName, EnabledPaymentMethod } from '../../domain/connector-account';
import { CURRENCIES, type Currency, MAX_AMOUNT, MIN_AMOUNT } from '../../domain/money';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment';
import {
  type ConnectorSelection,
  type IfStatement,
  METADATA_LHS_PREFIX,
  type RoutingAlgorithm,
  type RoutingComparison,
  routingLhsOf,
  selectionEntries,
} from '../../domain/routing-algorithm';

/** One problem of an algorithm: `param` the dotted path of the field, `message` what is wrong and what to do. */
export interface RoutingProblem {
  param: string;
  message: string;
}

/** What a connector itself can take (beside what an account of it enables): currencies and payment methods. */
export interface ConnectorCapabilities {
  currencies: readonly Currency[];
  payment_methods: readonly PaymentMethod[];
}

/** The capabilities of a connector by name (e.g. from the connector registry). */
export type CapabilitiesOf = (connectorName: ConnectorName) => ConnectorCapabilities;

/** A path into the request body: field names and array indices. */
export type RoutingPath = readonly (string | number)[];

/** The `param` of a path, as shared/schemas/zod-errors.ts writes a zod issue's: segments joined by dots. */
export function routingParam(path: RoutingPath): string {
  return path.join('.');
}

/** What a conjunction of comparisons allows of one enum-like fact: `positive` (null: any) minus `negated`. */
interface EnumConstraint {
  positive: Set<string> | null;
  negated: Set<string>;
}

/**
 * What the payments reaching a point of a rule can be: an amount range (minor units, inclusive)
 * and, per enum-like fact (`currency`, `payment_method`, `card_network`, `billing_country`,
 * `metadata.<key>`), the values allowed.
 */
interface Constraint {
  amount: readonly [number, number];
  enums: ReadonlyMap<string, EnumConstraint>;
}

/**
 * A path through a rule down to a statement without `nested` (at `path`; empty for the
 * unconstrained leaf of a default or top-level list), with the comparisons on the way and their paths.
 */
interface Leaf {
  constraint: Constraint;
  path: RoutingPath;
  comparisons: { comparison: RoutingComparison; path: RoutingPath }[];
}

const UNCONSTRAINED: Constraint = { amount: [MIN_AMOUNT, MAX_AMOUNT], enums: new Map() };

/** The enum-like fact a comparison constrains (`metadata.<key>` for either metadata form), or null for `amount`. */
function enumKeyOf(comparison: RoutingComparison): string | null {
  const lhs = routingLhsOf(comparison.lhs);
  if (lhs.field === 'amount') return null;
  if (comparison.value.type === 'metadata_variant') return METADATA_LHS_PREFIX + comparison.value.value.key;
  return lhs.field === 'metadata_key' ? METADATA_LHS_PREFIX + lhs.key : lhs.field;
}

/** The constraint after one more comparison (AND). */
function narrow(constraint: Constraint, comparison: RoutingComparison): Constraint {
  const { value } = comparison;
  const negative = comparison.comparison === 'not_equal' || comparison.comparison === 'not_in';
  const key = enumKeyOf(comparison);
  if (key === null) {
    let [lo, hi] = constraint.amount;
    const numbers = value.type === 'number' ? [value.value] : value.type === 'number_array' ? value.value : [];
    if (numbers.length === 0) return constraint;
    if (negative) {
      // Only a range of one amount can be excluded exactly; otherwise the range is kept (over-approximation).
      if (lo === hi && numbers.includes(lo)) return { ...constraint, amount: [1, 0] };
      return constraint;
    }
    const n = numbers[0]!;
    switch (comparison.comparison) {
      case 'less_than':
        hi = Math.min(hi, n - 1);
        break;
      case 'less_than_equal':
        hi = Math.min(hi, n);
        break;
      case 'greater_than':
        lo = Math.max(lo, n + 1);
        break;
      case 'greater_than_equal':
        lo = Math.max(lo, n);
        break;
      default:
        lo = Math.max(lo, Math.min(...numbers));
        hi = Math.min(hi, Math.max(...numbers));
    }
    return { ...constraint, amount: [lo, hi] };
  }
  const values =
    value.type === 'metadata_variant' ? [value.value.value] : Array.isArray(value.value) ? value.value.map(String) : [String(value.value)];
  const before = constraint.enums.get(key) ?? { positive: null, negated: new Set<string>() };
  const after: EnumConstraint = negative
    ? { positive: before.positive, negated: new Set([...before.negated, ...values]) }
    : {
        positive: new Set(before.positive ? values.filter((v) => before.positive?.has(v)) : values),
        negated: before.negated,
      };
  const enums = new Map(constraint.enums);
  enums.set(key, after);
  return { ...constraint, enums };
}

/** The values of a finite fact a constraint allows (`vocabulary` minus what is excluded). */
function allowed<T extends string>(constraint: Constraint, key: string, vocabulary: readonly T[]): Set<T> {
  const c = constraint.enums.get(key);
  if (!c) return new Set(vocabulary);
  return new Set(vocabulary.filter((v) => (c.positive === null || c.positive.has(v)) && !c.negated.has(v)));
}

/**
 * The fact on which a constraint can never be met, or null when it can: an empty amount range, a
 * fact required to be one of values all excluded, or every currency excluded (a payment always has
 * a currency; the other facts may be missing, which `not_equal` accepts).
 */
function contradiction(constraint: Constraint): string | null {
  if (constraint.amount[0] > constraint.amount[1]) return 'amount';
  for (const [key, c] of constraint.enums) {
    if (c.positive !== null && [...c.positive].every((v) => c.negated.has(v))) return key;
  }
  if (allowed(constraint, 'currency', CURRENCIES).size === 0) return 'currency';
  return null;
}

/** Walks statements, collecting the leaves that can hold and reporting the statements that cannot. */
function collectLeaves(
  statements: readonly IfStatement[],
  path: RoutingPath,
  parent: Constraint,
  parentComparisons: Leaf['comparisons'],
  leaves: Leaf[],
  problems: RoutingProblem[],
): void {
  statements.forEach((statement, index) => {
    const here = [...path, index];
    let constraint = parent;
    const comparisons = [...parentComparisons];
    statement.condition.forEach((comparison, i) => {
      constraint = narrow(constraint, comparison);
      comparisons.push({ comparison, path: [...here, 'condition', i] });
    });
    const conflict = contradiction(constraint);
    if (conflict !== null) {
      const on = conflict.startsWith(METADATA_LHS_PREFIX) ? 'a metadata key' : conflict;
      problems.push({
        param: routingParam([...here, 'condition']),
        message: `This statement can never hold: its comparisons, with those of the statements it is nested in, contradict each other on ${on}. Change or remove one of them.`,
      });
      return;
    }
    if (statement.nested) collectLeaves(statement.nested, [...here, 'nested'], constraint, comparisons, leaves, problems);
    else leaves.push({ constraint, path: here, comparisons });
  });
}

/** An account's enabled payment methods as its connector can take them: currencies limited to the connector's, methods it supports. */
function effectiveEntries(account: ConnectorAccount, capabilities: CapabilitiesOf | undefined): EnabledPaymentMethod[] {
  if (!capabilities) return account.payment_methods_enabled;
  const caps = capabilities(account.connector_name);
  return account.payment_methods_enabled
    .filter((e) => caps.payment_methods.includes(e.payment_method))
    .map((e) => ({ ...e, currencies: e.currencies.filter((c) => caps.currencies.includes(c)) }))
    .filter((e) => e.currencies.length > 0);
}

/** Which parts of a constraint one enabled entry meets: its currency, its method, its amount range. */
function meets(entry: EnabledPaymentMethod, constraint: Constraint) {
  const currencies = allowed(constraint, 'currency', CURRENCIES);
  const methods = allowed(constraint, 'payment_method', PAYMENT_METHODS);
  const [lo, hi] = constraint.amount;
  const currency = entry.currencies.some((c) => currencies.has(c));
  const method = methods.has(entry.payment_method);
  const amount = (entry.minimum_amount ?? MIN_AMOUNT) <= hi && (entry.maximum_amount ?? MAX_AMOUNT) >= lo;
  return { currency, method, amount, all: currency && method && amount };
}

/** Why an account takes none of the payments a rule (its leaves) can send it, or null when it takes some. */
function unservedBecause(entries: readonly EnabledPaymentMethod[], leaves: readonly Leaf[]): string | null {
  const checks = leaves.flatMap((leaf) => entries.map((e) => meets(e, leaf.constraint)));
  if (checks.some((c) => c.all)) return null;
  if (entries.length === 0) return 'it enables no payments (its payment_methods_enabled is empty, or its connector supports none of them)';
  if (!checks.some((c) => c.currency)) return 'none of the currencies it enables is one the conditions allow';
  if (!checks.some((c) => c.method)) return 'none of the payment methods it enables is one the conditions allow';
  if (checks.some((c) => c.currency && c.method))
    return 'its minimum and maximum amounts exclude every amount the conditions allow for the currencies and payment methods it enables';
  return 'none of its payment_methods_enabled entries combines a currency, payment method and amount the conditions allow';
}

/** What the checks of one algorithm share: the accounts by id, the capabilities, the problems found so far. */
interface CheckContext {
  byId: ReadonlyMap<string, ConnectorAccount>;
  capabilities: CapabilitiesOf | undefined;
  problems: RoutingProblem[];
}

/**
 * Checks one account an algorithm names at `path` (its `merchant_connector_id` field), for the
 * payments that reach it (`leaves`; one unconstrained leaf for a default or a top-level algorithm).
 * @param what who sends it payments, for the message (`this rule`, `the default selection`, …)
 * @returns the account when it is known and can take some of those payments, else null
 */
function checkAccount(
  id: string,
  path: RoutingPath,
  leaves: readonly Leaf[],
  what: string,
  context: CheckContext,
): ConnectorAccount | null {
  const param = routingParam(path);
  const account = context.byId.get(id);
  if (!account) {
    context.problems.push({
      param,
      message:
        'No connector account of yours has this merchant_connector_id (it may have been deleted). Use the id of one of your connector accounts.',
    });
    return null;
  }
  const why = unservedBecause(effectiveEntries(account, context.capabilities), leaves);
  if (!why) return account;
  context.problems.push({
    param,
    message: `This connector account cannot take any payment ${what} sends it: ${why}. Enable what it should take on the account (payment_methods_enabled), or route to another account.`,
  });
  return null;
}

/** {@link checkAccount} for each entry of a list at `path` (entries at `<path>.<index>.merchant_connector_id`). */
function checkList(
  entries: readonly { merchant_connector_id: string }[],
  path: RoutingPath,
  leaves: readonly Leaf[],
  what: string,
  context: CheckContext,
): ConnectorAccount[] {
  return entries.flatMap(
    (entry, index) => checkAccount(entry.merchant_connector_id, [...path, index, 'merchant_connector_id'], leaves, what, context) ?? [],
  );
}

/** Whether one of `accounts` can take some payment a constraint allows. */
function takenBy(accounts: readonly ConnectorAccount[], constraint: Constraint, capabilities: CapabilitiesOf | undefined): boolean {
  return accounts.some((a) => effectiveEntries(a, capabilities).some((e) => meets(e, constraint).all));
}

/**
 * For each path through a rule, checks that an account of its selection takes some of the payments
 * it matches (else names the statement that ends it); on the paths that are taken, checks that each
 * currency or payment method the rule names with `equal` / `in` is taken by an account too, under
 * the path's other conditions (else names the value).
 * @param accounts the accounts of the selection that take some payment of the rule
 */
function checkPaths(
  leaves: readonly Leaf[],
  accounts: readonly ConnectorAccount[],
  capabilities: CapabilitiesOf | undefined,
  problems: RoutingProblem[],
): void {
  const reported = new Set<string>();
  for (const leaf of leaves) {
    if (!takenBy(accounts, leaf.constraint, capabilities)) {
      problems.push({
        param: routingParam([...leaf.path, 'condition']),
        message:
          "No connector account of this rule's connector_selection can take the payments this statement (with the statements it is nested in) matches: no currency, payment method and amount they allow is enabled together on one of them. Enable it on an account of the selection, add an account that takes it, or change the conditions.",
      });
      continue;
    }
    for (const { comparison, path } of leaf.comparisons) {
      const field = routingLhsOf(comparison.lhs).field;
      if (field !== 'currency' && field !== 'payment_method') continue;
      if (comparison.comparison === 'not_equal' || comparison.comparison === 'not_in') continue;
      const vocabulary: readonly string[] = field === 'currency' ? CURRENCIES : PAYMENT_METHODS;
      const isArray = Array.isArray(comparison.value.value);
      const values = isArray ? (comparison.value.value as unknown[]).map(String) : [String(comparison.value.value)];
      values.forEach((value, i) => {
        const param = routingParam(isArray ? [...path, 'value', 'value', i] : [...path, 'value', 'value']);
        if (reported.has(param) || !allowed(leaf.constraint, field, vocabulary).has(value)) return;
        const only = narrow(leaf.constraint, { lhs: field, comparison: 'equal', value: { type: 'enum_variant', value } });
        if (takenBy(accounts, only, capabilities)) return;
        reported.add(param);
        problems.push({
          param,
          message: `No connector account of this rule's connector_selection takes this ${field === 'currency' ? 'currency' : 'payment method'} (with the other conditions of the statement): enable it on one of them (payment_methods_enabled), add an account that takes it, or remove it from the condition.`,
        });
      });
    }
  }
}

/** Where a selection's entries sit: its `data`, or a `success_rate` selection's `data.connectors`. */
function selectionEntriesPath(selection: ConnectorSelection, dataPath: RoutingPath): RoutingPath {
  return selection.type === 'success_rate' ? [...dataPath, 'connectors'] : dataPath;
}

/**
 * Checks a routing algorithm against the merchant's connector accounts (see the module comment):
 * every referenced `merchant_connector_id` is one of `accounts`; no statement contradicts itself;
 * each account a rule (or the default, or a top-level list) sends payments to can take some of
 * them; each currency and payment method a rule names is taken by an account of its selection.
 * Disabled accounts count as the merchant's (as in Hyperswitch); the router passes them over.
 * @param algorithm an algorithm that passed `routingAlgorithmSchema`
 * @param accounts the merchant's connector accounts, deleted ones left out
 * @param capabilities what each connector itself supports; when absent only `payment_methods_enabled` counts
 * @param base the path of the algorithm in the request (default `["algorithm"]`)
 * @returns the problems in the order of the algorithm, empty when it can be stored
 */
export function validateAlgorithm(
  algorithm: RoutingAlgorithm,
  accounts: readonly ConnectorAccount[],
  capabilities?: CapabilitiesOf,
  base: RoutingPath = ['algorithm'],
): RoutingProblem[] {
  const context: CheckContext = { byId: new Map(accounts.map((a) => [a.merchant_connector_id, a])), capabilities, problems: [] };
  const anyPayment: Leaf[] = [{ constraint: UNCONSTRAINED, path: [], comparisons: [] }];
  const data = [...base, 'data'];
  switch (algorithm.type) {
    case 'single':
      checkAccount(algorithm.data.merchant_connector_id, [...data, 'merchant_connector_id'], anyPayment, 'this algorithm', context);
      break;
    case 'priority':
    case 'volume_split':
      checkList(algorithm.data, data, anyPayment, 'this algorithm', context);
      break;
    case 'success_rate':
      checkList(algorithm.data.connectors, [...data, 'connectors'], anyPayment, 'this algorithm', context);
      break;
    case 'advanced': {
      algorithm.data.rules.forEach((rule, index) => {
        const rulePath = [...data, 'rules', index];
        const leaves: Leaf[] = [];
        collectLeaves(rule.statements, [...rulePath, 'statements'], UNCONSTRAINED, [], leaves, context.problems);
        if (leaves.length === 0) return; // the rule can never match: reported above
        const selection: ConnectorSelection = rule.connector_selection;
        const serving = checkList(
          selectionEntries(selection),
          selectionEntriesPath(selection, [...rulePath, 'connector_selection', 'data']),
          leaves,
          'this rule',
          context,
        );
        if (serving.length > 0) checkPaths(leaves, serving, capabilities, context.problems);
      });
      const fallback = algorithm.data.default_selection;
      checkList(
        selectionEntries(fallback),
        selectionEntriesPath(fallback, [...data, 'default_selection', 'data']),
        anyPayment,
        'the default selection',
        context,
      );
      break;
    }
  }
  return context.problems;
}
