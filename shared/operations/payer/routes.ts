/**
 * The payer's pages (`/pay/{payment_id}…`: authentication steps, the return route): public HTML routes.
 * Data read by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import * as z from 'zod';
import { PAYMENT_ID } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';

/** The fields of the step form's address answer, which come together. */
const ADDRESS_FORM_FIELDS = ['address_line1', 'address_city', 'address_state', 'address_zip', 'address_country'];

/**
 * A field of a payer page's form: empty (left out), or the value the JSON route takes, with the
 * surrounding whitespace the page trims (shared/operations/payer/authentication-page-submission.ts).
 */
const formField = (value: RegExp) =>
  z
    .string()
    .regex(new RegExp(`^\\s*(${value.source})?\\s*$`))
    .optional();

/** The payer's pages, in the route table's order. */
export const PAYER_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/pay/{payment_id}/authenticate',
    entry: 'functions/pay/authentication-page.ts',
    name: 'AuthenticationPage',
    access: 'read',
    auth: false,
    connectors: false,
    answersHead: true,
    openapi: {
      operationId: 'authenticationPage',
      tag: 'Payer pages',
      summary: 'Authentication step page',
      description:
        "Switchyard's hosted page for the payment's PIN, OTP, phone, birthday or address step (`next_action.redirect_to_url`), so a merchant's server never touches a PIN. A payment no longer asking for a step shows its result.",
      pathParams: PAYMENT_ID,
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: { 200: { description: 'The step form, or the result page.', content: { kind: 'html' } } },
      errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
    },
  },
  {
    method: 'POST',
    path: '/pay/{payment_id}/authenticate',
    entry: 'functions/pay/submit-authentication-page.ts',
    name: 'SubmitAuthenticationPage',
    access: 'write',
    auth: false,
    connectors: true,
    openapi: {
      operationId: 'submitAuthenticationPage',
      tag: 'Payer pages',
      summary: 'Submit the authentication step form',
      description:
        "The form of the step page, relayed exactly as `POST /payments/{payment_id}/authenticate`. Another step shows its form; 3-D Secure sends the payer there (303); otherwise the payer goes (303) to the return route. A form whose CSRF token does not match the page's cookie is refused (403, the step's form again) and nothing is sent.",
      pathParams: PAYMENT_ID,
      body: {
        schema: z
          .strictObject({
            csrf_token: z.string().describe("The token the step page wrote into its form, matching the page's CSRF cookie."),
            pin: formField(/\d{4}/),
            otp: formField(/[0-9A-Za-z]{4,12}/),
            phone: formField(/\+?\d{7,15}/),
            birthday: formField(/\d{4}-\d{2}-\d{2}/),
            address_line1: z.string().max(200).optional(),
            address_city: z.string().max(100).optional(),
            address_state: z.string().max(100).optional(),
            address_zip: z.string().max(20).optional(),
            address_country: formField(/[A-Z]{2}/),
            card_number: z
              .string()
              .regex(/^[\d\s]*$/)
              .optional(),
            card_exp_month: formField(/0?[1-9]|1[0-2]/),
            card_exp_year: formField(/\d{2}|\d{4}/),
            card_cvc: formField(/\d{3,4}/),
          })
          // Empty fields count as absent (the page's inputs are one form): some answer must be filled in,
          // i.e. not every answer field absent or blank.
          .meta({
            not: {
              properties: Object.fromEntries(
                ['pin', 'otp', 'phone', 'birthday', 'address_line1'].map((field) => [field, { pattern: '^\\s*$' }]),
              ),
            },
            // The address is one answer: its five fields come together (JSON Schema `dependentRequired`).
            dependentRequired: Object.fromEntries(
              ADDRESS_FORM_FIELDS.map((field) => [field, ADDRESS_FORM_FIELDS.filter((other) => other !== field)]),
            ),
          })
          .describe('The step form: the one answer the step asks for, and the card fields only when the step needs the card again.'),
        required: true,
        mediaType: 'application/x-www-form-urlencoded',
        description: 'The step form (UTF-8), each field at most once.',
        fields: {
          csrf_token:
            "The step page's CSRF token (a hidden field): a form without it, or with one that does not match the page's cookie, is refused 403 and nothing is sent to the processor.",
          pin: 'The 4-digit card PIN.',
          otp: 'The one-time code (or mobile-money voucher).',
          phone: 'The phone number.',
          birthday: 'The date of birth, `YYYY-MM-DD`.',
          address_line1: 'Street address.',
          address_city: 'City.',
          address_state: 'State.',
          address_zip: 'Postal code.',
          address_country: 'ISO 3166-1 alpha-2 country code.',
          card_number: 'Only when the step needs the card again: the card number (used for this call only, never stored).',
          card_exp_month: 'Only with the card: expiry month.',
          card_exp_year: 'Only with the card: expiry year.',
          card_cvc: 'Only with the card: the CVC (never stored).',
        },
      },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: {
        200: { description: "The next step's form.", content: { kind: 'html' } },
        303: { description: 'To 3-D Secure, or to the return route.', content: { kind: 'html' }, headers: ['Location'] },
      },
      errors: {
        400: ['parameter_invalid', 'parameter_missing'],
        402: ['authentication_failed'],
        403: ['csrf_token_invalid'],
        404: ['resource_missing'],
        409: ['payment_unexpected_state'],
        429: ['rate_limit_exceeded'],
        500: ['internal_error'],
        502: ['connector_unavailable'],
        503: ['service_unavailable', 'connector_unreachable', 'outcome_unknown'],
      },
    },
  },
  {
    method: 'GET',
    path: '/pay/{payment_id}/return',
    entry: 'functions/pay/payer-return.ts',
    name: 'PayerReturn',
    access: 'reconcile',
    auth: false,
    connectors: true,
    answersHead: true,
    openapi: {
      operationId: 'payerReturn',
      tag: 'Payer pages',
      summary: 'Payer return route',
      description:
        "Where every processor sends the payer back. Syncs the payment with its processor (best effort), then redirects (303) to the payment's `return_url` with `payment_id` and `status` added to its query, sends a payer still asked for a step to its page, or shows a plain result page. Fulfil orders from `GET /payments/{payment_id}` or the `payment.succeeded` event, never from the query.",
      pathParams: PAYMENT_ID,
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: {
        200: { description: 'The result page (the payment has no `return_url`).', content: { kind: 'html' } },
        303: { description: "To the merchant's `return_url`, or to the step page.", content: { kind: 'html' }, headers: ['Location'] },
      },
      errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
    },
  },
];
