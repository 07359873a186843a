/**
 * Routing algorithms: the request schema of `POST /routing` and the resource the API
 * answers, one definition of the algorithm's shape for both (shared/domain/routing-algorithm.ts
 * holds the vocabulary and the types; Hyperswitch's routing API is the model, see there).
 *
 * Every object is strict. A failure names its field by its path (shared/schemas/zod-errors.ts joins it
 * with dots: `algorithm.data.rules.2.statements.0.condition.1.value`), so the API error names the
 * rule and the field; messages say what is accepted and never repeat the value sent.
 * What can only be checked against the merchant's accounts (that an id exists, that the account
 * can take what a rule sends it) is shared/operations/routing/validate-algorithm.ts's.
 *
 * The schemas carry `.describe()` / `.meta({id})` for the OpenAPI document (scripts/openapi.ts):
 * with no transform or default, request (input) and response (output) conversions give the same
 * JSON Schema, so the components `RoutingAlgorithmDefinition`, `ConnectorSelection`,
 * `RoutableConnectorChoice`, `ConnectorVolumeSplit`, `RoutingRule`, `RoutingComparison` and
 * `RoutingValue` are shared by both. Statements are written out level by level (at most
 * {@link MAX_NESTING_DEPTH} levels of `nested`) rather than as a recursive schema, so neither a
 * parse nor the document recurses without bound.
 */
import * as z from 'zod';
import { containsCardNumber } from '../domain/card';
import { CURRENCIES, MAX_AMOUNT } from '../domain/money';
import { PAYMENT_METHODS } from '../domain/payment';
import {
  CARD_NETWORKS,
  COMPARISON_TYPES,
  CONNECTOR_SELECTION_TYPES,
  type ComparisonType,
  type ConnectorSelection,
  type IfStatement,
  MAX_ARRAY_VALUES,
  MAX_CONDITIONS,
  MAX_CONNECTOR_ID_LENGTH,
  MAX_DESCRIPTION_LENGTH,
  MAX_METADATA_KEY_LENGTH,
  MAX_NAME_LENGTH,
  MAX_NESTING_DEPTH,
  MAX_RULES,
  MAX_SELECTION_ENTRIES,
  MAX_STATEMENTS,
  MAX_STRING_VALUE_LENGTH,
  MAX_TOTAL_CONDITIONS,
  METADATA_LHS_PREFIX,
  ORDERING_COMPARISONS,
  ROUTING_ALGORITHM_TYPES,
  ROUTING_LHS_FIELDS,
  ROUTING_VALUE_TYPES,
  type RoutingAlgorithm,
  type RoutingProgram,
  type RoutingValueType,
  routingLhsOf,
} from '../domain/routing-algorithm';
import { countrySchema } from './country-schema';
import { referenceIdSchema } from './scalar-schemas';
import { text } from './text-schemas';

/** Shape of a connector account id in an algorithm: `mca_` then 1–64 letters or digits (shared/domain/ids.ts). */
const CONNECTOR_ID_SHAPE = /^mca_[A-Za-z0-9]{1,64}$/;

/** A `merchant_connector_id` as written in an algorithm; whether it is one of the merchant's is checked later. */
const connectorIdSchema = referenceIdSchema(MAX_CONNECTOR_ID_LENGTH)
  .regex(CONNECTOR_ID_SHAPE, { error: 'must be the merchant_connector_id (mca_…) of one of your connector accounts' })
  .describe('A connector account of yours (`mca_…`).');

/** A name: 1–64 characters, no card number. */
const nameSchema = text(MAX_NAME_LENGTH).min(1, { error: 'must not be empty' });

/**
 * Component `RoutableConnectorChoice`: `{merchant_connector_id}` (Hyperswitch's
 * `RoutableConnectorChoice`, by account id only).
 */
export const routableConnectorChoiceSchema = z
  .strictObject({ merchant_connector_id: connectorIdSchema })
  .meta({ id: 'RoutableConnectorChoice', description: 'One of your connector accounts, by its id.' });

/**
 * Adds an issue at `<index>.merchant_connector_id` for each entry naming an account already listed
 * before it in the same list.
 */
function refuseDuplicates(entries: readonly { merchant_connector_id: string }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    if (seen.has(entry.merchant_connector_id)) {
      ctx.addIssue({
        code: 'custom',
        path: [index, 'merchant_connector_id'],
        message: 'is listed twice: each connector account may appear once in a list',
      });
    }
    seen.add(entry.merchant_connector_id);
  });
}

