/**
 * The routing routes (`/routing…`): routing algorithms, the active one, the default fallback list. Data read by
 * shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import {
  AUTHENTICATED,
  type ErrorCodes,
  IDEMPOTENT,
  JSON_BODY,
  JSON_ROUTE,
  LIST,
  mergeErrors,
  NOT_FOUND,
} from '../../api/operation-errors';
import { json, jsonBody, LIST_QUERY_DOCS, ROUTING_ALGORITHM_ID, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { AutoRetriesResource, autoRetriesBodySchema } from '../../schemas/auto-retries-schema';
import { plainListQuerySchema } from '../../schemas/plain-list-schema';
import { RoutingAlgorithmListResource } from '../../schemas/resource-lists-schema';
import { DefaultFallbackResource, defaultFallbackBodySchema, RoutingActivationResource } from '../../schemas/routing-activation-schema';
import { RoutingAlgorithmResource } from '../../schemas/routing-algorithm-resource-schema';
import { createRoutingAlgorithmSchema } from '../../schemas/routing-schemas';
import { SuccessRatesResource } from '../../schemas/routing-success-rates-schema';
import { rotateSecretSchema } from '../../schemas/webhook-endpoint-schemas';

/** A change of the merchant's routing profile that lost a race with another (shared/operations/routing/routing-operations.ts): retry. */
const ROUTING_RACE: ErrorCodes = { 409: ['routing_changed'] };

