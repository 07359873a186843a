/**
 * The contract check of the HTTP suites: every exchange the local gateway answers (through
 * `api.request` or a test's raw `fetch`) is checked against docs/openapi.json, loaded once per test
 * file (jest gives each file its own module registry).
 *
 * What is checked (the published contract, docs/openapi.json, checks every HTTP test):
 * - the **response** is documented: its status is listed for the operation (the document has no
 *   `default` responses, so nothing else is), its media type is the documented one (no body where
 *   none is documented), a JSON body validates against that status's schema (whose objects say
 *   `additionalProperties: false`: test/unit/openapi-document.test.ts keeps it so), every documented
 *   header that is `required` is present, and every documented header present validates (e.g.
 *   `Switchyard-Version` on every JSON answer);
 * - the **request** is validated too (path, query, headers, body and its media type, the api-key
 *   the security scheme asks for): a request the spec rejects must be answered 4xx, and a request
 *   it accepts must not be refused with 400 and a schema-level code ({@link SCHEMA_LEVEL_CODES});
 *   the exceptions, rules the document cannot state, are the two short explained lists
 *   {@link SPEC_CANNOT_EXPRESS} (refusals) and {@link SERVER_ALSO_ACCEPTS} (readings);
 * - a request to a route the document does not have (the `$default` fallback) must be answered
 *   with the documented error object;
 * - a `HEAD` to a route that answers it (shared/api/routes.ts `answersHead`: the public GET pages) is
 *   checked as its `GET` without content (RFC 9110 §9.3.2; the document lists GETs only): a status the GET
 *   lists, its required headers, and no body; a `HEAD` to any other route is a `$default` request;
 * - what the gateway answers itself, as API Gateway would (an undecodable path, over 10 MB), must be
 *   the error object too; a failed handler (API Gateway's `{"message":"Internal Server Error"}`) is
 *   always a mismatch: no operation documents that body.
 *
 * How a request is read, as API Gateway and OpenAPI read it: the path is decoded the way API
 * Gateway decodes it before routing (scripts/local/gateway.ts `gatewayPath`: `%252F` is a `/`) and
 * matched on its non-empty segments; the query is read with `URLSearchParams` (as the gateway
 * builds `queryStringParameters`), `name[key]` filling a `deepObject` parameter (`created[gte]`),
 * a repeated name giving a list; an integer parameter is one written in decimal digits, `-` first
 * if negative (OpenAPI's `form` style writes a number so; ajv's own coercion, which also takes `+5`,
 * `5.0`, `1e3` and `-0`, is not used); an operation that declares no query parameter takes any
 * query (its handler never reads one), while one that declares some refuses others (its handler's
 * query schema is strict: `parameter_unknown`); a body is read by its media type, whose charset,
 * when given, must be UTF-8 (JSON is UTF-8, RFC 8259 §8.1; the forms say so). A request API
 * Gateway itself refuses, or one over 10 MB, reaches no operation: only the answer is checked.
 *
 * Library choice: ajv's JSON Schema 2020-12 build (`ajv/dist/2020`, OpenAPI 3.1's schema dialect)
 * with ajv-formats validates everything, against the document itself (one Ajv holds it, so each
 * component is compiled once); the schemas are compiled once per version of the document into a
 * module (ajv's standalone code, under .cache/contract-validators) that every test file loads,
 * rather than compiled again by each test file (jest gives each its own modules). Operations are
 * matched here on the document's path templates (a dozen lines: the document has 35 operations and
 * no server variables or path-level parameters). openapi-backend 5.21.2 was checked first and not
 * used:
 * - its validator cannot be loaded under jest: `OpenAPIValidator` requires the package's backend
 *   module, which imports @apidevtools/json-schema-ref-parser, an ES module jest's CommonJS runtime
 *   refuses (jest.config.cjs transforms only @middy);
 * - by default it compiles with Ajv's draft-07 class: `prefixItems` (which the document uses) is
 *   silently ignored and `date-time`/`email` are "unknown format ignored" (its `customizeAjv` can
 *   swap in the 2020 build, which validates `type: [..., "null"]`, `const`, `prefixItems` and
 *   `$ref` with sibling keywords; ajv 2020 used directly does the same);
 * - its response checks miss what this harness must catch: `validateResponse` passes a status the
 *   operation does not list (no validator → valid, or the `default` response),
 *   `validateResponseHeaders` ignores a header's `required` (its `superset` mode requires the
 *   optional ones too), the response media type is never compared, a request body's media type
 *   neither; it compiles each status's schema dereferenced (inlined), about 20 ms per operation and
 *   test file;
 * - its router alone (which does load) reads the query with `qs`, which drops keys such as
 *   `constructor` or `toString` that the server refuses as unknown, rebuilds its operation list
 *   twice per request, and loads lodash: 0.2–0.5 s per test file under jest, more than all of one
 *   file's checks.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { MIMEType } from 'node:util';
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import { type GatewayExchange, gatewayPath } from '../../scripts/local/gateway';
import { matchRoute, OPENAPI_DOCUMENT_FILE } from '../../shared/api/routes';

/** A JSON object of the document. */
type Json = Record<string, any>;

/** An operation of the document, as matched. */
interface Operation {
  /** The path template, e.g. `/payments/{payment_id}`. */
  path: string;
  /** Lower case, as in the document. */
  method: string;
  operationId: string;
  /** The Operation Object. */
  object: Json;
}

/** An operation's path template as a regular expression (one group per parameter), for matching. */
interface Route extends Operation {
  pattern: RegExp;
  names: string[];
  /** Characters outside parameters: the more, the more specific (`/docs/x` before `/{a}/x`). */
  literal: number;
}

/** The 400 codes a JSON Schema validation failure stands for (shared/schemas/zod-errors.ts). */
export const SCHEMA_LEVEL_CODES: readonly string[] = [
  'parameter_missing',
  'parameter_invalid_type',
  'parameter_unknown',
  'parameter_invalid',
];

/**
 * A server rule the document cannot state, so a request the spec accepts may still be refused with
 * a schema-level 400. Matched on the error the server answered (on an HTML error page, the message
 * is looked for in the page).
 */
