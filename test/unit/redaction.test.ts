import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { CARD_MASK, maskCardData, maskCardNumbers, maskOptionalText } from '../../shared/domain/card-mask';
import type { Payment } from '../../shared/domain/payment';
import { RedactingLogger } from '../../shared/observability/logger';
import { isSecretName, REDACTED, redactEvent, redactingReplacer, redactText, redactValue } from '../../shared/observability/redaction';
import { attemptOf, resultFields } from '../../shared/operations/payments/payment-state';

/*
 * Redaction of logged events after parsing, and the card-number masker in front of what is
 * stored (processor messages, idempotent answers). Card numbers are the processors' public
 * test PANs; the CVC is a value that appears nowhere else in the events below.
 */

const VISA = '4111111111111111';
const MASTERCARD = '5555555555554444';
const AMEX = '378282246310005';
const CVC = '7391';
const PIN = '8642';

/** A payload-2.0 event as API Gateway would deliver it (the fields the logger sees). */
function httpEvent(over: Partial<APIGatewayProxyEventV2> = {}): APIGatewayProxyEventV2 {
  return {
    version: '2.0',
    routeKey: 'POST /payments',
    rawPath: '/payments',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'api-key': 'sk_test_abcdefgh12345678' },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.test',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/payments', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'jest' },
      requestId: 'req-1',
      routeKey: 'POST /payments',
      stage: '$default',
      time: '01/Jan/2030:00:00:00 +0000',
      timeEpoch: 1_893_456_000_000,
    },
    isBase64Encoded: false,
    ...over,
  };
}

/** What the logger would print for the event: the redacted copy through the replacer. */
function logged(event: unknown): string {
  return JSON.stringify(redactEvent(event), redactingReplacer);
}

/** Asserts none of the card data above is in the text. */
function expectNoCardData(text: string): void {
  for (const secret of [VISA, MASTERCARD, AMEX, CVC, PIN, 'sk_test_abcdefgh12345678']) expect(text).not.toContain(secret);
}

