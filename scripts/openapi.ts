/**
 * Generates docs/openapi.json, the OpenAPI 3.1.0 document of the API, from the code:
 * - the route table (shared/api/routes.ts `ROUTES`): every path and method;
 * - the operation metadata (scripts/openapi/openapi-operations.ts): ids, tags, texts, parameters, the
 *   handlers' own query and body schemas, success answers, error statuses and codes;
 * - the response schemas (shared/schemas/*-resource-schema.ts), turned into JSON Schema 2020-12 by
 *   zod's own `z.toJSONSchema` (OpenAPI 3.1's schema dialect is JSON Schema 2020-12:
 *   https://spec.openapis.org/oas/v3.1.0#schema-object); every schema with an `id` meta becomes a
 *   component under `components/schemas`, referenced as `#/components/schemas/<id>`;
 * - the event catalogue (shared/domain/events.ts): one OpenAPI `webhooks` entry per event type
 *   (https://spec.openapis.org/oas/v3.1.0#oasWebhooks), with the Standard Webhooks headers.
 * Query ranges follow Stripe's own OpenAPI document (`created` as a `deepObject` parameter,
 * serialized `created[gte]=…`: https://spec.openapis.org/oas/v3.1.0#style-values); the versioning
 * text follows Stripe's dated versions (https://docs.stripe.com/api/versioning).
 *
 * `npm run openapi` writes the file; `npm run openapi -- --check` exits 1 when the committed file
 * differs from a fresh generation (CI). The output is deterministic: keys in a fixed order,
 * 2-space indentation, a trailing newline. Build-time only: never imported by a Lambda.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as z from 'zod';
import { API_VERSION, API_VERSION_HEADER } from '../shared/api/api-version';
import { ROUTES, type RouteDefinition } from '../shared/api/routes';
import { CONNECTOR_CAPABILITIES } from '../shared/connectors/capabilities';
import { CREDENTIAL_PIECES, FLUTTERWAVE_ENCRYPTION_KEY_LENGTH } from '../shared/connectors/credential-mode';
import { CONNECTOR_NAMES, type ConnectorName } from '../shared/domain/connector-account';
import {
  authenticationFailed,
  idempotencyKeyInUse,
  idempotencyKeyReused,
  RateLimitExceededError,
  resourceNotFound,
  storageUnavailable,
} from '../shared/domain/errors';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../shared/domain/events';
import { CURRENCIES } from '../shared/domain/money';
import { PAYMENT_METHODS } from '../shared/domain/payment';
import { ALL_EVENTS } from '../shared/domain/webhook-endpoint';
import { DEFAULT_RATE_LIMITS, operationClassOf, RATE_LIMIT_WINDOW_SECONDS, rateLimitHeaders } from '../shared/http/rate-limit';
import { SANDBOX_PAGE_KINDS } from '../shared/operations/sandbox/sandbox-page-operations';
import { authenticatePaymentBodySchema } from '../shared/schemas/authentication-schemas';
import { countrySchema, metadataSchema, paymentMethodDataSchema, returnUrlSchema, WELL_FORMED_TEXT } from '../shared/schemas/common';
import { createConnectorAccountSchema } from '../shared/schemas/connector-account-schemas';
import { ApiErrorResource } from '../shared/schemas/error-schema';
import { EventResource, eventResourceOf } from '../shared/schemas/event-resource-schema';
import { forceSyncParamSchema } from '../shared/schemas/force-sync-schema';
import { timestampParamSchema } from '../shared/schemas/list-query-schema';
import { confirmPaymentBodySchema, createPaymentBodySchema } from '../shared/schemas/payment-schemas';
import { priorityListSchema } from '../shared/schemas/routing-schemas';
import {
  createWebhookEndpointSchema,
  enabledEventsSchema,
  MAX_ENABLED_EVENTS,
  MAX_URL_LENGTH,
} from '../shared/schemas/webhook-endpoint-schemas';
import { EXAMPLE_MISSING_AMOUNT_ERROR, WEBHOOK_EXAMPLES } from './openapi/openapi-examples';
import {
  type BodyExample,
  type ErrorStatus,
  OPENAPI_OPERATIONS,
  OPENAPI_TAGS,
  type OperationMetadata,
  type ResponseHeaderName,
  type SuccessResponse,
} from './openapi/openapi-operations';

/** A JSON Schema / OpenAPI object as plain JSON. */
export type JsonObject = { [key: string]: unknown };

/** Where the document is written, from the repository root. */
export const OPENAPI_FILE = 'docs/openapi.json';

/** The security scheme name of the `api-key` header. */
const API_KEY_SCHEME = 'ApiKey';

const COMPONENT_REF = '#/components/schemas/';

/** Deep equality of two JSON values (objects compared key by key, order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => sameJson((a as JsonObject)[k], (b as JsonObject)[k]));
}

/** Rewrites zod's `#/$defs/<id>` references to `#/components/schemas/<id>`, everywhere in a value. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/') ? COMPONENT_REF + v.slice('#/$defs/'.length) : rewriteRefs(v);
  }
  return out;
}

/** The ISO 3166-1 alpha-2 codes `countrySchema` accepts (a set inside a refinement), enumerated once. */
const COUNTRY_CODES: readonly string[] = (() => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const codes: string[] = [];
  for (const a of letters) for (const b of letters) if (countrySchema.safeParse(a + b).success) codes.push(a + b);
  return codes;
})();

/**
 * Components the overrides refer to (`#/$defs/<id>`) for schemas that carry no `id` of their own
 * (request schemas live outside the resource-schema files), added to `components/schemas` when used.
 */