export interface SpecGap {
  /** Operation ids it applies to (`*`: every operation). */
  operations: readonly string[] | '*';
  /** The error's `code` (not checked on an HTML page, which shows none). */
  code: string;
  /** The error's `param` (dotted path), when it matters. */
  param?: RegExp;
  /** The error's `message`. */
  message: RegExp;
  /** Something the request (its target and body, as text) must hold for the rule to be the reason. */
  request?: RegExp;
  /** Why the document cannot say it. */
  why: string;
}

/** The list operations (their query: `limit`, `offset`, `starting_after`, `created[…]`). */
const LIST_OPERATIONS = [
  'listPayments',
  'listPaymentRefunds',
  'listCustomers',
  'listWebhookEndpoints',
  'listEvents',
  'listConnectorAccounts',
  'listRoutingAlgorithms',
];
/**
 * Schema-level 400s the server may answer to a request the spec accepts. Keep it short: a rule JSON
 * Schema can express belongs in the document (scripts/openapi.ts `overrideSchema`), not here.
 */
export const SPEC_CANNOT_EXPRESS: readonly SpecGap[] = [
  {
    operations: ['putMerchantProfile'],
    code: 'parameter_invalid',
    param: /^allowed_domains$/,
    message: /must name each origin once/,
    why: 'Origins are compared without regard to case (RFC 3986 §6.2.2.1): a list whose entries differ only in case names one origin twice, which uniqueItems cannot say.',
  },
  {
    operations: ['createPayment'],
    code: 'parameter_invalid',
    param: /^(payment_link|session_expiry)$/,
    message: /cannot be sent with confirm: true|is only taken with payment_link: true/,
    why: 'A single-use link is for a payment the payer confirms (not with confirm: true), and session_expiry only times such a link: rules across fields.',
  },
  {
    operations: ['createPayout'],
    code: 'parameter_invalid',
    param: /^payout_method_data(\.bank\.account_number)?$/,
    message: /must hold|10-digit NUBAN/,
    why: 'Which destination a payout holds follows its payout_type, and a Nigerian account number has 10 digits (the NUBAN) while other countries have other lengths: rules across fields.',
  },
  {
    operations: ['createRoutingAlgorithm', 'activateRoutingAlgorithm'],
    code: 'parameter_invalid',
    param: /^algorithm(\.|$)/,
    message: /.+/,
    why: "Whether an algorithm can be used depends on the merchant's connector accounts (that each named account is its own and enables what the rule can send it: state, not the request), and on rules across fields (volume splits adding up to 100, statements that contradict themselves) that a JSON Schema cannot state.",
  },
  {
    operations: ['createConnectorAccount', 'updateConnectorAccount'],
    code: 'parameter_invalid',
    param: /^(payment_methods_enabled|connector_account_details|connector_webhook_details)(\.|$)/,
    message: /.+/,
    why: "Which methods and currencies an account may enable, and which credential pieces it takes and in what shape, depend on its connector_name (for an update, the stored account's): a rule across fields and state.",
  },
  {
    operations: ['createConnectorAccount'],
    code: 'parameter_missing',
    param: /^connector_account_details$/,
    message: /secret key/,
    why: 'Credentials are required for every connector but the sandbox: a rule across fields (connector_name).',
  },
  {
    operations: '*',
    code: 'parameter_invalid',
    message: /must not contain a card number|must be a telephone number, not a card number/,
    why: 'Every stored or echoed request field (free text, ids, an uploaded file’s name) refuses a card number. The card-number detector (shared/domain/card.ts `containsCardNumber`) finds a card number in stored free text written any way (separators, Unicode digits, Luhn-checked): no pattern of reasonable size says it.',
  },
  {
    operations: LIST_OPERATIONS,
    code: 'parameter_invalid',
    param: /^starting_after$/,
    message: /cannot be combined with offset/,
    why: '`offset` and `starting_after` exclude each other: OpenAPI validates each query parameter on its own schema, with no rule across parameters.',
  },
  {
    operations: LIST_OPERATIONS,
    code: 'parameter_invalid',
    param: /^ending_before$/,
    message: /cannot be combined with offset or starting_after/,
    why: '`ending_before` excludes `offset` and `starting_after`: a rule across parameters, which OpenAPI cannot state.',
  },
  {
    operations: ['confirmPayment'],
    code: 'parameter_missing',
    param: /^payment_method$/,
    message: /the payment was created without one/,
    why: 'Whether the confirm must name `payment_method` depends on the stored payment (created without one): state, not the request.',
  },
  {
    operations: ['authenticatePayment', 'submitAuthenticationPage'],
    code: '*',
    message:
      /next step is|needs the card details again with this step|must be the card this payment was confirmed with|only sent with a step whose next_action\.card_required is true/,
    why: "Which answer the step takes, whether it needs the card again and which card that is are the payment's `next_action` and confirmed card: state, not the request.",
  },
  {
    operations: ['authenticatePayment', 'submitAuthenticationPage'],
    code: 'parameter_invalid',
    param: /^birthday$/,
    message: /must be a real date in the past/,
    why: 'The document says `format: date` (a calendar date); "before today" depends on the clock, which JSON Schema has no keyword for.',
  },
  {
    operations: LIST_OPERATIONS,
    code: 'parameter_invalid',
    param: /^created\.(gt|gte|lt|lte)$/,
    message: /must be an ISO 8601 timestamp/,
    why: "The document's pattern for `created[…]` holds every field to its range; an offset that moves the instant before 1970-01-01 or after 9999-12-31T00:00Z is refused by the handler (the bounds of a stored `created_at`), which a pattern cannot compute.",
  },
  {
    operations: '*',
    code: 'parameter_invalid',
    message: /at most \d+ characters|expected string to have <=\d+ characters/,
    request: /[\u{10000}-\u{10FFFF}]|%F0%[89AB][0-9A-F]%[89AB][0-9A-F]%[89AB][0-9A-F]/iu,
    why: "A text's length is counted in UTF-16 code units by the server (JavaScript's `length`, zod's `max`) and in code points by JSON Schema's `maxLength`: a character outside the Basic Multilingual Plane (an emoji) counts twice for the server, so a text near its limit may pass the document and be refused.",
  },
  {
    operations: ['receiveWebhook'],
    code: '*',
    message: /^The signed webhook body/,
    why: "The body is the processor's own event, whose fields depend on the `{connector}` path parameter (Paystack's `event` and `data.reference`, Flutterwave's `txRef`/`data.tx_ref`, Stripe's `data.object`, the sandbox's `type` and `data.payment_id`): a body schema cannot depend on a path parameter, and the document does not restate four processors' formats (docs/connectors.md).",
  },
  {
    operations: ['createSubscription'],
    code: 'parameter_invalid',
    param: /^interval_count$/,
    message: /a period is at most one year/,
    why: 'The largest interval_count depends on the interval (365 days, 52 weeks, 12 months, 1 year): a rule across fields, stated in its description.',
  },
  {
    operations: ['listSubscriptions'],
    code: 'parameter_invalid',
    param: /^status$/,
    message: /not both/,
    why: 'customer_id and status are each optional but not both at once (each is a Query on its own index): a rule across parameters, stated in the description.',
  },
  {
    operations: ['checkoutPage', 'submitCheckout'],
    code: '*',
    message: /That payment method is not available on this link\./,
    why: "Which methods a link's page offers is the link's state (its payment_methods) and the merchant's routing (its accounts, what their connectors serve in the currency), not the request.",
  },
  {
    operations: ['submitCheckout'],
    code: '*',
    message: /<p class="err" id="err-/,
    why: "Which checkout fields are required, and the amount's range, are the payment link's own (its customer_fields, amount_min and amount_max): state, not the request; a card that fails its checks is answered on the form, field by field.",
  },
  {
    operations: ['createPaymentLink'],
    code: 'parameter_invalid',
    param: /^expires_at$/,
    message: /must be in the future|must be at most a year ahead/,
    why: 'expires_at must lie between now and a year ahead: a rule about the time of the request, which a schema cannot state.',
  },
  {
    operations: ['createPaymentLink'],
    code: 'parameter_invalid',
    param: /^amount_max$/,
    message: /must be at least amount_min/,
    why: 'amount_max must be at least amount_min: a comparison across fields, stated in its description.',
  },
  {
    operations: ['listPayments'],
    code: 'parameter_invalid',
    param: /^(customer_id|payment_link_id)$/,
    message: /not both/,
    why: 'status, customer_id and payment_link_id are each optional but one at a time (each is a Query on its own index): a rule across parameters, stated in the description.',
  },
];