/** `priority` data: 1–10 connector accounts, most preferred first, each once. */
export const priorityListSchema = z
  .array(routableConnectorChoiceSchema)
  .min(1, { error: 'must list at least one connector account' })
  .max(MAX_SELECTION_ENTRIES, { error: `must list at most ${MAX_SELECTION_ENTRIES} connector accounts` })
  .superRefine(refuseDuplicates)
  .describe(`Connector accounts in order of preference (1 to ${MAX_SELECTION_ENTRIES}, each once): the first is tried first.`);

/** Component `ConnectorVolumeSplit`: `{split, merchant_connector_id}`, `split` an integer percentage 1–100. */
export const connectorVolumeSplitSchema = z
  .strictObject({
    split: z
      .int({ error: 'must be an integer percentage from 1 to 100' })
      .min(1, { error: 'must be at least 1 (percent)' })
      .max(100, { error: 'must be at most 100 (percent)' })
      .describe('Percentage of payments sent first to this account: an integer from 1 to 100.'),
    merchant_connector_id: connectorIdSchema,
  })
  .meta({ id: 'ConnectorVolumeSplit', description: 'One share of a volume split.' });

/** `volume_split` data: 1–10 entries, each account once, splits adding up to 100. */
export const volumeSplitListSchema = z
  .array(connectorVolumeSplitSchema)
  .min(1, { error: 'must list at least one connector account' })
  .max(MAX_SELECTION_ENTRIES, { error: `must list at most ${MAX_SELECTION_ENTRIES} connector accounts` })
  .superRefine((entries, ctx) => {
    refuseDuplicates(entries, ctx);
    if (entries.reduce((sum, e) => sum + e.split, 0) !== 100) {
      ctx.addIssue({ code: 'custom', message: 'splits must add up to exactly 100 (percent)' });
    }
  })
  .describe(
    `Shares of payments (1 to ${MAX_SELECTION_ENTRIES} accounts, each once, splits adding up to 100). Each payment goes first to one account, drawn by its payment_id (a retry draws the same), then to the others by descending split.`,
  );

/** Component `ConnectorSelection`: what an advanced rule (or its default) routes to: `priority` or `volume_split`. */
export const connectorSelectionSchema = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('priority'), data: priorityListSchema }),
      z.strictObject({ type: z.literal('volume_split'), data: volumeSplitListSchema }),
    ],
    { error: `must be one of ${CONNECTOR_SELECTION_TYPES.join(', ')}` },
  )
  .meta({
    id: 'ConnectorSelection',
    description: 'Where matching payments go: `{type: "priority", data: [...]}` or `{type: "volume_split", data: [...]}`.',
  });

/** The `enum_variant` vocabulary of each enum `lhs` but `billing_country` (checked by `countrySchema`). */
const ENUM_VOCABULARY: Readonly<Record<'currency' | 'payment_method' | 'card_network', readonly string[]>> = {
  currency: CURRENCIES,
  payment_method: PAYMENT_METHODS,
  card_network: CARD_NETWORKS,
};

/** An amount in a condition: an integer 0–99,999,999,999 in minor units. */
const amountValueSchema = z
  .int({ error: 'must be an integer amount in minor units (for example 10000 for 100.00)' })
  .min(0, { error: 'must not be negative (minor units)' })
  .max(MAX_AMOUNT, { error: `must be at most ${MAX_AMOUNT} (minor units)` });

/** An enum variant as written (checked against its `lhs` by the comparison). */
const enumVariantSchema = z
  .string()
  .min(1, { error: 'must not be empty' })
  .max(64, { error: 'must be at most 64 characters' })
  .regex(/^[A-Za-z_]+$/, { error: 'must be a currency, payment method, card network or country code (letters and _ only)' });

/** A metadata key in a condition: 1–40 characters, no card number (as payment metadata keys). */
const metadataKeySchema = text(MAX_METADATA_KEY_LENGTH).min(1, { error: 'must not be empty' });

/** A metadata value compared: at most 500 characters, no card number (as payment metadata values). */
const strValueSchema = text(MAX_STRING_VALUE_LENGTH);