const OVERRIDE_COMPONENTS: Readonly<Record<string, JsonObject>> = {
  CountryCode: {
    type: 'string',
    enum: [...COUNTRY_CODES],
    description: 'An ISO 3166-1 alpha-2 country code (officially assigned), upper case: `NG`, `GH`, `KE`, `ZA`.',
  },
};

/**
 * `created[…]` values as the list handlers read them (shared/schemas/list-query-schema.ts
 * `timestampParamSchema`): Unix seconds (1 to 11 digits), or an ISO 8601 date from 1970 on with an
 * optional time and offset whose fields are in range (month 01–12, day 01–31, hour 00–23 or
 * `24:00`, minute and second 00–59, offset hours 00–23). A day past its month's end
 * (`2026-02-30`) is refused by the schema's own calendar pattern, written beside this one; left to
 * the handler: an offset that moves the instant before 1970-01-01 or after 9999-12-31T00:00Z.
 */
const TIMESTAMP_PATTERN =
  '^(\\d{1,11}|(19[7-9]\\d|[2-9]\\d{3})-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])(T(([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,9})?)?|24:00(:00(\\.0{1,9})?)?)(Z|[+-]([01]\\d|2[0-3]):?[0-5]\\d)?)?)$';

/**
 * An absolute `http:` or `https:` URL without credentials (shared/schemas/common.ts `returnUrlSchema`), whose host
 * WHATWG's URL parser takes (WHATWG URL Standard, host parsing: no `%` but a `%XX` escape other than `%25`/`%00`, none of `<>^|[]\` outside an
 * IPv6 `[…]`, so `https://%%` is refused by the spec as by the server),
 * holding no NUL and no lone UTF-16 surrogate (`WELL_FORMED_TEXT`; JSON Schema patterns are ECMA-262
 * regular expressions, which ajv and OpenAPI tools compile with the `u` flag, where `\uD800-\uDFFF`
 * matches only an unpaired surrogate).
 */
const RETURN_URL_PATTERN =
  '^[Hh][Tt][Tt][Pp][Ss]?://(\\[[0-9A-Fa-f:.]+\\]|([^/?#@\\s\\u0000\\uD800-\\uDFFF%<>^|\\[\\]\\\\]|%(?!25|00)[0-9A-Fa-f]{2})+)(:[0-9]*)?([/?#\\\\][^\\s\\u0000\\uD800-\\uDFFF]*)?$';

/**
 * The saved-method rules of create and confirm (`checkSavedMethodFields` in
 * shared/schemas/payment-schemas.ts): `setup_future_usage: off_session` needs `customer_acceptance`, which
 * is taken only with it; `off_session` only with `payment_method_id`, which excludes `payment_method_data`,
 * `setup_future_usage` and a method other than card; on create, `setup_future_usage` needs `customer_id` and
 * `payment_method_id` excludes `merchant_connector_id`.
 */
function savedMethodRules(create: boolean): Record<string, Record<string, unknown>> {
  return {
    setup_future_usage: {
      allOf: [
        ...(create ? [{ required: ['customer_id'] }] : []),
        // off_session needs the payer's acceptance: not off_session, or customer_acceptance present.
        { anyOf: [{ not: { properties: { setup_future_usage: { const: 'off_session' } } } }, { required: ['customer_acceptance'] }] },
        { not: { required: ['payment_method_id'] } },
      ],
    },
    customer_acceptance: { properties: { setup_future_usage: { const: 'off_session' } }, required: ['setup_future_usage'] },
    off_session: { required: ['payment_method_id'] },
    payment_method_id: {
      allOf: [
        { not: { required: ['payment_method_data'] } },
        { not: { required: ['merchant_connector_id'] } },
        { properties: { payment_method: { const: 'card' } } },
      ],
    },
  };
}

/**
 * `payment_method_data` and `payment_method` agree: card data with `card` (or no method), USSD data
 * with `ussd` (shared/schemas/payment-schemas.ts `checkMethodData`). On create, a card also needs
 * `confirm: true` (card details are never stored).
 */
function methodDataRules(cardNeedsConfirm: boolean): JsonObject {
  return {
    payment_method_data: {
      anyOf: [
        {
          properties: {
            payment_method_data: present('card'),
            payment_method: { const: 'card' },
            ...(cardNeedsConfirm ? { confirm: { const: true } } : {}),
          },
          ...(cardNeedsConfirm ? { required: ['confirm'] } : {}),
        },
        { properties: { payment_method_data: present('ussd'), payment_method: { const: 'ussd' } } },
      ],
    },
  };
}

/**
 * Each processor's secret-key shapes, test or live (shared/connectors/credential-mode.ts `KEY_SHAPES`, which
 * is not exported: the same expressions, the two modes joined). A key of neither shape is refused with 400
 * `parameter_invalid` before any call; which mode the stage takes is the server's (`connector_credentials_mode`).
 */
const API_KEY_PATTERNS: Readonly<Record<Exclude<ConnectorName, 'sandbox'>, string>> = {
  stripe: '^(sk|rk)_(test|live)_[A-Za-z0-9]+$',
  paystack: '^sk_(test|live)_[A-Za-z0-9]+$',
  flutterwave: '^FLWSECK(_TEST)?-[A-Za-z0-9-]+$',
};

/**
 * What `POST /connector_accounts` takes for one connector (a branch of the body's `oneOf`), as the operation checks it before any call
 * (shared/connectors/credential-mode.ts `credentialShapeProblem` and `CREDENTIAL_PIECES`;
 * shared/operations/connector-accounts/connector-account-operations.ts `credentialsOf`, `assertEnabledWithinCapabilities`):
 * credentials required but for the sandbox, which takes none (`assertNoUnusedCredential`); the key's shape;
 * `key1` and the webhook secret only where the connector uses them (Flutterwave's `key1` 24 characters, Stripe's secret `whsec_…`); and
 * `payment_methods_enabled` within what the connector takes (shared/connectors/capabilities.ts).
 */
