/**
 * Flutterwave card authentication steps (PIN, billing address, OTP) through `FlutterwaveConnector.authenticate`,
 * against the loopback stand-in of fixtures/flutterwave/fixture-server.ts. Flows follow Flutterwave's card guide
 * (https://developer.flutterwave.com/docs/direct-charge/card/): a `pin` or `avs_noauth` answer → the whole card
 * charge sent again with `authorization` (same tx_ref) → usually `otp` → `POST /v3/validate-charge` with the
 * charge's `flw_ref`. Every test asserts the exact requests sent and the mapped result. Response bodies are the
 * fixtures listed in fixtures/SOURCES.md; the refusal bodies of wrong values ("Invalid OTP", "Incorrect PIN") are
 * this file's own: Flutterwave publishes none (its validate-charge reference prints the 400 example as `{}`), which
 * is why the adapter decides from the transaction's state, never from the text.
 */
import {
  type AuthenticateRequest,
  type AuthorizeRequest,
  ConnectorRequestError,
  ConnectorTechnicalError,
} from '../../shared/connectors/connector';
import { FlutterwaveConnector } from '../../shared/connectors/flutterwave/flutterwave-connector';
import { FLUTTERWAVE_NOT_FOUND_SETTLE_MS } from '../../shared/connectors/flutterwave/lookups';
import {
  decryptCardPayload,
  type FixtureServer,
  flutterwaveFixture as fixture,
  ok,
  type RecordedRequest,
  startFixtureServer,
  withFixtureData as withData,
} from './fixtures/flutterwave/fixture-server';

const SECRET_KEY = 'FLWSECK_TEST-0000test0000secret0000-X';
const ENCRYPTION_KEY = 'FLWSECK_TEST0123456789ab';
const WEBHOOK_HASH = 'switchyard-test-secret-hash';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const BASE = 'https://api.example.test';
const STEP_PAGE = `${BASE}/pay/pay_flw_card/authenticate`;
const CARD = { card_number: '5531886652142950', card_exp_month: '9', card_exp_year: '2032', card_cvc: '564' };
/** Flutterwave's documented test PIN and OTP (card guide; SDK documentation/collections.md). */
const PIN = '3310';
const OTP = '12345';
const ADDRESS = { line1: '470 Mundet Pl', city: 'Hillside', state: 'NJ', zip: '07205', country: 'us' };

let fw: FixtureServer;
beforeAll(async () => {
  fw = await startFixtureServer();
});
afterAll(async () => {
  await fw.close();
});
beforeEach(() => fw.reset());

function connector(): FlutterwaveConnector {
  return new FlutterwaveConnector({
    baseUrl: fw.baseUrl,
    secretKey: SECRET_KEY,
    webhookSecret: WEBHOOK_HASH,
    encryptionKey: ENCRYPTION_KEY,
    timeoutMs: 2000,
    now: () => NOW,
  });
}

function authorizeRequest(overrides: Partial<AuthorizeRequest> = {}): AuthorizeRequest {
  return {
    paymentId: 'pay_flw_card',
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    card: CARD,
    email: 'payer@example.com',
    phone: null,
    publicBaseUrl: BASE,
    returnUrl: `${BASE}/pay/pay_flw_card/return`,
    ...overrides,
  };
}

function step(overrides: Partial<AuthenticateRequest> & Pick<AuthenticateRequest, 'step'>): AuthenticateRequest {
  return {
    paymentId: 'pay_flw_card',
    connectorTransactionId: 'pay_flw_card',
    amount: 150000,
    currency: 'NGN',
    paymentMethod: 'card',
    captureMethod: 'automatic',
    email: 'payer@example.com',
    publicBaseUrl: BASE,
    returnUrl: `${BASE}/pay/pay_flw_card/return`,
    ...overrides,
  };
}

/** The pending charge awaiting its OTP (charge-card-otp.json's transaction) as verify returns it. */
const pendingTx = () => ({
  status: 'success',
  message: 'Transaction fetched successfully',
  data: { ...(fixture('charge-card-otp').data as object) },
});
/** The validate-charge sample (Flutterwave reference) for our charge. */
const validated = (patch: Record<string, unknown> = {}) =>
  withData('validate-charge', { id: 288192886, tx_ref: 'pay_flw_card', flw_ref: 'FLW275389391', amount: 1500, ...patch });