/**
 * How the server reads a request where OpenAPI cannot say it (docs/api.md says it), and the
 * validator reads it the same way. Keep it short.
 */
export const SERVER_ALSO_ACCEPTS = {
  jsonSuffix:
    'docs/api.md ("Errors", 415): a JSON body may be sent as any `…+json` media type (RFC 6839 §3.1) and is read as JSON; an OpenAPI media-type key is one type or a `type/*` range, never a suffix range, so the document names `application/json`.',
  dottedDeepObject:
    'docs/api.md ("Lists") and the `created` parameter\'s description: `created.gte` stands for `created[gte]`; OpenAPI\'s `deepObject` style has only the bracket form.',
} as const;

/** The result of checking one exchange. */
export interface ExchangeCheck {
  /** The operation id, `$default` for the fallback route, `$gateway` for the gateway's own answers. */
  operation: string;
  method: string;
  /** The request target, path and query as sent. */
  target: string;
  status: number;
  /** Empty when the exchange keeps the contract. */
  problems: string[];
}

/** The document's id inside Ajv, so `#/components/...` references resolve against it. */
const DOCUMENT_ID = 'https://switchyard.test/openapi.json';

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

/**
 * Where the compiled validators are kept (gitignored, like the DynamoDB Local download), one module
 * per document: compiling the schemas (about 0.5 s of CPU per test file) happens once for a given
 * docs/openapi.json, and every test file loads the result. Bump {@link VALIDATORS_FORMAT} when the
 * schemas the checks compile change.
 */
const VALIDATORS_DIR = '.cache/contract-validators';
const VALIDATORS_FORMAT = '1';

/** The fallback route answers 404 `route_not_found`, or what apiHandler answers first (version, size), or 500. */
const FALLBACK_STATUSES = [400, 404, 413, 500];

/** Statuses the gateway answers itself (scripts/local/gateway.ts GATEWAY_ANSWERS), in the error object but 500. */
const GATEWAY_STATUSES = [400, 408, 413, 431];

/** A media type's essence and charset, or undefined when the header is absent or unreadable. */
function mediaType(contentType: string | undefined): { essence: string; charset: string | null } | undefined {
  if (!contentType) return undefined;
  try {
    const type = new MIMEType(contentType);
    return { essence: type.essence, charset: type.params.get('charset') };
  } catch {
    return undefined;
  }
}

/** Whether a charset label names UTF-8 (as browsers resolve labels). */
function isUtf8(charset: string | null): boolean {
  if (charset === null) return true;
  try {
    return new TextDecoder(charset).encoding === 'utf-8';
  } catch {
    return false;
  }
}