function connectorAccountRules(name: ConnectorName): JsonObject {
  const pieces = CREDENTIAL_PIECES[name];
  const details: JsonObject = { properties: {} as JsonObject };
  const detailProps = details.properties as JsonObject;
  if (name !== 'sandbox') detailProps.api_key = { pattern: API_KEY_PATTERNS[name] };
  if (pieces.key1 === 'unused') detailProps.key1 = false;
  if (pieces.key1 === 'required') {
    details.required = ['key1'];
    detailProps.key1 = { minLength: FLUTTERWAVE_ENCRYPTION_KEY_LENGTH, maxLength: FLUTTERWAVE_ENCRYPTION_KEY_LENGTH };
  }
  const properties: JsonObject = { connector_account_details: pieces.api_key === 'unused' ? false : details };
  if (pieces.webhook_secret === 'unused') properties.connector_webhook_details = false;
  if (name === 'stripe') properties.connector_webhook_details = { properties: { merchant_secret: { pattern: '^whsec_\\S+$' } } };
  const capabilities = CONNECTOR_CAPABILITIES[name].payment_methods;
  const everything = capabilities.length === PAYMENT_METHODS.length && capabilities.every((c) => c.currencies.length === CURRENCIES.length);
  if (!everything) {
    const entries = capabilities.map((c) => ({
      properties: { payment_method: { const: c.payment_method }, currencies: { items: { enum: [...c.currencies] } } },
    }));
    properties.payment_methods_enabled = { items: entries.length === 1 ? entries[0] : { anyOf: entries } };
  }
  return {
    properties: { connector_name: { const: name }, ...properties },
    required: name === 'sandbox' ? ['connector_name'] : ['connector_name', 'connector_account_details'],
  };
}

/** "`field` is present" as a subschema (the property named, so linters see it defined). */
function present(field: string): JsonObject {
  return { properties: { [field]: {} }, required: [field] };
}

/**
 * Adjusts zod's JSON Schema where it says less than the schema means (a `z.toJSONSchema` `override`):
 * - `format: date-time` says what a timestamp is; zod also writes its own long regex as `pattern`,
 *   which only repeats it: dropped. An e-mail address keeps zod's `pattern` beside `format: email`:
 *   it is the rule the API applies, stricter than RFC 5321 (no `/` or `!` in the local part);
 * - a pipe from `unknown` (metadata: checked for a `__proto__` key first) is documented as what it
 *   pipes into, since its input side is `{}` (anything);
 * - rules the request schemas hold in refinements, which zod cannot convert, written in JSON Schema
 *   where it can say them (the contract check of the HTTP suites, test/helpers/contract-validator.ts,
 *   holds the spec to them): `enabled_events` entries (catalogue types, or `*` alone), the
 *   ISO 3166-1 country codes (component `CountryCode`), the `created[…]` timestamp forms, an
 *   absolute http(s) `return_url` without credentials, an endpoint `url` as an absolute URI of at
 *   most 2,048 characters, exactly one of `card`/`ussd` in `payment_method_data` and its agreement
 *   with `payment_method` (and, on create, `confirm: true` with a card, and a method with
 *   `confirm: true`), exactly one answer to an authentication step, a birthday that is a calendar
 *   date, no `__proto__` metadata key; a new connector account's credentials and enabled payment
 *   methods as its connector takes them ({@link connectorAccountRules}), each payment method once in
 *   `payment_methods_enabled`, and each account once in a `priority` list. What JSON Schema cannot say is listed, with the reason, in
 *   test/helpers/contract-validator.ts (`SPEC_CANNOT_EXPRESS`, `SERVER_ALSO_ACCEPTS`).
 */
