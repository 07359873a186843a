/**
 * Routing algorithms per merchant: the vocabulary and shapes of a merchant's routing
 * algorithm, following Hyperswitch's routing API in snake_case JSON:
 * - `RoutingAlgorithm` (`{type, data}`: `single`, `priority`, `volume_split`, `advanced`) and
 *   `ConnectorVolumeSplit` of juspay/hyperswitch crates/api_models/src/routing.rs;
 * - the `advanced` program of its rule language, euclid (crates/euclid/src/frontend/ast.rs):
 *   `Program {default_selection, rules}`, `Rule {name, connector_selection, statements}`,
 *   `IfStatement {condition, nested}`, `Comparison {lhs, comparison, value}`, `ComparisonType`,
 *   `ValueType` (`{type, value}`), `ConnectorSelection` (`{type: priority | volume_split, data}`).
 *
 * Differences from Hyperswitch, on purpose:
 * - a connector choice is `{merchant_connector_id}` alone (Hyperswitch: `{connector, merchant_connector_id}`);
 *   the account names its connector. A volume split entry is flat: `{split, merchant_connector_id}`
 *   (Hyperswitch: `{split, connector: {connector, merchant_connector_id}}`);
 * - the comparisons `in` and `not_in` are added (Hyperswitch spells them `equal` / `not_equal`
 *   with an array value, which is accepted too); `number_comparison_array` is not supported;
 * - a rule's `lhs` is one of {@link ROUTING_LHS_FIELDS}, or `metadata.<key>` compared with a
 *   `str_value`; Hyperswitch's form `lhs: "metadata"` with a `metadata_variant` value is accepted too;
 * - no free-form `metadata` on comparisons or programs; sizes are bounded (below).
 *
 * Evaluation: shared/operations/routing/evaluate-algorithm.ts; checks against the merchant's
 * accounts: shared/operations/routing/validate-algorithm.ts; API schemas: shared/schemas/routing-schemas.ts.
 */
import type { CardBrand } from './card';

/** Routing algorithm kinds (Hyperswitch `RoutingAlgorithmKind` without `dynamic`). */
export const ROUTING_ALGORITHM_TYPES = ['single', 'priority', 'volume_split', 'advanced'] as const;

/** One of {@link ROUTING_ALGORITHM_TYPES}. */
export type RoutingAlgorithmType = (typeof ROUTING_ALGORITHM_TYPES)[number];

/** Kinds of an advanced rule's output (Hyperswitch `ConnectorSelection`): an ordered list or a weighted split. */
export const CONNECTOR_SELECTION_TYPES = ['priority', 'volume_split'] as const;

/**
 * Payment facts a condition can test (its `lhs`), besides `metadata.<key>`: `amount` (minor units),
 * `currency`, `payment_method`, `card_network`, `billing_country`, and `metadata` (Hyperswitch's
 * form, with a `metadata_variant` value). Names as euclid's `DirKeyKind` serializes them.
 */
export const ROUTING_LHS_FIELDS = ['amount', 'currency', 'payment_method', 'card_network', 'billing_country', 'metadata'] as const;

/** One of {@link ROUTING_LHS_FIELDS}. */
export type RoutingLhsField = (typeof ROUTING_LHS_FIELDS)[number];

/** Prefix of an `lhs` naming one metadata key: `metadata.<key>` (key of 1–40 characters, as payment metadata keys). */
export const METADATA_LHS_PREFIX = 'metadata.';

/**
 * Comparison operators: Hyperswitch's `ComparisonType` (`equal`, `not_equal`, `less_than`,
 * `less_than_equal`, `greater_than`, `greater_than_equal`) plus `in` and `not_in` (an array value).
 */
export const COMPARISON_TYPES = [
  'equal',
  'not_equal',
  'less_than',
  'less_than_equal',
  'greater_than',
  'greater_than_equal',
  'in',
  'not_in',
] as const;

/** One of {@link COMPARISON_TYPES}. */
export type ComparisonType = (typeof COMPARISON_TYPES)[number];