function ajvErrors(errors: readonly ErrorObject[] | null | undefined, limit = 3): string {
  return (errors ?? [])
    .slice(0, limit)
    .map((e) => {
      const extra =
        e.keyword === 'additionalProperties'
          ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
          : e.keyword === 'enum'
            ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues).slice(0, 200)})`
            : '';
      return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
    })
    .join('; ');
}

/** A header value as one string (repeated lines joined as HTTP joins them). */
function headerValue(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A map safe for any key (`__proto__` included): an object without a prototype. */
function bag(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Adds a value under a key; a repeated key collects a list. */
function collect(into: Record<string, unknown>, key: string, value: unknown): void {
  const known = into[key];
  into[key] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
}

/** Reads a form body (`application/x-www-form-urlencoded`); undefined when a `%` escape is broken. */
function formFields(body: string): Record<string, unknown> | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(body)) return undefined;
  const fields = bag();
  try {
    for (const pair of body.split('&')) {
      if (pair === '') continue;
      const eq = pair.indexOf('=');
      const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
      collect(fields, decode(eq >= 0 ? pair.slice(0, eq) : pair), decode(eq >= 0 ? pair.slice(eq + 1) : ''));
    }
  } catch {
    return undefined; // an escape that is not UTF-8
  }
  return fields;
}

/**
 * The fields of a `multipart/form-data` body (RFC 7578) as the spec describes them: a text part's value, and a file
 * part (one with a `filename`) as the string `(binary)` — the schema documents files as binary strings and the
 * handler checks their bytes. Undefined when the body is not multipart with the content type's boundary.
 */
function multipartFields(body: Buffer, contentType: string | undefined): Record<string, unknown> | undefined {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (!boundary) return undefined;
  const text = body.toString('latin1');
  const parts = text.split(`--${boundary}`);
  if (parts.length < 3 || !parts.at(-1)?.startsWith('--')) return undefined;
  const fields: Record<string, unknown> = {};
  for (const part of parts.slice(1, -1)) {
    const end = part.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = part.slice(0, end);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) return undefined;
    fields[name] = /filename="/i.test(head) ? '(binary)' : Buffer.from(part.slice(end + 4).replace(/\r\n$/, ''), 'latin1').toString('utf8');
  }
  return fields;
}

/** A schema of the document with its `#/components/...` references made absolute (resolvable outside the document). */
function rebase(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`));
}

/** Requires a package from the repository (jest's own `require` under jest). */
const load = createRequire(resolve(process.cwd(), 'package.json'));

/**
 * ajv's 2020 build, ajv-formats and ajv's standalone code generator, loaded only to compile: a test
 * file that finds its validators compiled ({@link ContractValidator.precompile}) never loads them.
 */
function ajvModules(): {
  Ajv: typeof Ajv2020;
  addFormats: typeof import('ajv-formats').default;
  standaloneCode: typeof import('ajv/dist/standalone').default;
} {
  return {
    Ajv: (load('ajv/dist/2020') as typeof import('ajv/dist/2020')).default,
    addFormats: (load('ajv-formats') as typeof import('ajv-formats')).default,
    standaloneCode: (load('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default,
  };
}

/** A new Ajv (JSON Schema 2020-12, formats) holding the document, so `#/components/...` references resolve. */
function documentAjv(document: Json, source: boolean): Ajv2020 {
  const { Ajv, addFormats } = ajvModules();
  const ajv = new Ajv({ strict: false, allErrors: false, ...(source ? { code: { source: true } } : {}) });
  addFormats(ajv);
  // Not checked against the JSON Schema meta-schema (an OpenAPI document is not a schema; redocly lints it).
  ajv.addSchema({ ...document, $id: DOCUMENT_ID }, undefined, undefined, false);
  return ajv;
}

/**
 * Checks exchanges against docs/openapi.json. Build it once per test file ({@link contractValidator}).
 * Its schemas are compiled when first needed, or taken from a compiled module
 * ({@link ContractValidator.precompile}).
 */
export class ContractValidator {
  private readonly document: Json;
  private readonly routes: Route[] = [];
  private ajv: Ajv2020 | undefined;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly bySchema = new WeakMap<object, ValidateFunction>();

  /**
   * @param documentText the OpenAPI document as JSON text
   * @param precompiled validators by schema key (JSON text), as {@link ContractValidator.precompile} loads them
   * @throws Error when the text is not JSON
   */
  constructor(
    documentText: string,
    private readonly precompiled?: ReadonlyMap<string, ValidateFunction>,
  ) {
    this.document = JSON.parse(documentText) as Json;
    for (const [path, item] of Object.entries(this.document.paths as Json))
      for (const [method, object] of Object.entries(item as Json)) {
        const names: string[] = [];
        const source = path
          .split('/')
          .map((segment) => {
            const param = /^\{([^}]+)\}$/.exec(segment);
            if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            names.push(param[1] as string);
            return '([^/]+)';
          })
          .join('/');
        const literal = path.replace(/\{[^}]+\}/g, '').length;
        this.routes.push({ path, method, operationId: object.operationId, object, pattern: new RegExp(`^${source}$`), names, literal });
      }
    this.routes.sort((a, b) => b.literal - a.literal);
  }

  /**
   * Loads the compiled validators of a document from {@link VALIDATORS_DIR}, compiling them into a
   * module there first when no module matches the document (written whole, then renamed: two jest
   * workers may race, either module is right; the modules of other documents are removed).
   * @returns validators by schema key, or undefined when the module cannot be built or loaded (the
   *   checks then compile what they use)
   */
  static precompile(documentText: string): ReadonlyMap<string, ValidateFunction> | undefined {
    try {
      const version = (load('ajv/package.json') as { version: string }).version;
      const hash = createHash('sha256').update(`${VALIDATORS_FORMAT}\n${version}\n`).update(documentText).digest('hex').slice(0, 16);
      const file = resolve(process.cwd(), VALIDATORS_DIR, `${hash}.cjs`);
      if (!existsSync(file)) {
        const document = JSON.parse(documentText) as Json;
        const keys = new ContractValidator(documentText).schemaKeys();
        const ajv = documentAjv(document, true);
        const names: Record<string, string> = {};
        keys.forEach((key, i) => {
          const id = `https://switchyard.test/validators/${i}`;
          ajv.addSchema({ ...(rebase(JSON.parse(key)) as Json), $id: id }, undefined, undefined, false);
          names[`v${i}`] = id;
        });
        const code = `${ajvModules().standaloneCode(ajv, names)}\nexports.KEYS = ${JSON.stringify(keys)};\n`;
        mkdirSync(dirname(file), { recursive: true });
        const partial = `${file}.${process.pid}.partial`;
        writeFileSync(partial, code);
        renameSync(partial, file);
        // Modules of earlier documents are not needed again (one that is rebuilds).
        for (const old of readdirSync(dirname(file)))
          if (old.endsWith('.cjs') && old !== `${hash}.cjs`) rmSync(join(dirname(file), old), { force: true });
      }
      const compiled = load(file) as Record<string, ValidateFunction> & { KEYS: string[] };
      return new Map(compiled.KEYS.map((key, i) => [key, compiled[`v${i}`] as ValidateFunction]));
    } catch (err) {
      process.stderr.write(`contract-validator: no compiled validators (${(err as Error).message}); compiling per test file\n`);
      return undefined;
    }
  }

  /** Every schema the checks may compile, as their keys (JSON text), without duplicates. */
  schemaKeys(): string[] {
    const schemas: unknown[] = [ERROR_SCHEMA];
    const components = this.document.components as Json;
    for (const route of this.routes) {
      for (const p of this.parameters(route)) schemas.push(p.schema ?? {});
      for (const media of Object.values((route.object.requestBody?.content ?? {}) as Json)) schemas.push(media.schema ?? {});
      for (const response of Object.values(route.object.responses as Json) as Json[]) {
        const json = response.content?.['application/json'];
        if (json) schemas.push(json.schema ?? {});
        for (const ref of Object.values((response.headers ?? {}) as Json) as Json[]) {
          const header = typeof ref.$ref === 'string' ? components.headers[ref.$ref.split('/').pop() as string] : ref;
          schemas.push(header.schema ?? {});
        }
      }
    }
    return [...new Set(schemas.map((schema) => JSON.stringify(schema)))];
  }

  /** The operation of a method and (decoded, re-encoded) path, with its path parameters, decoded. */
  private match(method: string, path: string): { operation: Operation; params: Record<string, string> } | undefined {
    const lower = method.toLowerCase();
    for (const route of this.routes) {
      if (route.method !== lower) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(found[i + 1] as string);
      });
      return { operation: route, params };
    }
    return undefined;
  }

  /**
   * Checks one exchange.
   * @returns the operation it belongs to and its problems (none when it keeps the contract)
   */
  check(exchange: GatewayExchange): ExchangeCheck {
    const { request, response } = exchange;
    const base = { method: request.method, target: request.target, status: response.status };
    try {
      if (response.answeredBy === 'gateway') return { ...base, operation: '$gateway', problems: this.checkGatewayAnswer(exchange) };
      const target = gatewayPath(request.target);
      if (!target) return { ...base, operation: '$unknown', problems: ['a handler answered a target API Gateway refuses'] };
      // Matched on the decoded segments, each encoded again (a segment may hold a `/` or a space).
      const path = `/${target.path.split('/').filter(Boolean).map(encodeURIComponent).join('/')}`;
      const headers: Record<string, string> = {};
      for (const [name, values] of Object.entries(request.headers)) headers[name.toLowerCase()] = values.join(',');
      if (request.method === 'HEAD') {
        const get = matchRoute('HEAD', target.path) ? this.match('GET', path) : undefined;
        if (!get) return { ...base, operation: '$default', problems: this.headProblems(undefined, exchange) };
        return { ...base, operation: get.operation.operationId, problems: this.headProblems(get.operation, exchange) };
      }
      const matched = this.match(request.method, path);
      if (!matched) return { ...base, operation: '$default', problems: this.checkFallback(exchange) };
      const { operation } = matched;
      const rejected = this.requestProblems(operation, matched.params, target.rawQueryString, headers, request.body);
      const problems = [...this.responseProblems(operation, exchange), ...this.agreement(operation, rejected, exchange)];
      return { ...base, operation: operation.operationId, problems };
    } catch (err) {
      return { ...base, operation: '$unknown', problems: [`the contract check itself failed: ${(err as Error).stack ?? String(err)}`] };
    }
  }

  /** The (operation, status) pairs the document lists, by operation id (for coverage). */
  documentedStatuses(): Map<string, number[]> {
    const out = new Map<string, number[]>();
    for (const item of Object.values(this.document.paths as Json))
      for (const op of Object.values(item as Json) as Json[]) out.set(op.operationId, Object.keys(op.responses).map(Number));
    return out;
  }

  /**
   * The validator of a schema of the document (its `$ref`s kept, so each component is compiled
   * once): precompiled, or compiled now; cached by the schema object and by its JSON text.
   */
  private validator(schema: Json): ValidateFunction {
    const known = this.bySchema.get(schema);
    if (known) return known;
    const key = JSON.stringify(schema);
    let validate = this.compiled.get(key) ?? this.precompiled?.get(key);
    if (!validate) {
      this.ajv ??= documentAjv(this.document, false);
      validate = this.ajv.compile(rebase(schema) as Json);
    }
    this.compiled.set(key, validate);
    this.bySchema.set(schema, validate);
    return validate;
  }

  /** The operation's parameters, `$ref`s to components/parameters resolved. */
  private parameters(operation: Operation): Json[] {
    return ((operation.object.parameters ?? []) as Json[]).map((p) =>
      typeof p.$ref === 'string' ? ((this.document.components as Json).parameters as Json)[p.$ref.split('/').pop() as string] : p,
    );
  }

  /** The query as OpenAPI reads it for this operation (see the module comment). */
  private queryOf(rawQuery: string, params: Json[]): Record<string, unknown> {
    const query = bag();
    const deep = new Set(params.filter((p) => p.in === 'query' && p.style === 'deepObject').map((p) => String(p.name)));
    for (const [key, value] of new URLSearchParams(rawQuery)) {
      // `name[key]`, or `name.key` (SERVER_ALSO_ACCEPTS.dottedDeepObject).
      const nested = /^([^[\].]+)(?:\[([^[\]]*)\]|\.([^[\].]+))$/.exec(key);
      if (nested && deep.has(nested[1] as string)) {
        const name = nested[1] as string;
        if (query[name] === undefined) query[name] = bag();
        const into = query[name];
        if (typeof into === 'object' && !Array.isArray(into))
          collect(into as Record<string, unknown>, (nested[2] ?? nested[3]) as string, value);
        else collect(query, key, value);
      } else collect(query, key, value);
    }
    return query;
  }

  /** Why the spec rejects the request (empty: it accepts it). */
  private requestProblems(
    operation: Operation,
    pathParams: Record<string, string>,
    rawQuery: string,
    headers: Record<string, string>,
    rawBody: Buffer,
  ): string[] {
    const problems: string[] = [];
    const op = operation.object;
    const security = (op.security ?? this.document.security ?? []) as Json[];
    const needsKey = security.length > 0 && security.every((requirement) => Object.keys(requirement).length > 0);
    if (needsKey && headers['api-key'] === undefined) problems.push('no api-key header (the operation requires the ApiKey scheme)');

    const params = this.parameters(operation);
    const values: Record<string, Record<string, unknown>> = { path: pathParams, query: this.queryOf(rawQuery, params), header: headers };
    if (!params.some((p) => p.in === 'query')) values.query = bag();
    for (const name of Object.keys(values.query as Record<string, unknown>))
      if (!params.some((p) => p.in === 'query' && p.name === name)) problems.push(`/query must NOT have additional properties (${name})`);
    for (const p of params) {
      const location = values[p.in];
      if (!location) continue;
      const name = p.in === 'header' ? String(p.name).toLowerCase() : String(p.name);
      let value = location[name];
      if (value === undefined) {
        if (p.required) problems.push(`missing required ${p.in} parameter ${p.name}`);
        continue;
      }
      const type = (p.schema as Json | undefined)?.type;
      if ((type === 'integer' || type === 'number') && typeof value === 'string' && /^-?\d+$/.test(value) && !/^-0+$/.test(value))
        value = Number(value);
      // A boolean parameter as a query string spells it (OpenAPI's simple style).
      if (type === 'boolean' && (value === 'true' || value === 'false')) value = value === 'true';
      const validate = this.validator(p.schema ?? {});
      if (!validate(value)) problems.push(`/${p.in}/${p.name}: ${ajvErrors(validate.errors)}`);
    }

    const bodyDoc = op.requestBody as Json | undefined;
    if (!bodyDoc) return problems; // a body the operation does not take is not read
    if (rawBody.length === 0) {
      if (bodyDoc.required) problems.push('no body, where the operation requires one');
      return problems;
    }
    const type = mediaType(headers['content-type']);
    // A `…+json` body is JSON (SERVER_ALSO_ACCEPTS.jsonSuffix).
    const essence = type && /^application\/[^/]+\+json$/.test(type.essence) ? 'application/json' : type?.essence;
    if (!type || !essence || !Object.hasOwn(bodyDoc.content, essence) || !isUtf8(type.charset)) {
      problems.push(
        `a body of type ${headers['content-type'] ?? '(none)'} where the operation takes ${Object.keys(bodyDoc.content).join(', ')} (UTF-8)`,
      );
      return problems;
    }
    let body: unknown;
    if (essence === 'application/x-www-form-urlencoded') {
      body = formFields(rawBody.toString('utf8'));
      if (body === undefined) return [...problems, 'the form body is not percent-encoded UTF-8'];
    } else if (essence === 'multipart/form-data') {
      body = multipartFields(rawBody, headers['content-type']);
      if (body === undefined) return [...problems, 'the body is not multipart/form-data with its boundary'];
    } else {
      try {
        body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(rawBody));
      } catch {
        return [...problems, 'the body is not JSON in UTF-8'];
      }
    }
    const validateBody = this.validator(bodyDoc.content[essence].schema ?? {});
    if (!validateBody(body)) problems.push(`requestBody: ${ajvErrors(validateBody.errors)}`);
    return problems;
  }

  private responseProblems(operation: Operation, exchange: GatewayExchange): string[] {
    const { response } = exchange;
    const responses = operation.object.responses as Json;
    const documented = responses[String(response.status)] as Json | undefined;
    if (!documented) return [`status ${response.status} is not documented (documented: ${Object.keys(responses).join(', ')})`];
    return [...this.contentProblems(documented, response), ...this.headerProblems(documented, response.headers)];
  }

  /**
   * A `HEAD` answer against its `GET` operation (a status the GET lists, its headers), or, for a route that
   * does not answer `HEAD`, the `$default` fallback's status and `Switchyard-Version`; no content either way.
   */
  private headProblems(operation: Operation | undefined, { response }: GatewayExchange): string[] {
    const problems: string[] = [];
    if (operation) {
      const documented = (operation.object.responses as Json)[String(response.status)] as Json | undefined;
      if (!documented) return [`HEAD: status ${response.status} is not documented for the GET`];
      problems.push(...this.headerProblems(documented, response.headers));
    } else {
      if (!FALLBACK_STATUSES.includes(response.status))
        problems.push(`HEAD: status ${response.status} for a route that does not answer HEAD (expected 404)`);
      if (!Object.keys(response.headers).some((name) => name.toLowerCase() === 'switchyard-version'))
        problems.push('required header Switchyard-Version is missing');
    }
    if (response.body.length > 0) problems.push(`HEAD: a ${response.body.length}-byte body (a HEAD answer has no content)`);
    return problems;
  }

  /** The body and its media type against a documented response. */
  private contentProblems(documented: Json, response: GatewayExchange['response']): string[] {
    const content = documented.content as Json | undefined;
    const contentType = headerValue(response.headers['content-type'] ?? response.headers['Content-Type']);
    if (!content) return response.body.length > 0 ? [`a ${response.body.length}-byte body where none is documented`] : [];
    const type = mediaType(contentType)?.essence;
    if (!type || !Object.hasOwn(content, type))
      return [`content-type ${contentType ?? '(none)'}, documented: ${Object.keys(content).join(', ')}`];
    if (type !== 'application/json') return [];
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(content[type].schema ?? {});
    return validate(body) ? [] : [`body: ${ajvErrors(validate.errors)}`];
  }

  private headerProblems(documented: Json, written: Record<string, string | string[]>): string[] {
    const problems: string[] = [];
    const lower = new Map(Object.entries(written).map(([k, v]) => [k.toLowerCase(), headerValue(v)]));
    for (const [name, ref] of Object.entries((documented.headers ?? {}) as Json)) {
      const header = (typeof ref.$ref === 'string' ? (this.document.components as Json).headers[ref.$ref.split('/').pop()] : ref) as Json;
      const value = lower.get(name.toLowerCase());
      if (value === undefined) {
        if (header.required) problems.push(`required header ${name} is missing`);
        continue;
      }
      const validate = this.validator(header.schema ?? {});
      if (!validate(value)) problems.push(`header ${name}: ${ajvErrors(validate.errors)}`);
    }
    return problems;
  }

  /** The server and the spec agree on what is invalid. */
  private agreement(operation: Operation, rejected: string[], exchange: GatewayExchange): string[] {
    const status = exchange.response.status;
    if (rejected.length > 0) {
      return status >= 400 && status < 500
        ? []
        : [
            `the spec rejects the request (${rejected.join('; ')}) but the server answered ${status}: a request the spec rejects must get a 4xx`,
          ];
    }
    if (status !== 400) return [];
    const text = exchange.response.body.toString('utf8');
    let error: { code?: unknown; param?: unknown; message?: unknown } | undefined;
    const html = mediaType(headerValue(exchange.response.headers['content-type']))?.essence === 'text/html';
    if (!html) {
      try {
        error = (JSON.parse(text) as { error?: typeof error }).error;
      } catch {
        error = undefined;
      }
      if (!SCHEMA_LEVEL_CODES.includes(String(error?.code))) return [];
    }
    // An HTML error page shows the message only; every 400 of the HTML operations is schema-level.
    const message = html ? text : String(error?.message ?? '');
    const request = `${exchange.request.target}\n${exchange.request.body.toString('utf8')}`;
    const gap = SPEC_CANNOT_EXPRESS.find(
      (g) =>
        (g.operations === '*' || g.operations.includes(operation.operationId)) &&
        (!g.request || g.request.test(request)) &&
        (html || g.code === '*' || g.code === error?.code) &&
        (html || !g.param || g.param.test(String(error?.param ?? ''))) &&
        g.message.test(message),
    );
    if (gap) return [];
    const said = html ? 'an HTML page' : `${String(error?.code)}${error?.param ? ` (param ${String(error.param)})` : ''}: ${message}`;
    return [
      `the spec accepts the request but the server refused it with 400 ${said} — the document should state the rule (or the server is wrong)`,
    ];
  }

  private errorObjectProblems(response: GatewayExchange['response']): string[] {
    const type = mediaType(headerValue(response.headers['content-type']))?.essence;
    if (type !== 'application/json') return [`content-type ${String(response.headers['content-type'])}, expected application/json`];
    let body: unknown;
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(ERROR_SCHEMA);
    return validate(body) ? [] : [`not the error object: ${ajvErrors(validate.errors)}`];
  }

  /** A route the document does not have: answered by the `$default` route with the error object. */
  private checkFallback({ response }: GatewayExchange): string[] {
    const problems = this.errorObjectProblems(response);
    if (!FALLBACK_STATUSES.includes(response.status))
      problems.push(`status ${response.status} for a route the document does not have (expected 404 route_not_found)`);
    if (!Object.keys(response.headers).some((name) => name.toLowerCase() === 'switchyard-version'))
      problems.push('required header Switchyard-Version is missing');
    return problems;
  }

  /** What the gateway answered itself: the error object with an API Gateway status, never a failed handler. */
  private checkGatewayAnswer({ response }: GatewayExchange): string[] {
    if (response.status === 500)
      return ['the handler failed: API Gateway answers {"message":"Internal Server Error"}, which no operation documents'];
    const problems = this.errorObjectProblems(response);
    if (!GATEWAY_STATUSES.includes(response.status)) problems.push(`status ${response.status} is no answer of the gateway's own`);
    return problems;
  }
}

