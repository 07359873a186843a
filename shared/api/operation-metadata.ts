/**
 * What the OpenAPI document says about a route, besides its examples: operation id, tag, summary and
 * description, path parameters, the query and body schemas the handler validates with (the same zod
 * schemas), whether it honours `Idempotency-Key`, its success answers and every error status it can
 * answer with the codes behind each (shared/api/operation-errors.ts). Each route carries its own
 * (`openapi` in `shared/operations/<capability>/routes.ts`); scripts/openapi.ts joins it with the
 * examples (scripts/openapi/openapi-examples.ts) and the resource schemas into docs/openapi.json.
 */
import type * as z from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, LIST_OFFSET_MAX } from '../domain/list-query';
import type { ErrorCodes } from './operation-errors';

/**
 * The tags of the document, in the order the reference shows them. Their descriptions are the
 * document's (scripts/openapi/openapi-operations.ts `OPENAPI_TAGS`).
 */
export const OPERATION_TAGS = [
  'Payments',
  'Refunds',
  'Payouts',
  'Customers',
  'Payment methods',
  'Subscriptions',
  'Disputes',
  'Test clocks',
  'Events',
  'Webhook endpoints',
  'Connector accounts',
  'Routing',
  'Health',
  'Processor webhooks',
  'Payer pages',
  'Sandbox',
  'Reference',
] as const;

/** One of {@link OPERATION_TAGS}. */
export type OperationTag = (typeof OPERATION_TAGS)[number];

/** A request body: its schema (the handler's own), media type and whether it may be absent. */
export interface OperationBody {
  /** The zod schema the handler validates with (documented with `io: 'input'`). */
  schema: z.ZodType;
  /** False when an absent body counts as `{}` (every field optional). */
  required: boolean;
  mediaType: 'application/json' | 'application/x-www-form-urlencoded' | 'multipart/form-data';
  description: string;
  /**
   * Descriptions of the body's fields by dotted path (`payment_method_data.card.card_number`): the
   * request schemas carry rules and messages, these say what each field means. The generator fails
   * on a path the schema does not have.
   */
  fields?: Readonly<Record<string, string>>;
}

/** A response header the generator knows (components/headers). */
export type ResponseHeaderName = 'Location' | 'Retry-After' | 'ETag' | 'Cache-Control' | 'Idempotent-Replayed';

/** What a success answer holds. */
export type SuccessContent = { kind: 'json'; schema: z.ZodType } | { kind: 'html' } | { kind: 'javascript' } | { kind: 'none' };

/** A non-error answer of an operation (200, and 303/304/308/503-health where they apply). */
export interface SuccessResponse {
  description: string;
  content: SuccessContent;
  headers?: readonly ResponseHeaderName[];
}

/** A request header a processor sends (the inbound webhook routes). */
export interface RequestHeaderDoc {
  name: string;
  description: string;
}

/** Everything the document says about one route, but its examples. */
export interface OperationMetadata {
  /** Unique, lowerCamelCase: the SDK's method name. */
  operationId: string;
  tag: OperationTag;
  summary: string;
  description: string;
  /** Path parameter → description, for every `{name}` of the route's path. */
  pathParams?: Readonly<Record<string, string>>;
  /** The handler's query schema (a zod object, or a list query built by `listQuerySchema`). */
  query?: z.ZodType;
  /** Query parameter → description (and, for list parameters, the default). */
  queryDocs?: Readonly<Record<string, { description: string; default?: number }>>;
  body?: OperationBody;
  /** The handler honours `Idempotency-Key` (`idempotent: true` in its apiHandler spec). */
  idempotent: boolean;
  /**
   * Answered through `apiHandler` (JSON, `request-id` and `Switchyard-Version` on every answer,
   * the version check): false for the HTML pages and the static documents.
   */
  apiHandler: boolean;
  /** Media type of the error answers: the API's error object, or an HTML page. */
  errorFormat: 'json' | 'html';
  /** Success (non-error) answers by status. */
  responses: Readonly<Record<number, SuccessResponse>>;
  /** Every error status the route can answer, with its codes. */
  errors: ErrorCodes;
  /** Request headers besides the API's own (processor signatures). */
  requestHeaders?: readonly RequestHeaderDoc[];
}