function overrideSchema(ctx: { zodSchema: unknown; jsonSchema: JsonObject }): void {
  const { jsonSchema } = ctx;
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
  const def = (ctx.zodSchema as { _zod?: { def?: { type?: string; in?: { _zod: { def: { type: string } } }; out?: z.ZodType } } })._zod
    ?.def;
  if (def?.type === 'pipe' && def.in && def.out && ['unknown', 'any'].includes(def.in._zod.def.type)) {
    const piped = z.toJSONSchema(def.out, { io: 'input', unrepresentable: 'any', override: overrideSchema }) as JsonObject;
    delete piped.$schema;
    Object.assign(jsonSchema, piped);
  }
  if (ctx.zodSchema === metadataSchema) {
    jsonSchema.maxProperties = 50;
    jsonSchema.propertyNames = { minLength: 1, maxLength: 40, pattern: WELL_FORMED_TEXT.source, not: { const: '__proto__' } };
    jsonSchema.description = 'String key/value pairs: at most 50 keys of 1–40 characters, values of at most 500 characters. No card data.';
  }
  if (ctx.zodSchema === timestampParamSchema) {
    jsonSchema.description =
      'An ISO 8601 timestamp (`2026-11-21T10:00:00Z`; a date alone means midnight UTC) or Unix seconds (`1763719200`).';
    jsonSchema.pattern = TIMESTAMP_PATTERN;
    jsonSchema.examples = ['2026-11-21T10:00:00Z'];
    // Unix seconds may be sent as a number (a query string carries digits either way; the pattern
    // applies to strings only), so typed clients take `string | number`.
    jsonSchema.type = ['string', 'integer'];
    jsonSchema.minimum = 0;
    jsonSchema.maximum = 99_999_999_999;
  }
  if (ctx.zodSchema === forceSyncParamSchema) {
    // A boolean, as a query string spells it (`true` / `false`).
    for (const key of Object.keys(jsonSchema)) if (key !== 'description') delete jsonSchema[key];
    jsonSchema.type = 'boolean';
  }
  if (ctx.zodSchema === enabledEventsSchema) {
    delete jsonSchema.type;
    delete jsonSchema.items;
    delete jsonSchema.minItems;
    delete jsonSchema.maxItems;
    jsonSchema.anyOf = [
      { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, minItems: 1, maxItems: MAX_ENABLED_EVENTS },
      { type: 'array', prefixItems: [{ const: ALL_EVENTS }], items: false, minItems: 1 },
    ];
    jsonSchema.description = 'Event types of the catalogue, or `["*"]` for every type (`*` only alone). Duplicates are dropped.';
  }
  if (ctx.zodSchema === countrySchema) {
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
    jsonSchema.$ref = '#/$defs/CountryCode';
  }
  if (ctx.zodSchema === returnUrlSchema) jsonSchema.pattern = RETURN_URL_PATTERN;
  if (ctx.zodSchema === createWebhookEndpointSchema.shape.url) {
    jsonSchema.format = 'uri';
    jsonSchema.maxLength = MAX_URL_LENGTH;
  }
  if (ctx.zodSchema === paymentMethodDataSchema) {
    jsonSchema.minProperties = 1;
    jsonSchema.maxProperties = 1;
  }
  if (ctx.zodSchema === createPaymentBodySchema) {
    jsonSchema.dependentSchemas = {
      ...methodDataRules(true),
      ...savedMethodRules(true),
      // `confirm: true` processes the payment now: it needs a method (or data that implies one, or a saved method).
      confirm: {
        anyOf: [
          { properties: { confirm: { const: false } } },
          present('payment_method'),
          present('payment_method_data'),
          present('payment_method_id'),
        ],
      },
    };
  }
  if (ctx.zodSchema === confirmPaymentBodySchema) jsonSchema.dependentSchemas = { ...methodDataRules(false), ...savedMethodRules(false) };
  // One branch per connector (`connector_name` is required and one of them, so exactly one applies).
  if (ctx.zodSchema === createConnectorAccountSchema) jsonSchema.oneOf = CONNECTOR_NAMES.map(connectorAccountRules);
  // Each payment method once in `payment_methods_enabled` (its `superRefine`): at most one entry of each.
  if (ctx.zodSchema === createConnectorAccountSchema.shape.payment_methods_enabled.unwrap()) {
    jsonSchema.allOf = PAYMENT_METHODS.map((method) => ({
      contains: { properties: { payment_method: { const: method } }, required: ['payment_method'] },
      minContains: 0,
      maxContains: 1,
    }));
  }
  // A priority list names each account once (its entries hold nothing but the id).
  if (ctx.zodSchema === priorityListSchema) jsonSchema.uniqueItems = true;

  // A real calendar date (`format: date`, RFC 3339 full-date); "in the past" is the handler's.
  // birthday is `z.lazy(…).optional()`: its string schema is the lazy one's inner type, built once (`unwrap()` would build another).
  if (ctx.zodSchema === authenticatePaymentBodySchema.shape.birthday.unwrap()._zod.innerType) jsonSchema.format = 'date';
  if (ctx.zodSchema === authenticatePaymentBodySchema) {
    jsonSchema.oneOf = ['pin', 'otp', 'phone', 'birthday', 'address'].map((field) => ({ required: [field] }));
  }
}

/** The document under construction: its components, filled as schemas are converted. */
class DocumentBuilder {
  readonly schemas = new Map<string, JsonObject>();

  /**
   * Converts a zod schema to JSON Schema 2020-12 with `z.toJSONSchema`, moving every schema with an
   * `id` meta into `components/schemas`.
   * @param io `output` for responses (what the API writes), `input` for requests (what it accepts)
   * @returns the schema, or a `$ref` to its component
   * @throws Error when two different schemas claim one component id
   */
  schema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
    const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: overrideSchema }) as JsonObject;
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, JsonObject>))
      this.addComponent(id, rewriteRefs(def) as JsonObject);
    const text = JSON.stringify(converted);
    for (const [id, def] of Object.entries(OVERRIDE_COMPONENTS)) if (text.includes(`"#/$defs/${id}"`)) this.addComponent(id, def);
    return rewriteRefs(root) as JsonObject;
  }

  private addComponent(id: string, def: JsonObject): void {
    const known = this.schemas.get(id);
    if (known && !sameJson(known, def)) throw new Error(`Component ${id} is produced with two different shapes (input and output?).`);
    this.schemas.set(id, def);
  }
}

/** Sorts an object's keys (for `components/*` maps: stable whatever the conversion order). */
function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const STATUS_TEXT: Readonly<Record<ErrorStatus, string>> = {
  400: 'The request is invalid',
  401: 'Not authenticated',
  402: 'The processor refused the submission',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'The body is larger than 64 KiB',
  415: 'The body is not JSON',
  422: 'The Idempotency-Key was used with another request',
  429: 'Over your requests-per-second limit for this class of operation (`read`: GET, `write`: the others); wait `Retry-After` seconds',
  500: 'A bug on our side',
  502: 'The connector is not configured, or the processor refused',
  503: 'Storage or the processor could not be reached, or the outcome is unknown',
};

/** The resource a 404 of a route names, by its first path parameter (for the example). */
const NOT_FOUND_RESOURCE: Readonly<Record<string, [string, string]>> = {
  payment_id: ['payment', 'payment_id'],
  refund_id: ['refund', 'refund_id'],
  customer_id: ['customer', 'customer_id'],
  webhook_endpoint_id: ['webhook endpoint', 'webhook_endpoint_id'],
  event_id: ['event', 'event_id'],
  merchant_connector_id: ['connector account', 'merchant_connector_id'],
  routing_algorithm_id: ['routing algorithm', 'routing_algorithm_id'],
};