let shared: ContractValidator | undefined;

/**
 * CPU milliseconds this test file spent building the validator and checking exchanges (the
 * harness's cost; CPU time, so a busy machine does not inflate it).
 */
let spentMs = 0;

/** CPU milliseconds of the process so far (user and system). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The validator of docs/openapi.json, built on first use (once per test file), with the compiled validators. */
export function contractValidator(): ContractValidator {
  if (!shared) {
    const start = cpuMs();
    const text = readFileSync(resolve(process.cwd(), OPENAPI_DOCUMENT_FILE), 'utf8');
    shared = new ContractValidator(text, ContractValidator.precompile(text));
    spentMs += cpuMs() - start;
  }
  return shared;
}

/** The environment variable global-setup sets: the directory where each worker appends its coverage. */
export const COVERAGE_DIR_ENV = 'SWITCHYARD_CONTRACT_COVERAGE_DIR';

/** One test file's coverage, as a line of a worker's coverage file. */
export interface CoverageRecord {
  /** The test file, from the repository root. */
  file: string;
  /** `operationId status` pairs it exercised (`$default 404`, `$gateway 413` included). */
  pairs: string[];
  /** CPU milliseconds spent building the validator and checking this file's exchanges. */
  ms: number;
  /** Exchanges checked. */
  exchanges: number;
}

