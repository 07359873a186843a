/**
 * Every string field of every request schema refuses a card number. The routes come from the
 * route list (shared/api/routes.ts) and their body and query schemas from the handlers' own schemas
 * (scripts/openapi/openapi-operations.ts, the map the OpenAPI document is generated from). Each string
 * field — wherever it sits: nested objects, array items, metadata values and keys — is given each
 * spelling of a card number (test/helpers/card-corpus.ts), alone in the input; validation must
 * refuse it at that field, and the 400 the handler would answer (shared/schemas/zod-errors.ts) must
 * name it in `param`. A field that refuses the spellings by its shape (an enum, an id pattern) is
 * thereby shown not to be free text; a free-text field must refuse them with the card guard's
 * message. Not walked: fields marked secret (shared/schemas/secret-field.ts: card data, step secrets,
 * credentials — never stored in clear, answered or logged), the processors' webhook bodies and the payer
 * page's form (documented shapes the handler does not validate: the form is relayed to the authenticate
 * operation, whose schema is walked), and the fields of {@link NOT_FREE_TEXT}. The file upload's name
 * (multipart, no zod schema) is covered by test/http/api-keys-and-card-data.test.ts.
 */
import * as z from 'zod';
import { OPENAPI_OPERATIONS } from '../../scripts/openapi/openapi-operations';
import { ROUTES } from '../../shared/api/routes';
import { ID_PREFIXES } from '../../shared/domain/ids';
import { apiErrorFromZod, type InputLocation } from '../../shared/schemas/zod-errors';
import { spellingsOf } from '../helpers/card-corpus';

type Json = Record<string, unknown>;
/** A segment of a field's path: a property, an array index (0), or a record's key. */
type Segment = { kind: 'property'; name: string } | { kind: 'item' } | { kind: 'value' } | { kind: 'key' };

const KEY = 'note';

/**
 * Fields that take a card-number spelling of the right shape and are still not free text, each with the
 * reason (a route, then the field's dotted path).
 */
const NOT_FREE_TEXT: Readonly<Record<string, string>> = {
  'PUT /routing/default default_fallback.0.merchant_connector_id':
    'only ids of the merchant’s existing connector accounts (mca_ + 32 hex digits) are stored; any other value is a 400 resource_missing naming the entry (shared/operations/routing/routing-operations.ts, setDefaultFallback), never repeated',
  'PUT /routing/payouts priority.0.merchant_connector_id':
    'only ids of the merchant’s existing connector accounts are stored; any other value is a 400 resource_missing naming the entry (shared/operations/payouts/payout-priority.ts, setPayoutPriority), never repeated',
};
/**
 * The card-number spellings posted into each field: Visa and Amex in every spelling of the corpus, and as the
 * body of an id of each kind this service hands out (`pay_4242…`), which an id pattern alone would let through.
 */
const SPELLINGS = [
  ...spellingsOf('4242424242424242').map((s) => s.text),
  ...spellingsOf('378282246310005').map((s) => s.text),
  ...[...Object.values(ID_PREFIXES), 'mca', 'clock', 'file'].map((prefix) => `${prefix}_4242424242424242`),
];

/** Every string leaf of a JSON Schema (zod's `io: 'input'` view), with the constant siblings needed to reach it. */
interface Leaf {
  path: Segment[];
  fill: Array<{ at: Segment[]; value: unknown }>;
  /** Marked `x-secret` (shared/schemas/secret-field.ts). */
  secret: boolean;
}

function stringLeaves(root: Json): Leaf[] {
  const defs = (root.$defs ?? {}) as Record<string, Json>;
  const out: Leaf[] = [];
  const seen = new Set<Json>();
  const walk = (node: Json, path: Segment[], fill: Array<{ at: Segment[]; value: unknown }>): void => {
    if (typeof node.$ref === 'string') {
      const target = node.$ref === '#' ? root : defs[node.$ref.replace('#/$defs/', '')];
      if (!target || seen.has(target)) return;
      seen.add(target);
      walk(target, path, fill);
      seen.delete(target);
      return;
    }
    for (const branch of [...((node.anyOf ?? []) as Json[]), ...((node.oneOf ?? []) as Json[]), ...((node.allOf ?? []) as Json[])])
      walk(branch, path, fill);
    if (node.type === 'string' || (Array.isArray(node.type) && node.type.includes('string')))
      out.push({ path, fill, secret: node['x-secret'] === true });
    if (node.properties) {
      const props = node.properties as Record<string, Json>;
      // Constant siblings (a union's discriminator, e.g. `type: "single"`) are filled so the branch is reached.
      const constants = Object.entries(props)
        .filter(([, p]) => p.const !== undefined || (Array.isArray(p.enum) && p.enum.length === 1))
        .map(([name, p]) => ({ at: [...path, { kind: 'property', name } as Segment], value: p.const ?? (p.enum as unknown[])[0] }));
      for (const [name, p] of Object.entries(props)) walk(p, [...path, { kind: 'property', name }], [...fill, ...constants]);
    }
    if (node.items && typeof node.items === 'object') walk(node.items as Json, [...path, { kind: 'item' }], fill);
    if (node.additionalProperties && typeof node.additionalProperties === 'object')
      walk(node.additionalProperties as Json, [...path, { kind: 'value' }], fill);
    if (node.propertyNames && typeof node.propertyNames === 'object') out.push({ path: [...path, { kind: 'key' }], fill, secret: false });
  };
  walk(root, [], []);
  return out;
}