/** An error example built by the code that answers it, so its message is the real one. */
function errorExamples(
  op: OperationMetadata,
  route: RouteDefinition,
  status: ErrorStatus,
  codes: readonly string[],
): Record<string, BodyExample> {
  const examples: Record<string, BodyExample> = {};
  if (status === 400 && route.name === 'CreatePayment') {
    examples.parameter_missing = { summary: 'A create without `amount`', value: EXAMPLE_MISSING_AMOUNT_ERROR };
  }
  if (status === 401 && codes.includes('invalid_api_key')) {
    examples.invalid_api_key = { summary: 'Missing, malformed, unknown or revoked key', value: authenticationFailed().toBody() };
  }
  const firstParam = Object.keys(op.pathParams ?? {})[0];
  const missing = firstParam ? NOT_FOUND_RESOURCE[firstParam] : undefined;
  if (status === 404 && missing) {
    examples.resource_missing = {
      summary: `No such ${missing[0]} for this merchant`,
      value: resourceNotFound(missing[0], missing[1]).toBody(),
    };
  }
  if (status === 409 && codes.includes('idempotency_key_in_use')) {
    examples.idempotency_key_in_use = { summary: 'The first request with this key still runs', value: idempotencyKeyInUse().toBody() };
  }
  if (status === 422) examples.idempotency_key_reused = { summary: 'Same key, another body', value: idempotencyKeyReused().toBody() };
  if (status === 429 && codes.includes('rate_limit_exceeded')) {
    const operationClass = operationClassOf(route.method);
    const limit = DEFAULT_RATE_LIMITS[operationClass];
    examples.rate_limit_exceeded = {
      summary: `Over the default ${operationClass} limit (${limit} per second)`,
      value: new RateLimitExceededError(operationClass, limit, rateLimitHeaders(operationClass, limit, 1)).toBody(),
    };
  }
  if (status === 503 && codes.includes('service_unavailable')) {
    examples.service_unavailable = { summary: 'Storage unreachable before anything was done', value: storageUnavailable().toBody() };
  }
  return examples;
}

/** `{name: {summary, value}}` as OpenAPI Example Objects. */
function exampleObjects(examples: Readonly<Record<string, BodyExample>> | undefined): JsonObject | undefined {
  if (!examples || Object.keys(examples).length === 0) return undefined;
  return Object.fromEntries(Object.entries(examples).map(([name, e]) => [name, { summary: e.summary, value: e.value }]));
}

/** The header references of a response. */
function responseHeaders(names: readonly string[]): JsonObject | undefined {
  if (names.length === 0) return undefined;
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));
}

/** Whether a response is JSON (so it carries `Switchyard-Version`). */
function isJson(response: SuccessResponse): boolean {
  return response.content.kind === 'json';
}

function successResponse(builder: DocumentBuilder, op: OperationMetadata, response: SuccessResponse): JsonObject {
  const headers: string[] = [];
  if (op.apiHandler) headers.push('request-id');
  if (isJson(response) || (op.operationId === 'getOpenApiDocument' && response.content.kind === 'none')) headers.push(API_VERSION_HEADER);
  headers.push(...((response.headers ?? []) as ResponseHeaderName[]));
  const content = response.content;
  let body: JsonObject | undefined;
  if (content.kind === 'json') {
    body = {
      'application/json': {
        schema: builder.schema(content.schema, 'output'),
        ...(content.examples ? { examples: exampleObjects(content.examples) } : {}),
      },
    };
  } else if (content.kind === 'html') {
    body = { 'text/html': { schema: { type: 'string', description: 'An HTML page (UTF-8).' } } };
  } else if (content.kind === 'javascript') {
    body = { 'text/javascript': { schema: { type: 'string', description: 'JavaScript (UTF-8).' } } };
  }
  return {
    description: response.description,
    ...(responseHeaders(headers) ? { headers: responseHeaders(headers) } : {}),
    ...(body ? { content: body } : {}),
  };
}

function errorResponse(op: OperationMetadata, route: RouteDefinition, status: ErrorStatus, codes: readonly string[]): JsonObject {
  const listed = codes.map((c) => (c.startsWith('<') ? `the processor's own code` : `\`${c}\``)).join(', ');
  const description = `${STATUS_TEXT[status]}: ${listed}.`;
  if (op.errorFormat === 'html') {
    return {
      description: `${description} Shown as an HTML page.`,
      content: { 'text/html': { schema: { type: 'string', description: 'An error page (UTF-8); it never shows a stack trace.' } } },
    };
  }
  const headers = ['request-id', API_VERSION_HEADER];
  if (status === 503 && (codes.includes('outcome_unknown') || codes.includes('connector_unavailable'))) headers.push('Retry-After');
  if (op.idempotent && status !== 429) headers.push('Idempotent-Replayed'); // a 429 is never stored, so never replayed
  const examples = exampleObjects(errorExamples(op, route, status, codes));
  // A 429 always carries the three rate-limit headers (shared/http/rate-limit.ts `rateLimitHeaders`).
  const rateLimited =
    status === 429
      ? {
          'Retry-After': { $ref: '#/components/headers/RateLimitRetryAfter' },
          RateLimit: { $ref: '#/components/headers/RateLimit' },
          'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
        }
      : {};
  return {
    description,
    headers: { ...responseHeaders(headers), ...rateLimited },
    content: { 'application/json': { schema: { $ref: `${COMPONENT_REF}Error` }, ...(examples ? { examples } : {}) } },
  };
}