/** An array value: 1–50 entries. */
const arrayOf = <T extends z.ZodType>(item: T, what: string) =>
  z
    .array(item)
    .min(1, { error: 'must hold at least one value' })
    .max(MAX_ARRAY_VALUES, { error: `must hold at most ${MAX_ARRAY_VALUES} values` })
    .describe(`${what} (1 to ${MAX_ARRAY_VALUES}).`);

/** Component `RoutingValue`: a condition's right-hand side, `{type, value}` (Hyperswitch `ValueType`). */
export const routingValueSchema = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('number'), value: amountValueSchema.describe('An amount in minor units.') }),
      z.strictObject({
        type: z.literal('enum_variant'),
        value: enumVariantSchema.describe('A currency (`NGN`), payment method (`mobile_money`), card network (`visa`) or country (`KE`).'),
      }),
      z.strictObject({
        type: z.literal('metadata_variant'),
        value: z
          .strictObject({ key: metadataKeySchema, value: strValueSchema })
          .describe('The payment metadata holds `key` with exactly this `value`.'),
      }),
      z.strictObject({ type: z.literal('str_value'), value: strValueSchema.describe('A metadata value, compared exactly.') }),
      z.strictObject({ type: z.literal('number_array'), value: arrayOf(amountValueSchema, 'Amounts in minor units') }),
      z.strictObject({ type: z.literal('enum_variant_array'), value: arrayOf(enumVariantSchema, 'Enum variants') }),
      z.strictObject({ type: z.literal('str_value_array'), value: arrayOf(strValueSchema, 'Metadata values') }),
    ],
    { error: `must be one of ${ROUTING_VALUE_TYPES.join(', ')}` },
  )
  .meta({
    id: 'RoutingValue',
    description:
      'What the payment fact is compared with: `{type: "number", value: 500000}`, `{type: "enum_variant", value: "KES"}`, `{type: "enum_variant_array", value: ["visa", "verve"]}`, `{type: "str_value", value: "gold"}` (for `metadata.<key>`), `{type: "metadata_variant", value: {key, value}}` (for `metadata`), …',
  });

/** The `lhs` pattern: a payment fact, or `metadata.<key>` with a key of 1–40 characters. */
const LHS_PATTERN = new RegExp(`^(?:${ROUTING_LHS_FIELDS.join('|')}|metadata\\..{1,${MAX_METADATA_KEY_LENGTH}})$`);

/** A condition's `lhs`. */
const lhsSchema = z
  .string()
  .regex(LHS_PATTERN, {
    error: `must be one of ${ROUTING_LHS_FIELDS.join(', ')}, or ${METADATA_LHS_PREFIX}<key> with a key of 1 to ${MAX_METADATA_KEY_LENGTH} characters`,
  })
  .refine((lhs) => !containsCardNumber(lhs), { error: 'must not contain a card number' })
  .describe(
    `The payment fact tested: \`amount\` (minor units), \`currency\`, \`payment_method\`, \`card_network\`, \`billing_country\` (ISO 3166-1 alpha-2), \`${METADATA_LHS_PREFIX}<key>\` (one metadata value, with \`str_value\`) or \`metadata\` (with \`metadata_variant\`).`,
  );

/** The value types each kind of `lhs` takes. */
const VALUE_TYPES_OF: Readonly<Record<'amount' | 'enum' | 'metadata' | 'metadata_key', readonly RoutingValueType[]>> = {
  amount: ['number', 'number_array'],
  enum: ['enum_variant', 'enum_variant_array'],
  metadata: ['metadata_variant'],
  metadata_key: ['str_value', 'str_value_array'],
};

/** `equal` or `not_equal`: the comparisons every value takes. */
const EQUALITY: readonly ComparisonType[] = ['equal', 'not_equal'];

/**
 * The cross-field rules of one comparison (euclid's lowering, crates/euclid/src/frontend/ast/lowering.rs,
 * refuses the same pairs): the value type must suit the `lhs`; ordering comparisons only for an
 * `amount` with a `number`; `in` / `not_in` only with an array value (`equal` / `not_equal` with an
 * array mean the same, as in Hyperswitch); enum variants must be of the `lhs`'s vocabulary.
 */
