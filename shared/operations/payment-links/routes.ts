/**
 * The payment link routes (`/payment_links…`, `/merchant_profile`) and the public checkout routes of a link
 * (`/checkout/{payment_link_id}…`). Data read by shared/api/routes.ts: schemas, the domain and shared/api's route types only.
 */
import * as z from 'zod';
import { AUTHENTICATED, IDEMPOTENT, JSON_BODY, JSON_ROUTE, LIST, mergeErrors, NOT_FOUND } from '../../api/operation-errors';
import { json, jsonBody, LIST_QUERY_DOCS, replayed } from '../../api/operation-metadata';
import type { ApiRoute } from '../../api/route-definition';
import { MAX_ALLOWED_DOMAINS, MAX_DISPLAY_NAME_LENGTH, MAX_LOGO_URL_LENGTH } from '../../domain/merchant-profile';
import { emptyBodySchema } from '../../schemas/empty-body-schema';
import { MerchantProfileResource, putMerchantProfileBodySchema } from '../../schemas/merchant-profile-schema';
import { PaymentLinkListResource, PaymentLinkResource } from '../../schemas/payment-link-resource-schema';
import { createPaymentLinkBodySchema, listPaymentLinksQuerySchema } from '../../schemas/payment-link-schemas';
import { secret } from '../../schemas/secret-field';

const PAYMENT_LINK_ID = { payment_link_id: 'The payment link id (`plink_…`).' };

const CREATE_PAYMENT_LINK_FIELDS = {
  amount: 'The fixed amount each payment collects, in minor units (1 to 99,999,999,999). Leave it out for an amount the payer chooses.',
  amount_min: 'Without `amount`: the smallest amount the payer may choose, in minor units (with `amount_max`).',
  amount_max: 'Without `amount`: the largest amount the payer may choose, in minor units; at least `amount_min`.',
  currency: 'The currency of every payment made on the link.',
  description: 'What is paid for, shown on the page (at most 500 characters).',
  payment_methods: 'The methods the page offers (each at most once); left out, every method routing can serve for the currency.',
  expires_at: 'ISO 8601: when the link stops taking payments; in the future, at most a year ahead.',
  max_payments: 'How many payments the link may take (1 to 1,000,000); left out, no limit.',
  return_url:
    'Where the payer is sent after paying, with `payment_id`, `payment_link_id`, `status` and `signature` in the query; left out, a status page.',
  customer_fields:
    'What the page asks of the payer besides the payment: `email`, `name`, `phone` (each at most once). The page also asks the e-mail without it when routing may reach a processor that needs one (Paystack, Flutterwave).',
  metadata: 'Your key/value pairs, echoed on the link.',
};

