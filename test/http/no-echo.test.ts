import { randomUUID } from 'node:crypto';
import { DeleteCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as z from 'zod';
import { handler as createCustomer } from '../../functions/customers/create-customer';
import { handler as cancelPayment } from '../../functions/payments/cancel-payment';
import { CARD_MASK, maskCardNumbers } from '../../shared/domain/card-mask';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotentRequests, maskedResponse } from '../../shared/http/idempotency';
import { apiErrorFromZod, isEchoableName } from '../../shared/schemas/zod-errors';
import { putApiKey } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { tableName } from '../../shared/storage/table-definition';
import { withLuhnCheckDigit } from '../helpers/card-corpus';
import { expectError, type LocalApi, startLocalApi, type TestResponse } from '../helpers/local-api';

/*
 * No echo: an error message names the field and what is wrong, never the value it was given —
 * not an unknown id, not an unknown parameter's name, not a path — because an answer sent with
 * an Idempotency-Key is stored for 24 hours. Idempotency is scoped by the route key and the
 * decoded path parameters, and what it stores is masked of card numbers.
 */

const VISA = '4111111111111111';
const SPACED = '4111 1111 1111 1111';
const SANDBOX_TIMEOUT_CARD = '4000000000000119';

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(async () => {
  await api.close();
});

/** Asserts the response is an error that repeats none of the card digits it was given. */
function expectNoEcho(res: TestResponse, status: number, code: string): { message: string; param?: string } {
  const error = expectError(res, status, code);
  expect(res.text).not.toContain(VISA);
  expect(res.text).not.toContain(SPACED);
  expect(res.text).not.toContain('41111111');
  return error;
}