function expectCall(r: RecordedRequest | undefined, method: string, path: string): Record<string, unknown> | undefined {
  expect(r).toBeDefined();
  expect([r?.method, r?.path]).toEqual([method, path]);
  expect(r?.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
  return r?.body ? (JSON.parse(r.body) as Record<string, unknown>) : undefined;
}

function decryptedBody(r: RecordedRequest | undefined): Record<string, unknown> {
  const body = expectCall(r, 'POST', '/v3/charges?type=card') as { client: string };
  expect(Object.keys(body)).toEqual(['client']);
  return decryptCardPayload(ENCRYPTION_KEY, body.client);
}

const STEP_CHARGE = {
  card_number: '5531886652142950',
  cvv: '564',
  expiry_month: '09',
  expiry_year: '32',
  currency: 'NGN',
  amount: '1500.00',
  email: 'payer@example.com',
  tx_ref: 'pay_flw_card',
  redirect_url: `${BASE}/pay/pay_flw_card/return`,
};

/** Flutterwave's answer to the lookup by our reference made before a card is sent again: no charge yet. */
const NO_CHARGE_YET = { status: 400, body: fixture('error-not-found') };

describe('PIN, then OTP, then Succeeded (the Verve flow)', () => {
  test('authorize asks submit_pin (card_required); the PIN re-sends the whole charge; the OTP goes to validate-charge with the flw_ref read by verify', async () => {
    const c = connector();
    fw.reply(ok(fixture('charge-card-authorization-required')));
    const first = await c.authorize(authorizeRequest());
    expect(first).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      nextAction: { type: 'submit_pin', display_text: null, redirect_to_url: STEP_PAGE, card_required: true },
    });

    fw.reply(NO_CHARGE_YET, ok(fixture('charge-card-otp')));
    const afterPin = await c.authenticate(
      step({ step: 'submit_pin', connectorTransactionId: first.connectorTransactionId, pin: PIN, card: CARD }),
    );
    // Before the card travels again, Flutterwave is asked whether a charge already exists under our reference.
    expectCall(fw.requests[1], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
    expect(decryptedBody(fw.requests[2])).toEqual({ ...STEP_CHARGE, authorization: { mode: 'pin', pin: PIN } });
    expect(fw.requests[2]?.body).not.toContain(PIN);
    expect(fw.requests[2]?.body).not.toContain(CARD.card_number);
    expect(afterPin).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Kindly enter the OTP sent to *******0328',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
    });

    fw.reply(ok(pendingTx()), ok(validated()));
    const afterOtp = await c.authenticate(step({ step: 'submit_otp', connectorTransactionId: afterPin.connectorTransactionId, otp: OTP }));
    expectCall(fw.requests[3], 'GET', '/v3/transactions/288192886/verify');
    expect(expectCall(fw.requests[4], 'POST', '/v3/validate-charge')).toEqual({ otp: OTP, flw_ref: 'FLW275389391', type: 'card' });
    expect(fw.requests).toHaveLength(5);
    expect(afterOtp).toEqual({ status: 'Succeeded', connectorTransactionId: '288192886', amountCaptured: 150000 });
  });

  test('manual capture: the PIN re-send keeps preauthorize: true and a validated preauth is RequiresCapture', async () => {
    fw.reply(NO_CHARGE_YET, ok(fixture('charge-card-otp')));
    await connector().authenticate(step({ step: 'submit_pin', captureMethod: 'manual', pin: PIN, card: CARD }));
    expect(decryptedBody(fw.requests[1])).toEqual({ ...STEP_CHARGE, preauthorize: true, authorization: { mode: 'pin', pin: PIN } });
    fw.reply(ok(pendingTx()), ok(validated({ charge_type: 'preauth' })));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', captureMethod: 'manual', connectorTransactionId: '288192886', otp: OTP })),
    ).resolves.toEqual({
      status: 'RequiresCapture',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
    });
  });

  test("a PIN whose earlier re-send created a charge (its answer was lost) is not sent again: the existing charge's step is answered", async () => {
    fw.reply(ok(pendingTx()));
    const result = await connector().authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }));
    expect(fw.requests).toHaveLength(1);
    expectCall(fw.requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
    expect(result).toMatchObject({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      nextAction: { type: 'submit_otp', card_required: false },
    });
  });

  test('a lookup that cannot connect after a refused re-send is an unknown outcome, never "not sent"', async () => {
    const gone = await startFixtureServer();
    try {
      gone.reply(NO_CHARGE_YET, { status: 400, body: { status: 'error', message: 'Incorrect PIN', data: null } });
      // The third call (the lookup after the refusal) finds nothing listening: ECONNREFUSED.
      gone.refuseAfter(2);
      const c = new FlutterwaveConnector({
        baseUrl: gone.baseUrl,
        secretKey: SECRET_KEY,
        webhookSecret: WEBHOOK_HASH,
        encryptionKey: ENCRYPTION_KEY,
        timeoutMs: 2000,
        now: () => NOW,
      });
      const err = await c.authenticate(step({ step: 'submit_pin', pin: '0000', card: CARD })).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(gone.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
      expect(err).toBeInstanceOf(ConnectorTechnicalError);
      expect((err as ConnectorTechnicalError).notSent).toBe(false);
    } finally {
      await gone.close();
    }
  });

  test('a PIN answered by a 3DS redirect leads to the redirect, not to an OTP', async () => {
    fw.reply(NO_CHARGE_YET, ok(fixture('charge-card-redirect')));
    const result = await connector().authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }));
    expect(result).toMatchObject({ status: 'RequiresAction', connectorTransactionId: '2534420', nextAction: { type: 'redirect_to_url' } });
  });

  test('an OTP for a charge found without an id goes by our reference', async () => {
    fw.reply(ok(pendingTx()), ok(validated()));
    await connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: null, otp: OTP }));
    expectCall(fw.requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
    expectCall(fw.requests[1], 'POST', '/v3/validate-charge');
  });
});