/**
 * A JSON success answer.
 * @param schema the resource schema of the answer (documented with `io: 'output'`)
 * @param description what the answer is
 */
export const json = (schema: z.ZodType, description: string): SuccessResponse => ({ description, content: { kind: 'json', schema } });

/**
 * A JSON request body.
 * @param schema the handler's body schema
 * @param required false when an absent body counts as `{}`
 * @param description what the body is
 * @param fields descriptions of its fields by dotted path ({@link OperationBody} `fields`)
 */
export const jsonBody = (
  schema: z.ZodType,
  required: boolean,
  description: string,
  fields: Readonly<Record<string, string>>,
): OperationBody => ({ schema, required, mediaType: 'application/json', description, fields });

/** Idempotent replays carry `Idempotent-Replayed: true`. */
export const replayed = (response: SuccessResponse): SuccessResponse => ({
  ...response,
  headers: [...(response.headers ?? []), 'Idempotent-Replayed'],
});

/** The description of the list parameters every list shares (docs/api.md "Lists"). */
export const LIST_QUERY_DOCS = {
  limit: { description: `How many items to return, 1 to ${LIST_LIMIT_MAX}.`, default: LIST_LIMIT_DEFAULT },
  offset: { description: `How many items to skip, 0 to ${LIST_OFFSET_MAX}. Not with \`starting_after\`.` },
  starting_after: {
    description: 'An id from the previous page: this page starts after it. An unknown id → 400 `resource_missing`. Not with `offset`.',
  },
  ending_before: {
    description:
      'An id from the current page: the page just before it (newer items), still newest first; `has_more` says whether newer ones remain. An unknown id → 400 `resource_missing`. Not with `offset` or `starting_after`.',
  },
  created: {
    description:
      'Only items created in a range, as Stripe spells it: `created[gt]`, `created[gte]`, `created[lt]`, `created[lte]` (or `created.gte`, …), each an ISO 8601 timestamp (`2026-11-21T10:00:00Z`; a date alone means midnight UTC) or Unix seconds. With curl, brackets need `-g`.',
  },
} as const;

/** The `force_sync` query parameter of the retrieves that can ask the connector first. */
export const FORCE_SYNC = {
  force_sync: { description: '`true` first asks the connector for the current state of an unsettled resource and applies it.' },
};

// Path parameters naming a resource, each described once for every route that takes it.
/** `{payment_id}`. */
export const PAYMENT_ID = { payment_id: 'The payment id (`pay_…`).' };
/** `{refund_id}`. */
export const REFUND_ID = { refund_id: 'The refund id (`ref_…`).' };
/** `{customer_id}`. */
export const CUSTOMER_ID = { customer_id: 'The customer id (`cus_…`).' };
/** `{payment_method_id}`. */
export const PAYMENT_METHOD_ID = { payment_method_id: 'The saved payment method id (`pm_…`).' };
/** `{subscription_id}`. */
export const SUBSCRIPTION_ID = { subscription_id: 'The subscription id (`sub_…`).' };
/** `{invoice_id}`. */
export const INVOICE_ID = { invoice_id: 'The invoice id (`in_…`).' };
/** `{test_clock_id}`. */
export const TEST_CLOCK_ID = { test_clock_id: 'The test clock id (`clock_…`).' };
/** `{dispute_id}`. */
export const DISPUTE_ID = { dispute_id: 'The dispute id (`dp_…`).' };
/** `{webhook_endpoint_id}`. */
export const ENDPOINT_ID = { webhook_endpoint_id: 'The webhook endpoint id (`we_…`).' };
/** `{event_id}`. */
export const EVENT_ID = { event_id: 'The event id (`evt_…`).' };
/** `{merchant_connector_id}`. */
export const CONNECTOR_ACCOUNT_ID = { merchant_connector_id: 'The connector account id (`mca_…`).' };
/** `{routing_algorithm_id}`. */
export const ROUTING_ALGORITHM_ID = { routing_algorithm_id: 'The routing algorithm id (`routing_…`).' };
