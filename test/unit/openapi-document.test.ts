/**
 * The OpenAPI document (docs/openapi.json) against the code it is generated from:
 * - the committed file is exactly a fresh generation (scripts/openapi.ts `buildOpenApiDocument`);
 * - every route of ROUTES is a path + method, and the operation metadata has exactly the ROUTES names;
 * - every error status an operation lists is answered with the error object (or an HTML page);
 * - every example validates against its schema (ajv, JSON Schema 2020-12, formats checked);
 * - every object an operation answers is closed (`additionalProperties: false`), and every JSON
 *   operation documents `Switchyard-Version` (request header, response header, 400 `api_version_invalid`);
 * - the contract validator of the HTTP suites (test/helpers/contract-validator.ts) refuses what the
 *   document does not say;
 * - `webhooks` covers exactly the event catalogue;
 * - the interfaces kept outside the schema files (CardSummary, PendingOperationView, DeliveryAttempt,
 *   WebhookDelivery, WebhookReceipt) equal the schemas' output types (checked by `tsc`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type * as z from 'zod';
import type { GatewayExchange } from '../../scripts/local/gateway';
import { buildOpenApiDocument, type JsonObject, OPENAPI_FILE, serializeOpenApiDocument } from '../../scripts/openapi';
import {
  EXAMPLE_CREATED_PAYMENT,
  EXAMPLE_CUSTOMER,
  EXAMPLE_REFUND,
  EXAMPLE_SUCCEEDED_PAYMENT,
} from '../../scripts/openapi/openapi-examples';
import { OPENAPI_OPERATIONS } from '../../scripts/openapi/openapi-operations';
import { API_VERSION } from '../../shared/api/api-version';
import { ROUTES } from '../../shared/api/routes';
import type { CardBrand, CardSummary } from '../../shared/domain/card';
import { EVENT_TYPES } from '../../shared/domain/events';
import type { PendingOperationView } from '../../shared/domain/pending-operation';
import type { WebhookReceipt } from '../../shared/operations/inbound-webhooks/receive-connector-webhook';
import { CustomerResource } from '../../shared/schemas/customer-resource-schema';
import type { DeliveryAttemptResource, WebhookDeliveryResource } from '../../shared/schemas/event-delivery-resource-schema';
import { type CARD_BRANDS, type CardSummaryResource, PaymentResource } from '../../shared/schemas/payment-resource-schema';
import type { PendingOperationResource } from '../../shared/schemas/pending-operation-resource-schema';
import { RefundResource } from '../../shared/schemas/refund-resource-schema';
import type { WebhookReceiptResource } from '../../shared/schemas/webhook-receipt-schema';
import type { DeliveryAttempt, WebhookDelivery } from '../../shared/storage/deliveries-repository';
import { ContractValidator } from '../helpers/contract-validator';

/** `true` when A and B are the same type (each assignable to the other, invariantly). */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Compile-time: the types kept as interfaces elsewhere are the schemas' output types (tsc fails otherwise).
const typeChecks: [
  Equals<z.output<typeof CardSummaryResource>, CardSummary>,
  Equals<(typeof CARD_BRANDS)[number], CardBrand>,
  Equals<z.output<typeof PendingOperationResource>, PendingOperationView>,
  Equals<z.output<typeof DeliveryAttemptResource>, DeliveryAttempt>,
  Equals<z.output<typeof WebhookDeliveryResource>, WebhookDelivery>,
  Equals<z.output<typeof WebhookReceiptResource>, WebhookReceipt>,
] = [true, true, true, true, true, true];

/** The three routes another change adds to ROUTES; tolerated as missing from ROUTES while it lands. */
const DOCUMENT_ROUTES = ['OpenApiDocument', 'ApiReference', 'ApiReferenceScript'];

const document = buildOpenApiDocument();
const paths = document.paths as Record<string, Record<string, JsonObject>>;
const components = document.components as { schemas: Record<string, JsonObject> };