describe('billing address (avs_noauth)', () => {
  test('submit_address re-sends the charge with authorization avs_noauth (address fields mapped, country upper-cased)', async () => {
    fw.reply(NO_CHARGE_YET, ok(fixture('charge-card-redirect')));
    const result = await connector().authenticate(step({ step: 'submit_address', address: ADDRESS, card: CARD }));
    expect(decryptedBody(fw.requests[1])).toEqual({
      ...STEP_CHARGE,
      authorization: { mode: 'avs_noauth', city: 'Hillside', address: '470 Mundet Pl', state: 'NJ', country: 'US', zipcode: '07205' },
    });
    expect(result.nextAction).toMatchObject({ type: 'redirect_to_url' });
  });

  test("authorize with a complete billing address answers Flutterwave's AVS request at once (same tx_ref)", async () => {
    fw.reply(ok(fixture('charge-card-avs-required')), ok(fixture('charge-card-otp')));
    const result = await connector().authorize(authorizeRequest({ billingAddress: ADDRESS }));
    expect(decryptedBody(fw.requests[0])).toEqual(STEP_CHARGE);
    expect(decryptedBody(fw.requests[1])).toEqual({
      ...STEP_CHARGE,
      authorization: { mode: 'avs_noauth', city: 'Hillside', address: '470 Mundet Pl', state: 'NJ', country: 'US', zipcode: '07205' },
    });
    expect(result).toMatchObject({ status: 'RequiresAction', connectorTransactionId: '288192886', nextAction: { type: 'submit_otp' } });
  });

  test('an incomplete billing address is not sent: the payer is asked (submit_address, card_required)', async () => {
    fw.reply(ok(fixture('charge-card-avs-required')));
    const result = await connector().authorize(authorizeRequest({ billingAddress: { ...ADDRESS, zip: '' } }));
    expect(fw.requests).toHaveLength(1);
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      nextAction: { type: 'submit_address', display_text: null, redirect_to_url: STEP_PAGE, card_required: true },
    });
  });

  test("a billing address Flutterwave refuses leaves the payer the address step, with Flutterwave's message", async () => {
    fw.reply(
      ok(fixture('charge-card-avs-required')),
      { status: 400, body: { status: 'error', message: 'Invalid billing address', data: null } },
      { status: 400, body: fixture('error-not-found') },
    );
    const result = await connector().authorize(authorizeRequest({ billingAddress: ADDRESS }));
    expectCall(fw.requests[2], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      nextAction: { type: 'submit_address', display_text: null, redirect_to_url: STEP_PAGE, card_required: true },
      errorCode: 'invalid_billing_address',
      errorMessage: 'Invalid billing address',
    });
  });
});

