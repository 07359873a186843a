/**
 * Inbound processor webhooks (`POST /webhooks/{connector}`), docs/connectors.md "Webhooks":
 * - a correctly signed but malformed event → 400 with the API's error body (never 500), for the
 *   sandbox, Paystack, Flutterwave and Stripe; the value at fault is never echoed;
 * - an event naming one of our payment (or refund) ids found nowhere → 409 "deliver again" until
 *   it was delivered 3 times over at least 5 minutes, then 200 `unmatched: true`, recorded, logged
 *   and counted once;
 * - an event for a payment that exists keeps its 409 while the payment's own request is writing its
 *   outcome, however often it is delivered, and is applied once it can be;
 * - a base64-encoded body (API Gateway encodes bodies whose content type is not text) verifies.
 */
// First: the whole file logs at DEBUG with event logging on, and ends checking the log for secrets.
import '../helpers/secret-log-check';
import { createHmac, randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { startPendingOperation } from '../../shared/domain/pending-operation';
import { logger } from '../../shared/observability/logger';
import { BUSINESS_METRICS, metrics } from '../../shared/observability/metrics';
import { UNMATCHED_WEBHOOK_BOUND } from '../../shared/operations/inbound-webhooks/receive-connector-webhook';
import { documentClient } from '../../shared/storage/client';
import { unmatchedWebhookKey } from '../../shared/storage/item-keys';
import * as paymentsRepository from '../../shared/storage/payments-repository';
import { tableName } from '../../shared/storage/table-definition';
import { type LocalApi, startLocalApi } from '../helpers/local-api';
import { expectNoSecretInLog } from '../helpers/secret-log-check';

const PAYSTACK_SECRET = 'sk_test_inbound_webhooks_only';
const STRIPE_WEBHOOK_SECRET = 'whsec_inbound_webhooks_only';
const FLUTTERWAVE_HASH = 'flw-inbound-webhooks-hash';
/** Nothing listens here: a processor call would fail (503), so a 400 also shows none was made. */
const NOWHERE = 'http://127.0.0.1:9';
/** Planted in malformed fields: an answer must never contain it. */
const MARKER = '4242424242424242';

const CONNECTOR_ENV: Record<string, string> = {
  PAYSTACK_SECRET_KEY: PAYSTACK_SECRET,
  PAYSTACK_BASE_URL: NOWHERE,
  STRIPE_SECRET_KEY: 'sk_test_inbound_webhooks_only',
  STRIPE_WEBHOOK_SECRET,
  STRIPE_BASE_URL: NOWHERE,
  FLUTTERWAVE_SECRET_KEY: 'FLWSECK_TEST-inbound-webhooks',
  FLUTTERWAVE_ENCRYPTION_KEY: 'FLWSECK_TEST_inbound_24c',
  FLUTTERWAVE_WEBHOOK_HASH: FLUTTERWAVE_HASH,
  FLUTTERWAVE_BASE_URL: NOWHERE,
  CONNECTOR_TIMEOUT_MS: '1000',
};

let api: LocalApi;
beforeAll(async () => {
  Object.assign(process.env, CONNECTOR_ENV);
  process.env.SANDBOX_WEBHOOKS = 'off';
  api = await startLocalApi();
});
afterAll(async () => {
  for (const k of [...Object.keys(CONNECTOR_ENV), 'SANDBOX_WEBHOOKS']) delete process.env[k];
  await api.close();
});
afterEach(() => jest.restoreAllMocks());

/** The headers that sign `rawBody` for `connector` the way the processor does. */
async function signed(connector: string, rawBody: string): Promise<Record<string, string>> {
  switch (connector) {
    case 'sandbox':
      return { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) };
    case 'paystack':
      return { 'x-paystack-signature': createHmac('sha512', PAYSTACK_SECRET).update(rawBody, 'utf8').digest('hex') };
    case 'stripe': {
      const t = Math.floor(Date.now() / 1000);
      return {
        'stripe-signature': `t=${t},v1=${createHmac('sha256', STRIPE_WEBHOOK_SECRET).update(`${t}.${rawBody}`, 'utf8').digest('hex')}`,
      };
    }
    case 'flutterwave':
      return { 'verif-hash': FLUTTERWAVE_HASH };
    default:
      throw new Error(`no signer for ${connector}`);
  }
}

