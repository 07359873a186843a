/**
 * The refund routes (`/refunds…`; a refund is created through `POST /payments/{payment_id}/refund`, a payment route).
 * Data read by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import { AUTHENTICATED, CONCURRENT_WRITE, JSON_ROUTE, LIST, mergeErrors, NOT_FOUND, QUERY, SYNC_CALL } from '../../api/operation-errors';
import { FORCE_SYNC, json, LIST_QUERY_DOCS, REFUND_ID } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { forceSyncQuerySchema } from '../../schemas/force-sync-schema';
import { listRefundsQuerySchema } from '../../schemas/refund-list-schema';
import { RefundResource } from '../../schemas/refund-resource-schema';
import { RefundListResource } from '../../schemas/resource-lists-schema';

/** The refund routes, in the route table's order. */
export const REFUND_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/refunds',
    entry: 'functions/refunds/list-refunds.ts',
    name: 'ListRefunds',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listRefunds',
      tag: 'Refunds',
      summary: 'List refunds',
      description:
        "Every refund of the merchant, newest first (Stripe's `GET /v1/refunds`), or one payment's with `payment_id`. A DynamoDB Query on an index, never a scan. Refunds made before this list existed appear only under their payment.",
      query: listRefundsQuerySchema,
      queryDocs: {
        ...LIST_QUERY_DOCS,
        payment_id: { description: "Only this payment's refunds (as `GET /payments/{payment_id}/refunds`)." },
      },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RefundListResource, 'One page of refunds.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST, NOT_FOUND),
    },
  },
  {
    method: 'GET',
    path: '/refunds/{refund_id}',
    entry: 'functions/refunds/get-refund.ts',
    name: 'GetRefund',
    access: 'reconcile',
    auth: true,
    connectors: true,
    openapi: {
      operationId: 'getRefund',
      tag: 'Refunds',
      summary: 'Retrieve a refund',
      description:
        'One refund. `?force_sync=true` first asks the connector about a `Pending` refund: `Succeeded` is recorded; `Failed`, or no such refund at the processor, gives its amount back to the payment.',
      pathParams: REFUND_ID,
      query: forceSyncQuerySchema,
      queryDocs: FORCE_SYNC,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(RefundResource, 'The refund.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, QUERY, NOT_FOUND, CONCURRENT_WRITE, SYNC_CALL),
    },
  },
];
