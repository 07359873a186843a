/**
 * What the OpenAPI document says about each route, keyed by the route's `name`: its metadata (`openapi` in
 * `shared/operations/<capability>/routes.ts`, through shared/api/routes.ts `ROUTES`) with the examples it shows
 * (scripts/openapi/openapi-examples.ts `OPERATION_EXAMPLES`); and the document's tags with their descriptions.
 * scripts/openapi.ts joins these with the resource schemas (shared/schemas/*-resource-schema.ts) into
 * docs/openapi.json. The `$default` fallback (404 `route_not_found`) is not an operation.
 *
 * Build-time only (the generator and tests): no Lambda imports this module.
 */
import type { ErrorStatus } from '../../shared/api/operation-errors';
import {
  OPERATION_TAGS,
  type OperationTag,
  type ResponseHeaderName,
  type OperationBody as RouteBody,
  type SuccessContent as RouteContent,
  type OperationMetadata as RouteMetadata,
  type SuccessResponse as RouteResponse,
} from '../../shared/api/operation-metadata';
import { type ApiRoute, ROUTES } from '../../shared/api/routes';
import { type BodyExample, type Examples, OPERATION_EXAMPLES, type OperationExamples } from './openapi-examples';

export type { BodyExample, ErrorStatus, OperationTag, ResponseHeaderName };

/** What each tag of {@link OPERATION_TAGS} groups, as the reference shows it. */
const TAG_DESCRIPTIONS: Readonly<Record<OperationTag, string>> = {
  Payments: 'Payment intents: create, confirm, authenticate, capture, cancel, list.',
  Refunds: 'Refunds of succeeded payments.',
  Payouts:
    "Money sent from your processor account's balance to a bank account or a mobile money wallet (vendors, riders, sellers): create, confirm, answer the OTP, cancel, list, and resolve an account holder's name. Sent at most once: an unknown outcome is reconciled by reference, never sent again.",
  Customers: 'Customers a payment may name.',
  'Payment methods':
    "Payment methods saved on a customer (a card a payment with `setup_future_usage` kept): list, retrieve, detach. The processor's token is stored encrypted and never shown.",
  Subscriptions:
    "A customer's recurring charge, billed by Switchyard each period through the customer's saved payment method (off-session), and its invoices (one per period).",
  Disputes:
    "Cardholders' disputes of your payments (inquiries and chargebacks), as the processors report them, with their deadlines; accept them, or answer them with evidence.",
  'Test clocks':
    'Stages with the sandbox only: a clock of its own for test customers; advancing it runs the renewals, retries and expiry notices that fall due, so months of billing can be watched in a minute.',
  Events: 'Every change of a payment, refund or customer, and its webhook deliveries.',
  'Webhook endpoints': 'Where Switchyard sends your events (Standard Webhooks).',
  'Connector accounts':
    'Your own processor accounts (Paystack, Flutterwave, Stripe, or the sandbox): credentials verified at the processor, stored encrypted, write-only.',
  Routing:
    'Where your payments go: routing algorithms (single, priority, volume split, advanced rules), the active one, and your default fallback list.',
  Health: 'Whether the service can reach its storage.',
  'Processor webhooks':
    "The processors' inbound routes: Paystack, Flutterwave, Stripe and the sandbox post their events here (the stage's own accounts), or to a connector account's own `webhook_url`.",
  'Payer pages':
    'Public pages the payer is sent to (authentication steps, the return route). The payment id is the capability; no api-key.',
  Sandbox: "The sandbox connector's hosted pages (3-D Secure challenge, checkout), where a person approves or declines.",
  Reference: 'This document and its rendered reference.',
};

/** The tags of the document, in the order the reference shows them, with their descriptions. */
export const OPENAPI_TAGS: readonly { name: OperationTag; description: string }[] = OPERATION_TAGS.map((name) => ({
  name,
  description: TAG_DESCRIPTIONS[name],
}));

/** A request body as the document shows it: the route's, with its examples. */
export interface OperationBody extends RouteBody {
  examples?: Examples;
}

/** What a success answer holds, a JSON one with its examples. */
export type SuccessContent = Exclude<RouteContent, { kind: 'json' }> | (Extract<RouteContent, { kind: 'json' }> & { examples?: Examples });

/** A non-error answer of an operation as the document shows it. */
export interface SuccessResponse extends Omit<RouteResponse, 'content'> {
  content: SuccessContent;
}

/** Everything the document says about one route: its metadata with its examples. */
export interface OperationMetadata extends Omit<RouteMetadata, 'body' | 'responses'> {
  body?: OperationBody;
  responses: Readonly<Record<number, SuccessResponse>>;
}

/**
 * A route's metadata with the examples it shows.
 * @param route the route (its `name` for the messages, its `openapi`)
 * @param examples its entry of OPERATION_EXAMPLES, if any
 * @returns the metadata, examples on the body and on the JSON success answers
 * @throws Error when an example is for a body the route does not take, or for a status it does not
 *   answer with JSON: examples are never dropped silently
 */
export function withExamples(route: Pick<ApiRoute, 'name' | 'openapi'>, examples: OperationExamples | undefined): OperationMetadata {
  const op = route.openapi;
  if (!examples) return op;
  if (examples.body && !op.body) throw new Error(`${route.name}: body examples, but the route takes no body.`);
  const responses: Record<number, SuccessResponse> = { ...op.responses };
  for (const [status, shown] of Object.entries(examples.responses ?? {})) {
    const response = op.responses[Number(status)];
    if (response?.content.kind !== 'json') throw new Error(`${route.name}: examples for ${status}, which it does not answer with JSON.`);
    responses[Number(status)] = { ...response, content: { ...response.content, examples: shown } };
  }
  return {
    ...op,
    ...(op.body && examples.body ? { body: { ...op.body, examples: examples.body } } : {}),
    responses,
  };
}

/**
 * The metadata of every route, keyed by its ROUTES `name`.
 * @throws Error when two routes share a name, or an entry of OPERATION_EXAMPLES names no route
 */
export const OPENAPI_OPERATIONS: Readonly<Record<string, OperationMetadata>> = (() => {
  const operations: Record<string, OperationMetadata> = {};
  for (const route of ROUTES) {
    if (Object.hasOwn(operations, route.name)) throw new Error(`Two routes are named ${route.name}.`);
    operations[route.name] = withExamples(route, OPERATION_EXAMPLES[route.name]);
  }
  const stray = Object.keys(OPERATION_EXAMPLES).filter((name) => !Object.hasOwn(operations, name));
  if (stray.length > 0) throw new Error(`openapi-examples.ts: examples for routes that do not exist: ${stray.join(', ')}.`);
  return operations;
})();