/** The zod path of a segment list (array index 0, record key {@link KEY}). */
function zodPath(path: Segment[]): Array<string | number> {
  return path.filter((s) => s.kind !== 'key').map((s) => (s.kind === 'property' ? s.name : s.kind === 'item' ? 0 : KEY));
}

/** An input holding `value` at `path` (a record's key: the key itself is `value`) and the constants along it. */
function inputWith(path: Segment[], value: string, fill: Array<{ at: Segment[]; value: unknown }>): unknown {
  const root: Json = {};
  const put = (at: Segment[], v: unknown) => {
    let node: unknown = root;
    at.forEach((segment, i) => {
      const last = i === at.length - 1;
      const next = at[i + 1];
      const empty = () => (next?.kind === 'item' ? [] : {});
      const container = node as Json & unknown[];
      if (segment.kind === 'key') return; // handled by the parent `value`-less record below
      const slot = segment.kind === 'property' ? segment.name : segment.kind === 'item' ? 0 : KEY;
      if (last) {
        container[slot as never] = v as never;
      } else if (next?.kind === 'key') {
        container[slot as never] = { [v as string]: 'x' } as never;
      } else {
        container[slot as never] ??= empty() as never;
        node = container[slot as never];
      }
    });
  };
  for (const f of fill) put(f.at, f.value);
  if (path.at(-1)?.kind === 'key') {
    const parent = path.slice(0, -1);
    if (parent.length === 0) return { [value]: 'x' };
    put([...parent, { kind: 'key' }], value);
  } else {
    put(path, value);
  }
  return root;
}

const samePath = (a: readonly PropertyKey[], b: readonly PropertyKey[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Every (route, location, schema) of the route list that validates a body or a query with zod. */
const schemas = ROUTES.flatMap((route) => {
  const op = OPENAPI_OPERATIONS[route.name];
  if (!op?.apiHandler || op.tag === 'Processor webhooks') return [];
  const found: Array<{ route: string; location: InputLocation; schema: z.ZodType }> = [];
  if (op?.query) found.push({ route: `${route.method} ${route.path}`, location: 'query', schema: op.query });
  if (op?.body && op.body.mediaType !== 'multipart/form-data')
    found.push({ route: `${route.method} ${route.path}`, location: 'body', schema: op.body.schema });
  return found;
});

test('the route list has request schemas to walk', () => {
  expect(schemas.length).toBeGreaterThan(30);
});

const secretFields: string[] = [];
let walked = 0;

/** Each walked schema with its string fields (secret and {@link NOT_FREE_TEXT} ones left out). */
const walkedSchemas = schemas
  .map((s) => {
    const all = stringLeaves(z.toJSONSchema(s.schema, { io: 'input', unrepresentable: 'any' }) as Json);
    for (const leaf of all) if (leaf.secret) secretFields.push(zodPath(leaf.path).join('.'));
    const leaves = all.filter((leaf) => !leaf.secret && !NOT_FREE_TEXT[`${s.route} ${zodPath(leaf.path).join('.')}`]);
    walked += leaves.length;
    return { ...s, leaves };
  })
  .filter((s) => s.leaves.length > 0);

test('every string field found is walked (over a hundred of them)', () => {
  expect(walked).toBeGreaterThan(100);
});

describe.each(walkedSchemas.map((s) => [`${s.route} (${s.location})`, s] as const))('%s', (_name, { location, schema, leaves: cases }) => {
  test.each(
    cases.map((leaf) => [zodPath(leaf.path).join('.') + (leaf.path.at(-1)?.kind === 'key' ? ' (key)' : ''), leaf] as const),
  )('%s refuses every card-number spelling, naming the field', (_field, leaf) => {
    const expectedPath = zodPath(leaf.path);
    const param = expectedPath.join('.');
    const accepted: string[] = [];
    const wrongParam: string[] = [];
    for (const spelling of SPELLINGS) {
      const input = inputWith(leaf.path, spelling, leaf.fill);
      const parsed = schema.safeParse(input);
      const issue = parsed.success ? undefined : parsed.error.issues.find((i) => samePath(i.path, expectedPath));
      if (!issue) {
        accepted.push(spelling);
        continue;
      }
      const answer = apiErrorFromZod(new z.ZodError([issue]), input, location);
      // A key is named by its record (the key itself is caller input and never repeated).
      if (answer.param !== param && !(leaf.path.at(-1)?.kind === 'key' && answer.param === param.split('.').slice(0, -1).join('.')))
        wrongParam.push(`${JSON.stringify(spelling)} → ${answer.param}`);
    }
    expect({ accepted, wrongParam }).toEqual({ accepted: [], wrongParam: [] });
  });
});

test('the fields left out as secret are exactly the card data, step secrets and credentials', () => {
  expect([...new Set(secretFields.map((f) => f.split('.').at(-1)))].sort()).toEqual(
    ['api_key', 'card_cvc', 'card_number', 'key1', 'merchant_secret', 'otp', 'pin'].sort(),
  );
});