describe('wrong values: answered as Flutterwave reports the charge afterwards', () => {
  const wrongOtp = { status: 400, body: { status: 'error', message: 'Invalid OTP', data: null } };

  test("a refused OTP on a charge still pending → the OTP step stays open, with Flutterwave's code and message (another try)", async () => {
    fw.reply(ok(pendingTx()), wrongOtp, ok(pendingTx()));
    const result = await connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' }));
    expect(fw.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v3/transactions/288192886/verify',
      'POST /v3/validate-charge',
      'GET /v3/transactions/288192886/verify',
    ]);
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Kindly enter the OTP sent to *******0328',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
      errorCode: 'invalid_otp',
      errorMessage: 'Invalid OTP',
    });
  });

  test("a refused OTP after which Flutterwave reports the charge failed → Failed with the charge's processor_response (no more tries)", async () => {
    const failed = {
      ...pendingTx(),
      data: { ...pendingTx().data, status: 'failed', processor_response: 'Transaction declined: OTP tries exceeded' },
    };
    fw.reply(ok(pendingTx()), wrongOtp, ok(failed));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' })),
    ).resolves.toEqual({
      status: 'Failed',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      errorCode: 'transaction_declined_otp_tries_exceeded',
      errorMessage: 'Transaction declined: OTP tries exceeded',
    });
  });

  test('…and when the failed charge carries no processor_response, with what Flutterwave said to the OTP', async () => {
    const failed = { ...pendingTx(), data: { ...pendingTx().data, status: 'failed', processor_response: null } };
    fw.reply(ok(pendingTx()), wrongOtp, ok(failed));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' })),
    ).resolves.toEqual({
      status: 'Failed',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      errorCode: 'invalid_otp',
      errorMessage: 'Invalid OTP',
    });
  });

  test('validate-charge answering the transaction failed → Failed with its processor_response', async () => {
    fw.reply(ok(pendingTx()), ok(validated({ status: 'failed', processor_response: 'Invalid OTP supplied' })));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' })),
    ).resolves.toEqual({
      status: 'Failed',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      errorCode: 'invalid_otp_supplied',
      errorMessage: 'Invalid OTP supplied',
    });
  });

  test('validate-charge answering the transaction still pending (no new mode) → the OTP step stays open with the new prompt', async () => {
    fw.reply(ok(pendingTx()), ok(validated({ status: 'pending', processor_response: 'OTP incorrect, 2 tries left' })));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' })),
    ).resolves.toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      nextAction: { type: 'submit_otp', display_text: 'OTP incorrect, 2 tries left', redirect_to_url: STEP_PAGE, card_required: false },
    });
  });

  test('a 200 "error" envelope from validate-charge is a refusal like a 4xx', async () => {
    fw.reply(ok(pendingTx()), ok({ status: 'error', message: 'Invalid OTP', data: null }), ok(pendingTx()));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '99999' })),
    ).resolves.toMatchObject({
      status: 'RequiresAction',
      nextAction: { type: 'submit_otp' },
      errorCode: 'invalid_otp',
    });
  });

  test("a refused PIN that created nothing at Flutterwave → the PIN step stays open (card_required), with Flutterwave's message", async () => {
    fw.reply(
      NO_CHARGE_YET,
      { status: 400, body: { status: 'error', message: 'Incorrect PIN', data: null } },
      { status: 400, body: fixture('error-not-found') },
    );
    const result = await connector().authenticate(step({ step: 'submit_pin', pin: '0000', card: CARD }));
    expectCall(fw.requests[2], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
    expect(result).toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      nextAction: { type: 'submit_pin', display_text: null, redirect_to_url: STEP_PAGE, card_required: true },
      errorCode: 'incorrect_pin',
      errorMessage: 'Incorrect PIN',
    });
  });

  test('a PIN Flutterwave declines with a failed transaction → Failed with its processor_response', async () => {
    fw.reply(NO_CHARGE_YET, ok(withData('charge-card-otp', { status: 'failed', processor_response: 'Incorrect PIN' })));
    await expect(connector().authenticate(step({ step: 'submit_pin', pin: '0000', card: CARD }))).resolves.toEqual({
      status: 'Failed',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      errorCode: 'incorrect_pin',
      errorMessage: 'Incorrect PIN',
    });
  });

  test('a refused PIN re-send whose charge already waits for its OTP (an earlier answer was lost) → submit_otp', async () => {
    fw.reply(
      NO_CHARGE_YET,
      { status: 400, body: { status: 'error', message: 'Duplicate transaction reference', data: null } },
      ok(pendingTx()),
    );
    await expect(connector().authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }))).resolves.toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
      nextAction: {
        type: 'submit_otp',
        display_text: 'Kindly enter the OTP sent to *******0328',
        redirect_to_url: STEP_PAGE,
        card_required: false,
      },
    });
  });

  test('a refusal whose follow-up lookup is refused too (e.g. a bad key) is thrown: the operation answers 402 and the step stays open', async () => {
    const badKey = { status: 401, body: { status: 'error', message: 'Invalid authorization key', data: null } };
    fw.reply(badKey, badKey);
    await expect(connector().authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }))).rejects.toMatchObject({
      name: 'ConnectorRequestError',
      code: 'invalid_authorization_key',
    });
  });
});