/** Every operation of the document with its path and method. */
function operations(): { path: string; method: string; op: JsonObject }[] {
  return Object.entries(paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
}

/** An ajv (JSON Schema 2020-12, formats) holding every component as `https://switchyard.test/schemas/<id>`. */
function validatorFactory(): (schema: JsonObject) => (value: unknown) => string | null {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const base = 'https://switchyard.test/schemas/';
  const rebase = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rebase);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', base) : rebase(v),
      ]),
    );
  };
  for (const [id, schema] of Object.entries(components.schemas)) ajv.addSchema({ ...(rebase(schema) as JsonObject), $id: base + id });
  return (schema) => {
    const validate = ajv.compile(rebase(schema) as JsonObject);
    return (value) => (validate(value) ? null : ajv.errorsText(validate.errors));
  };
}

describe('docs/openapi.json', () => {
  it('is exactly what `npm run openapi` generates from the code', () => {
    const committed = readFileSync(resolve(process.cwd(), OPENAPI_FILE), 'utf8');
    expect(committed === serializeOpenApiDocument(document)).toBe(true);
  });

  it('is OpenAPI 3.1.0 with the API version and the api-key scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect((document.info as JsonObject).version).toBe(API_VERSION);
    expect((document.components as JsonObject).securitySchemes).toEqual({
      ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api-key' }),
    });
    expect(typeChecks.every(Boolean)).toBe(true);
  });

  it('has one operation per route, public routes without security', () => {
    for (const route of ROUTES) {
      const op = paths[route.path]?.[route.method.toLowerCase()];
      expect({ route: route.name, documented: op !== undefined }).toEqual({ route: route.name, documented: true });
      expect({ route: route.name, security: op?.security }).toEqual({ route: route.name, security: route.auth ? [{ ApiKey: [] }] : [] });
    }
    expect(operations()).toHaveLength(ROUTES.length);
  });

  it('has operation metadata for exactly the ROUTES names', () => {
    const names = new Set(ROUTES.map((r) => r.name));
    const missingFromRoutes = Object.keys(OPENAPI_OPERATIONS).filter((n) => !names.has(n));
    expect(missingFromRoutes.filter((n) => !DOCUMENT_ROUTES.includes(n))).toEqual([]);
    expect([...names].filter((n) => !Object.hasOwn(OPENAPI_OPERATIONS, n))).toEqual([]);
    const ids = Object.values(OPENAPI_OPERATIONS).map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers every error status an operation lists with the error object (or an HTML page)', () => {
    for (const route of ROUTES) {
      const meta = OPENAPI_OPERATIONS[route.name]!;
      const responses = paths[route.path]![route.method.toLowerCase()]!.responses as Record<string, JsonObject>;
      for (const status of Object.keys(meta.errors)) {
        const content = responses[status]?.content as Record<string, { schema: JsonObject }> | undefined;
        const shape = meta.errorFormat === 'html' ? content?.['text/html']?.schema.type : content?.['application/json']?.schema.$ref;
        expect({ route: route.name, status, shape }).toEqual({
          route: route.name,
          status,
          shape: meta.errorFormat === 'html' ? 'string' : '#/components/schemas/Error',
        });
      }
      if (route.auth) expect({ route: route.name, has401: '401' in responses }).toEqual({ route: route.name, has401: true });
    }
  });

  it('documents Idempotency-Key exactly on the idempotent routes and the created[…] range on lists', () => {
    for (const route of ROUTES) {
      const op = paths[route.path]![route.method.toLowerCase()]!;
      const params = (op.parameters ?? []) as JsonObject[];
      const hasKey = params.some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      expect({ route: route.name, hasKey }).toEqual({ route: route.name, hasKey: OPENAPI_OPERATIONS[route.name]!.idempotent });
    }
    const created = (paths['/payments']!.get!.parameters as JsonObject[]).find((p) => p.name === 'created');
    expect(created).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    expect(Object.keys((created!.schema as JsonObject).properties as JsonObject).sort()).toEqual(['gt', 'gte', 'lt', 'lte']);
  });

  it('has examples that validate against their schemas', () => {
    const validator = validatorFactory();
    const checked: string[] = [];
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object') return;
      const media = node as { schema?: JsonObject; examples?: Record<string, { value: unknown }> };
      if (media.schema && media.examples) {
        const validate = validator(media.schema);
        for (const [name, example] of Object.entries(media.examples)) {
          expect({ where: `${where} ${name}`, error: validate(example.value) }).toEqual({ where: `${where} ${name}`, error: null });
          checked.push(`${where} ${name}`);
        }
      }
      for (const [key, child] of Object.entries(node)) visit(child, `${where}/${key}`);
    };
    visit(document.paths, '');
    visit(document.webhooks, 'webhooks');
    expect(checked.length).toBeGreaterThanOrEqual(12);
    expect(checked.some((c) => c.startsWith('webhooks/payment.succeeded'))).toBe(true);
    // The examples are also what the zod schemas accept (the same definition).
    expect(PaymentResource.safeParse(EXAMPLE_CREATED_PAYMENT).success).toBe(true);
    expect(PaymentResource.safeParse(EXAMPLE_SUCCEEDED_PAYMENT).success).toBe(true);
    expect(RefundResource.safeParse(EXAMPLE_REFUND).success).toBe(true);
    expect(CustomerResource.safeParse(EXAMPLE_CUSTOMER).success).toBe(true);
  });

  it('refuses what the API never answers (additional properties, a missing nullable field)', () => {
    const validate = validatorFactory()({ $ref: '#/components/schemas/Payment' });
    expect(validate(EXAMPLE_SUCCEEDED_PAYMENT)).toBeNull();
    expect(validate({ ...EXAMPLE_SUCCEEDED_PAYMENT, card_number: 'x' })).not.toBeNull();
    const { pending_operation: _dropped, ...withoutPending } = EXAMPLE_SUCCEEDED_PAYMENT;
    expect(validate(withoutPending)).not.toBeNull();
  });

  it('answers closed objects: every object with properties that an operation answers says additionalProperties: false', () => {
    const open: string[] = [];
    const seen = new Set<unknown>();
    const visit = (node: unknown, where: string): void => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = node as JsonObject;
      if (typeof schema.$ref === 'string' && schema.$ref.startsWith('#/components/schemas/')) {
        const id = schema.$ref.slice('#/components/schemas/'.length);
        visit(components.schemas[id], id);
      }
      if (schema.properties && schema.additionalProperties !== false) open.push(where);
      for (const [key, child] of Object.entries(schema)) visit(child, `${where}/${key}`);
    };
    for (const { path, method, op } of operations())
      for (const [status, response] of Object.entries(op.responses as Record<string, JsonObject>))
        visit((response.content as Record<string, JsonObject> | undefined)?.['application/json']?.schema, `${method} ${path} ${status}`);
    expect(open).toEqual([]);
  });

  it('documents Switchyard-Version on every JSON operation: the request header, the response header, 400 api_version_invalid', () => {
    expect((document.components as { headers: Record<string, JsonObject> }).headers['Switchyard-Version']).toMatchObject({
      required: true,
      schema: { enum: [API_VERSION] },
    });
    for (const route of ROUTES) {
      const meta = OPENAPI_OPERATIONS[route.name]!;
      const op = paths[route.path]![route.method.toLowerCase()]!;
      const responses = op.responses as Record<string, JsonObject>;
      for (const [status, response] of Object.entries(responses)) {
        const json = (response.content as Record<string, unknown> | undefined)?.['application/json'] !== undefined;
        const header = (response.headers as Record<string, JsonObject> | undefined)?.['Switchyard-Version'];
        if (json)
          expect({ route: route.name, status, header }).toEqual({
            route: route.name,
            status,
            header: { $ref: '#/components/headers/Switchyard-Version' },
          });
      }
      if (!meta.apiHandler) continue;
      const params = (op.parameters ?? []) as JsonObject[];
      expect({ route: route.name, param: params.some((p) => p.$ref === '#/components/parameters/SwitchyardVersion') }).toEqual({
        route: route.name,
        param: true,
      });
      expect({ route: route.name, codes: meta.errors[400] }).toEqual({
        route: route.name,
        codes: expect.arrayContaining(['api_version_invalid']),
      });
      expect(String(responses['400']?.description)).toContain('`api_version_invalid`');
    }
  });

  it('has one webhook per event type of the catalogue, with the Standard Webhooks headers', () => {
    const hooks = document.webhooks as Record<string, { post: JsonObject }>;
    expect(Object.keys(hooks)).toEqual([...EVENT_TYPES]);
    for (const hook of Object.values(hooks)) {
      expect(hook.post.parameters).toEqual([
        { $ref: '#/components/parameters/WebhookId' },
        { $ref: '#/components/parameters/WebhookTimestamp' },
        { $ref: '#/components/parameters/WebhookSignature' },
      ]);
    }
  });

  it('only references components that exist', () => {
    const text = JSON.stringify(document);
    const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/([a-zA-Z]+)\/([^"]+)"/g)].map((m) => `${m[1]}/${m[2]}`));
    const all = document.components as Record<string, Record<string, unknown>>;
    for (const ref of refs) {
      const [kind, name] = ref.split('/') as [string, string];
      expect({ ref, exists: all[kind]?.[name] !== undefined }).toEqual({ ref, exists: true });
    }
  });
});