async function deliver(
  connector: string,
  rawBody: string,
  headers?: Record<string, string>,
): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${api.url}/webhooks/${connector}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(headers ?? (await signed(connector, rawBody))) },
    body: rawBody,
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), text };
}

const newPaymentId = () => `pay_${randomUUID().replace(/-/g, '')}`;

function sandboxEvent(paymentId: string, eventId = `evt_${randomUUID().replace(/-/g, '')}`, amount = 900): string {
  return JSON.stringify({
    id: eventId,
    type: 'payment.succeeded',
    data: { payment_id: paymentId, transaction_id: `sbx_${eventId.slice(4)}`, amount, capture_method: 'automatic' },
  });
}

const stripeIntentEvent = (object: Record<string, unknown>) =>
  JSON.stringify({
    id: `evt_${randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { object: 'payment_intent', id: 'pi_1', status: 'succeeded', amount_received: 900, ...object } },
  });

describe('a signed but malformed event → 400 with the error body, never 500', () => {
  // [connector, what, raw body, code, param]
  const cases: Array<[string, string, string, string, string | undefined]> = [
    ['sandbox', 'not JSON', `{"id": "evt_${MARKER}"`, 'invalid_json', undefined],
    ['sandbox', 'JSON that is not an object', `["${MARKER}"]`, 'invalid_json', undefined],
    ['sandbox', 'null', 'null', 'invalid_json', undefined],
    ['sandbox', 'no data', JSON.stringify({ id: 'evt_1', type: 'payment.succeeded' }), 'parameter_missing', 'data'],
    [
      'sandbox',
      'data that is a string',
      JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', data: MARKER }),
      'parameter_invalid_type',
      'data',
    ],
    [
      'sandbox',
      'no payment id',
      JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', data: { transaction_id: 't', amount: 1, capture_method: 'automatic' } }),
      'parameter_missing',
      'data.payment_id',
    ],
    [
      'sandbox',
      'an amount written as text',
      JSON.stringify({
        id: 'evt_1',
        type: 'payment.succeeded',
        data: { payment_id: newPaymentId(), transaction_id: 't', amount: MARKER, capture_method: 'automatic' },
      }),
      'parameter_invalid_type',
      'data.amount',
    ],
    [
      'sandbox',
      'a type the sandbox never sends',
      JSON.stringify({ id: 'evt_1', type: `payment.${MARKER}`, data: {} }),
      'parameter_invalid',
      'type',
    ],
    [
      'sandbox',
      'an event id longer than any key',
      JSON.stringify({ id: `evt_${'9'.repeat(300)}`, type: 'payment.failed', data: {} }),
      'parameter_invalid',
      'id',
    ],
    ['paystack', 'not JSON', `event=charge.success&reference=${MARKER}`, 'invalid_json', undefined],
    ['paystack', 'no event', JSON.stringify({ data: { reference: MARKER } }), 'parameter_missing', 'event'],
    ['paystack', 'no data', JSON.stringify({ event: 'charge.success' }), 'parameter_missing', 'data'],
    [
      'paystack',
      'a charge without reference',
      JSON.stringify({ event: 'charge.success', data: { status: 'success', amount: 900 } }),
      'parameter_missing',
      'data.reference',
    ],
    [
      'paystack',
      'a charge whose amount is not a number',
      JSON.stringify({ event: 'charge.success', data: { reference: 'pay-1', status: 'success', amount: `${MARKER}.5` } }),
      'parameter_invalid_type',
      'data.amount',
    ],
    [
      'paystack',
      'a gateway response that is an object',
      JSON.stringify({
        event: 'charge.success',
        data: { reference: 'pay-1', status: 'failed', amount: 900, gateway_response: { text: MARKER } },
      }),
      'parameter_invalid_type',
      'data.gateway_response',
    ],
    [
      'paystack',
      'a refund whose reason is a number',
      JSON.stringify({ event: 'refund.processed', data: { transaction_reference: 'pay-1', reason: Number(MARKER) } }),
      'parameter_invalid_type',
      'data.reason',
    ],
    ['flutterwave', 'not JSON', `{${MARKER}`, 'invalid_json', undefined],
    ['flutterwave', 'a JSON string', JSON.stringify(MARKER), 'invalid_json', undefined],
    ['flutterwave', 'a charge without data', JSON.stringify({ event: 'charge.completed' }), 'parameter_missing', 'data'],
    [
      'flutterwave',
      'a charge whose id is text',
      JSON.stringify({ event: 'charge.completed', data: { id: MARKER, tx_ref: 'pay_1', status: 'successful' } }),
      'parameter_invalid_type',
      'data.id',
    ],
    [
      'flutterwave',
      'a charge without tx_ref',
      JSON.stringify({ event: 'charge.completed', data: { id: 285959875, status: 'successful' } }),
      'parameter_missing',
      'data.tx_ref',
    ],
    [
      'flutterwave',
      'a legacy flat charge without txRef',
      JSON.stringify({ 'event.type': 'CARD_TRANSACTION', id: 285959875, status: 'successful' }),
      'parameter_missing',
      'txRef',
    ],
    ['stripe', 'not JSON', `id=evt_${MARKER}`, 'invalid_json', undefined],
    ['stripe', 'no type', JSON.stringify({ id: 'evt_1', object: 'event', data: { object: {} } }), 'parameter_missing', 'type'],
    [
      'stripe',
      'no data.object',
      JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: {} }),
      'parameter_missing',
      'data.object',
    ],
    ['stripe', 'an intent without status', stripeIntentEvent({ status: undefined }), 'parameter_missing', 'data.object.status'],
    [
      'stripe',
      'a payment id that is a number',
      stripeIntentEvent({ metadata: { payment_id: Number(MARKER) } }),
      'parameter_invalid_type',
      'data.object.metadata.payment_id',
    ],
    [
      'stripe',
      'a decline message that is an object',
      stripeIntentEvent({ status: 'requires_payment_method', last_payment_error: { message: { text: MARKER } } }),
      'parameter_invalid_type',
      'data.object.last_payment_error.message',
    ],
    [
      'stripe',
      'a refund without id',
      JSON.stringify({
        id: 'evt_1',
        object: 'event',
        type: 'refund.updated',
        data: { object: { object: 'refund', status: 'succeeded', metadata: { refund_id: 'ref_1' } } },
      }),
      'parameter_missing',
      'data.object.id',
    ],
  ];

  test.each(
    cases.map(([connector, what, rawBody, code, param]) => [connector, what, code, param, rawBody] as const),
  )('%s: %s → 400 %s', async (connector, _what, code, param, rawBody) => {
    const res = await deliver(connector, rawBody);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { type: 'invalid_request_error', code, message: expect.any(String), ...(param ? { param } : {}) },
    });
    expect(res.text).not.toContain(MARKER);
  });

  test('the signature is checked first: the same malformed body unsigned → 401', async () => {
    const rawBody = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded' });
    for (const connector of ['sandbox', 'paystack', 'flutterwave', 'stripe']) {
      const headers: Record<string, string> =
        connector === 'sandbox'
          ? { [SANDBOX_SIGNATURE_HEADER]: '0'.repeat(64) }
          : connector === 'flutterwave'
            ? { 'verif-hash': 'wrong' }
            : {};
      const res = await deliver(connector, rawBody, headers);
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ type: 'authentication_error', code: 'invalid_signature' });
    }
  });

  test('a well-formed event of a type the connector does not apply is still acknowledged (200, ignored)', async () => {
    const transfer = await deliver(
      'paystack',
      JSON.stringify({ event: 'transfer.success', data: { reference: 'tr_1', status: 'success' } }),
    );
    expect(transfer).toMatchObject({ status: 200, body: { received: true, applied: false } });
    // (Disputes are applied now; a payout is a type Stripe's adapter does not apply.)
    const payout = await deliver(
      'stripe',
      JSON.stringify({
        id: 'evt_payout_1',
        object: 'event',
        type: 'payout.paid',
        data: { object: { object: 'payout', id: 'po_1' } },
      }),
    );
    expect(payout).toMatchObject({ status: 200, body: { received: true, applied: false } });
  });
});

describe('an event for a payment that exists nowhere → 409 until the bound, then acknowledged as unmatched', () => {
  /** Moves the event's first delivery `ms` into the past, as if that much time had passed. */
  async function backdate(connector: string, eventId: string, ms: number): Promise<void> {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: unmatchedWebhookKey(connector, eventId),
        UpdateExpression: 'SET first_seen_at = :t',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeValues: { ':t': new Date(Date.now() - ms).toISOString() },
      }),
    );
  }
  const counter = async (connector: string, eventId: string) =>
    (await documentClient().send(new GetCommand({ TableName: tableName(), Key: unmatchedWebhookKey(connector, eventId) }))).Item;
  const pastTheAge = UNMATCHED_WEBHOOK_BOUND.minAgeMs + 60_000;

  /** Counts what the operators see: the warning and the UnmatchedWebhooks metric. */
  function watchOperators() {
    const warn = jest.spyOn(logger, 'warn');
    const emitted: Array<{ name: string; dimensions: Record<string, string> }> = [];
    const real = metrics.singleMetric.bind(metrics);
    jest.spyOn(metrics, 'singleMetric').mockImplementation(() => {
      const single = real();
      const dimensions: Record<string, string> = {};
      const addDimension = single.addDimension.bind(single);
      const addMetric = single.addMetric.bind(single);
      single.addDimension = (name: string, value: string) => {
        dimensions[name] = value;
        return addDimension(name, value);
      };
      single.addMetric = ((name: string, unit: never, value: number) => {
        emitted.push({ name, dimensions: { ...dimensions } });
        addMetric(name, unit, value);
      }) as typeof single.addMetric;
      return single;
    });
    const unmatchedLogs = () => warn.mock.calls.filter(([message]) => message === 'webhook event matches nothing; acknowledged');
    const unmatchedMetrics = () => emitted.filter((m) => m.name === BUSINESS_METRICS.unmatchedWebhooks);
    return { unmatchedLogs, unmatchedMetrics };
  }

  test('sandbox: 3 deliveries within 5 minutes stay 409; once 5 minutes have passed it is acknowledged, recorded, logged and counted once', async () => {
    const ops = watchOperators();
    const paymentId = newPaymentId();
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = sandboxEvent(paymentId, eventId);
    for (let i = 1; i <= 3; i += 1) {
      const res = await deliver('sandbox', rawBody);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ type: 'api_error', code: 'payment_busy' });
      expect(res.text).not.toContain(paymentId);
    }
    expect(await counter('sandbox', eventId)).toMatchObject({ deliveries: 3, subject: paymentId, connector: 'sandbox' });
    expect(ops.unmatchedLogs()).toHaveLength(0);

    await backdate('sandbox', eventId, pastTheAge);
    const acknowledged = await deliver('sandbox', rawBody);
    expect(acknowledged.status).toBe(200);
    expect(acknowledged.body).toEqual({
      received: true,
      event_id: eventId,
      applied: false,
      unmatched: true,
      reason: expect.stringContaining('no payment with this id'),
    });
    const item = await counter('sandbox', eventId);
    expect(item).toMatchObject({ deliveries: 4, acknowledged_at: expect.any(String), entity: 'unmatched_webhook' });
    expect(item?.expires_at).toBeGreaterThan(Date.now() / 1000 + 29 * 24 * 3600); // kept 30 days (TTL)
    expect(ops.unmatchedLogs()).toHaveLength(1);
    expect(ops.unmatchedLogs()[0]?.[1]).toMatchObject({ connector: 'sandbox', event_id: eventId, payment_id: paymentId, deliveries: 4 });
    expect(ops.unmatchedMetrics()).toEqual([{ name: 'UnmatchedWebhooks', dimensions: { connector: 'sandbox' } }]);

    // A redelivery (the processor did not see the 200) is acknowledged again, but logged and counted once.
    expect(await deliver('sandbox', rawBody)).toMatchObject({ status: 200, body: { unmatched: true } });
    expect(ops.unmatchedLogs()).toHaveLength(1);
    expect(ops.unmatchedMetrics()).toHaveLength(1);
  });

  test('age alone is not enough: the event must also have been delivered 3 times', async () => {
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = sandboxEvent(newPaymentId(), eventId);
    expect((await deliver('sandbox', rawBody)).status).toBe(409);
    await backdate('sandbox', eventId, 60 * 60_000);
    expect((await deliver('sandbox', rawBody)).status).toBe(409);
    expect(await deliver('sandbox', rawBody)).toMatchObject({ status: 200, body: { applied: false, unmatched: true } });
  });

  test('the same rule for Paystack (charge.success naming a payment of ours found nowhere)', async () => {
    const ops = watchOperators();
    const paymentId = newPaymentId();
    const rawBody = JSON.stringify({
      event: 'charge.success',
      data: { reference: paymentId.replace('_', '-'), status: 'success', amount: 900, currency: 'NGN' },
    });
    const eventId = `charge.success:${paymentId.replace('_', '-')}`;
    expect((await deliver('paystack', rawBody)).status).toBe(409);
    expect((await deliver('paystack', rawBody)).status).toBe(409);
    await backdate('paystack', eventId, pastTheAge);
    expect(await deliver('paystack', rawBody)).toMatchObject({ status: 200, body: { event_id: eventId, applied: false, unmatched: true } });
    expect(ops.unmatchedMetrics()).toEqual([{ name: 'UnmatchedWebhooks', dimensions: { connector: 'paystack' } }]);
  });

  test('and for a Stripe refund event naming a refund of ours found nowhere', async () => {
    const refundId = `ref_${randomUUID().replace(/-/g, '')}`;
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'refund.updated',
      data: { object: { object: 'refund', id: 're_1', status: 'succeeded', metadata: { refund_id: refundId } } },
    });
    const first = await deliver('stripe', rawBody);
    expect(first.status).toBe(409);
    expect(first.text).not.toContain(refundId);
    expect((await deliver('stripe', rawBody)).status).toBe(409);
    await backdate('stripe', eventId, pastTheAge);
    expect(await deliver('stripe', rawBody)).toMatchObject({
      status: 200,
      body: { event_id: eventId, unmatched: true, reason: expect.stringContaining('no refund') },
    });
  });

  test('an id that is not ours is acknowledged at once, with no counter', async () => {
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const res = await deliver('sandbox', sandboxEvent('order-123', eventId));
    expect(res).toMatchObject({ status: 200, body: { received: true, applied: false } });
    expect(res.body.unmatched).toBeUndefined();
    expect(await counter('sandbox', eventId)).toBeUndefined();
  });
});

describe('an event for a payment that exists', () => {
  async function bankTransferPayment(): Promise<string> {
    const p = await api.request('POST', '/payments', {
      body: { amount: 900, currency: 'NGN', payment_method: 'bank_transfer', confirm: true },
    });
    expect(p.body).toMatchObject({ status: 'RequiresAction', connector: 'sandbox' });
    return p.body.payment_id as string;
  }

  test('stays 409 however often it is delivered while the payment’s own request holds its claim, and is never taken for unmatched; applied once the claim is released', async () => {
    const paymentId = await bankTransferPayment();
    const stored = await paymentsRepository.getPayment(api.merchantId, paymentId);
    if (!stored) throw new Error('payment not stored');
    // As a request that called the processor and has not written its outcome yet.
    const claimed = await paymentsRepository.updatePayment(
      api.merchantId,
      stored,
      { expectedStatuses: ['RequiresAction'] },
      {},
      startPendingOperation('authorize', 'sandbox', paymentId, 900),
    );
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = sandboxEvent(paymentId, eventId);
    for (let i = 0; i < UNMATCHED_WEBHOOK_BOUND.minDeliveries + 2; i += 1) {
      const res = await deliver('sandbox', rawBody);
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'payment_busy' });
    }
    expect(
      (await documentClient().send(new GetCommand({ TableName: tableName(), Key: unmatchedWebhookKey('sandbox', eventId) }))).Item,
    ).toBeUndefined();
    expect((await api.request('GET', `/payments/${paymentId}`)).body.status).toBe('RequiresAction');

    await paymentsRepository.updatePayment(
      api.merchantId,
      claimed,
      { expectedStatuses: ['RequiresAction'] },
      { status: 'RequiresAction' },
      null,
    );
    expect(await deliver('sandbox', rawBody)).toMatchObject({
      status: 200,
      body: { applied: true, status: 'Succeeded', payment_id: paymentId },
    });
  });

  test('an event that arrives before the payment is visible by its id (the processor answered faster than the index) gets 409, and its redelivery is applied', async () => {
    const paymentId = await bankTransferPayment();
    const lookup = jest.spyOn(paymentsRepository, 'findPaymentOwner').mockResolvedValueOnce(undefined).mockResolvedValueOnce(undefined);
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = sandboxEvent(paymentId, eventId);
    expect((await deliver('sandbox', rawBody)).status).toBe(409);
    expect((await deliver('sandbox', rawBody)).status).toBe(409);
    const applied = await deliver('sandbox', rawBody);
    expect(applied).toMatchObject({ status: 200, body: { applied: true, status: 'Succeeded' } });
    expect(applied.body.unmatched).toBeUndefined();
    expect(lookup).toHaveBeenCalledTimes(3);
  });
});

describe('a base64-encoded body (API Gateway encodes a body whose content type is not text)', () => {
  /**
   * A payload-2.0 event shaped as API Gateway documents it ("Payload format structure",
   * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html),
   * for `POST /webhooks/sandbox` with an `application/octet-stream` body.
   */
  function gatewayEvent(rawBody: string, headers: Record<string, string>): APIGatewayProxyEventV2 {
    const now = new Date();
    return {
      version: '2.0',
      routeKey: 'POST /webhooks/{connector}',
      rawPath: '/webhooks/sandbox',
      rawQueryString: '',
      headers: {
        'content-type': 'application/octet-stream',
        'content-length': String(Buffer.byteLength(rawBody)),
        host: 'api.example.com',
        'x-forwarded-proto': 'https',
        ...headers,
      },
      requestContext: {
        accountId: '123456789012',
        apiId: 'api-id',
        domainName: 'api.example.com',
        domainPrefix: 'api',
        http: { method: 'POST', path: '/webhooks/sandbox', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'agent' },
        requestId: randomUUID(),
        routeKey: 'POST /webhooks/{connector}',
        stage: '$default',
        time: now.toUTCString(),
        timeEpoch: now.getTime(),
      },
      pathParameters: { connector: 'sandbox' },
      body: Buffer.from(rawBody, 'utf8').toString('base64'),
      isBase64Encoded: true,
    };
  }
  const context = { functionName: 'ReceiveWebhook', awsRequestId: 'test', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;

  test('is decoded to the signed bytes: it verifies and applies (non-ASCII text included)', async () => {
    const { handler } = await import('../../functions/webhooks/receive-webhook');
    const p = await api.request('POST', '/payments', { body: { amount: 900, currency: 'NGN', payment_method: 'ussd', confirm: true } });
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    const rawBody = JSON.stringify({
      id: eventId,
      type: 'payment.failed',
      data: {
        payment_id: p.body.payment_id,
        transaction_id: 'sbx_t',
        amount: 900,
        capture_method: 'automatic',
        error_message: 'Le payeur a refusé — déclin',
      },
    });
    const headers = { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) };
    const res = (await handler(gatewayEvent(rawBody, headers), context)) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(String(res.body))).toMatchObject({ applied: true, status: 'Failed' });
    expect((await api.request('GET', `/payments/${p.body.payment_id}`)).body).toMatchObject({
      status: 'Failed',
      error_message: 'Le payeur a refusé — déclin',
    });
  });

  test('the base64 text itself is not what was signed: signing it → 401', async () => {
    const { handler } = await import('../../functions/webhooks/receive-webhook');
    const rawBody = sandboxEvent(newPaymentId());
    const encoded = Buffer.from(rawBody, 'utf8').toString('base64');
    const res = (await handler(
      gatewayEvent(rawBody, { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(encoded) }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(401);
  });

  test('a signed malformed body sent base64-encoded → 400 too', async () => {
    const { handler } = await import('../../functions/webhooks/receive-webhook');
    const rawBody = JSON.stringify({ id: 'evt_1', type: 'payment.succeeded', data: [] });
    const res = (await handler(
      gatewayEvent(rawBody, { [SANDBOX_SIGNATURE_HEADER]: await signSandboxWebhook(rawBody) }),
      context,
    )) as APIGatewayProxyStructuredResultV2;
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(String(res.body))).toEqual({
      error: { type: 'invalid_request_error', code: 'parameter_invalid_type', message: expect.any(String), param: 'data' },
    });
  });
});

test('the flows above logged their events at DEBUG, and no secret is in the log', () =>
  expectNoSecretInLog(['POST /webhooks/{connector}']));
