/**
 * The Stripe adapter against a local fixture server (node:http on 127.0.0.1,
 * never the network) answering with Stripe's documented response shapes,
 * recorded under test/connectors/fixtures/stripe/. Asserts the exact requests
 * sent (the PaymentMethod then the PaymentIntent of an authorize, `Stripe-Version` on every call)
 * and the mapping of every PaymentIntent and Refund status. The PaymentMethod answer is Stripe's
 * OpenAPI fixture (`openapi.fixtures3.extract.json`: stripe/openapi `openapi/fixtures3.json`, commit
 * f6c2a48fbac2); `error.incorrect_number.json` and `error.raw_card_data_not_enabled.json` are described
 * in fixtures/SOURCES.md. The refund-list and
 * 409 fixtures' sources are in fixtures/SOURCES.md (stripe-node v22.5.0, commit 663942164d38;
 * https://docs.stripe.com/api/refunds/list; https://docs.stripe.com/error-low-level#idempotency).
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import {
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
  type PaymentResult,
  type RefundLookupRequest,
  type RefundResult,
  type SyncRequest,
  WebhookPayloadError,
  WebhookSignatureError,
} from '../../shared/connectors/connector';
import { STRIPE_API_VERSION, stripeApiVersionProblem } from '../../shared/connectors/stripe/api-version';
import { REFUND_LOOKUP_SETTLE_MS, SEARCH_PROPAGATION_MS } from '../../shared/connectors/stripe/lookups';
import { toStripeAmount } from '../../shared/connectors/stripe/money';
import { encodeStripeForm } from '../../shared/connectors/stripe/requests';
import { STRIPE_PAYMENT_STATUS, STRIPE_REFUND_STATUS } from '../../shared/connectors/stripe/statuses';
import { StripeConnector } from '../../shared/connectors/stripe/stripe-connector';
import { PAYMENT_INTENT_SEND_WINDOW_MS, STRIPE_TIMEOUTS_MS } from '../../shared/connectors/stripe/timeouts';
import { CURRENCIES } from '../../shared/domain/money';
import { PAYMENT_METHODS } from '../../shared/domain/payment';
import { RECORDED_DISPUTE_CREATED_EVENT } from './stripe-dispute-event';

const FIXTURES = join(__dirname, 'fixtures', 'stripe');
const rawFixture = (name: string): string => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');
const fixture = (name: string): unknown => JSON.parse(rawFixture(name));

const SECRET_KEY = 'sk_test_51FixtureKeyNeverRealAbCdEfGhIjKlMnOpQrStUvWxYz0123456789fixture';
const WEBHOOK_SECRET = 'whsec_fixtureSigningSecret0123456789abcdef';
/** The injected clock: 2024-04-24T23:13:20Z (the fixtures' event time). */
const NOW_MS = 1_714_000_400_000;
const PI_ID = 'pi_3OzKx2LkdIwHu7ix1AbCdEfG';
const PAYMENT_ID = 'pay_01HXSTRIPE0001';
const REFUND_ID = 'ref_01HXSTRIPE0001';
const RE_ID = 're_3OzKx2LkdIwHu7ix1RfNdAbC';
const PAN = '4242424242424242';
const CVC = '314';
/** Stripe's documented PaymentMethod (OpenAPI fixtures3) and its id. */
const PAYMENT_METHOD = (fixture('openapi.fixtures3.extract') as { resources: { payment_method: { id: string } } }).resources.payment_method;
const PM_ID = PAYMENT_METHOD.id;
/**
 * The query of a sync's `GET /v1/payment_intents/{id}`: the PaymentMethod expanded (for saved methods: a PaymentIntent that
 * saved its card answers with the card summary in the same call; https://docs.stripe.com/api/expanding_objects).
 */
const EXPAND_PAYMENT_METHOD_QUERY = `?${new URLSearchParams([['expand[0]', 'payment_method']]).toString()}`;

interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}
/** A fixture answer: `body` is sent as JSON, `raw` as is (a body that is not JSON); `hang` never answers. */
type Reply = { status: number; body?: unknown; raw?: string } | 'hang';