async function scanAll(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    // A full table dump: test-only inspection of what rests in storage.
    const out = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('unknown ids are not repeated', () => {
  test.each([
    ['GET', `/payments/pay_${VISA}`, 'payment', 'payment_id'],
    ['POST', `/payments/pay_${VISA}/capture`, 'payment', 'payment_id'],
    ['GET', `/customers/cus_${VISA}`, 'customer', 'customer_id'],
    ['DELETE', `/customers/cus_${VISA}`, 'customer', 'customer_id'],
    ['GET', `/refunds/ref_${VISA}`, 'refund', 'refund_id'],
    ['GET', `/events/evt_${VISA}`, 'event', 'event_id'],
    ['GET', `/webhook_endpoints/we_${VISA}`, 'webhook endpoint', 'webhook_endpoint_id'],
  ])('%s %s → 404 "No such %s" naming %s', async (method, path, resource, param) => {
    const res = await api.request(method, path, method === 'POST' ? { body: {} } : {});
    // A detector may refuse the id as card data first (400); either way nothing is repeated.
    if (res.status === 400) return void expectNoEcho(res, 400, res.body.error.code);
    const error = expectNoEcho(res, 404, 'resource_missing');
    expect(error.message).toMatch(new RegExp(`^No such ${resource}\\.`));
    expect(error.param).toBe(param);
  });

  test('an unknown starting_after is named by its parameter, not repeated', async () => {
    for (const path of [
      `/customers?starting_after=cus_${VISA}`,
      `/webhook_endpoints?starting_after=we_${VISA}`,
      `/payments?starting_after=pay_${VISA}`,
    ]) {
      const res = await api.request('GET', path);
      const error = expectNoEcho(res, 400, res.body.error?.code);
      expect(error.param).toBe('starting_after');
    }
  });
});

describe('unknown parameter names are repeated only when they are plain field names', () => {
  test('a plain unknown name is named in the message and in param', async () => {
    const error = expectError(await api.request('POST', '/customers', { body: { nickname: 'x' } }), 400, 'parameter_unknown');
    expect(error).toMatchObject({ param: 'nickname', message: 'Received unknown parameter: nickname. Remove it and retry.' });
  });

  test.each([
    VISA,
    `x${VISA}`,
    `card_${SPACED}`,
    `a-${VISA.slice(0, 8)}-${VISA.slice(8)}`,
    'ｎｉｃｋ',
    'a'.repeat(65),
  ])('the unknown body parameter %j is not repeated', async (name) => {
    const error = expectNoEcho(await api.request('POST', '/customers', { body: { [name]: 'x' } }), 400, 'parameter_unknown');
    expect(error.param).toBeUndefined();
    expect(error.message).not.toContain(name);
    expect(error.message).toMatch(/unknown parameter .*Remove it and retry/);
  });

  test('inside an object, the enclosing field is named instead', async () => {
    const body = { amount: 100, currency: 'NGN', billing: { [VISA]: 'x' } };
    const error = expectNoEcho(await api.request('POST', '/payments', { body }), 400, 'parameter_unknown');
    expect(error.param).toBe('billing');
    expect(error.message).toContain('inside billing');
  });

  test('an unknown query-parameter name that could hold a card number is not repeated', async () => {
    for (const name of [VISA, `card${VISA}`]) {
      const error = expectNoEcho(await api.request('GET', `/customers?${encodeURIComponent(name)}=1`), 400, 'parameter_unknown');
      expect(error.message).toContain('unknown query parameter');
      expect(error.param).toBeUndefined();
    }
    expect(expectError(await api.request('GET', '/customers?colour=red'), 400, 'parameter_unknown').param).toBe('colour');
  });

  test('the rule: 1–64 ASCII name characters, starting with a letter or _, fewer than 12 digits (no card number fits)', () => {
    for (const name of ['nickname', '_x', 'created[gte]', 'order-id', 'a1b2c3d4e5f6g7h8i9j0k1', 'x'.repeat(64), 0, 3])
      expect(isEchoableName(name)).toBe(true);
    for (const name of [VISA, `a${VISA}`, 'a123456789012', `x${SPACED}`, '1abc', '', 'x'.repeat(65), 'ＡＢＣ', 'a b', 'a.b', Symbol('s')])
      expect(isEchoableName(name)).toBe(false);
  });

  test('a record key (e.g. metadata) is named through its enclosing field when it cannot be shown', () => {
    const schema = z.strictObject({
      metadata: z.record(
        z.string().max(40, { error: 'keys must be at most 40 characters' }),
        z.string({ error: 'values must be strings' }),
      ),
    });
    const input = { metadata: { [`k${VISA}`]: 5 } };
    const err = apiErrorFromZod(schema.safeParse(input).error!, input, 'body');
    expect(err.toBody().error).toMatchObject({ code: 'parameter_invalid_type', param: 'metadata' });
    expect(err.message).not.toContain(VISA);
    expect(err.message).toBe('Invalid metadata: one of its entries is invalid (must be a string).');
    const shown = { metadata: { colour: 5 } };
    expect(apiErrorFromZod(schema.safeParse(shown).error!, shown, 'body').param).toBe('metadata.colour');
    const longKey = { metadata: { [`${'k'.repeat(41)}${VISA}`]: 'v' } };
    const keyErr = apiErrorFromZod(schema.safeParse(longKey).error!, longKey, 'body');
    expect(keyErr.toBody().error).toMatchObject({
      param: 'metadata',
      message: 'Invalid metadata: one of its keys is not accepted (keys must be at most 40 characters).',
    });
  });
});

describe('paths are not repeated', () => {
  test.each([
    `/${VISA}`,
    `/payments/x/${VISA}`,
    `/nowhere?card=${VISA}`,
  ])('an unknown route %s → 404 route_not_found without the path or method', async (path) => {
    const error = expectNoEcho(await api.request('PATCH', path), 404, 'route_not_found');
    expect(error.message).not.toContain('PATCH');
    expect(error.message).toContain('docs/api.md');
  });
});

describe('stored answers hold no card data', () => {
  test('a 404 sent with an Idempotency-Key is stored and replayed without the id it was given', async () => {
    const headers = { 'Idempotency-Key': `no-echo-${randomUUID()}` };
    const first = await api.request('POST', `/payments/pay_${VISA}/cancel`, { body: {}, headers });
    const again = await api.request('POST', `/payments/pay_${VISA}/cancel`, { body: {}, headers });
    expect(again.text).toBe(first.text);
    expectNoEcho(first, first.status, first.body.error.code);
    expect(JSON.stringify(await scanAll())).not.toContain(VISA);
  });

  test("the sandbox's own error message does not name its test card", async () => {
    const card = {
      card_number: SANDBOX_TIMEOUT_CARD,
      card_exp_month: '12',
      card_exp_year: String(new Date().getUTCFullYear() + 3),
      card_cvc: '123',
    };
    const res = await api.request('POST', '/payments', {
      body: { amount: 700, currency: 'NGN', confirm: true, payment_method_data: { card } },
    });
    expect(res.text).not.toContain(SANDBOX_TIMEOUT_CARD);
    expect(res.text).not.toContain(CARD_MASK); // nothing had to be masked: the message never held it
    expect(JSON.stringify(await scanAll())).not.toContain(SANDBOX_TIMEOUT_CARD);
  });

  test('a response is masked before it is answered and stored for replay; our own ids and secrets are kept', async () => {
    // An id of our shape whose hex holds a valid card number (a fresh one: other files dump the shared table for known test cards).
    // A random Luhn-valid Visa number is not always taken for a card: about 1 in 200,000 reads as a NUBAN written with its
    // bank's code (shared/domain/card.ts), so the draw is repeated until the detector masks it.
    let hidden = '';
    for (let tries = 0; tries < 100 && maskCardNumbers(hidden) !== CARD_MASK; tries += 1)
      hidden = withLuhnCheckDigit(`4${String(Math.floor(Math.random() * 1e14)).padStart(14, '0')}`);
    expect(maskCardNumbers(hidden)).toBe(CARD_MASK);
    const ownId = `pay_a${hidden}bcdefabcdefabcd`;
    const echo = apiHandler({ auth: false, idempotency: idempotentRequests }, async () => ({
      body: { id: ownId, note: `card ${VISA} on file`, nested: [{ [VISA]: SPACED }] },
    }));
    const key = `mask-${randomUUID()}`;
    const event = directEvent({
      method: 'POST',
      routeKey: 'POST /masking-probe',
      rawPath: '/masking-probe',
      headers: { 'idempotency-key': key },
    });
    const context = lambdaContext('MaskingProbe');
    const first = (await echo(event, context)) as APIGatewayProxyStructuredResultV2;
    const replay = (await echo(
      directEvent({ method: 'POST', routeKey: 'POST /masking-probe', rawPath: '/masking-probe/', headers: { 'idempotency-key': key } }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(JSON.parse(first.body!)).toEqual({ id: ownId, note: `card ${CARD_MASK} on file`, nested: [{ [CARD_MASK]: CARD_MASK }] });
    expect(replay.headers).toMatchObject({ 'Idempotent-Replayed': 'true' });
    expect(JSON.parse(replay.body!)).toEqual(JSON.parse(first.body!));
    const records = (await scanAll()).filter((i) => JSON.stringify(i).includes(ownId));
    expect(records).toHaveLength(1); // the idempotency record, holding the answer
    const stored = JSON.stringify(records);
    expect(stored).toContain(ownId); // kept as it was
    expect(stored).not.toContain(VISA);
    expect(stored).not.toContain(SPACED);
    expect(stored.split(ownId).join('')).not.toContain(hidden);
    // Leave nothing card-like in the table the other test files share.
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: { PK: records[0]!.PK, SK: records[0]!.SK } }));
  });

  test('maskedResponse leaves a response without card data byte for byte as it was', () => {
    const response = {
      statusCode: 201,
      headers: { 'content-type': 'application/json', location: '/payments/pay_1' },
      body: '{"a":1,"b":"x"}',
    };
    expect(maskedResponse(response)).toEqual(response);
    expect(maskedResponse({ statusCode: 200, body: `text ${VISA}` }).body).toBe(`text ${CARD_MASK}`);
  });
});

describe('idempotency is scoped by the route key and the decoded path parameters, not the raw path', () => {
  let apiKey: string;
  beforeAll(async () => {
    apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
    await putApiKey(apiKey, `mer_${randomUUID().replace(/-/g, '')}`, 'no-echo');
  });

  test('/customers and /customers/ with one key are one request (replayed)', async () => {
    const key = `scope-${randomUUID()}`;
    const send = (rawPath: string) =>
      createCustomer(
        directEvent({
          method: 'POST',
          routeKey: 'POST /customers',
          rawPath,
          headers: { 'api-key': apiKey, 'idempotency-key': key },
          body: { name: 'Ada' },
        }),
        lambdaContext('CreateCustomer'),
      ) as Promise<APIGatewayProxyStructuredResultV2>;
    const first = await send('/customers');
    const second = await send('/customers/');
    expect(first.statusCode).toBe(200);
    expect(second.headers).toMatchObject({ 'Idempotent-Replayed': 'true' });
    expect(JSON.parse(second.body!).customer_id).toBe(JSON.parse(first.body!).customer_id);
  });

  test('a percent-encoded path is the same request; another payment with the same key is another request', async () => {
    const created = async () => {
      const res = await api.request('POST', '/payments', { key: apiKey, body: { amount: 500, currency: 'NGN' } });
      expect(res.status).toBe(200);
      return res.body.payment_id as string;
    };
    const [a, b] = [await created(), await created()];
    const key = `scope-${randomUUID()}`;
    const cancel = (paymentId: string, rawPath: string) =>
      cancelPayment(
        directEvent({
          method: 'POST',
          routeKey: 'POST /payments/{payment_id}/cancel',
          rawPath,
          pathParameters: { payment_id: paymentId },
          headers: { 'api-key': apiKey, 'idempotency-key': key },
          body: {},
        }),
        lambdaContext('CancelPayment'),
      ) as Promise<APIGatewayProxyStructuredResultV2>;
    const first = await cancel(a, `/payments/${a}/cancel`);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body!)).toMatchObject({ payment_id: a, status: 'Cancelled' });
    const encoded = await cancel(a, `/payments/%70ay_${a.slice(4)}/cancel`);
    expect(encoded.headers).toMatchObject({ 'Idempotent-Replayed': 'true' });
    expect(encoded.body).toBe(first.body);
    const other = await cancel(b, `/payments/${b}/cancel`);
    expect(other.headers?.['Idempotent-Replayed']).toBeUndefined();
    expect(JSON.parse(other.body!)).toMatchObject({ payment_id: b, status: 'Cancelled' });
  });
});

/** A payload-2.0 event for invoking a handler directly (as API Gateway would). */
function directEvent(options: {
  method: string;
  routeKey: string;
  rawPath: string;
  pathParameters?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}): APIGatewayProxyEventV2 {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return {
    version: '2.0',
    routeKey: options.routeKey,
    rawPath: options.rawPath,
    rawQueryString: '',
    headers: {
      'x-forwarded-proto': 'http',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.headers ?? {}),
    },
    ...(options.pathParameters ? { pathParameters: options.pathParameters } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method: options.method, path: options.rawPath, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'jest' },
      requestId: randomUUID(),
      routeKey: options.routeKey,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(body !== undefined ? { body } : {}),
    isBase64Encoded: false,
  };
}

function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