/** The payment link routes, in the route table's order. */
export const PAYMENT_LINK_ROUTES: readonly ApiRoute[] = [
  {
    method: 'POST',
    path: '/payment_links',
    entry: 'functions/payment-links/create-payment-link.ts',
    name: 'CreatePaymentLink',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'createPaymentLink',
      tag: 'Payment links',
      summary: 'Create a payment link',
      description:
        'A reusable link to a hosted checkout page (`url`): share it (WhatsApp, Instagram, an invoice). Each payer who pays on it creates a payment of its own carrying `payment_link_id`, routed like any other. Either a fixed `amount`, or `amount_min` and `amount_max` for an amount the payer chooses. Emits `payment_link.created`.',
      body: jsonBody(createPaymentLinkBodySchema, true, 'The link to create. Amounts in minor units.', CREATE_PAYMENT_LINK_FIELDS),
      idempotent: true,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: replayed(json(PaymentLinkResource, 'The link (`active`, `payments_count` 0).')) },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, IDEMPOTENT),
    },
  },
  {
    method: 'GET',
    path: '/payment_links',
    entry: 'functions/payment-links/list-payment-links.ts',
    name: 'ListPaymentLinks',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'listPaymentLinks',
      tag: 'Payment links',
      summary: 'List payment links',
      description:
        'Your payment links, newest first; `active=true` or `active=false` for only those. A DynamoDB Query on an index, never a scan.',
      query: listPaymentLinksQuerySchema,
      queryDocs: { ...LIST_QUERY_DOCS, active: { description: '`true`: only links not deactivated; `false`: only deactivated ones.' } },
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(PaymentLinkListResource, 'One page of payment links.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, LIST),
    },
  },
  {
    method: 'GET',
    path: '/payment_links/{payment_link_id}',
    entry: 'functions/payment-links/get-payment-link.ts',
    name: 'GetPaymentLink',
    access: 'read',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'getPaymentLink',
      tag: 'Payment links',
      summary: 'Retrieve a payment link',
      description: 'The link, its `status` as of now. 404 for a link that is not yours.',
      pathParams: PAYMENT_LINK_ID,
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(PaymentLinkResource, 'The link.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, NOT_FOUND),
    },
  },
  {
    method: 'POST',
    path: '/payment_links/{payment_link_id}/deactivate',
    entry: 'functions/payment-links/deactivate-payment-link.ts',
    name: 'DeactivatePaymentLink',
    access: 'write',
    auth: true,
    connectors: false,
    openapi: {
      operationId: 'deactivatePaymentLink',
      tag: 'Payment links',
      summary: 'Deactivate a payment link',
      description:
        'Turns the link off for good: its page answers 410 and creates nothing; payments already made are untouched. Emits `payment_link.deactivated` once; deactivating an inactive link answers it unchanged.',
      pathParams: PAYMENT_LINK_ID,
      body: jsonBody(emptyBodySchema, false, 'No fields: send nothing or `{}`.', {}),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(PaymentLinkResource, 'The link, `active: false`.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY, NOT_FOUND),
    },
  },
  {
    method: 'GET',
    path: '/merchant_profile',
    entry: 'functions/merchant-profile/get-merchant-profile.ts',
    name: 'GetMerchantProfile',
    access: 'read',
    auth: true,
    connectors: false,
    keyedHashes: true,
    openapi: {
      operationId: 'getMerchantProfile',
      tag: 'Payment links',
      summary: 'Retrieve your merchant profile',
      description:
        "Your settings for your payment links' checkout pages: the display name, logo and brand colour they show, the origins that may frame them, and the `return_signing_secret` that signs the return to your `return_url`.",
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(MerchantProfileResource, 'Your profile.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED),
    },
  },
  {
    method: 'PUT',
    path: '/merchant_profile',
    entry: 'functions/merchant-profile/put-merchant-profile.ts',
    name: 'PutMerchantProfile',
    access: 'write',
    auth: true,
    connectors: false,
    keyedHashes: true,
    openapi: {
      operationId: 'putMerchantProfile',
      tag: 'Payment links',
      summary: 'Set your checkout display',
      description:
        "Replaces what your payment links' checkout pages show and who may frame them: a field left out is cleared. The page writes the name escaped, loads images from the logo's origin only (CSP `img-src`), writes the Pay button's text white or black, whichever contrasts more with `brand_color`, and lets only `allowed_domains` frame it (CSP `frame-ancestors`; none by default).",
      body: jsonBody(putMerchantProfileBodySchema, true, 'Your checkout display.', {
        display_name: `The name the pages show, 1 to ${MAX_DISPLAY_NAME_LENGTH} characters; null or left out: "Secure checkout".`,
        logo_url: `An https URL of your logo (at most ${MAX_LOGO_URL_LENGTH} characters, no user name or password); null or left out: none.`,
        brand_color: 'A colour `#rrggbb` for the header and the Pay button; null or left out: the default.',
        allowed_domains: `The https origins (\`https://shop.example.com\`, \`https://*.example.com\`; no path) that may frame the pages, at most ${MAX_ALLOWED_DOMAINS}, each once; left out or empty: never framed.`,
      }),
      idempotent: false,
      apiHandler: true,
      errorFormat: 'json',
      responses: { 200: json(MerchantProfileResource, 'Your profile as stored.') },
      errors: mergeErrors(JSON_ROUTE, AUTHENTICATED, JSON_BODY),
    },
  },
];

/** The checkout routes of a payment link (public HTML), in the route table's order. */
export const CHECKOUT_ROUTES: readonly ApiRoute[] = [
  {
    method: 'GET',
    path: '/checkout/{payment_link_id}',
    entry: 'functions/checkout/checkout-page.ts',
    name: 'CheckoutPage',
    access: 'read',
    auth: false,
    // Routing decides which methods the page offers (the merchant's accounts, their connectors' support).
    connectors: true,
    keyedHashes: true,
    answersHead: true,
    openapi: {
      operationId: 'checkoutPage',
      tag: 'Checkout',
      summary: 'Checkout page of a payment link',
      description:
        "The page a payment link's `url` opens: the merchant, the amount (or a field for it), the fields the link asks for, a link per payment method the page offers (those the link's `payment_methods` allow that your routing serves in its currency, cards first) and the form of the one shown. Sets the CSRF cookie its form needs. A method not offered answers 400 with the first method's form. A link that takes no payment (or that no method can pay now) answers 410 with a sentence saying why.",
      pathParams: PAYMENT_LINK_ID,
      query: z.strictObject({ payment_method: z.string().max(40).optional() }),
      queryDocs: {
        payment_method: {
          description: 'The method whose form the page shows (`card`, `bank_transfer`, `ussd`, `mobile_money`); default the first offered.',
        },
      },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: { 200: { description: 'The checkout form.', content: { kind: 'html' } } },
      errors: {
        400: ['parameter_invalid'],
        404: ['resource_missing'],
        410: ['payment_link_closed'],
        429: ['rate_limit_exceeded'],
        500: ['internal_error'],
        503: ['service_unavailable'],
      },
    },
  },
  {
    method: 'POST',
    path: '/checkout/{payment_link_id}',
    entry: 'functions/checkout/submit-checkout.ts',
    name: 'SubmitCheckout',
    access: 'write',
    auth: false,
    connectors: true,
    openapi: {
      operationId: 'submitCheckout',
      tag: 'Checkout',
      summary: 'Pay on a payment link',
      description:
        "The checkout form: creates a payment with the form's `payment_method` (card when absent) carrying `payment_link_id` (routed like every other, its place under `max_payments` taken in the same write) and confirms it. 303 to the processor's 3-D Secure or step page, or to the completion route (which shows a transfer's account, a USSD code or a phone prompt until the payment is final); the form again with each mistake by its field (400), for a method the link does not allow or routing does not serve (400, nothing created), after a decline (402) or when its CSRF token does not match the page's cookie (403); 410 when the link takes no payment (a single-use link's expiry is judged in the confirm's claim). When the processor cannot take the payment and the payment's state shows nothing was charged: the form again, fresh, saying so (502 when the processor refused the request, the payment `Failed` and its place given back at once; 503 with `Retry-After` when no processor could be called). When the outcome is not known (storage failed after the processor call): 202 and a page saying the payment is being confirmed, never that nothing was charged; its place is kept. The same form posted twice answers the first payment.",
      pathParams: PAYMENT_LINK_ID,
      body: {
        schema: z
          .strictObject({
            csrf_token: z.string().describe("The token the page wrote into its form, matching the page's cookie."),
            attempt: z.string().describe('The id of this drawing of the form: the same form posted twice pays once.'),
            amount: z.string().max(40).optional().describe('The amount in major units (`1500.00`), when the payer chooses it.'),
            email: z
              .string()
              .max(254)
              .optional()
              .describe(
                "The payer's e-mail, when the page asks for it: the link's `customer_fields` name it, or routing may reach a processor that needs one (Paystack, Flutterwave) and none is known.",
              ),
            name: z.string().max(400).optional().describe("The payer's name, when the link asks for it."),
            phone: z.string().max(40).optional().describe("The payer's phone (E.164), when the link asks for it."),
            card_name: z.string().max(400).optional().describe('The name on the card (`cc-name`).'),
            card_number: secret(z.string().max(40))
              .optional()
              .describe('The card number (`cc-number`; spaces allowed): never stored, logged or shown again.'),
            card_exp_month: z.string().max(10).optional().describe('Expiry month (`cc-exp-month`).'),
            card_exp_year: z.string().max(10).optional().describe('Expiry year (`cc-exp-year`).'),
            card_cvc: secret(z.string().max(10)).optional().describe('The security code (`cc-csc`): never stored, logged or shown again.'),
            payment_method: z
              .string()
              .max(40)
              .optional()
              .describe('The method of the form (`card` when absent, `bank_transfer`, `ussd`, `mobile_money`).'),
            ussd_bank_code: z
              .string()
              .max(10)
              .optional()
              .describe("USSD: the payer's bank (CBN code, as `payment_method_data.ussd.bank_code`)."),
            mobile_money_phone: z
              .string()
              .max(40)
              .optional()
              .describe('Mobile money: the phone to approve on (E.164; GHS MTN, Telecel or AT, KES M-PESA). Sent to the processor only.'),
          })
          .describe('The checkout form.'),
        required: true,
        mediaType: 'application/x-www-form-urlencoded',
        description: 'The checkout form as the page posts it.',
      },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: {
        200: { description: 'Not answered: every outcome is a redirect or the form again.', content: { kind: 'html' } },
        202: {
          description:
            'The processor was called and the outcome could not be recorded: the payment is being confirmed (a "check status" link to the completion route); nothing is said about money.',
          content: { kind: 'html' },
        },
        303: {
          description: "To the processor's 3-D Secure or step page, or to the completion route.",
          content: { kind: 'html' },
          headers: ['Location'],
        },
      },
      errors: {
        400: ['parameter_invalid'],
        402: ['card_declined'],
        403: ['csrf_token_invalid'],
        404: ['resource_missing'],
        410: ['payment_link_closed'],
        413: ['body_too_large'],
        429: ['rate_limit_exceeded'],
        500: ['internal_error'],
        502: ['connector_error'],
        503: ['service_unavailable', 'connector_unavailable', 'outcome_unknown'],
      },
    },
  },
  {
    method: 'GET',
    path: '/checkout/{payment_link_id}/complete',
    entry: 'functions/checkout/checkout-complete.ts',
    name: 'CheckoutComplete',
    access: 'write',
    auth: false,
    connectors: false,
    keyedHashes: true,
    answersHead: true,
    openapi: {
      operationId: 'checkoutComplete',
      tag: 'Checkout',
      summary: 'Completion route of a payment link',
      description:
        "Where a link's payment sends the payer once its steps are done (the payment's `return_url`). A failed payment gives its place under `max_payments` back, once. Then 303 to the merchant's `return_url` with `payment_id`, `payment_link_id`, `status` and `signature` (HMAC-SHA256 of `payment_id.payment_link_id.status` under your return signing secret: docs/api.md \"Payment links\"), or the status page.",
      pathParams: PAYMENT_LINK_ID,
      query: z.strictObject({ payment_id: z.string().max(100).optional(), status: z.string().max(40).optional() }),
      queryDocs: {
        payment_id: { description: "The payment (`pay_…`), one of the link's." },
        status: { description: 'Added by the return route; ignored (the stored status is what counts).' },
      },
      idempotent: false,
      apiHandler: false,
      errorFormat: 'html',
      responses: {
        200: { description: 'The status page (the link has no `return_url`).', content: { kind: 'html' } },
        303: { description: "To the merchant's `return_url`, signed.", content: { kind: 'html' }, headers: ['Location'] },
      },
      errors: { 404: ['resource_missing'], 429: ['rate_limit_exceeded'], 500: ['internal_error'], 503: ['service_unavailable'] },
    },
  },
];