let server: Server;
let baseUrl: string;
let requests: Recorded[] = [];
let reply: (req: Recorded) => Reply = () => ({ status: 500, body: {} });
const hanging: ServerResponse[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      const answer = reply(recorded);
      if (answer === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json', 'request-id': 'req_fixture' });
      res.end(answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  requests = [];
  reply = () => ({ status: 500, body: {} });
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const connector = (over: Partial<ConstructorParameters<typeof StripeConnector>[0]> = {}) =>
  new StripeConnector({ baseUrl, secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, timeoutMs: 2000, now: () => NOW_MS, ...over });

/** Serves one fixture (or body) for every request. */
const serve = (status: number, name: string) => {
  reply = () => ({ status, body: fixture(name) });
};

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const only = (): Recorded => {
  expect(requests).toHaveLength(1);
  return requests[0]!;
};

const authorizeRequest = (over: Partial<AuthorizeRequest> = {}): AuthorizeRequest => ({
  paymentId: PAYMENT_ID,
  amount: 150000,
  currency: 'USD',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  card: { card_number: PAN, card_exp_month: '07', card_exp_year: '31', card_cvc: CVC },
  email: 'payer@example.com',
  phone: null,
  publicBaseUrl: 'https://api.switchyard.test',
  returnUrl: 'https://api.switchyard.test/pay/pay_01HXSTRIPE0001/return',
  ...over,
});

const syncRequest = (over: Partial<SyncRequest> = {}): SyncRequest => ({
  paymentId: PAYMENT_ID,
  connectorTransactionId: PI_ID,
  amount: 150000,
  currency: 'USD',
  paymentMethod: 'card',
  captureMethod: 'automatic',
  createdAt: new Date(NOW_MS - 60_000).toISOString(),
  ...over,
});

/** The PaymentMethod request of an authorize: the card, the payer's email (billing details) and our id. */
const expectedPaymentMethodForm = {
  type: 'card',
  'card[number]': PAN,
  'card[exp_month]': '7',
  'card[exp_year]': '2031',
  'card[cvc]': CVC,
  'billing_details[email]': 'payer@example.com',
  'metadata[payment_id]': PAYMENT_ID,
};

/** The PaymentIntent request of an authorize: no card data, the PaymentMethod, never payment_method_types. */
const expectedAuthorizeForm = (captureMethod: 'automatic' | 'manual') => ({
  amount: '150000',
  currency: 'usd',
  confirm: 'true',
  capture_method: captureMethod,
  payment_method: PM_ID,
  'allowed_payment_method_types[0]': 'card',
  return_url: 'https://api.switchyard.test/pay/pay_01HXSTRIPE0001/return',
  'metadata[payment_id]': PAYMENT_ID,
});

/**
 * Answers `POST /v1/payment_methods` with Stripe's PaymentMethod (or `pm` when given) and every other
 * request with the fixture `name`.
 */
const serveAuthorize = (status: number, name: string, pm: Reply = { status: 200, body: PAYMENT_METHOD }) => {
  reply = (req) => (req.url === '/v1/payment_methods' ? pm : { status, body: fixture(name) });
};

/** The two requests of an authorize, asserted in order: the PaymentMethod, then the PaymentIntent. */
const authorizeRequests = (): [Recorded, Recorded] => {
  expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/payment_methods', 'POST /v1/payment_intents']);
  return [requests[0]!, requests[1]!];
};

/** Asserts a POST's method, path, auth, API version, content type and idempotency key. */
const expectPost = (req: Recorded, path: string, idempotencyKey: string, apiVersion = STRIPE_API_VERSION) => {
  expect(req.method).toBe('POST');
  expect(req.url).toBe(path);
  expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  expect(req.headers['stripe-version']).toBe(apiVersion);
  expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
  expect(req.headers['idempotency-key']).toBe(idempotencyKey);
};

const expectGet = (req: Recorded, path: string) => {
  expect(req.method).toBe('GET');
  expect(req.url).toBe(path);
  expect(req.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  expect(req.headers['stripe-version']).toBe(STRIPE_API_VERSION);
  expect(req.headers['idempotency-key']).toBeUndefined();
  expect(req.body).toBe('');
};

const sign = (rawBody: string, timestamp: number, secret = WEBHOOK_SECRET) =>
  createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
const signedHeaders = (rawBody: string, timestamp = Math.floor(NOW_MS / 1000)) => ({
  'stripe-signature': `t=${timestamp},v1=${sign(rawBody, timestamp)}`,
  'content-type': 'application/json; charset=utf-8',
});

const REDIRECT_3DS = (fixture('payment_intent.requires_action.redirect_to_url') as { next_action: { redirect_to_url: { url: string } } })
  .next_action.redirect_to_url.url;
const STRIPE_JS_3DS = (
  fixture('payment_intent.requires_action.use_stripe_sdk') as { next_action: { use_stripe_sdk: { stripe_js: string } } }
).next_action.use_stripe_sdk.stripe_js;

describe('StripeConnector', () => {
  test('supports cards in USD, NGN, KES and ZAR only', () => {
    const stripe = connector();
    const supported = CURRENCIES.flatMap((c) => PAYMENT_METHODS.filter((m) => stripe.supports(c, m)).map((m) => `${c}/${m}`));
    expect(supported.sort()).toEqual(['KES/card', 'NGN/card', 'USD/card', 'ZAR/card']);
  });

  describe('authorize: POST /v1/payment_methods, then POST /v1/payment_intents with payment_method', () => {
    test('automatic capture: the card goes to a PaymentMethod, the intent gets pm_… with confirm=true → Succeeded', async () => {
      serveAuthorize(200, 'payment_intent.succeeded');
      const result = await connector().authorize(authorizeRequest());
      const [pmReq, piReq] = authorizeRequests();
      expectPost(pmReq, '/v1/payment_methods', `${PAYMENT_ID}:payment_method`);
      expect(form(pmReq.body)).toEqual(expectedPaymentMethodForm);
      expectPost(piReq, '/v1/payment_intents', `${PAYMENT_ID}:authorize`);
      expect(form(piReq.body)).toEqual(expectedAuthorizeForm('automatic'));
      expect(piReq.body).not.toContain(PAN);
      expect(piReq.body).not.toContain(CVC);
      expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: PI_ID, amountCaptured: 150000 });
    });

    test('manual capture: capture_method=manual → RequiresCapture, nothing captured; an overridden Stripe-Version is sent on both calls', async () => {
      serveAuthorize(200, 'payment_intent.requires_capture');
      const result = await connector({ apiVersion: '2026-09-30.endive' }).authorize(
        authorizeRequest({ captureMethod: 'manual', currency: 'NGN' }),
      );
      const [pmReq, piReq] = authorizeRequests();
      expectPost(pmReq, '/v1/payment_methods', `${PAYMENT_ID}:payment_method`, '2026-09-30.endive');
      expectPost(piReq, '/v1/payment_intents', `${PAYMENT_ID}:authorize`, '2026-09-30.endive');
      expect(form(piReq.body)).toEqual({ ...expectedAuthorizeForm('manual'), currency: 'ngn' });
      expect(result).toEqual({ status: 'RequiresCapture', connectorTransactionId: PI_ID, amountCaptured: 0 });
    });

    test('only the PaymentMethod id is read from step 1 (an answer with other fields, even a status, is not a result)', async () => {
      serveAuthorize(200, 'payment_intent.requires_capture', {
        status: 200,
        body: { ...(fixture('payment_intent.succeeded') as object), id: 'pm_odd' },
      });
      const result = await connector().authorize(authorizeRequest({ captureMethod: 'manual' }));
      expect(form(authorizeRequests()[1].body).payment_method).toBe('pm_odd');
      expect(result).toEqual({ status: 'RequiresCapture', connectorTransactionId: PI_ID, amountCaptured: 0 });
    });

    test('the billing details we know (email, phone, address) go on the PaymentMethod; the country upper-case', async () => {
      serveAuthorize(200, 'payment_intent.succeeded');
      await connector().authorize(
        authorizeRequest({
          phone: '+2348012345678',
          billingAddress: { line1: '1 Marina Road', city: 'Lagos', state: 'Lagos', zip: '101001', country: 'ng' },
          card: { card_number: PAN, card_exp_month: '12', card_exp_year: '2030', card_cvc: CVC },
        }),
      );
      const [pmReq] = authorizeRequests();
      expect(form(pmReq.body)).toEqual({
        type: 'card',
        'card[number]': PAN,
        'card[exp_month]': '12',
        'card[exp_year]': '2030',
        'card[cvc]': CVC,
        'billing_details[email]': 'payer@example.com',
        'billing_details[phone]': '+2348012345678',
        'billing_details[address][line1]': '1 Marina Road',
        'billing_details[address][city]': 'Lagos',
        'billing_details[address][state]': 'Lagos',
        'billing_details[address][postal_code]': '101001',
        'billing_details[address][country]': 'NG',
        'metadata[payment_id]': PAYMENT_ID,
      });
      requests = [];
      serveAuthorize(200, 'payment_intent.succeeded');
      await connector().authorize(authorizeRequest({ email: null, billingAddress: { line1: '', city: '' } }));
      expect(Object.keys(form(authorizeRequests()[0].body)).filter((k) => k.startsWith('billing_details'))).toEqual([]);
    });

    test('3DS: requires_action with redirect_to_url → RequiresAction with our redirect_to_url', async () => {
      serveAuthorize(200, 'payment_intent.requires_action.redirect_to_url');
      const result = await connector().authorize(authorizeRequest({ currency: 'ZAR' }));
      expect(form(authorizeRequests()[1].body).currency).toBe('zar');
      expect(result).toEqual({
        status: 'RequiresAction',
        connectorTransactionId: PI_ID,
        amountCaptured: 0,
        nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT_3DS },
      });
    });

    test('3DS: requires_action with use_stripe_sdk carrying a stripe_js URL → redirect to it', async () => {
      serveAuthorize(200, 'payment_intent.requires_action.use_stripe_sdk');
      const result = await connector().authorize(authorizeRequest({ currency: 'KES' }));
      expect(form(authorizeRequests()[1].body).currency).toBe('kes');
      expect(result.status).toBe('RequiresAction');
      expect(result.nextAction).toEqual({ type: 'redirect_to_url', redirect_to_url: STRIPE_JS_3DS });
    });

    test('a card decline on the intent (402 card_error with the PaymentIntent) is a Failed result with the intent id', async () => {
      serveAuthorize(402, 'error.card_declined');
      const result = await connector().authorize(
        authorizeRequest({ card: { card_number: '4000000000009995', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' } }),
      );
      const [pmReq, piReq] = authorizeRequests();
      expect(form(pmReq.body)['card[number]']).toBe('4000000000009995');
      expect(form(piReq.body).payment_method).toBe(PM_ID);
      expect(result).toEqual({
        status: 'Failed',
        connectorTransactionId: PI_ID,
        amountCaptured: 0,
        errorCode: 'insufficient_funds',
        errorMessage: 'Your card has insufficient funds.',
      });
    });

    test('a card error on the PaymentMethod (402 incorrect_number) is a Failed result without an intent; no intent is requested', async () => {
      serveAuthorize(200, 'payment_intent.succeeded', { status: 402, body: fixture('error.incorrect_number') });
      const result = await connector().authorize(
        authorizeRequest({ card: { card_number: '4242424242424241', card_exp_month: '12', card_exp_year: '2030', card_cvc: '123' } }),
      );
      expect(requests.map((r) => r.url)).toEqual(['/v1/payment_methods']);
      expect(result).toEqual({
        status: 'Failed',
        connectorTransactionId: null,
        amountCaptured: 0,
        errorCode: 'incorrect_number',
        errorMessage: 'Your card number is incorrect.',
      });
    });

    test('an account without raw card data access (400 on the PaymentMethod) → ConnectorRequestError; no intent is requested', async () => {
      serveAuthorize(200, 'payment_intent.succeeded', { status: 400, body: fixture('error.raw_card_data_not_enabled') });
      const err = await connector()
        .authorize(authorizeRequest())
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorRequestError);
      expect(err).toMatchObject({ code: 'invalid_request_error', message: expect.stringContaining('raw-card-data') });
      expect(requests.map((r) => r.url)).toEqual(['/v1/payment_methods']);
    });

    test("a 4xx on the intent that is not a card error (amount_too_small) → ConnectorRequestError with Stripe's code", async () => {
      serveAuthorize(400, 'error.amount_too_small');
      await expect(connector().authorize(authorizeRequest({ amount: 10 }))).rejects.toMatchObject({
        name: 'ConnectorRequestError',
        connector: 'stripe',
        code: 'amount_too_small',
        message: 'Amount must be at least $0.50 usd',
      });
      expect(form(authorizeRequests()[1].body).amount).toBe('10');
    });

    describe('faults: the PaymentMethod moves no money, the PaymentIntent does', () => {
      test.each([
        ['5xx', { status: 500, body: fixture('error.api_error') }],
        ['a 2xx body that is not JSON', { status: 200, raw: '<html>upstream</html>' }],
        ['no id in the answer', { status: 200, body: { object: 'payment_method' } }],
        ['a timeout', 'hang'],
      ] as Array<
        [string, Reply]
      >)('PaymentMethod %s → ConnectorTechnicalError with notSent; the intent is never requested', async (_label, pm) => {
        serveAuthorize(200, 'payment_intent.succeeded', pm);
        const err = await connector({ timeoutMs: 200 })
          .authorize(authorizeRequest())
          .catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ConnectorTechnicalError);
        expect((err as ConnectorTechnicalError).notSent).toBe(true);
        expect((err as Error).message).not.toContain(PAN);
        expect(requests.map((r) => r.url)).toEqual(['/v1/payment_methods']);
      });

      test('PaymentMethod 409 (another authorize of this payment in flight) → ConnectorTechnicalError, notSent false', async () => {
        serveAuthorize(200, 'payment_intent.succeeded', { status: 409, body: fixture('error.idempotency_key_in_use') });
        const err = (await connector()
          .authorize(authorizeRequest())
          .catch((e: unknown) => e)) as ConnectorTechnicalError;
        expect(err).toBeInstanceOf(ConnectorTechnicalError);
        expect(err.notSent).toBe(false);
        expect(err.message).toContain('idempotency_key_in_use');
        // A 409 whose body is not JSON (a proxy's page) is still a conflict, never notSent.
        requests = [];
        serveAuthorize(200, 'payment_intent.succeeded', { status: 409, raw: '<html>conflict</html>' });
        const raw = (await connector()
          .authorize(authorizeRequest())
          .catch((e: unknown) => e)) as ConnectorTechnicalError;
        expect(raw).toBeInstanceOf(ConnectorTechnicalError);
        expect(raw.notSent).toBe(false);
        expect(requests.map((r) => r.url)).toEqual(['/v1/payment_methods']);
      });

      test('PaymentIntent 5xx or timeout → ConnectorTechnicalError, notSent false (the intent may exist)', async () => {
        serveAuthorize(500, 'error.api_error');
        const fiveHundred = (await connector()
          .authorize(authorizeRequest())
          .catch((e: unknown) => e)) as ConnectorTechnicalError;
        expect(fiveHundred).toBeInstanceOf(ConnectorTechnicalError);
        expect(fiveHundred.notSent).toBe(false);
        requests = [];
        reply = (req) => (req.url === '/v1/payment_methods' ? { status: 200, body: PAYMENT_METHOD } : 'hang');
        const timedOut = (await connector({ timeoutMs: 200 })
          .authorize(authorizeRequest())
          .catch((e: unknown) => e)) as ConnectorTechnicalError;
        expect(timedOut).toBeInstanceOf(ConnectorTechnicalError);
        expect(timedOut.notSent).toBe(false);
        authorizeRequests();
      });

      test(`the intent is requested only within ${PAYMENT_INTENT_SEND_WINDOW_MS} ms of the start (a suspended process never sends it late)`, async () => {
        const clock = (afterPaymentMethodMs: number) => {
          const times = [NOW_MS, NOW_MS + afterPaymentMethodMs];
          return () => times.shift() ?? NOW_MS + afterPaymentMethodMs;
        };
        serveAuthorize(200, 'payment_intent.succeeded');
        await expect(connector({ now: clock(PAYMENT_INTENT_SEND_WINDOW_MS) }).authorize(authorizeRequest())).resolves.toMatchObject({
          status: 'Succeeded',
        });
        authorizeRequests();
        requests = [];
        const err = (await connector({ now: clock(PAYMENT_INTENT_SEND_WINDOW_MS + 1) })
          .authorize(authorizeRequest())
          .catch((e: unknown) => e)) as ConnectorTechnicalError;
        expect(err).toBeInstanceOf(ConnectorTechnicalError);
        expect(err.notSent).toBe(true);
        expect(requests.map((r) => r.url)).toEqual(['/v1/payment_methods']);
      });
    });

    test('a payment Stripe does not take here (GHS, non-card, no card) is refused without a call', async () => {
      const stripe = connector();
      await expect(stripe.authorize(authorizeRequest({ currency: 'GHS' }))).rejects.toBeInstanceOf(ConnectorRequestError);
      for (const method of ['bank_transfer', 'ussd', 'mobile_money'] as const) {
        await expect(stripe.authorize(authorizeRequest({ paymentMethod: method, card: undefined }))).rejects.toMatchObject({
          code: 'unsupported_payment',
        });
      }
      await expect(stripe.authorize(authorizeRequest({ card: undefined }))).rejects.toMatchObject({ code: 'missing_card_details' });
      expect(requests).toHaveLength(0);
    });

    test('results and errors never carry the card number, CVC or secret key', async () => {
      serveAuthorize(402, 'error.card_declined');
      const declined = await connector().authorize(authorizeRequest());
      serveAuthorize(200, 'payment_intent.succeeded', { status: 402, body: fixture('error.incorrect_number') });
      const invalid = await connector().authorize(authorizeRequest());
      serveAuthorize(200, 'payment_intent.succeeded');
      const ok = await connector().authorize(authorizeRequest());
      serveAuthorize(200, 'payment_intent.succeeded', { status: 503, body: fixture('error.api_error') });
      const failed = await connector()
        .authorize(authorizeRequest())
        .catch((e: unknown) => e);
      for (const text of [
        JSON.stringify(declined),
        JSON.stringify(invalid),
        JSON.stringify(ok),
        JSON.stringify(connector()),
        String(failed),
        JSON.stringify(failed),
      ]) {
        expect(text).not.toContain(PAN);
        expect(text).not.toContain(CVC);
        expect(text).not.toContain(SECRET_KEY);
        expect(text).not.toContain(WEBHOOK_SECRET);
      }
    });
  });

  describe('API version', () => {
    test(`${STRIPE_API_VERSION} is the version the installed stripe package describes`, () => {
      // node_modules/stripe/cjs/apiVersion.js (the package's exports map hides the file, so it is read by path).
      const source = readFileSync(join(dirname(require.resolve('stripe')), 'apiVersion.js'), 'utf8');
      expect(/exports\.ApiVersion = '([^']+)'/.exec(source)?.[1]).toBe(STRIPE_API_VERSION);
    });

    test('every call carries Stripe-Version (GETs included); an empty override means the pinned version', async () => {
      serve(200, 'payment_intent.succeeded');
      await connector({ apiVersion: '' }).sync(syncRequest());
      expectGet(only(), `/v1/payment_intents/${PI_ID}${EXPAND_PAYMENT_METHOD_QUERY}`);
    });

    test.each([
      ['2026-10-28.endive', null],
      ['2026-07-29', null],
      ['2026-09-30.endive', null],
      ['2026-07-28.dahlia', /predates 2026-07-29/],
      ['2024-06-20', /predates/],
      ['latest', /not a Stripe API version/],
      ['2026-10-28.Endive', /not a Stripe API version/],
      ['2026-10-28 ', /not a Stripe API version/],
    ] as Array<[string, RegExp | null]>)('apiVersion %s', (version, problem) => {
      if (problem === null) {
        expect(stripeApiVersionProblem(version)).toBeNull();
        expect(() => connector({ apiVersion: version })).not.toThrow();
      } else {
        expect(stripeApiVersionProblem(version)).toMatch(problem);
        expect(() => connector({ apiVersion: version })).toThrow(RangeError);
      }
    });
  });

  describe('form encoding (stripe-node stringifyRequestData)', () => {
    test('nested objects, arrays, booleans, numbers, null and undefined', () => {
      const encoded = encodeStripeForm({
        amount: 150000,
        confirm: true,
        allowed: ['card', 'link'],
        card: { number: '4242', exp_month: 7 },
        metadata: { payment_id: 'pay_1', note: 'a&b=c [x]' },
        description: null,
        skipped: undefined,
        at: new Date(1_714_000_000_123),
      });
      expect([...encoded]).toEqual([
        ['amount', '150000'],
        ['confirm', 'true'],
        ['allowed[0]', 'card'],
        ['allowed[1]', 'link'],
        ['card[number]', '4242'],
        ['card[exp_month]', '7'],
        ['metadata[payment_id]', 'pay_1'],
        ['metadata[note]', 'a&b=c [x]'],
        ['description', ''],
        ['at', '1714000000'],
      ]);
      expect(new URLSearchParams(encoded.toString()).get('metadata[note]')).toBe('a&b=c [x]');
    });
  });

  describe('every PaymentIntent status maps through the table (sync by id)', () => {
    const cases: Array<[fixtureName: string, expected: PaymentResult]> = [
      [
        'payment_intent.requires_payment_method',
        {
          status: 'Failed',
          connectorTransactionId: PI_ID,
          amountCaptured: 0,
          errorCode: 'payment_intent_authentication_failure',
          errorMessage: expect.stringContaining('failed authentication') as unknown as string,
        },
      ],
      ['payment_intent.requires_confirmation', { status: 'Processing', connectorTransactionId: PI_ID, amountCaptured: 0 }],
      [
        'payment_intent.requires_action.redirect_to_url',
        {
          status: 'RequiresAction',
          connectorTransactionId: PI_ID,
          amountCaptured: 0,
          nextAction: { type: 'redirect_to_url', redirect_to_url: REDIRECT_3DS },
        },
      ],
      ['payment_intent.processing', { status: 'Processing', connectorTransactionId: PI_ID, amountCaptured: 0 }],
      ['payment_intent.requires_capture', { status: 'RequiresCapture', connectorTransactionId: PI_ID, amountCaptured: 0 }],
      ['payment_intent.succeeded', { status: 'Succeeded', connectorTransactionId: PI_ID, amountCaptured: 150000 }],
      ['payment_intent.canceled', { status: 'Cancelled', connectorTransactionId: PI_ID, amountCaptured: 0 }],
    ];

    test('the cases cover every status in the table', () => {
      const covered = new Set(cases.map(([name]) => (fixture(name) as { status: string }).status));
      expect([...covered].sort()).toEqual(Object.keys(STRIPE_PAYMENT_STATUS).sort());
      for (const [name, expected] of cases) {
        expect(STRIPE_PAYMENT_STATUS[(fixture(name) as { status: keyof typeof STRIPE_PAYMENT_STATUS }).status]).toBe(expected.status);
      }
    });

    test.each(cases)('%s', async (name, expected) => {
      serve(200, name);
      const result = await connector().sync(syncRequest());
      expectGet(only(), `/v1/payment_intents/${PI_ID}${EXPAND_PAYMENT_METHOD_QUERY}`);
      expect(result).toEqual(expected);
    });
  });

  describe('sync by our reference when the authorize timed out (connectorTransactionId null)', () => {
    const searchPath = `/v1/payment_intents/search?${new URLSearchParams([
      ['query', `metadata['payment_id']:'${PAYMENT_ID}'`],
      ['expand[0]', 'data.payment_method'],
    ]).toString()}`;

    test("GET /v1/payment_intents/search?query=metadata['payment_id']:'<id>' finds the intent", async () => {
      serve(200, 'search_result.found');
      const result = await connector().sync(syncRequest({ connectorTransactionId: null }));
      const req = only();
      expectGet(req, searchPath);
      expect(new URL(req.url, baseUrl).searchParams.get('query')).toBe(`metadata['payment_id']:'${PAYMENT_ID}'`);
      expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: PI_ID, amountCaptured: 150000 });
    });

    test('not found yet (search lags up to an hour) → still Processing, no notFound', async () => {
      serve(200, 'search_result.empty');
      const result = await connector().sync(
        syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - 5 * 60_000).toISOString() }),
      );
      expectGet(only(), searchPath);
      expect(result).toEqual({ status: 'Processing', connectorTransactionId: null, amountCaptured: 0 });
    });

    test('one millisecond before the propagation window ends → still Processing', async () => {
      serve(200, 'search_result.empty');
      const result = await connector().sync(
        syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - SEARCH_PROPAGATION_MS + 1).toISOString() }),
      );
      expect(result.status).toBe('Processing');
      expect(result.notFound).toBeUndefined();
    });

    test('not found more than an hour after creation → Failed with notFound (never reached Stripe)', async () => {
      serve(200, 'search_result.empty');
      const result = await connector().sync(
        syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - 61 * 60_000).toISOString() }),
      );
      expectGet(only(), searchPath);
      expect(result).toEqual({
        status: 'Failed',
        connectorTransactionId: null,
        amountCaptured: 0,
        errorCode: 'payment_intent_not_found',
        errorMessage: 'Stripe has no PaymentIntent for this payment: the authorize request never reached Stripe.',
        notFound: true,
      });
    });

    test('an unreadable createdAt never yields notFound', async () => {
      serve(200, 'search_result.empty');
      const result = await connector().sync(syncRequest({ connectorTransactionId: null, createdAt: 'not a date' }));
      expect(result).toEqual({ status: 'Processing', connectorTransactionId: null, amountCaptured: 0 });
    });

    test('a found intent, a 404 for an id we hold, a 5xx and a 409 never carry notFound', async () => {
      serve(200, 'search_result.found');
      expect(
        (await connector().sync(syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - 61 * 60_000).toISOString() })))
          .notFound,
      ).toBeUndefined();
      serve(404, 'error.resource_missing');
      await expect(connector().sync(syncRequest({ connectorTransactionId: 'pi_missing' }))).rejects.toBeInstanceOf(ConnectorRequestError);
      serve(500, 'error.api_error');
      await expect(
        connector().sync(syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - 61 * 60_000).toISOString() })),
      ).rejects.toBeInstanceOf(ConnectorTechnicalError);
      serve(409, 'error.idempotency_key_in_use');
      await expect(
        connector().sync(syncRequest({ connectorTransactionId: null, createdAt: new Date(NOW_MS - 61 * 60_000).toISOString() })),
      ).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });
  });

  describe('capture and void', () => {
    test('capture: POST /v1/payment_intents/{id}/capture with amount_to_capture → Succeeded with the captured amount', async () => {
      serve(200, 'payment_intent.captured_partial');
      const result = await connector().capture({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD', amount: 100000 });
      const req = only();
      expectPost(req, `/v1/payment_intents/${PI_ID}/capture`, `${PAYMENT_ID}:capture`);
      expect(form(req.body)).toEqual({ amount_to_capture: '100000' });
      expect(result).toEqual({ status: 'Succeeded', connectorTransactionId: PI_ID, amountCaptured: 100000 });
    });

    test("capture of an intent in the wrong state → ConnectorRequestError with Stripe's code", async () => {
      serve(400, 'error.payment_intent_unexpected_state');
      await expect(
        connector().capture({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD', amount: 150000 }),
      ).rejects.toMatchObject({
        name: 'ConnectorRequestError',
        connector: 'stripe',
        code: 'payment_intent_unexpected_state',
      });
    });

    test('void: POST /v1/payment_intents/{id}/cancel with an empty body → Cancelled', async () => {
      serve(200, 'payment_intent.canceled');
      const result = await connector().void({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD' });
      const req = only();
      expectPost(req, `/v1/payment_intents/${PI_ID}/cancel`, `${PAYMENT_ID}:void`);
      expect(req.body).toBe('');
      expect(result).toEqual({ status: 'Cancelled', connectorTransactionId: PI_ID, amountCaptured: 0 });
    });
  });

  describe('refunds', () => {
    test('refund: POST /v1/refunds with payment_intent, amount and our ids → Pending', async () => {
      serve(200, 'refund.pending');
      const result = await connector().refund({
        paymentId: PAYMENT_ID,
        connectorTransactionId: PI_ID,
        currency: 'USD',
        amount: 50000,
        refundId: REFUND_ID,
      });
      const req = only();
      expectPost(req, '/v1/refunds', `${REFUND_ID}:refund`);
      expect(form(req.body)).toEqual({
        payment_intent: PI_ID,
        amount: '50000',
        'metadata[refund_id]': REFUND_ID,
        'metadata[payment_id]': PAYMENT_ID,
      });
      expect(result).toEqual({ status: 'Pending', connectorRefundId: RE_ID });
    });

    const cases: Array<[fixtureName: string, expected: RefundResult]> = [
      ['refund.pending', { status: 'Pending', connectorRefundId: RE_ID }],
      ['refund.requires_action', { status: 'Pending', connectorRefundId: RE_ID }],
      ['refund.succeeded', { status: 'Succeeded', connectorRefundId: RE_ID }],
      [
        'refund.failed',
        { status: 'Failed', connectorRefundId: RE_ID, errorCode: 'expired_or_canceled_card', errorMessage: 'The refund failed at Stripe.' },
      ],
      [
        'refund.canceled',
        { status: 'Failed', connectorRefundId: RE_ID, errorCode: 'canceled', errorMessage: 'The refund was canceled at Stripe.' },
      ],
    ];

    test('the cases cover every refund status in the table', () => {
      const covered = cases.map(([name]) => (fixture(name) as { status: string }).status);
      expect([...covered].sort()).toEqual(Object.keys(STRIPE_REFUND_STATUS).sort());
    });

    test.each(cases)('syncRefund GET /v1/refunds/{id}: %s', async (name, expected) => {
      serve(200, name);
      const result = await connector().syncRefund({ refundId: REFUND_ID, connectorRefundId: RE_ID, currency: 'USD' });
      expectGet(only(), `/v1/refunds/${RE_ID}`);
      expect(result).toEqual(expected);
    });
  });

  describe('webhooks', () => {
    const cases: Array<[fixtureName: string, expected: object]> = [
      [
        'event.payment_intent.succeeded',
        {
          kind: 'payment',
          eventId: 'evt_3OzKx2LkdIwHu7ix1SuCcEsS',
          paymentId: PAYMENT_ID,
          connectorTransactionId: PI_ID,
          result: { status: 'Succeeded', connectorTransactionId: PI_ID, amountCaptured: 150000 },
        },
      ],
      [
        'event.payment_intent.payment_failed',
        {
          kind: 'payment',
          eventId: 'evt_3OzKx2LkdIwHu7ix1FaIlEdD',
          paymentId: PAYMENT_ID,
          connectorTransactionId: PI_ID,
          result: {
            status: 'Failed',
            connectorTransactionId: PI_ID,
            amountCaptured: 0,
            errorCode: 'insufficient_funds',
            errorMessage: 'Your card has insufficient funds.',
          },
        },
      ],
      [
        'event.payment_intent.canceled',
        {
          kind: 'payment',
          eventId: 'evt_3OzKx2LkdIwHu7ix1CaNcElD',
          paymentId: PAYMENT_ID,
          connectorTransactionId: PI_ID,
          result: { status: 'Cancelled', connectorTransactionId: PI_ID, amountCaptured: 0 },
        },
      ],
      [
        'event.payment_intent.amount_capturable_updated',
        {
          kind: 'payment',
          eventId: 'evt_3OzKx2LkdIwHu7ix1CaPtUrE',
          paymentId: PAYMENT_ID,
          connectorTransactionId: PI_ID,
          result: { status: 'RequiresCapture', connectorTransactionId: PI_ID, amountCaptured: 0 },
        },
      ],
      [
        'event.payment_intent.processing',
        {
          kind: 'payment',
          eventId: 'evt_3OzKx2LkdIwHu7ix1PrOcEsS',
          paymentId: PAYMENT_ID,
          connectorTransactionId: PI_ID,
          result: { status: 'Processing', connectorTransactionId: PI_ID, amountCaptured: 0 },
        },
      ],
      [
        'event.charge.refund.updated',
        {
          kind: 'refund',
          eventId: 'evt_3OzKx2LkdIwHu7ix1ReFuNdU',
          refundId: REFUND_ID,
          connectorRefundId: RE_ID,
          result: { status: 'Succeeded', connectorRefundId: RE_ID },
        },
      ],
      [
        'event.refund.updated',
        {
          kind: 'refund',
          eventId: 'evt_3OzKx2LkdIwHu7ix1ReFuPdT',
          refundId: REFUND_ID,
          connectorRefundId: RE_ID,
          result: { status: 'Succeeded', connectorRefundId: RE_ID },
        },
      ],
      [
        'event.refund.failed',
        {
          kind: 'refund',
          eventId: 'evt_3OzKx2LkdIwHu7ix1ReFfAiL',
          refundId: REFUND_ID,
          connectorRefundId: RE_ID,
          result: {
            status: 'Failed',
            connectorRefundId: RE_ID,
            errorCode: 'lost_or_stolen_card',
            errorMessage: 'The refund failed at Stripe.',
          },
        },
      ],
      [
        // A dispute, mapped (our payment id is read from the PaymentIntent by the core's fetch).
        'event.charge.dispute.created',
        RECORDED_DISPUTE_CREATED_EVENT,
      ],
    ];

    test.each(cases)('a correctly signed %s is accepted and mapped', async (name, expected) => {
      const rawBody = rawFixture(name);
      const event = await connector().parseWebhook({ rawBody, headers: signedHeaders(rawBody) });
      expect(event).toEqual(expected);
      expect(requests).toHaveLength(0);
    });

    test('a redelivery (new timestamp, same event) maps to the same eventId', async () => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      const first = await connector().parseWebhook({ rawBody, headers: signedHeaders(rawBody, Math.floor(NOW_MS / 1000) - 100) });
      const again = await connector().parseWebhook({ rawBody, headers: signedHeaders(rawBody, Math.floor(NOW_MS / 1000)) });
      expect(again).toEqual(first);
    });

    test('any matching v1 among several (secret rotation) is accepted; v0 is ignored', async () => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      const t = Math.floor(NOW_MS / 1000);
      const header = `t=${t},v1=${sign(rawBody, t, 'whsec_old')},v1=${sign(rawBody, t)},v0=deadbeef`;
      await expect(connector().parseWebhook({ rawBody, headers: { 'stripe-signature': header } })).resolves.toMatchObject({
        kind: 'payment',
      });
    });

    test('within the 300 s tolerance on either side is accepted', async () => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      const t = Math.floor(NOW_MS / 1000);
      await expect(connector().parseWebhook({ rawBody, headers: signedHeaders(rawBody, t - 300) })).resolves.toMatchObject({
        kind: 'payment',
      });
      await expect(connector().parseWebhook({ rawBody, headers: signedHeaders(rawBody, t + 300) })).resolves.toMatchObject({
        kind: 'payment',
      });
    });

    const rejected: Array<[label: string, headers: (rawBody: string) => Record<string, string | undefined>, rawBodyOverride?: string]> = [
      ['missing signature header', () => ({ 'content-type': 'application/json' })],
      ['empty signature header', () => ({ 'stripe-signature': '' })],
      [
        'wrong signature (other secret)',
        (b) => ({ 'stripe-signature': `t=${Math.floor(NOW_MS / 1000)},v1=${sign(b, Math.floor(NOW_MS / 1000), 'whsec_wrong')}` }),
      ],
      [
        'signature over another timestamp',
        (b) => ({ 'stripe-signature': `t=${Math.floor(NOW_MS / 1000)},v1=${sign(b, Math.floor(NOW_MS / 1000) - 1)}` }),
      ],
      ['no timestamp', (b) => ({ 'stripe-signature': `v1=${sign(b, Math.floor(NOW_MS / 1000))}` })],
      ['no v1 (only v0)', (b) => ({ 'stripe-signature': `t=${Math.floor(NOW_MS / 1000)},v0=${sign(b, Math.floor(NOW_MS / 1000))}` })],
      ['expired timestamp (301 s old)', (b) => signedHeaders(b, Math.floor(NOW_MS / 1000) - 301)],
      ['timestamp too far in the future (301 s)', (b) => signedHeaders(b, Math.floor(NOW_MS / 1000) + 301)],
    ];

    test.each(rejected)('%s → WebhookSignatureError', async (_label, headers) => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      await expect(connector().parseWebhook({ rawBody, headers: headers(rawBody) })).rejects.toBeInstanceOf(WebhookSignatureError);
    });

    test('a body changed after signing → WebhookSignatureError', async () => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      const headers = signedHeaders(rawBody);
      const tampered = rawBody.replace('"amount_received": 150000', '"amount_received": 1');
      expect(tampered).not.toBe(rawBody);
      await expect(connector().parseWebhook({ rawBody: tampered, headers })).rejects.toBeInstanceOf(WebhookSignatureError);
    });

    test('without a configured webhook secret every webhook is refused', async () => {
      const rawBody = rawFixture('event.payment_intent.succeeded');
      const t = Math.floor(NOW_MS / 1000);
      const header = `t=${t},v1=${createHmac('sha256', '').update(`${t}.${rawBody}`).digest('hex')}`;
      await expect(
        connector({ webhookSecret: '' }).parseWebhook({ rawBody, headers: { 'stripe-signature': header } }),
      ).rejects.toBeInstanceOf(WebhookSignatureError);
    });

    test.each([
      ['not JSON', 'not json', 'invalid_json', undefined],
      ['not an Event', '{"id":"evt_1"}', 'parameter_missing', 'type'],
      [
        'an applied intent whose metadata.payment_id is a number',
        JSON.stringify({
          id: 'evt_1',
          type: 'payment_intent.succeeded',
          data: { object: { object: 'payment_intent', id: 'pi_1', status: 'succeeded', metadata: { payment_id: 7 } } },
        }),
        'parameter_invalid_type',
        'data.object.metadata.payment_id',
      ],
    ])('a signed body that is %s → WebhookPayloadError (400), never an ignored event', async (_what, rawBody, code, param) => {
      const err = await connector()
        .parseWebhook({ rawBody, headers: signedHeaders(rawBody) })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WebhookPayloadError);
      expect(err).toMatchObject({ connector: 'stripe', code, param });
    });
  });

  describe("findRefund: our refund by metadata[refund_id] among the PaymentIntent's refunds", () => {
    const lookup = (over: Partial<RefundLookupRequest> = {}): RefundLookupRequest => ({
      refundId: REFUND_ID,
      paymentId: PAYMENT_ID,
      connectorTransactionId: PI_ID,
      amount: 50000,
      currency: 'USD',
      createdAt: new Date(NOW_MS - 60 * 60_000).toISOString(),
      ...over,
    });
    const firstPage = `/v1/refunds?payment_intent=${PI_ID}&limit=100`;
    const page1 = fixture('refund_list.page1') as { data: Array<{ id: string }> };
    const lastOfPage1 = page1.data[page1.data.length - 1]!.id;

    test('pages with starting_after while has_more, and finds ours on page 2', async () => {
      reply = (req) => ({ status: 200, body: fixture(req.url.includes('starting_after') ? 'refund_list.page2' : 'refund_list.page1') });
      const result = await connector().findRefund(lookup());
      expect(requests).toHaveLength(2);
      expectGet(requests[0]!, firstPage);
      expectGet(requests[1]!, `${firstPage}&starting_after=${lastOfPage1}`);
      expect(Object.fromEntries(new URL(requests[1]!.url, baseUrl).searchParams)).toEqual({
        payment_intent: PI_ID,
        limit: '100',
        starting_after: lastOfPage1,
      });
      expect(result).toEqual({ status: 'Succeeded', connectorRefundId: RE_ID });
    });

    test('ours on the first and only page → mapped by the refund table (pending → Pending)', async () => {
      reply = () => ({ status: 200, body: { ...(fixture('refund_list.page2') as object), data: [fixture('refund.pending')] } });
      await expect(connector().findRefund(lookup())).resolves.toEqual({ status: 'Pending', connectorRefundId: RE_ID });
      expectGet(only(), firstPage);
    });

    test('a failed refund of ours → Failed with its failure_reason', async () => {
      reply = () => ({ status: 200, body: { ...(fixture('refund_list.page2') as object), data: [fixture('refund.failed')] } });
      await expect(connector().findRefund(lookup())).resolves.toEqual({
        status: 'Failed',
        connectorRefundId: RE_ID,
        errorCode: 'expired_or_canceled_card',
        errorMessage: 'The refund failed at Stripe.',
      });
    });

    test('absent after the settle window → null (known absent)', async () => {
      reply = (req) => ({
        status: 200,
        body: req.url.includes('starting_after') ? fixture('refund_list.empty') : fixture('refund_list.page1'),
      });
      await expect(
        connector().findRefund(lookup({ createdAt: new Date(NOW_MS - REFUND_LOOKUP_SETTLE_MS).toISOString() })),
      ).resolves.toBeNull();
      expect(requests).toHaveLength(2);
    });

    test('absent within the settle window (the refund call may still be running) → Pending without an id', async () => {
      serve(200, 'refund_list.empty');
      await expect(
        connector().findRefund(lookup({ createdAt: new Date(NOW_MS - REFUND_LOOKUP_SETTLE_MS + 1).toISOString() })),
      ).resolves.toEqual({ status: 'Pending', connectorRefundId: null });
      expectGet(only(), firstPage);
    });

    test('two refunds carrying our id → ConnectorTechnicalError (operator)', async () => {
      const ours = fixture('refund.succeeded') as Record<string, unknown>;
      reply = () => ({
        status: 200,
        body: { object: 'list', has_more: false, url: '/v1/refunds', data: [ours, { ...ours, id: 're_duplicate' }] },
      });
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });

    test('our id on a refund of another amount → ConnectorTechnicalError, not a match', async () => {
      reply = () => ({ status: 200, body: { object: 'list', has_more: false, url: '/v1/refunds', data: [fixture('refund.succeeded')] } });
      await expect(connector().findRefund(lookup({ amount: 49999 }))).rejects.toBeInstanceOf(ConnectorTechnicalError);
      await expect(connector().findRefund(lookup({ currency: 'NGN' }))).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });

    test('has_more with an empty page → ConnectorTechnicalError (not authoritative)', async () => {
      reply = () => ({ status: 200, body: { object: 'list', has_more: true, url: '/v1/refunds', data: [] } });
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });

    test('a listing that never ends → ConnectorTechnicalError after 20 pages', async () => {
      serve(200, 'refund_list.page1');
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
      expect(requests).toHaveLength(20);
    });

    test('5xx and 409 → ConnectorTechnicalError; an unknown PaymentIntent (404) → ConnectorRequestError', async () => {
      serve(500, 'error.api_error');
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
      serve(409, 'error.idempotency_key_in_use');
      await expect(connector().findRefund(lookup())).rejects.toBeInstanceOf(ConnectorTechnicalError);
      serve(404, 'error.resource_missing');
      await expect(connector().findRefund(lookup())).rejects.toMatchObject({ name: 'ConnectorRequestError', code: 'resource_missing' });
    });
  });

  describe('409 (idempotency_key_in_use: the same request is still in flight) is an unknown outcome', () => {
    test.each([
      ['authorize', () => connector().authorize(authorizeRequest())],
      ['capture', () => connector().capture({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD', amount: 150000 })],
      ['void', () => connector().void({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD' })],
      [
        'refund',
        () =>
          connector().refund({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD', amount: 50000, refundId: REFUND_ID }),
      ],
    ] as Array<[string, () => Promise<unknown>]>)('%s → ConnectorTechnicalError naming the code, not a decline', async (_op, call) => {
      serve(409, 'error.idempotency_key_in_use');
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      expect((err as Error).message).toContain('idempotency_key_in_use');
      expect((err as Error).message).not.toContain(SECRET_KEY);
    });
  });

  describe('timeouts', () => {
    test("every operation on a payment or refund uses stripe-node's 80 000 ms default unless overridden (the credential check: 10 s)", async () => {
      const { verifyCredentials, ...operations } = STRIPE_TIMEOUTS_MS;
      expect(Object.values(operations)).toEqual(Array(8).fill(80_000));
      expect(verifyCredentials).toBe(10_000);
      const spy = jest.spyOn(AbortSignal, 'timeout');
      try {
        serve(200, 'payment_intent.succeeded');
        await connector({ timeoutMs: undefined }).authorize(authorizeRequest());
        expect(spy).toHaveBeenLastCalledWith(80_000);
        await connector({ timeoutMs: 1234 }).sync(syncRequest());
        expect(spy).toHaveBeenLastCalledWith(1234);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('errors', () => {
    test("a 4xx error body → ConnectorRequestError with Stripe's error.code", async () => {
      serve(404, 'error.resource_missing');
      const err = await connector()
        .sync(syncRequest({ connectorTransactionId: 'pi_missing' }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorRequestError);
      expect(err).toMatchObject({ connector: 'stripe', code: 'resource_missing', message: "No such payment_intent: 'pi_missing'" });
      expectGet(only(), `/v1/payment_intents/pi_missing${EXPAND_PAYMENT_METHOD_QUERY}`);
    });

    test('a 401 without a code → the error type as code, with the key masked in the message', async () => {
      serve(401, 'error.invalid_api_key');
      const err = (await connector()
        .refund({ paymentId: PAYMENT_ID, connectorTransactionId: PI_ID, currency: 'USD', amount: 1, refundId: REFUND_ID })
        .catch((e: unknown) => e)) as ConnectorRequestError;
      expect(err).toBeInstanceOf(ConnectorRequestError);
      expect(err.code).toBe('invalid_request_error');
      expect(err.message).toBe('Invalid API Key provided: sk_test_[redacted]');
      expect(err.message).not.toContain(SECRET_KEY);
    });

    test('a 5xx → ConnectorTechnicalError (outcome unknown)', async () => {
      serve(500, 'error.api_error');
      await expect(connector().authorize(authorizeRequest())).rejects.toBeInstanceOf(ConnectorTechnicalError);
      await expect(connector().sync(syncRequest())).rejects.toBeInstanceOf(ConnectorTechnicalError);
    });

    test('a server that never answers → ConnectorTechnicalError after the timeout', async () => {
      reply = () => 'hang';
      const started = Date.now();
      const err = await connector({ timeoutMs: 200 })
        .authorize(authorizeRequest())
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      expect((err as Error).message).not.toContain(PAN);
      // A server that never answers holds the call until the test's end: giving up well within 10 s shows the timeout
      // fired (a generous ceiling: a loaded machine may take over a second to run a 200 ms timer).
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    test('amounts are integers in minor units; anything else is refused before sending', () => {
      expect(toStripeAmount(150000)).toBe(150000);
      expect(() => toStripeAmount(15.5)).toThrow(RangeError);
      expect(() => toStripeAmount(-1)).toThrow(RangeError);
    });
  });
});