function checkComparison(
  comparison: { lhs: string; comparison: ComparisonType; value: { type: RoutingValueType; value: unknown } },
  ctx: z.RefinementCtx,
): void {
  const lhs = routingLhsOf(comparison.lhs);
  const kind = lhs.field === 'amount' || lhs.field === 'metadata' || lhs.field === 'metadata_key' ? lhs.field : 'enum';
  const lhsName = lhs.field === 'metadata_key' ? `${METADATA_LHS_PREFIX}<key>` : lhs.field;
  const valueTypes = VALUE_TYPES_OF[kind];
  const { type } = comparison.value;
  if (!valueTypes.includes(type)) {
    ctx.addIssue({ code: 'custom', path: ['value', 'type'], message: `must be ${valueTypes.join(' or ')} when lhs is ${lhsName}` });
    return;
  }
  const isArray = type.endsWith('_array');
  const allowed: readonly ComparisonType[] = isArray
    ? [...EQUALITY, 'in', 'not_in']
    : type === 'number'
      ? [...EQUALITY, ...ORDERING_COMPARISONS]
      : EQUALITY;
  if (!allowed.includes(comparison.comparison)) {
    const why = ORDERING_COMPARISONS.includes(comparison.comparison)
      ? 'less_than, less_than_equal, greater_than and greater_than_equal compare only amount with a number value'
      : 'in and not_in take an array value (number_array, enum_variant_array or str_value_array)';
    ctx.addIssue({ code: 'custom', path: ['comparison'], message: `must be one of ${allowed.join(', ')} here: ${why}` });
    return;
  }
  if (kind !== 'enum') return;
  const variants = isArray ? (comparison.value.value as string[]) : [comparison.value.value as string];
  variants.forEach((variant, index) => {
    const path = isArray ? ['value', 'value', index] : ['value', 'value'];
    if (lhs.field === 'billing_country') {
      if (!countrySchema.safeParse(variant).success)
        ctx.addIssue({ code: 'custom', path, message: 'must be an ISO 3166-1 alpha-2 country code in upper case, e.g. NG' });
    } else {
      const vocabulary = ENUM_VOCABULARY[lhs.field as keyof typeof ENUM_VOCABULARY];
      if (!vocabulary.includes(variant)) ctx.addIssue({ code: 'custom', path, message: `must be one of ${vocabulary.join(', ')}` });
    }
  });
}

/** Component `RoutingComparison`: `{lhs, comparison, value}` (Hyperswitch `Comparison`). */
export const routingComparisonSchema = z
  .strictObject({
    lhs: lhsSchema,
    comparison: z
      .enum(COMPARISON_TYPES, { error: `must be one of ${COMPARISON_TYPES.join(', ')}` })
      .describe(
        '`equal`, `not_equal`; `less_than`, `less_than_equal`, `greater_than`, `greater_than_equal` (amount only); `in`, `not_in` (an array value; `equal` / `not_equal` with an array mean the same).',
      ),
    value: routingValueSchema,
  })
  .superRefine(checkComparison)
  .meta({
    id: 'RoutingComparison',
    description:
      'One test of a payment fact. A fact the payment does not have (no card network yet, no billing country, a missing metadata key) makes `equal`, `in` and the ordering comparisons false, `not_equal` and `not_in` true.',
  });

/**
 * An IF statement at `depth` levels of `nesting` below a rule (0 = a rule's own statements). The
 * deepest allowed level refuses a `nested` list.
 */
function statementSchema(depth: number): z.ZodType<IfStatement> {
  const condition = z
    .array(routingComparisonSchema)
    .min(1, { error: 'must hold at least one comparison' })
    .max(MAX_CONDITIONS, { error: `must hold at most ${MAX_CONDITIONS} comparisons` })
    .describe(`Comparisons that must all hold (AND; 1 to ${MAX_CONDITIONS}).`);
  const nested =
    depth < MAX_NESTING_DEPTH
      ? z
          .array(statementSchema(depth + 1))
          .min(1, { error: 'must hold at least one statement when given' })
          .max(MAX_STATEMENTS, { error: `must hold at most ${MAX_STATEMENTS} statements` })
          .describe(
            `Further statements, at least one of which must hold too (OR among them, AND with this condition). At most ${MAX_NESTING_DEPTH} levels of nesting.`,
          )
      : z
          .custom<undefined>((v) => v === undefined, {
            error: `must be left out: statements nest at most ${MAX_NESTING_DEPTH} levels deep`,
          })
          .meta({ not: {}, description: `Not allowed here: statements nest at most ${MAX_NESTING_DEPTH} levels deep.` });
  return z
    .strictObject({ condition, nested: nested.optional() })
    .describe('An IF statement: its condition, and optional nested statements.');
}