/** The ordering comparisons: only for `amount` with a `number` value (euclid refuses them on enums and arrays). */
export const ORDERING_COMPARISONS: readonly ComparisonType[] = ['less_than', 'less_than_equal', 'greater_than', 'greater_than_equal'];

/**
 * Kinds of a condition's `value` (Hyperswitch `ValueType`, serialized `{type, value}`):
 * `number` (an amount in minor units), `enum_variant` (a currency, method, network or country),
 * `metadata_variant` (`{key, value}`), `str_value` (a metadata value), and their arrays.
 */
export const ROUTING_VALUE_TYPES = [
  'number',
  'enum_variant',
  'metadata_variant',
  'str_value',
  'number_array',
  'enum_variant_array',
  'str_value_array',
] as const;

/** One of {@link ROUTING_VALUE_TYPES}. */
export type RoutingValueType = (typeof ROUTING_VALUE_TYPES)[number];

/**
 * Card networks a `card_network` condition can name: the brands of a card summary
 * (shared/domain/card.ts `CardBrand`) but `unknown`.
 */
export const CARD_NETWORKS = [
  'visa',
  'mastercard',
  'amex',
  'diners',
  'discover',
  'jcb',
  'unionpay',
  'maestro',
  'verve',
  'elo',
  'mir',
  'hiper',
  'hipercard',
  'troy',
  'naranja',
] as const satisfies readonly Exclude<CardBrand, 'unknown'>[];

/** One of {@link CARD_NETWORKS}. */
export type CardNetwork = (typeof CARD_NETWORKS)[number];

/** Compile-time check that {@link CARD_NETWORKS} lists every known brand (this fails to type-check otherwise). */
const everyBrandListed: Record<Exclude<CardBrand, 'unknown' | CardNetwork>, never> = {};
void everyBrandListed;

/** Most connector accounts in a `priority` list or a `volume_split`: 10. */
export const MAX_SELECTION_ENTRIES = 10;
/** Most rules in an `advanced` program: 50. */
export const MAX_RULES = 50;
/** Most statements in one list (a rule's `statements`, a statement's `nested`): 20. */
export const MAX_STATEMENTS = 20;
/** Most comparisons in one statement's `condition` (AND-ed): 20. */
export const MAX_CONDITIONS = 20;
/** How many levels of `nested` may hang below a rule's statements: 3. */
export const MAX_NESTING_DEPTH = 3;
/** Most comparisons in a whole `advanced` program, nested ones included: 500 (bounds evaluation per payment). */
export const MAX_TOTAL_CONDITIONS = 500;
/** Most entries of an array value (`number_array`, `enum_variant_array`, `str_value_array`): 50. */
export const MAX_ARRAY_VALUES = 50;
/** Longest algorithm `name` and rule `name`: 64 characters. */
export const MAX_NAME_LENGTH = 64;
/** Longest algorithm `description`: 1000 characters. */
export const MAX_DESCRIPTION_LENGTH = 1000;
/** Longest metadata key in a condition: 40 characters (as payment metadata keys). */
export const MAX_METADATA_KEY_LENGTH = 40;
/** Longest string value compared (a metadata value): 500 characters (as payment metadata values). */
export const MAX_STRING_VALUE_LENGTH = 500;
/** Longest `merchant_connector_id` accepted in an algorithm: `mca_` and at most 64 letters or digits. */
export const MAX_CONNECTOR_ID_LENGTH = 68;

/** A connector account chosen by routing (Hyperswitch `RoutableConnectorChoice`, by account id only). */
export interface RoutableConnectorChoice {
  merchant_connector_id: string;
}

/**
 * One entry of a weighted split (Hyperswitch `ConnectorVolumeSplit`, flattened): `split` is the
 * percentage of payments (an integer 1–100; a split's entries add up to 100) sent first to the account.
 */
export interface ConnectorVolumeSplit {
  split: number;
  merchant_connector_id: string;
}