describe('charges that moved on meanwhile', () => {
  test('an OTP for a charge already successful is not sent: the outcome is answered', async () => {
    fw.reply(ok({ ...pendingTx(), data: { ...pendingTx().data, status: 'successful' } }));
    await expect(connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: OTP }))).resolves.toEqual({
      status: 'Succeeded',
      connectorTransactionId: '288192886',
      amountCaptured: 150000,
    });
    expect(fw.requests).toHaveLength(1);
  });

  test('a PIN for a payment whose transaction a sync already recorded re-sends nothing: the charge waits for its OTP', async () => {
    fw.reply(ok(pendingTx()));
    await expect(
      connector().authenticate(step({ step: 'submit_pin', connectorTransactionId: '288192886', pin: PIN, card: CARD })),
    ).resolves.toMatchObject({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      nextAction: { type: 'submit_otp' },
    });
    expect(fw.requests.map((r) => r.method)).toEqual(['GET']);
  });

  test('a transaction of another reference is refused (verification_mismatch) and no OTP is sent', async () => {
    fw.reply(ok({ ...pendingTx(), data: { ...pendingTx().data, tx_ref: 'pay_other' } }));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: OTP })),
    ).rejects.toMatchObject({ code: 'verification_mismatch' });
    expect(fw.requests).toHaveLength(1);
  });
});

describe('refused before sending anything', () => {
  test.each([
    ['card_required', step({ step: 'submit_pin', pin: PIN })],
    ['pin_required', step({ step: 'submit_pin', card: CARD })],
    ['address_required', step({ step: 'submit_address', card: CARD, address: { ...ADDRESS, city: ' ' } })],
    ['email_required', step({ step: 'submit_pin', pin: PIN, card: CARD, email: null })],
    ['unsupported_authentication_step', step({ step: 'submit_phone', phone: '+2348012345678' })],
    ['unsupported_authentication_step', step({ step: 'submit_birthday', birthday: '1990-01-31' })],
    ['unsupported_authentication_step', step({ step: 'submit_otp', otp: OTP, paymentMethod: 'mobile_money', currency: 'GHS' })],
  ])('%s', async (code, request) => {
    await expect(connector().authenticate(request)).rejects.toMatchObject({ name: 'ConnectorRequestError', code });
    expect(fw.requests).toHaveLength(0);
  });

  test('an empty OTP is refused after the lookup, before validate-charge', async () => {
    fw.reply(ok(pendingTx()));
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '' })),
    ).rejects.toMatchObject({ code: 'otp_required' });
    expect(fw.requests).toHaveLength(1);
  });
});

describe('technical failures (outcome unknown: the reconciler syncs)', () => {
  test('a 5xx on validate-charge or on the PIN re-send → ConnectorTechnicalError', async () => {
    fw.reply(ok(pendingTx()), { status: 503, body: fixture('error-server') }, NO_CHARGE_YET, {
      status: 503,
      body: fixture('error-server'),
    });
    await expect(
      connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: OTP })),
    ).rejects.toBeInstanceOf(ConnectorTechnicalError);
    await expect(connector().authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }))).rejects.toBeInstanceOf(
      ConnectorTechnicalError,
    );
  });

  test('no answer within the timeout → ConnectorTechnicalError', async () => {
    fw.reply('hang');
    const c = new FlutterwaveConnector({
      baseUrl: fw.baseUrl,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_HASH,
      encryptionKey: ENCRYPTION_KEY,
      timeoutMs: 150,
      now: () => NOW,
    });
    await expect(c.authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD }))).rejects.toBeInstanceOf(ConnectorTechnicalError);
  });
});