/** The unwrapped schema of an optional field, and whether it was optional. */
function unwrapOptional(schema: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let inner = schema;
  let optional = false;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) {
    optional = true;
    inner = inner._zod.def.innerType as z.ZodType;
  }
  return { inner, optional };
}

/** The object schema under a query schema (a list query is `strictObject(...).superRefine().transform()`). */
function queryShape(schema: z.ZodType): Record<string, z.ZodType> {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodPipe) current = current._zod.def.in as z.ZodType;
  if (!(current instanceof z.ZodObject)) throw new Error('A query schema must be a zod object (or a pipe from one).');
  return current.shape as Record<string, z.ZodType>;
}

/**
 * The JSON Schema of one query parameter. A parameter parsed from its string (`limit`: digits, then
 * a number between bounds) is documented by what it means (its output: an integer with bounds);
 * one whose output is not representable (a timestamp normalized by a transform) by its input.
 */
function queryParamSchema(builder: DocumentBuilder, schema: z.ZodType): JsonObject {
  const input = builder.schema(schema, 'input');
  let output: JsonObject | undefined;
  try {
    output = z.toJSONSchema(schema, { io: 'output' }) as JsonObject;
    delete output.$schema;
  } catch {
    output = undefined;
  }
  if (output?.type === 'number' && input.type === 'string' && /^\^\\d\{1,\d+\}\$$/.test(String(input.pattern ?? ''))) {
    return { ...output, type: 'integer' };
  }
  return input;
}

function queryParameters(builder: DocumentBuilder, op: OperationMetadata): JsonObject[] {
  if (!op.query) return [];
  const params: JsonObject[] = [];
  for (const [name, field] of Object.entries(queryShape(op.query))) {
    const { inner, optional } = unwrapOptional(field);
    const doc = op.queryDocs?.[name];
    if (!doc) throw new Error(`${op.operationId}: query parameter ${name} has no description in openapi-operations.ts.`);
    const schema = queryParamSchema(builder, inner);
    if (doc.default !== undefined) schema.default = doc.default;
    if (name === 'created') {
      // Stripe's form (its OpenAPI document: `created`, `style: deepObject`, `explode: true`): serialized as
      // `created[gte]=…` (RFC 6570-style deep object), what openapi-fetch and Postman send.
      params.push({ name, in: 'query', required: false, description: doc.description, style: 'deepObject', explode: true, schema });
    } else {
      params.push({ name, in: 'query', required: !optional, description: doc.description, schema });
    }
  }
  return params;
}

/** Path parameters whose values are a closed set: the connectors of the webhook routes, the sandbox's page kinds. */
const PATH_PARAMETER_VALUES: Readonly<Record<string, readonly string[]>> = {
  connector: CONNECTOR_NAMES,
  kind: SANDBOX_PAGE_KINDS,
};

function pathParameters(route: RouteDefinition, op: OperationMetadata): JsonObject[] {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  return names.map((name) => {
    const description = op.pathParams?.[name];
    if (!description) throw new Error(`${route.name}: path parameter ${name} has no description in openapi-operations.ts.`);
    // A path parameter with a closed set of values says so (the connector of a webhook route, the kind of
    // a sandbox page); any other value answers 404 (a 4xx: the contract holds).
    const values = PATH_PARAMETER_VALUES[name];
    return {
      name,
      in: 'path',
      required: true,
      description,
      schema: values ? { type: 'string', enum: [...values] } : { type: 'string', minLength: 1 },
    };
  });
}

/**
 * Writes the field descriptions of a request body into its JSON Schema (dotted paths through
 * `properties`), and requires one for every property, so a new field cannot go undocumented.
 * @throws Error naming a described path the schema lacks, or a property left without a description
 */
function describeFields(schema: JsonObject, fields: Readonly<Record<string, string>>, where: string): JsonObject {
  for (const [path, description] of Object.entries(fields)) {
    let node: JsonObject | undefined = schema;
    for (const key of path.split('.')) node = (node?.properties as Record<string, JsonObject> | undefined)?.[key];
    if (!node) throw new Error(`${where}: the body has no field ${path} (openapi-operations.ts describes it).`);
    node.description = description;
  }
  const visit = (node: JsonObject, path: string): void => {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonObject>)) {
      const childPath = path ? `${path}.${key}` : key;
      if (typeof child.description !== 'string')
        throw new Error(`${where}: body field ${childPath} has no description in openapi-operations.ts.`);
      visit(child, childPath);
    }
  };
  visit(schema, '');
  return schema;
}