/** The output of an advanced rule or its default (Hyperswitch `ConnectorSelection`). */
export type ConnectorSelection =
  | { type: 'priority'; data: RoutableConnectorChoice[] }
  | { type: 'volume_split'; data: ConnectorVolumeSplit[] };

/** A `metadata_variant` value: the payment's metadata has `key` with exactly `value`. */
export interface MetadataValue {
  key: string;
  value: string;
}

/**
 * A condition's right-hand side (Hyperswitch `ValueType`, `{type, value}`). Numbers are amounts in
 * minor units (integers); enum variants are the API's own spellings (`NGN`, `mobile_money`, `visa`, `KE`).
 */
export type RoutingValue =
  | { type: 'number'; value: number }
  | { type: 'enum_variant'; value: string }
  | { type: 'metadata_variant'; value: MetadataValue }
  | { type: 'str_value'; value: string }
  | { type: 'number_array'; value: number[] }
  | { type: 'enum_variant_array'; value: string[] }
  | { type: 'str_value_array'; value: string[] };

/** One comparison (Hyperswitch `Comparison`): `lhs` (a payment fact), the operator, the value. */
export interface RoutingComparison {
  lhs: string;
  comparison: ComparisonType;
  value: RoutingValue;
}

/**
 * An IF statement (Hyperswitch `IfStatement`): its `condition` comparisons are AND-ed; when
 * `nested` is given, at least one nested statement must hold too (nested statements are OR-ed
 * among themselves and AND-ed with their parent's condition).
 */
export interface IfStatement {
  condition: RoutingComparison[];
  nested?: IfStatement[] | undefined;
}

/** A rule (Hyperswitch `Rule<ConnectorSelection>`): it matches when any of its `statements` holds. */
export interface RoutingRule {
  name: string;
  connector_selection: ConnectorSelection;
  statements: IfStatement[];
}

/**
 * An advanced program (Hyperswitch `Program<ConnectorSelection>`): rules in order, the first that
 * matches gives the connectors; none matching, `default_selection` does.
 */
export interface RoutingProgram {
  default_selection: ConnectorSelection;
  rules: RoutingRule[];
}

/** A routing algorithm (Hyperswitch `RoutingAlgorithm`, serialized `{type, data}`). */
export type RoutingAlgorithm =
  | { type: 'single'; data: RoutableConnectorChoice }
  | { type: 'priority'; data: RoutableConnectorChoice[] }
  | { type: 'volume_split'; data: ConnectorVolumeSplit[] }
  | { type: 'advanced'; data: RoutingProgram };

/**
 * What a condition's `lhs` names: one of {@link ROUTING_LHS_FIELDS}, or one metadata key
 * (`metadata.<key>` → `{field: 'metadata_key', key}`). An `lhs` of neither form (only possible
 * before validation) reads as the metadata key `''`, which no payment has.
 */
export function routingLhsOf(lhs: string): { field: RoutingLhsField } | { field: 'metadata_key'; key: string } {
  if ((ROUTING_LHS_FIELDS as readonly string[]).includes(lhs)) return { field: lhs as RoutingLhsField };
  return { field: 'metadata_key', key: lhs.startsWith(METADATA_LHS_PREFIX) ? lhs.slice(METADATA_LHS_PREFIX.length) : '' };
}

/**
 * The account ids an algorithm refers to, each once, in order of first appearance (rules first,
 * then an advanced program's default). Used to check them against the merchant's accounts.
 */
export function referencedConnectorIds(algorithm: RoutingAlgorithm): string[] {
  const ids = new Set<string>();
  const addSelection = (selection: ConnectorSelection) => {
    for (const entry of selection.data) ids.add(entry.merchant_connector_id);
  };
  switch (algorithm.type) {
    case 'single':
      ids.add(algorithm.data.merchant_connector_id);
      break;
    case 'priority':
    case 'volume_split':
      for (const entry of algorithm.data) ids.add(entry.merchant_connector_id);
      break;
    case 'advanced':
      for (const rule of algorithm.data.rules) addSelection(rule.connector_selection);
      addSelection(algorithm.data.default_selection);
      break;
  }
  return [...ids];
}