describe('logged events are redacted after parsing', () => {
  test('keys written with JSON unicode escapes are redacted by their real name, CVC included', () => {
    // The raw text holds no "card_number" or "card_cvc" a text pattern could match.
    const raw = `{"amount":100,"payment_method_data":{"card":{"card_\\u006eumber":"${VISA}","card_\\u0063vc":"${CVC}","\\u0063\\u0076\\u0063":"${CVC}","card_exp_month":"09"}}}`;
    expect(raw).not.toContain('card_number');
    expect(JSON.parse(raw).payment_method_data.card.card_number).toBe(VISA); // what the handler parses
    const text = logged(httpEvent({ body: raw }));
    expectNoCardData(text);
    const body = (redactEvent(httpEvent({ body: raw })) as { body: { payment_method_data: { card: Record<string, unknown> } } }).body;
    expect(body.payment_method_data.card).toEqual({ card_number: REDACTED, card_cvc: REDACTED, cvc: REDACTED, card_exp_month: '09' });
    expect(text).toContain('"amount":100');
  });

  test('other spellings of a secret name are one name: cardNumber, Card-Number, CVV, card[number], full-width letters', () => {
    for (const name of [
      'cardNumber',
      'Card-Number',
      'CARD_NUMBER',
      'card[number]',
      'CVV',
      'cvv2',
      'Ｃｖｃ',
      'pin',
      'OTP',
      'Api-Key',
      'Authorization',
      'verif-hash',
    ]) {
      expect(isSecretName(name)).toBe(true);
    }
    for (const name of ['amount', 'currency', 'card_exp_month', 'description', 'number_of_items']) expect(isSecretName(name)).toBe(false);
    const raw = JSON.stringify({ cardNumber: 'x-1', 'Card-Number': 'x-2', 'card[cvc]': CVC, pin: PIN, nested: [{ OTP: '907153' }] });
    const text = logged(httpEvent({ body: raw }));
    expectNoCardData(text);
    expect(text).not.toContain('x-1');
    expect(text).not.toContain('907153');
  });

  test('a card number used as a JSON key, or hidden in a value, is masked; the rest of the body stays readable', () => {
    const raw = JSON.stringify({
      metadata: { [VISA]: 'k', note: `card ${MASTERCARD.replace(/(\d{4})/g, '$1 ').trim()} on file`, ref: 'order-42' },
      amount: Number(VISA),
    });
    const text = logged(httpEvent({ body: raw }));
    expectNoCardData(text);
    expect(text).not.toContain('5555 5555 5555 4444');
    expect(text).toContain('order-42');
    expect(text).toContain('on file');
  });

  test('query-parameter names and values, rawQueryString and headers are redacted by name and value', () => {
    const event = httpEvent({
      routeKey: 'GET /payments',
      rawPath: '/payments',
      body: undefined,
      rawQueryString: `${VISA}=1&card%5Fnumber=${MASTERCARD}&cvc=${CVC}&limit=10`,
      queryStringParameters: { [VISA]: '1', card_number: MASTERCARD, cvc: CVC, limit: '10' },
      headers: { 'api-key': 'sk_test_abcdefgh12345678', [`x-${AMEX}`]: 'a', 'x-note': `pan ${AMEX}`, cookie: `session=${PIN}` },
    });
    const text = logged(event);
    expectNoCardData(text);
    const out = redactEvent(event) as {
      queryStringParameters: Record<string, string>;
      rawQueryString: string;
      headers: Record<string, string>;
    };
    expect(out.queryStringParameters).toEqual({ [REDACTED]: '1', card_number: REDACTED, cvc: REDACTED, limit: '10' });
    expect(out.rawQueryString).toBe(`${REDACTED}=1&card_number=${REDACTED}&cvc=${REDACTED}&limit=10`);
    expect(out.headers['api-key']).toBe(REDACTED);
    expect(out.headers.cookie).toBe(REDACTED);
  });

  test('a base64-encoded body (as API Gateway sends non-text types) and a urlencoded form are decoded, parsed, then redacted', () => {
    const json = `{"card_\\u006eumber":"${VISA}","card_cvc":"${CVC}"}`;
    const b64 = logged(httpEvent({ body: Buffer.from(json).toString('base64'), isBase64Encoded: true }));
    expectNoCardData(b64);
    expect(b64).toContain(`"card_number":"${REDACTED}"`);
    const form = `card%5Fnumber=${VISA}&card_cvc=${CVC}&pin=${PIN}&amount=100`;
    const formEvent = httpEvent({
      body: Buffer.from(form).toString('base64'),
      isBase64Encoded: true,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const formText = logged(formEvent);
    expectNoCardData(formText);
    expect((redactEvent(formEvent) as { body: unknown }).body).toEqual({
      card_number: REDACTED,
      card_cvc: REDACTED,
      pin: REDACTED,
      amount: '100',
    });
  });

  test('a body that is neither JSON nor a form is not logged (only its size): a broken body cannot leak a CVC', () => {
    const broken = `{"card_\\u0063vc": "${CVC}", "card_\\u006eumber": "${VISA}",`; // truncated JSON
    const out = redactEvent(httpEvent({ body: broken })) as { body: string };
    expect(out.body).toContain(REDACTED);
    expect(out.body).toContain(`${broken.length} characters`);
    expectNoCardData(logged(httpEvent({ body: broken })));
  });

  test('paths (also percent-encoded), path parameters and cookies are masked', () => {
    const encoded = [...VISA].map((d) => `%3${d}`).join('');
    const event = httpEvent({
      routeKey: 'GET /customers/{customer_id}',
      rawPath: `/customers/cus_${encoded}`,
      pathParameters: { customer_id: `cus_${VISA}` },
      cookies: [`pan=${VISA}`, `${MASTERCARD}=x`],
      body: undefined,
    });
    event.requestContext.http.path = `/customers/cus_${VISA}`;
    const text = logged(event);
    expectNoCardData(text);
    expect(text).toContain('/customers/cus_');
  });

  test('a __proto__ key in a logged body stays a plain key and pollutes nothing', () => {
    const out = redactEvent(httpEvent({ body: '{"__proto__":{"polluted":true},"a":1}' })) as { body: Record<string, unknown> };
    expect(Object.hasOwn(out.body, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('events that are not HTTP (a stream batch) are redacted as data; the event itself is not changed', () => {
    const event = { Records: [{ dynamodb: { NewImage: { note: { S: `pan ${VISA}` }, card_cvc: { S: CVC } } } }] };
    const before = JSON.stringify(event);
    expectNoCardData(logged(event));
    expect(JSON.stringify(event)).toBe(before);
    const http = httpEvent({ body: `{"card_number":"${VISA}"}` });
    redactEvent(http);
    expect(http.body).toContain(VISA); // the handler still gets its event
  });

  test('the logger logs the event redacted under `event` when event logging is on, and not at all when off', () => {
    const lines: string[] = [];
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return true;
    });
    try {
      const logger = new RedactingLogger({ serviceName: 'redaction-test', logLevel: 'INFO', jsonReplacerFn: redactingReplacer });
      const body = `{"card_\\u006eumber":"${VISA}","card_\\u0063vc":"${CVC}","amount":100}`;
      logger.logEventIfEnabled(httpEvent({ body }), false);
      expect(lines.join('')).toBe('');
      logger.logEventIfEnabled(httpEvent({ body }), true);
      const child = logger.createChild({ serviceName: 'child' });
      child.logEventIfEnabled(httpEvent({ body }), true);
      logger.info('a record with a card number as a key', { data: { [VISA]: 'x', card_cvc: CVC } });
    } finally {
      spy.mockRestore();
    }
    const text = lines.join('');
    expectNoCardData(text);
    const records = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toHaveLength(3);
    expect(records[0]).toMatchObject({
      message: 'Lambda invocation event',
      event: { body: { card_number: REDACTED, card_cvc: REDACTED, amount: 100 } },
    });
    expect(records[1]).toMatchObject({ message: 'Lambda invocation event', event: { body: { card_number: REDACTED } } });
    expect(records[2]).toMatchObject({ data: { [REDACTED]: 'x', card_cvc: REDACTED } });
  });
});

describe('free text and data', () => {
  test('redactText masks card numbers (also percent-encoded), secret JSON and form fields, and API keys', () => {
    expect(redactText(`declined ${VISA} today`)).toBe(`declined ${REDACTED} today`);
    expect(redactText(`/x/${[...VISA].map((d) => `%3${d}`).join('')}`)).toBe(`/x/${REDACTED}`);
    expect(redactText(`{"card_cvc": "${CVC}"}`)).toBe(`{"card_cvc": "${REDACTED}"}`);
    expect(redactText(`a=1&pin=${PIN}`)).toBe(`a=1&pin=${REDACTED}`);
    expect(redactText('key sk_live_abcdefgh1234')).toBe(`key sk_live_${REDACTED}`);
    expect(redactText('nothing to see: order 42, 2030-01-01')).toBe('nothing to see: order 42, 2030-01-01');
  });

  test('redactValue drops secret names at any depth and masks names and strings', () => {
    expect(redactValue({ a: [{ card_cvc: CVC, [AMEX]: `x ${AMEX}` }], n: 5 })).toEqual({
      a: [{ card_cvc: REDACTED, [REDACTED]: `x ${REDACTED}` }],
      n: 5,
    });
  });

  test('maskCardNumbers keeps the text around a card number and leaves our own ids and secrets intact', () => {
    expect(maskCardNumbers(`card ${VISA}.`)).toBe(`card ${CARD_MASK}.`);
    expect(maskCardNumbers(`cus_${VISA}`)).toBe(`cus_${CARD_MASK}`);
    // Our generated ids are prefix + 32 hex: their random digits may look like a card number.
    const ownId = `pay_a${VISA}bcdefabcdefabcd`;
    expect(ownId).toHaveLength(4 + 32);
    expect(maskCardNumbers(`GET /payments/${ownId}`)).toBe(`GET /payments/${ownId}`);
    const secret = `whsec_${Buffer.from(`${VISA}${VISA}`).toString('base64').slice(0, 43)}=`;
    expect(maskCardNumbers(secret)).toBe(secret);
    expect(maskOptionalText(null)).toBeNull();
    expect(maskOptionalText(undefined)).toBeNull();
    expect(maskOptionalText(`Do not honor (${MASTERCARD})`)).toBe(`Do not honor (${CARD_MASK})`);
  });

  test('maskCardData masks value by value (neighbouring fields never join), keys and card-number integers', () => {
    const value = {
      parts: ['4111111111', '111111'],
      [VISA]: { deep: [`x${MASTERCARD}`] },
      amount: 1500,
      big: Number(VISA),
      created: 1_893_456_000,
    };
    expect(maskCardData(value)).toEqual({
      parts: ['4111111111', '111111'],
      [CARD_MASK]: { deep: [`x${CARD_MASK}`] },
      amount: 1500,
      big: CARD_MASK,
      created: 1_893_456_000,
    });
    expect(value.big).toBe(Number(VISA)); // a copy: the input is unchanged
  });
});

describe('connector messages pass the masker before they are stored', () => {
  const payment = { amount_captured: 0, connector_transaction_id: null, status: 'Processing', next_action: null } as unknown as Payment;

  test('resultFields and attemptOf mask a processor error code and message that carry a card number', () => {
    const result = {
      status: 'Failed' as const,
      connectorTransactionId: 'tx_1',
      amountCaptured: 0,
      errorCode: `bad_${VISA}`,
      errorMessage: `Card ${MASTERCARD} was declined.`,
    };
    const fields = resultFields(result, payment);
    expect(fields).toMatchObject({ status: 'Failed', error_code: `bad_${CARD_MASK}`, error_message: `Card ${CARD_MASK} was declined.` });
    const attempt = attemptOf('sandbox', '2030-01-01T00:00:00.000Z', result);
    expect(attempt).toMatchObject({ error_code: `bad_${CARD_MASK}`, error_message: `Card ${CARD_MASK} was declined.` });
    expect(resultFields({ status: 'Succeeded', connectorTransactionId: 'tx_2', amountCaptured: 5 }, payment)).toMatchObject({
      error_code: null,
      error_message: null,
    });
  });
});

describe('fields marked secret in the schemas are redacted on every log path', () => {
  const { collectSecretFieldNames } = jest.requireActual('../../scripts/secret-fields') as typeof import('../../scripts/secret-fields');
  const { SECRET_FIELD_NAMES } = jest.requireActual(
    '../../shared/observability/secret-field-names',
  ) as typeof import('../../shared/observability/secret-field-names');
  /** A value of no recognisable shape: only its field's name can have it redacted. */
  const OPAQUE = 'opaque0value0Zq9';

  test('the committed list is what the schemas mark (npm run secret-fields), and holds every credential, card and token field', () => {
    expect(SECRET_FIELD_NAMES).toEqual(collectSecretFieldNames());
    for (const name of [
      'api_key',
      'key1',
      'merchant_secret',
      'card_number',
      'card_cvc',
      'pin',
      'otp',
      'payment_method',
      'authorization_code',
      'token',
    ])
      expect(SECRET_FIELD_NAMES).toContain(name);
  });

  test.each([...SECRET_FIELD_NAMES])('%s: event logging (JSON and form bodies, query), log records, unparsed text', (name) => {
    const nested = { connector_account_details: { [name]: OPAQUE }, data: { object: { [name]: OPAQUE } } };
    expect(logged(httpEvent({ body: JSON.stringify(nested) }))).not.toContain(OPAQUE);
    expect(
      logged(httpEvent({ body: `${name}=${OPAQUE}&a=1`, headers: { 'content-type': 'application/x-www-form-urlencoded' } })),
    ).not.toContain(OPAQUE);
    expect(logged(httpEvent({ rawQueryString: `${name}=${OPAQUE}`, queryStringParameters: { [name]: OPAQUE } }))).not.toContain(OPAQUE);
    expect(JSON.stringify({ message: 'debug', detail: nested }, redactingReplacer)).not.toContain(OPAQUE);
    expect(redactText(`processor said {"${name}": "${OPAQUE}"}`)).not.toContain(OPAQUE);
    expect(redactText(`body a=1&${name}=${OPAQUE}`)).not.toContain(OPAQUE);
  });

  test("inbound webhook bodies: Stripe's pm_ tokens, Paystack's authorization codes, Flutterwave's card tokens and verif-hash", () => {
    const stripe = { type: 'payment_intent.succeeded', data: { object: { id: 'pi_3Abc', payment_method: 'pm_1QzXyWvUtSrQpOnM' } } };
    const paystack = {
      event: 'charge.success',
      data: { reference: 'r1', authorization: { authorization_code: 'AUTH_8dfhjjdt', bin: '408408' } },
    };
    const flutterwave = { event: 'charge.completed', data: { id: 1, card: { token: 'flw-t1nf-f9b3bf384cd30d6fca42b6df9d27bd2f-m03k' } } };
    const text = [
      logged(httpEvent({ routeKey: 'POST /webhooks/{connector}', rawPath: '/webhooks/stripe', body: JSON.stringify(stripe) })),
      logged(httpEvent({ routeKey: 'POST /webhooks/{connector}', rawPath: '/webhooks/paystack', body: JSON.stringify(paystack) })),
      logged(
        httpEvent({
          routeKey: 'POST /webhooks/{connector}',
          rawPath: '/webhooks/flutterwave',
          headers: { 'content-type': 'application/json', 'verif-hash': 'my-dashboard-hash' },
          body: JSON.stringify(flutterwave),
        }),
      ),
      // The same tokens in text (an error message quoting them), where no field name is left.
      redactText('charge failed for pm_1QzXyWvUtSrQpOnM with AUTH_8dfhjjdt and flw-t1nf-f9b3bf384cd30d6fca42b6df9d27bd2f-m03k'),
      redactText('keys: whsec_abcDEF0123456789 FLWSECK_TEST-0123456789abcdef-X rk_live_0123456789'),
    ].join('\n');
    for (const secret of [
      'pm_1QzXyWvUtSrQpOnM',
      'AUTH_8dfhjjdt',
      'f9b3bf384cd30d6fca42b6df9d27bd2f',
      'my-dashboard-hash',
      'abcDEF0123456789',
      '0123456789abcdef',
      'rk_live_0123456789',
    ])
      expect(text).not.toContain(secret);
    // Our own saved payment method ids are not secrets and stay readable.
    expect(redactText('detached pm_0123456789abcdef0123456789abcdef')).toBe('detached pm_0123456789abcdef0123456789abcdef');
  });
});
