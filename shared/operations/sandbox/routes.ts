/**
 * The sandbox connector's hosted pages (`/sandbox/{kind}/{payment_id}`, `sandboxOnly`: not on prod). Data read
 * by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import * as z from 'zod';
import { PAYMENT_ID } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';

/** The sandbox's hosted pages, in the route table's order. */
export const SANDBOX_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/sandbox/{kind}/{payment_id}',
    entry: 'functions/sandbox/hosted-page.ts',
    name: 'SandboxHostedPage',
    access: 'read',
    auth: false,
    connectors: false,
    sandboxOnly: true,
    answersHead: true,
    openapi: {
      operationId: 'sandboxHostedPage',
      tag: 'Sandbox',
      summary: 'Sandbox hosted page',
      description:
        "The sandbox's hosted page a `redirect_to_url` points to: a 3-D Secure challenge (`3ds`) or a checkout page (`checkout`), with Approve and Decline. Sets the CSRF cookie its form needs.",
      pathParams: { kind: '`3ds` or `checkout`.', ...PAYMENT_ID },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: { 200: { description: 'The page.', content: { kind: 'html' } } },
      errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
    },
  },
  {
    method: 'POST',
    path: '/sandbox/{kind}/{payment_id}',
    entry: 'functions/sandbox/complete-hosted-page.ts',
    name: 'SandboxCompletePage',
    access: 'read',
    auth: false,
    connectors: false,
    sandboxOnly: true,
    openapi: {
      operationId: 'sandboxCompletePage',
      tag: 'Sandbox',
      summary: 'Approve or decline on the sandbox page',
      description:
        "The payer's decision: the sandbox delivers its signed webhook to `POST /webhooks/sandbox`, then sends the payer (303) to the payment's return route. A form whose CSRF token does not match the page's cookie is refused (403, the page again) and nothing is approved or declined.",
      pathParams: { kind: '`3ds` or `checkout`.', ...PAYMENT_ID },
      body: {
        schema: z.strictObject({
          csrf_token: z.string().describe("The token the page wrote into its form, matching the page's CSRF cookie."),
          decision: z.enum(['approve', 'decline']).describe("The payer's decision."),
        }),
        required: true,
        mediaType: 'application/x-www-form-urlencoded',
        description: "The page's form.",
        fields: {
          csrf_token:
            "The page's CSRF token (a hidden field): a form without it, or with one that does not match the page's cookie, is refused 403 and nothing is approved or declined.",
          decision: "The payer's decision: `approve` or `decline`.",
        },
      },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: { 303: { description: 'To the return route.', content: { kind: 'html' }, headers: ['Location'] } },
      errors: {
        400: ['parameter_invalid'],
        403: ['csrf_token_invalid'],
        404: ['resource_missing'],
        409: ['payment_unexpected_state'],
        429: ['rate_limit_exceeded'],
        500: ['internal_error'],
        503: ['service_unavailable'],
      },
    },
  },
];