/** A mismatch and where it was seen. */
interface Seen {
  check: ExchangeCheck;
  test: string | undefined;
}

/** The name of the running test, when jest runs one. */
function currentTest(): string | undefined {
  const state = (globalThis as { expect?: { getState(): { currentTestName?: string } } }).expect?.getState();
  return state?.currentTestName;
}

/** The running test file, when jest runs one. */
function currentTestFile(): string | undefined {
  const state = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect?.getState();
  return state?.testPath;
}

/** Formats a check's problems for an error message. */
export function describeMismatch(check: ExchangeCheck, test?: string): string {
  const where = `${check.method} ${check.target} → ${check.status} (${check.operation})${test ? ` in "${test}"` : ''}`;
  return `${where}:\n${check.problems.map((p) => `  - ${p}`).join('\n')}`;
}

/** A contract mismatch on an exchange the test made with `api.request`. */
export class ContractMismatchError extends Error {
  /** @param check the failed check */
  constructor(readonly check: ExchangeCheck) {
    super(`The exchange does not keep docs/openapi.json (test/helpers/contract-validator.ts):\n${describeMismatch(check)}`);
    this.name = 'ContractMismatchError';
  }
}

/**
 * Watches one gateway's exchanges ({@link observe} is its `onExchange`): checks each, keeps the
 * failed checks until claimed by `api.request` (by the `apigw-requestid` the gateway answers), and
 * the (operation, status) pairs exercised for the suite's coverage report.
 */