/** The routing routes, in the route table's order. */
export const ROUTING_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/routing',
    entry: 'functions/routing/create-routing-algorithm.ts',
    name: 'CreateRoutingAlgorithm',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'createRoutingAlgorithm',
      tag: 'Routing',
      summary: 'Create a routing algorithm',
      description:
        "Stores a routing algorithm (Hyperswitch's routing API, snake_case): `single`, `priority`, `volume_split` or `advanced`. It routes nothing until activated. Checked when written: every account it names is one of yours (disabled ones allowed), and can take at least one payment the rule can send it; a rule naming a currency or method none of its accounts takes is refused. Errors name the rule and the field (`param`, e.g. `algorithm.data.rules.0.connector_selection.data.1.merchant_connector_id`). At most 100 algorithms per merchant; algorithms cannot be changed (create another).",
      body: jsonBody(createRoutingAlgorithmSchema, true, '`{name, description?, algorithm: {type, data}}`.', {
        name: 'Your name for the algorithm: 1 to 64 characters.',
        description: 'What it is for: at most 1000 characters.',
        algorithm:
          '`{type, data}`: `single` `{merchant_connector_id}`, `priority` `[{merchant_connector_id}, …]`, `volume_split` `[{split, merchant_connector_id}, …]` (splits adding up to 100), or `advanced` `{default_selection, rules}`.',
      }),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: replayed(json(RoutingAlgorithmResource, 'The algorithm (`is_active: false`).')),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['routing_algorithm_limit'] }, IDEMPOTENT),
    },
  },
  {
    method: 'GET',
    path: '/routing',
    entry: 'functions/routing/list-routing-algorithms.ts',
    name: 'ListRoutingAlgorithms',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listRoutingAlgorithms',
      tag: 'Routing',
      summary: 'List routing algorithms',
      description: 'Your routing algorithms, newest first, each with `is_active`.',
      query: plainListQuerySchema,
      queryDocs: LIST_QUERY_DOCS,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RoutingAlgorithmListResource, 'One page of routing algorithms.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/routing/active',
    entry: 'functions/routing/get-active-routing.ts',
    name: 'GetActiveRouting',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getActiveRouting',
      tag: 'Routing',
      summary: 'Which routing algorithm is active',
      description:
        'The algorithm routing your payments now, or `active: false` (and nulls) when none is: then your default fallback list routes them.',
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(RoutingActivationResource, 'The active algorithm, or none.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
    },
  },
  {
    method: 'GET',
    path: '/routing/default',
    entry: 'functions/routing/get-default-fallback.ts',
    name: 'GetDefaultFallback',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getDefaultFallback',
      tag: 'Routing',
      summary: 'Retrieve the default fallback list',
      description:
        "Your ordered fallback list: where payments go when no algorithm is active, and the accounts tried after the active algorithm's own. When you set none (`is_custom: false`), your accounts in the order you connected them.",
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: {
        200: json(DefaultFallbackResource, 'The list.'),
      },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
    },
  },
  {
    method: 'PUT',
    path: '/routing/default',
    entry: 'functions/routing/set-default-fallback.ts',
    name: 'SetDefaultFallback',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'setDefaultFallback',
      tag: 'Routing',
      summary: 'Set the default fallback list',
      description:
        'Replaces your ordered fallback list: 1 to 50 of your connector accounts, each once. Accounts you leave out are not fallbacks any more (an active algorithm still uses the accounts it names).',
      body: jsonBody(defaultFallbackBodySchema, true, '`{default_fallback: [{merchant_connector_id}, …]}`, in the order to try them.', {
        default_fallback:
          'Your connector accounts in order (1 to 50, each once). An id that is not one of your accounts → 400 `resource_missing` naming the entry (`default_fallback.1.merchant_connector_id`).',
      }),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(DefaultFallbackResource, 'The list as stored (`is_custom: true`).') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['resource_missing'] }, ROUTING_RACE),
    },
  },
  {
    method: 'POST',
    path: '/routing/deactivate',
    entry: 'functions/routing/deactivate-routing.ts',
    name: 'DeactivateRouting',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'deactivateRouting',
      tag: 'Routing',
      summary: 'Deactivate routing',
      description:
        'No algorithm is active any more: your default fallback list routes your payments (within `CONNECTOR_CONFIG_CACHE_MS`, 5 s, everywhere). Emits `routing.activated` with `active: false`. No `Idempotency-Key` is kept: a second call answers 400 `routing_not_active`.',
      body: jsonBody(rotateSecretSchema, false, 'No fields: send nothing or `{}`.', {}),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RoutingActivationResource, '`active: false`.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, { 400: ['routing_not_active'] }, ROUTING_RACE),
    },
  },
  {
    method: 'GET',
    path: '/routing/auto_retries',
    entry: 'functions/routing/get-auto-retries.ts',
    name: 'GetAutoRetries',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getAutoRetries',
      tag: 'Routing',
      summary: 'Retrieve automatic retries',
      description: 'Whether a soft decline is retried on your next eligible account, and how many times (off, 1, when never set).',
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(AutoRetriesResource, 'The setting.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
    },
  },
  {
    method: 'PUT',
    path: '/routing/auto_retries',
    entry: 'functions/routing/set-auto-retries.ts',
    name: 'SetAutoRetries',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'setAutoRetries',
      tag: 'Routing',
      summary: 'Set automatic retries',
      description:
        "When enabled, a card authorization that an issuer declines **softly** (docs/routing.md lists each processor's codes, e.g. Stripe `try_again_later`, `issuer_not_available`, `processing_error`, `reenter_transaction`) is tried on your next eligible account in routing order, in the same confirm, up to `max_auto_retries` times (0–3), each try a new attempt (`routing_approach: auto_retry`) with its own processor reference. Never retried: hard declines (`insufficient_funds`, `stolen_card`, `expired_card`, `invalid_cvc`, `fraudulent` …), unknown outcomes, anything after the payer was asked for a step (3-D Secure, PIN, OTP), bank transfer, USSD and mobile money, and charges of a saved method (its token belongs to one account). Containers pick it up within `CONNECTOR_CONFIG_CACHE_MS` (5 s).",
      body: jsonBody(autoRetriesBodySchema, true, '`{enabled, max_auto_retries?}`.', {
        enabled: 'true to retry soft declines on another account; false (the default) never to.',
        max_auto_retries: 'Most retries per payment, 0 to 3; default 1.',
      }),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(AutoRetriesResource, 'The setting as stored.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, ROUTING_RACE),
    },
  },
  {
    method: 'GET',
    path: '/routing/success_rates',
    entry: 'functions/routing/get-success-rates.ts',
    name: 'GetRoutingSuccessRates',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getRoutingSuccessRates',
      tag: 'Routing',
      summary: 'Recent authorization rates per account and segment',
      description:
        "What success-rate routing scores your accounts on (docs/routing.md): per connector account and segment (the values of the algorithm's `dimensions`), the window's outcomes (approvals and issuer declines of the last 30 minutes, the most recent `window_size`), approvals, rate and when the newest was counted. Technical failures are not in it (they open the account's circuit), nor unknown outcomes until reconciled. Read from the table: an outcome shows here at once, and in routing decisions within 5 s. Only your own accounts' outcomes.",
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(SuccessRatesResource, 'The rates, by account then segment.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
    },
  },
  {
    method: 'GET',
    path: '/routing/{routing_algorithm_id}',
    entry: 'functions/routing/get-routing-algorithm.ts',
    name: 'GetRoutingAlgorithm',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getRoutingAlgorithm',
      tag: 'Routing',
      summary: 'Retrieve a routing algorithm',
      description: 'One of your routing algorithms, with `is_active`.',
      pathParams: ROUTING_ALGORITHM_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RoutingAlgorithmResource, 'The algorithm.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'POST',
    path: '/routing/{routing_algorithm_id}/activate',
    entry: 'functions/routing/activate-routing-algorithm.ts',
    name: 'ActivateRoutingAlgorithm',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'activateRoutingAlgorithm',
      tag: 'Routing',
      summary: 'Activate a routing algorithm',
      description:
        'Makes the algorithm route your payments, in place of the active one: its choice first, the other accounts it names next, then your default fallback list. Checked again against your accounts now (400 `parameter_invalid` naming the field when it no longer fits them), and refused with 409 `routing_changed` when an account it names is being deleted or your routing changed meanwhile. Containers pick it up within `CONNECTOR_CONFIG_CACHE_MS` (5 s). Emits `routing.activated` (activating the active algorithm again emits it again). No `Idempotency-Key` is kept: a retry activates it again, which changes nothing else.',
      pathParams: ROUTING_ALGORITHM_ID,
      body: jsonBody(rotateSecretSchema, false, 'No fields: send nothing or `{}`.', {}),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RoutingAlgorithmResource, 'The algorithm, `is_active: true`.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND, ROUTING_RACE),
    },
  },
];
