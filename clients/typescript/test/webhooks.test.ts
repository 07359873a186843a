/**
 * verifyWebhook on real deliveries: the local API, the table's stream read by the local stream
 * reader and the local delivery queue (the fan-out and worker handlers deployed to Lambda), a loopback receiver. A table of this file's own,
 * as test/http/webhook-delivery.test.ts does, so this file's stream reader delivers only its events.
 */
import { randomUUID } from 'node:crypto';
import { type LocalDeliveryQueue, startDeliveryQueue } from '../../../scripts/local/delivery-queue';
import { ensureTable } from '../../../scripts/local/ensure-table';
import { type EventStream, startEventStream } from '../../../scripts/local/event-stream';
import { type LocalApi, startLocalApi } from '../../../test/helpers/local-api';
import { type ReceivedWebhook, startWebhookReceiver, type WebhookReceiver } from '../../../test/helpers/webhook-receiver';
import { type Event, Switchyard, verifyWebhook, WebhookVerificationError } from '../src/index';

const table = `switchyard-sdk-webhooks-${randomUUID().slice(0, 8)}`;
const savedTable = process.env.TABLE_NAME;
let api: LocalApi;
let stream: EventStream;
let queue: LocalDeliveryQueue;
let receiver: WebhookReceiver;
let switchyard: Switchyard;

beforeAll(async () => {
  process.env.TABLE_NAME = table;
  await ensureTable(process.env.DYNAMODB_ENDPOINT as string, table, { stream: true });
  api = await startLocalApi();
  queue = await startDeliveryQueue();
  stream = await startEventStream({ startingPosition: 'trim_horizon', intervalMs: 100 });
  receiver = await startWebhookReceiver();
  switchyard = new Switchyard({ apiKey: api.apiKey, baseUrl: api.url });
});
afterAll(async () => {
  await stream?.stop();
  await queue?.stop();
  await receiver?.close();
  await api?.close();
  if (savedTable === undefined) delete process.env.TABLE_NAME;
  else process.env.TABLE_NAME = savedTable;
});

/** Waits for the delivery of the event about `customerId` of type `type`. */
async function deliveryAbout(customerId: string, type: string): Promise<ReceivedWebhook> {
  const about = (w: ReceivedWebhook) => {
    const e = JSON.parse(w.body) as { type: string; data: { customer_id?: string } };
    return e.type === type && e.data.customer_id === customerId;
  };
  const received = await receiver.waitFor((all) => all.some(about));
  return received.find(about)!;
}

/** The error `fn` throws, failing the test when it does not throw a WebhookVerificationError. */
function refusal(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err;
    throw err;
  }
  throw new Error('expected verifyWebhook to refuse the delivery');
}

test('a real delivery verifies (text, bytes, fetch Headers) and is the event the API stores; tampering, an old timestamp or missing headers are refused', async () => {
  const endpoint = await switchyard.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.created'] });
  expect(endpoint.secret).toMatch(/^whsec_/);
  const customer = await switchyard.customers.create({ name: 'Webhook Ada' });
  const delivery = await deliveryAbout(customer.customer_id, 'customer.created');

  const event: Event = verifyWebhook(delivery.body, delivery.headers, endpoint.secret);
  expect(event.type).toBe('customer.created');
  expect(event.event_id).toBe(delivery.headers['webhook-id']);
  expect(event).toEqual(await switchyard.events.retrieve(event.event_id));
  expect(verifyWebhook(Buffer.from(delivery.body, 'utf8'), new Headers(delivery.headers), endpoint.secret)).toEqual(event);

  const tampered = delivery.body.replace('Webhook Ada', 'Webhook Eve');
  expect(tampered).not.toBe(delivery.body);
  expect(refusal(() => verifyWebhook(tampered, delivery.headers, endpoint.secret)).code).toBe('no_matching_signature');
  // The same JSON spelled differently (re-serialised) is not what was signed.
  const reserialised = JSON.stringify(JSON.parse(delivery.body), null, 1);
  expect(refusal(() => verifyWebhook(reserialised, delivery.headers, endpoint.secret)).code).toBe('no_matching_signature');
  const other = (await switchyard.webhookEndpoints.create({ url: receiver.url, enabled_events: ['refund.failed'] })).secret;
  expect(refusal(() => verifyWebhook(delivery.body, delivery.headers, other)).code).toBe('no_matching_signature');
  const old = { ...delivery.headers, 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 600) };
  expect(refusal(() => verifyWebhook(delivery.body, old, endpoint.secret)).code).toBe('timestamp_too_old');
  const { 'webhook-signature': _signature, ...unsigned } = delivery.headers;
  expect(refusal(() => verifyWebhook(delivery.body, unsigned, endpoint.secret)).code).toBe('missing_headers');
  expect(() => verifyWebhook(JSON.parse(delivery.body) as string, delivery.headers, endpoint.secret)).toThrow(TypeError);
});

test('during a secret rotation a delivery carries two signatures and verifies with either secret', async () => {
  const endpoint = await switchyard.webhookEndpoints.create({ url: receiver.url, enabled_events: ['customer.updated'] });
  const rotated = await switchyard.webhookEndpoints.rotateSecret(endpoint.webhook_endpoint_id);
  expect(rotated.secret).not.toBe(endpoint.secret);
  const customer = await switchyard.customers.create({ name: 'Rotating' });
  await switchyard.customers.update(customer.customer_id, { name: 'Rotated' });
  const delivery = await deliveryAbout(customer.customer_id, 'customer.updated');
  expect(delivery.headers['webhook-signature']?.split(' ')).toHaveLength(2);
  expect(verifyWebhook(delivery.body, delivery.headers, rotated.secret).type).toBe('customer.updated');
  expect(verifyWebhook(delivery.body, delivery.headers, endpoint.secret).type).toBe('customer.updated');
  expect(verifyWebhook(delivery.body, delivery.headers, ['whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', rotated.secret]).type).toBe(
    'customer.updated',
  );
});
