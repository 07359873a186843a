/**
 * The OpenAPI document (docs/openapi.json) against the code it is generated from:
 * - the committed file is exactly a fresh generation (scripts/openapi.ts `buildOpenApiDocument`);
 * - every route of ROUTES is a path + method, and the operation metadata has exactly the ROUTES names;
 * - every error status an operation lists is answered with the error object (or an HTML page);
 * - every example validates against its schema (ajv, JSON Schema 2020-12, formats checked);
 * - `webhooks` covers exactly the event catalogue;
 * - the interfaces kept outside the schema files (CardSummary, PendingOperationView, DeliveryAttempt,
 *   WebhookDelivery, WebhookReceipt) equal the schemas' output types (checked by `tsc`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type * as z from 'zod';
import { buildOpenApiDocument, type JsonObject, OPENAPI_FILE, serializeOpenApiDocument } from '../../scripts/openapi';
import { API_VERSION } from '../../shared/api/api-version';
import {
  EXAMPLE_CREATED_PAYMENT,
  EXAMPLE_CUSTOMER,
  EXAMPLE_REFUND,
  EXAMPLE_SUCCEEDED_PAYMENT,
  OPENAPI_OPERATIONS,
} from '../../shared/api/openapi-operations';
import { ROUTES } from '../../shared/api/routes';
import type { CardBrand, CardSummary } from '../../shared/domain/card';
import { EVENT_TYPES } from '../../shared/domain/events';
import type { PendingOperationView } from '../../shared/domain/pending-operation';
import type { WebhookReceipt } from '../../shared/operations/webhook-operations';
import { CustomerResource } from '../../shared/schemas/customer-resource-schema';
import type { DeliveryAttemptResource, WebhookDeliveryResource } from '../../shared/schemas/event-delivery-resource-schema';
import { type CARD_BRANDS, type CardSummaryResource, PaymentResource } from '../../shared/schemas/payment-resource-schema';
import type { PendingOperationResource } from '../../shared/schemas/pending-operation-resource-schema';
import { RefundResource } from '../../shared/schemas/refund-resource-schema';
import type { WebhookReceiptResource } from '../../shared/schemas/webhook-receipt-schema';
import type { WebhookDelivery } from '../../shared/storage/deliveries-repository';
import type { DeliveryAttempt } from '../../shared/webhooks/delivery';

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