/** A rule's `statements`: 1–20, OR-ed. */
const statementsSchema = z
  .array(statementSchema(0))
  .min(1, { error: 'must hold at least one statement' })
  .max(MAX_STATEMENTS, { error: `must hold at most ${MAX_STATEMENTS} statements` })
  .describe(`Statements of which at least one must hold (OR; 1 to ${MAX_STATEMENTS}).`);

/** Component `RoutingRule`: `{name, connector_selection, statements}` (Hyperswitch `Rule<ConnectorSelection>`). */
export const routingRuleSchema = z
  .strictObject({
    name: nameSchema.describe(`The rule's name (1 to ${MAX_NAME_LENGTH} characters).`),
    connector_selection: connectorSelectionSchema,
    statements: statementsSchema,
  })
  .meta({ id: 'RoutingRule', description: 'Payments for which one of `statements` holds go to `connector_selection`.' });

/** How many comparisons a statement list holds, nested ones included. */
function countComparisons(statements: readonly IfStatement[]): number {
  return statements.reduce((n, s) => n + s.condition.length + countComparisons(s.nested ?? []), 0);
}

/** `advanced` data: `{default_selection, rules}` (Hyperswitch `Program<ConnectorSelection>`), at most 500 comparisons in all. */
export const routingProgramSchema = z
  .strictObject({
    default_selection: connectorSelectionSchema,
    rules: z
      .array(routingRuleSchema)
      .max(MAX_RULES, { error: `must hold at most ${MAX_RULES} rules` })
      .describe(`Rules tried in order; the first that matches decides (0 to ${MAX_RULES}).`),
  })
  .superRefine((program, ctx) => {
    const total = program.rules.reduce((n, rule) => n + countComparisons(rule.statements), 0);
    if (total > MAX_TOTAL_CONDITIONS) {
      ctx.addIssue({ code: 'custom', path: ['rules'], message: `must hold at most ${MAX_TOTAL_CONDITIONS} comparisons in all` });
    }
  })
  .describe('Rules in order, the first matching one deciding; none matching, `default_selection` decides.');

/**
 * Component `RoutingAlgorithmDefinition`: `{type, data}` (Hyperswitch `RoutingAlgorithm`):
 * `single` (`{merchant_connector_id}`), `priority` (a list), `volume_split` (shares) or `advanced` (rules).
 */
export const routingAlgorithmSchema = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('single'), data: routableConnectorChoiceSchema }),
      z.strictObject({ type: z.literal('priority'), data: priorityListSchema }),
      z.strictObject({ type: z.literal('volume_split'), data: volumeSplitListSchema }),
      z.strictObject({ type: z.literal('advanced'), data: routingProgramSchema }),
    ],
    { error: `must be one of ${ROUTING_ALGORITHM_TYPES.join(', ')}` },
  )
  .meta({
    id: 'RoutingAlgorithmDefinition',
    description:
      'How payments are routed: `single` (one account), `priority` (accounts in order), `volume_split` (shares of payments) or `advanced` (rules on amount, currency, payment method, card network, billing country and metadata, tried in order).',
  });

/** Body of `POST /routing`: `name` (1–64 characters), `description` (at most 1000) optional, `algorithm`. */
export const createRoutingAlgorithmSchema = z.strictObject({
  name: nameSchema.describe(`Your name for the algorithm: 1 to ${MAX_NAME_LENGTH} characters.`),
  description: text(MAX_DESCRIPTION_LENGTH).describe(`What it is for: at most ${MAX_DESCRIPTION_LENGTH} characters.`).optional(),
  algorithm: routingAlgorithmSchema,
});

/** Parsed body of `POST /routing`. */
export type CreateRoutingAlgorithmBody = z.infer<typeof createRoutingAlgorithmSchema>;

/** Compile-time checks: what the schemas accept is the domain's {@link RoutingAlgorithm} (each line fails to type-check otherwise). */
const parsedIsDomain: (parsed: z.output<typeof routingAlgorithmSchema>) => RoutingAlgorithm = (parsed) => parsed;
const programIsDomain: (parsed: z.output<typeof routingProgramSchema>) => RoutingProgram = (parsed) => parsed;
const selectionIsDomain: (parsed: z.output<typeof connectorSelectionSchema>) => ConnectorSelection = (parsed) => parsed;
void parsedIsDomain;
void programIsDomain;
void selectionIsDomain;