const documentText = readFileSync(resolve(process.cwd(), OPENAPI_FILE), 'utf8');

describe.each([
  ['compiling its schemas itself', () => new ContractValidator(documentText)],
  ['with the compiled module the HTTP suites load', () => new ContractValidator(documentText, ContractValidator.precompile(documentText))],
])('the contract validator of the HTTP suites (test/helpers/contract-validator.ts), %s', (_how, build) => {
  const validator = build();
  const VERSION = { 'content-type': 'application/json', 'Switchyard-Version': API_VERSION };
  const exchange = (
    request: { method: string; target: string; headers?: Record<string, string>; body?: string },
    response: { status: number; headers?: Record<string, string>; body?: unknown },
  ): GatewayExchange => ({
    request: {
      method: request.method,
      target: request.target,
      headers: Object.fromEntries(Object.entries({ 'api-key': 'sk_test_x', ...request.headers }).map(([k, v]) => [k, [v]])),
      body: Buffer.from(request.body ?? ''),
      sourceIp: '127.0.0.1',
      httpVersion: '1.1',
      bodyDropped: false,
    },
    response: {
      status: response.status,
      headers: response.headers ?? VERSION,
      body: Buffer.from(typeof response.body === 'string' ? response.body : JSON.stringify(response.body ?? '')),
      answeredBy: 'handler',
    },
  });
  const problems = (...args: Parameters<typeof exchange>) => validator.check(exchange(...args)).problems;
  const notFound = { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment.' } };
  const invalid = (code: string, param: string) => ({ error: { type: 'invalid_request_error', code, message: 'Invalid.', param } });

  it('passes a documented exchange', () => {
    expect(problems({ method: 'GET', target: '/payments/pay_1' }, { status: 200, body: EXAMPLE_SUCCEEDED_PAYMENT })).toEqual([]);
    expect(problems({ method: 'GET', target: '/payments/pay_1' }, { status: 404, body: notFound })).toEqual([]);
  });

  it('refuses an undocumented status, an unknown property, a missing required header, another media type', () => {
    expect(problems({ method: 'GET', target: '/payments/pay_1' }, { status: 418, body: notFound })[0]).toMatch(
      /status 418 is not documented/,
    );
    expect(
      problems(
        { method: 'GET', target: '/payments/pay_1' },
        { status: 200, body: { ...EXAMPLE_SUCCEEDED_PAYMENT, card_number: '4242' } },
      )[0],
    ).toMatch(/must NOT have additional properties \(card_number\)/);
    expect(
      problems(
        { method: 'GET', target: '/payments/pay_1' },
        { status: 404, headers: { 'content-type': 'application/json' }, body: notFound },
      ),
    ).toEqual(['required header Switchyard-Version is missing']);
    expect(
      problems(
        { method: 'GET', target: '/payments/pay_1' },
        { status: 404, headers: { ...VERSION, 'content-type': 'text/html' }, body: notFound },
      )[0],
    ).toMatch(/content-type text\/html/);
  });

  it('holds the server and the spec to the same requests, JSON Schema 2020-12 keywords included', () => {
    const post = (body: unknown) => ({
      method: 'POST',
      target: '/webhook_endpoints',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // `["*", "*"]` fails the `prefixItems`/`items: false` branch and the catalogue branch: the spec rejects it.
    expect(problems(post({ url: 'https://example.com/h', enabled_events: ['*', '*'] }), { status: 200, body: {} }).at(-1)).toMatch(
      /the spec rejects the request .* but the server answered 200/,
    );
    expect(
      problems(post({ url: 'https://example.com/h', enabled_events: ['*', '*'] }), {
        status: 400,
        body: invalid('parameter_invalid', 'enabled_events.1'),
      }),
    ).toEqual([]);
    expect(
      problems(post({ url: 'https://example.com/h', enabled_events: ['*'] }), {
        status: 400,
        body: invalid('parameter_invalid', 'enabled_events'),
      })[0],
    ).toMatch(/the spec accepts the request but the server refused it with 400 parameter_invalid/);
    // The card-number detector is a rule the document cannot state (SPEC_CANNOT_EXPRESS).
    const card = {
      error: {
        type: 'invalid_request_error',
        code: 'parameter_invalid',
        message: 'Invalid description: must not contain a card number: …',
        param: 'description',
      },
    };
    expect(problems(post({ url: 'https://example.com/h', description: '4242 4242 4242 4242' }), { status: 400, body: card })).toEqual([]);
    // A missing api-key is rejected by the security scheme: 401 agrees.
    const noKey = exchange({ method: 'GET', target: '/payments' }, { status: 200, body: { data: [], has_more: false } });
    delete (noKey.request.headers as Record<string, string[]>)['api-key'];
    expect(validator.check(noKey).problems.at(-1)).toMatch(/no api-key header/);
  });

  it('reads queries as OpenAPI and the gateway do: deepObject ranges, digits for integers, strict where declared', () => {
    const list = { status: 200, body: { data: [], has_more: false } };
    expect(problems({ method: 'GET', target: '/payments?limit=5&created%5Bgte%5D=2026-11-21' }, list)).toEqual([]);
    expect(problems({ method: 'GET', target: '/payments?created.gte=2026-11-21' }, list)).toEqual([]);
    expect(problems({ method: 'GET', target: '/payments?limit=%2B5' }, list)[0]).toMatch(/\/query\/limit/);
    expect(problems({ method: 'GET', target: '/payments?created%5Bgte%5D=2026-13-45' }, list)[0]).toMatch(/created/);
    expect(problems({ method: 'GET', target: '/payments?constructor=1' }, list)[0]).toMatch(/additional properties \(constructor\)/);
    expect(
      problems(
        { method: 'GET', target: '/health?anything=1' },
        { status: 200, headers: VERSION, body: { status: 'ok', dynamodb: 'ok', time: '2026-11-24T10:00:00.000Z' } },
      ),
    ).toEqual([]);
  });

  it('answers a route the document does not have with the error object', () => {
    const routeNotFound = { error: { type: 'invalid_request_error', code: 'route_not_found', message: 'No endpoint.' } };
    expect(validator.check(exchange({ method: 'GET', target: '/nowhere' }, { status: 404, body: routeNotFound }))).toMatchObject({
      operation: '$default',
      problems: [],
    });
    expect(problems({ method: 'GET', target: '/nowhere' }, { status: 404, body: { message: 'Not Found' } })[0]).toMatch(
      /not the error object/,
    );
  });
});