function operationObject(builder: DocumentBuilder, route: RouteDefinition, op: OperationMetadata): JsonObject {
  const parameters: JsonObject[] = [...pathParameters(route, op), ...queryParameters(builder, op)];
  if (op.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (op.apiHandler) parameters.push({ $ref: '#/components/parameters/SwitchyardVersion' });
  for (const h of op.requestHeaders ?? []) {
    parameters.push({ name: h.name, in: 'header', required: false, description: h.description, schema: { type: 'string' } });
  }
  const responses: JsonObject = {};
  const statuses = [...Object.keys(op.responses), ...Object.keys(op.errors)].map(Number).sort((a, b) => a - b);
  for (const status of statuses) {
    const success = op.responses[status];
    responses[String(status)] = success
      ? successResponse(builder, op, success)
      : errorResponse(op, route, status as ErrorStatus, op.errors[status as ErrorStatus] ?? []);
  }
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    description: op.description,
    security: route.auth ? [{ [API_KEY_SCHEME]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: op.body.required,
            description: op.body.description,
            content: {
              [op.body.mediaType]: {
                schema: describeFields(builder.schema(op.body.schema, 'input'), op.body.fields ?? {}, route.name),
                ...(op.body.examples ? { examples: exampleObjects(op.body.examples) } : {}),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** `payment.succeeded` → `paymentSucceededEvent`: the operation id of a webhook. */
function webhookOperationId(type: EventType): string {
  return `${type.replace(/[._]([a-z])/g, (_m, c: string) => c.toUpperCase())}Event`;
}

/** One OpenAPI `webhooks` entry per event type: what Switchyard POSTs to a merchant's endpoint. */
function webhooks(builder: DocumentBuilder): JsonObject {
  builder.schema(EventResource, 'output');
  const out: JsonObject = {};
  for (const type of EVENT_TYPES) {
    const family = builder.schema(eventResourceOf(type), 'output');
    out[type] = {
      post: {
        operationId: webhookOperationId(type),
        tags: ['Events'],
        summary: type,
        description: `${EVENT_CATALOGUE[type]} Sent to every enabled endpoint subscribed to \`${type}\` (or \`*\`), signed the Standard Webhooks way (https://www.standardwebhooks.com): verify the raw body with the endpoint's secret, dedupe on \`webhook-id\`. Retried for about 3 days until a 2xx comes within 15 s.`,
        security: [],
        parameters: [
          { $ref: '#/components/parameters/WebhookId' },
          { $ref: '#/components/parameters/WebhookTimestamp' },
          { $ref: '#/components/parameters/WebhookSignature' },
        ],
        requestBody: {
          required: true,
          description: 'The event, byte for byte as `GET /events/{event_id}` answers it.',
          content: {
            'application/json': {
              schema: { allOf: [family, { type: 'object', properties: { type: { const: type } } }] },
              ...(WEBHOOK_EXAMPLES[type] ? { examples: exampleObjects({ [type.replace('.', '_')]: WEBHOOK_EXAMPLES[type] }) } : {}),
            },
          },
        },
        responses: {
          '200': { description: 'Any 2xx within 15 s: delivered.' },
          '410': { description: 'Gone: the endpoint is disabled at once.' },
          default: {
            description:
              'Anything else (3xx included), a timeout or a network error: retried on the schedule; `Retry-After` postpones it (at most 1 day).',
          },
        },
      },
    };
  }
  return out;
}

const INFO_DESCRIPTION = `Switchyard routes payment intents (NGN, USD, GHS, ZAR, KES; card, bank transfer, USSD, mobile money) to processors (Paystack, Flutterwave, Stripe, or the built-in sandbox), drives them through their states, captures, voids and refunds them, and keeps customers.

This document is generated from the code (\`npm run openapi\`: the route table, the handlers' own zod schemas, the response schemas) and checked against every HTTP test. The prose contract is docs/api.md.

- **Authentication**: send your secret key in the \`api-key\` header (test keys look like \`sk_test_…\`). A missing, malformed, unknown or revoked key → 401, one body for all.
- **Amounts** are integers in minor units everywhere (\`150000\` NGN is ₦1,500.00). **Timestamps** are ISO 8601 UTC with milliseconds and \`Z\`.
- **Errors** are \`{"error": {"type", "code", "message", "param"?}}\`; messages never repeat what you sent.
- **Idempotency**: every create, confirm, capture, cancel and refund takes an \`Idempotency-Key\` (replayed for 24 hours with \`Idempotent-Replayed: true\`).
- **Rate limits**: per merchant and second, ${DEFAULT_RATE_LIMITS.read} reads (GET) and ${DEFAULT_RATE_LIMITS.write} writes (the other methods) by default, or the merchant's own limits. Over a limit → 429 \`rate_limit_exceeded\` with \`Retry-After\` and the IETF \`RateLimit\` / \`RateLimit-Policy\` fields; nothing was done, so retry after the wait (with the same \`Idempotency-Key\`). docs/rate-limits.md.
- **Versioning**: the API is versioned by date, as Stripe versions its API: send \`${API_VERSION_HEADER}: <date>\` to pin the version you built against, or leave it out to get the current one; every JSON answer names the version that produced it in the same header. Before 1.0 there is one version at a time, **${API_VERSION}**; any other value is refused with 400 \`api_version_invalid\`. A breaking change ships under a new date, announced in docs/api.md ("Versioning"), and after 1.0 a previous date keeps being served for at least 12 months.`;

/**
 * Builds the OpenAPI 3.1.0 document from the route table, the operation metadata and the schemas.
 * Pure: reads no file; the same code gives the same document.
 * @returns the document as plain JSON
 * @throws Error when a route has no metadata, a parameter has no description, or a component id is
 *   claimed by two different shapes
 */
export function buildOpenApiDocument(): JsonObject {
  const builder = new DocumentBuilder();
  builder.schema(ApiErrorResource, 'output');
  const paths: Record<string, JsonObject> = {};
  for (const route of ROUTES) {
    const op = OPENAPI_OPERATIONS[route.name];
    if (!op) throw new Error(`Route ${route.name} (${route.method} ${route.path}) has no entry in scripts/openapi/openapi-operations.ts.`);
    paths[route.path] ??= {};
    (paths[route.path] as JsonObject)[route.method.toLowerCase()] = operationObject(builder, route, op);
  }
  const webhookEntries = webhooks(builder);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Switchyard API',
      version: API_VERSION,
      summary: 'Serverless payment orchestration: payment intents, refunds and customers routed to processors.',
      description: INFO_DESCRIPTION,
    },
    servers: [
      { url: 'http://localhost:3000', description: 'The local stack (`npm start`; `PORT` changes the port).' },
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com',
        description: "A deployed stage: the HTTP API's `$default` stage (the stack's `ApiUrl` output).",
        variables: {
          apiId: { default: 'your-api-id', description: 'The HTTP API id.' },
          region: { default: 'eu-west-1', description: "The stage's AWS region (where it was deployed)." },
        },
      },
    ],
    security: [{ [API_KEY_SCHEME]: [] }],
    tags: OPENAPI_TAGS.map((t) => ({ name: t.name, description: t.description })),
    paths,
    webhooks: webhookEntries,
    components: {
      schemas: sortedKeys(Object.fromEntries(builder.schemas)),
      securitySchemes: {
        [API_KEY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'api-key',
          description:
            'Your secret API key: `sk_test_…` locally and on test stages, `sk_live_…` on production (`npm run keys -- create` issues one; `npm start` prints the development key).',
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Makes the request safe to retry: the first answer (whatever its status) is stored and replayed for 24 hours to a retry with the same key and body (`Idempotent-Replayed: true`); the same key with another body → 422; a retry while the first runs → 409. Scoped to your merchant, the route and its path parameters. A UUID is a good choice.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]{1,255}$' },
        },
        SwitchyardVersion: {
          name: API_VERSION_HEADER,
          in: 'header',
          required: false,
          description: `The API version you built against (dated, as Stripe's \`Stripe-Version\`). Absent: the current version. Any other value than ${API_VERSION} → 400 \`api_version_invalid\`.`,
          schema: { type: 'string', enum: [API_VERSION] },
        },
        WebhookId: {
          name: 'webhook-id',
          in: 'header',
          required: true,
          description: 'The event id (`evt_…`), the same on every retry: dedupe on it (delivery is at least once).',
          schema: { type: 'string' },
        },
        WebhookTimestamp: {
          name: 'webhook-timestamp',
          in: 'header',
          required: true,
          description: 'Unix seconds of this attempt; reject values too far from your clock (replay protection).',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        WebhookSignature: {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          description:
            '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` with the endpoint\'s secret; two space-separated signatures during a secret rotation\'s 24-hour overlap.',
          schema: { type: 'string' },
        },
      },
      headers: {
        'request-id': { description: 'The request id: quote it to support.', schema: { type: 'string' } },
        [API_VERSION_HEADER]: {
          description: 'The API version that produced this answer.',
          required: true,
          schema: { type: 'string', enum: [API_VERSION] },
        },
        'Idempotent-Replayed': {
          description: '`true` on an answer replayed for a retry with the same Idempotency-Key.',
          schema: { type: 'string', enum: ['true'] },
        },
        'Retry-After': {
          description: 'Seconds to wait before retrying with the same Idempotency-Key, or reading the resource.',
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        RateLimitRetryAfter: {
          description:
            'Seconds to wait before retrying (delay-seconds, RFC 9110 §10.2.3): until the current rate-limit window ends. Never earlier than `t` of `RateLimit`.',
          required: true,
          schema: { type: 'string', pattern: '^\\d+$' },
        },
        RateLimit: {
          description: `The service limit of the policy the request was counted in, as draft-ietf-httpapi-ratelimit-headers-10 §4 writes it (a Structured Field list item): \`"<class>";r=<remaining>;t=<seconds until quota is made available again>\`, e.g. \`"write";r=0;t=1\`. Sent on 429.`,
          required: true,
          schema: { type: 'string', pattern: '^"(read|write)";r=\\d+;t=\\d+$' },
        },
        'RateLimit-Policy': {
          description: `The quota policy the request was counted in, as draft-ietf-httpapi-ratelimit-headers-10 §3 writes it: \`"<class>";q=<requests>;w=<window seconds>\`, e.g. \`"write";q=${DEFAULT_RATE_LIMITS.write};w=${RATE_LIMIT_WINDOW_SECONDS}\` (the default write limit; a merchant's own limit when set). Sent on 429.`,
          required: true,
          schema: { type: 'string', pattern: '^"(read|write)";q=\\d+;w=\\d+$' },
        },
        Location: { description: 'Where the browser goes next.', required: true, schema: { type: 'string' } },
        ETag: { description: 'The strong entity tag of the content (RFC 9110 §8.8.3).', schema: { type: 'string' } },
        'Cache-Control': { description: 'How long the answer may be cached (RFC 9111).', schema: { type: 'string' } },
      },
    },
  };
}

/**
 * The document as the committed file holds it: JSON with 2-space indentation and a trailing newline.
 * Key order is the build order (fixed), components sorted by name.
 */
export function serializeOpenApiDocument(document: JsonObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * `npm run openapi` (writes docs/openapi.json) and `npm run openapi -- --check` (exit 1 when the
 * committed file differs from a fresh generation; nothing is written).
 */
function main(argv: readonly string[]): void {
  const file = resolve(process.cwd(), OPENAPI_FILE);
  const fresh = serializeOpenApiDocument(buildOpenApiDocument());
  if (argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(file, 'utf8');
    } catch {
      committed = '';
    }
    if (committed !== fresh) {
      const a = committed.split('\n');
      const b = fresh.split('\n');
      const line = a.findIndex((text, i) => text !== b[i]) + 1 || Math.min(a.length, b.length) + 1;
      console.error(
        committed === ''
          ? `${OPENAPI_FILE} is missing. Run \`npm run openapi\` and commit the result.`
          : `${OPENAPI_FILE} is out of date with the code (routes, operation metadata or schemas): it first differs from a fresh generation at line ${line}. Run \`npm run openapi\` and commit the result.`,
      );
      process.exit(1);
    }
    console.log(`${OPENAPI_FILE} is up to date.`);
    return;
  }
  writeFileSync(file, fresh);
  console.log(`Wrote ${OPENAPI_FILE} (${Buffer.byteLength(fresh)} bytes).`);
}

// Run only as the script (`tsx scripts/openapi.ts`), not when a test imports the builder.
if (/[\\/]scripts[\\/]openapi\.ts$/.test(process.argv[1] ?? '')) main(process.argv.slice(2));