export class ContractRecorder {
  private readonly validator = contractValidator();
  private readonly failed = new Map<string, Seen>();
  private readonly unclaimable: Seen[] = [];
  private readonly pairs = new Set<string>();
  private exchanges = 0;

  /** The gateway's `onExchange` hook. */
  readonly observe = (exchange: GatewayExchange): void => {
    const start = cpuMs();
    const check = this.validator.check(exchange);
    spentMs += cpuMs() - start;
    this.exchanges += 1;
    this.pairs.add(`${check.operation} ${check.status}`);
    if (check.problems.length === 0) return;
    const id = headerValue(exchange.response.headers['apigw-requestid']);
    const seen = { check, test: currentTest() };
    if (id) this.failed.set(id, seen);
    else this.unclaimable.push(seen);
  };

  /**
   * Takes the failed check of an exchange, if it failed.
   * @param requestId the `apigw-requestid` response header
   * @throws ContractMismatchError when the exchange broke the contract
   */
  claim(requestId: string | null): void {
    if (!requestId) return;
    const seen = this.failed.get(requestId);
    if (!seen) return;
    this.failed.delete(requestId);
    throw new ContractMismatchError(seen.check);
  }

  /**
   * Writes this file's coverage for the global teardown's report, then fails on the mismatches no
   * `api.request` claimed (raw `fetch` calls), naming the test of each.
   * @throws Error listing them
   */
  finish(): void {
    const dir = process.env[COVERAGE_DIR_ENV];
    const file = currentTestFile();
    if (dir && file && this.pairs.size > 0) {
      mkdirSync(dir, { recursive: true });
      const record: CoverageRecord = {
        file: relative(process.cwd(), file),
        pairs: [...this.pairs].sort(),
        ms: Math.round(spentMs),
        exchanges: this.exchanges,
      };
      spentMs = 0;
      appendFileSync(join(dir, `worker-${process.env.JEST_WORKER_ID ?? process.pid}.jsonl`), `${JSON.stringify(record)}\n`);
    }
    const left = [...this.failed.values(), ...this.unclaimable];
    this.failed.clear();
    this.unclaimable.length = 0;
    if (left.length > 0) {
      throw new Error(
        `${left.length} exchange(s) made outside api.request do not keep docs/openapi.json (test/helpers/contract-validator.ts):\n${left
          .map((s) => describeMismatch(s.check, s.test))
          .join('\n')}`,
      );
    }
  }
}