describe('the PIN and OTP are never echoed', () => {
  test('a Flutterwave message that quotes the OTP is masked in the result', async () => {
    fw.reply(ok(pendingTx()), { status: 400, body: { status: 'error', message: `OTP 98765 is invalid`, data: null } }, ok(pendingTx()));
    const result = await connector().authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: '98765' }));
    expect(JSON.stringify(result)).not.toContain('98765');
    expect(result.errorMessage).toBe('OTP [redacted] is invalid');
  });

  test('a thrown refusal that quotes the PIN is masked', async () => {
    const quoting = { status: 401, body: { status: 'error', message: 'PIN 4821 rejected: Invalid authorization key', data: null } };
    fw.reply(quoting, quoting);
    const err = await connector()
      .authenticate(step({ step: 'submit_pin', pin: '4821', card: CARD }))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorRequestError);
    expect(`${(err as ConnectorRequestError).code} ${(err as Error).message}`).not.toContain('4821');
  });

  test('no result or error of a full flow carries the PIN, the OTP or the card number', async () => {
    const c = connector();
    fw.reply(ok(fixture('charge-card-otp')), ok(pendingTx()), ok(validated()));
    const seen = [
      await c.authenticate(step({ step: 'submit_pin', pin: PIN, card: CARD })),
      await c.authenticate(step({ step: 'submit_otp', connectorTransactionId: '288192886', otp: OTP })),
    ];
    const text = JSON.stringify(seen);
    for (const secret of [PIN, OTP, CARD.card_number, CARD.card_cvc]) expect(text).not.toContain(secret);
  });
});

describe('sync and void while a card waits for its PIN or address', () => {
  const syncOf = (createdAt: string, connectorTransactionId: string | null = 'pay_flw_card') => ({
    paymentId: 'pay_flw_card',
    connectorTransactionId,
    amount: 150000,
    currency: 'NGN' as const,
    paymentMethod: 'card' as const,
    captureMethod: 'automatic' as const,
    createdAt,
  });
  const old = new Date(NOW - FLUTTERWAVE_NOT_FOUND_SETTLE_MS * 4).toISOString();

  test('no transaction yet (nothing is created before the PIN) → the step stays open, never notFound', async () => {
    fw.reply({ status: 400, body: fixture('error-not-found') });
    await expect(connector().sync(syncOf(old))).resolves.toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
    });
    expectCall(fw.requests[0], 'GET', '/v3/transactions/verify_by_reference?tx_ref=pay_flw_card');
  });

  test('inside the not-found window (a re-sent PIN whose answer was lost may still appear) → notYetKnown, so the claim is kept', async () => {
    const recent = new Date(NOW - 121_000).toISOString();
    fw.reply({ status: 400, body: fixture('error-not-found') });
    await expect(connector().sync(syncOf(recent))).resolves.toEqual({
      status: 'RequiresAction',
      connectorTransactionId: 'pay_flw_card',
      amountCaptured: 0,
      notYetKnown: true,
    });
  });

  test('a card charge that never answered (no id at all) still fails after the settle window, with notFound', async () => {
    fw.reply({ status: 400, body: fixture('error-not-found') });
    await expect(connector().sync(syncOf(old, null))).resolves.toMatchObject({ status: 'Failed', notFound: true });
  });

  test("the transaction appeared (the PIN's answer was lost) → RequiresAction with its id, the step kept", async () => {
    fw.reply(ok(pendingTx()));
    await expect(connector().sync(syncOf(old))).resolves.toEqual({
      status: 'RequiresAction',
      connectorTransactionId: '288192886',
      amountCaptured: 0,
    });
  });

  test('void of a card waiting for its PIN with nothing at Flutterwave → Cancelled, nothing to release', async () => {
    fw.reply({ status: 400, body: fixture('error-not-found') });
    await expect(connector().void({ paymentId: 'pay_flw_card', connectorTransactionId: 'pay_flw_card', currency: 'NGN' })).resolves.toEqual(
      {
        status: 'Cancelled',
        connectorTransactionId: 'pay_flw_card',
        amountCaptured: 0,
      },
    );
    expect(fw.requests).toHaveLength(1);
  });

  test('void without the step reference still refuses when Flutterwave has no transaction', async () => {
    fw.reply({ status: 400, body: fixture('error-not-found') });
    await expect(connector().void({ paymentId: 'pay_flw_card', connectorTransactionId: 'MockRef', currency: 'NGN' })).rejects.toMatchObject(
      { code: 'no_transaction_was_found_for_this_id' },
    );
  });
});