/**
 * The contract coverage of a run: what {@link coverageReport} prints, and why the run fails, if it
 * does. Operations and statuses never exercised are reported, not failed (an error status such as
 * 500 `internal_error` or 413 has no business being provoked by every suite). An operation with no
 * success (2xx/3xx) exercised at all fails a run of the whole HTTP suite: the schema of its main
 * answer, what a client builds on, would then never have been checked against a real answer, which
 * is what the harness exists to prevent.
 */
export interface CoverageReport {
  text: string;
  /** Set when an operation has no success (2xx/3xx) exercised (or none at all) although every HTTP suite ran. */
  failure?: string;
}

/**
 * Reads the coverage the test files wrote ({@link ContractRecorder.finish}) and compares it with the
 * (operation, status) pairs the document lists.
 * @param dir the directory of the workers' coverage files
 * @returns undefined when no test file recorded any exchange (no HTTP suite ran)
 */
export function coverageReport(dir: string): CoverageReport | undefined {
  let lines: string[];
  try {
    lines = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean));
  } catch {
    return undefined;
  }
  if (lines.length === 0) return undefined;
  const records = lines.map((l) => JSON.parse(l) as CoverageRecord);
  const exercised = new Set(records.flatMap((r) => r.pairs));
  const documented = new ContractValidator(readFileSync(resolve(process.cwd(), OPENAPI_DOCUMENT_FILE), 'utf8')).documentedStatuses();
  const neverExercised: string[] = [];
  const noSuccess: string[] = [];
  let pairs = 0;
  let covered = 0;
  for (const [operation, statuses] of documented) {
    pairs += statuses.length;
    const seen = statuses.filter((s) => exercised.has(`${operation} ${s}`));
    covered += seen.length;
    if (seen.length === 0) neverExercised.push(operation);
    else if (!seen.some((s) => s < 400)) noSuccess.push(operation);
  }
  const ms = records.reduce((sum, r) => sum + (r.ms ?? 0), 0);
  const exchanges = records.reduce((sum, r) => sum + (r.exchanges ?? 0), 0);
  const text = [
    `Contract coverage (docs/openapi.json, ${records.length} test file(s), ${exchanges} exchanges checked in ${(ms / 1000).toFixed(1)} s of CPU): ${covered} of ${pairs} documented (operation, status) pairs exercised.`,
    `  Operations never exercised: ${neverExercised.join(', ') || 'none'}.`,
    `  Operations exercised without a success (2xx/3xx) answer: ${noSuccess.join(', ') || 'none'}.`,
  ].join('\n');
  // The whole HTTP suite ran when every test/http file recorded its exchanges (a targeted run only reports).
  const recorded = new Set(records.map((r) => r.file));
  const suite = readdirSync(resolve(process.cwd(), 'test/http')).filter((f) => f.endsWith('.test.ts'));
  const fullRun = suite.every((f) => recorded.has(join('test/http', f)));
  const unverified = [...neverExercised, ...noSuccess];
  if (fullRun && unverified.length > 0) {
    return {
      text,
      failure: `No HTTP test produced a success (2xx/3xx) answer of ${unverified.join(', ')}: the schema of its main answer was never checked against a real one. Add a test that does (test/helpers/contract-validator.ts, coverageReport).`,
    };
  }
  return { text };
}
