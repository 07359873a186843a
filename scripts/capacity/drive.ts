/**
 * Drives one realistic payment lifecycle through the project's own code: the local API Gateway
 * stand-in (scripts/local/gateway.ts, the real handlers, in this process), the sandbox connector, the
 * webhook delivery stream handler (functions/webhook-delivery/stream-handler.ts, fed the event items
 * as the table's stream would) with the delivery queue's worker (scripts/local/delivery-queue.ts) and the reconciler (shared/operations/reconciliation/reconcile-operations.ts). Each
 * step runs in a recorder phase named after the model's operation (scripts/capacity/model.ts
 * `OPERATIONS`), so its DynamoDB calls become that operation's unit records.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { handler as streamHandler } from '../../functions/webhook-delivery/stream-handler';
import { deliverSandboxWebhook } from '../../shared/connectors/sandbox/sandbox-webhooks';
import { reconcileOpenOperations } from '../../shared/operations/reconciliation/reconcile-operations';
import { hashApiKey, putApiKey } from '../../shared/storage/api-keys-repository';
import { documentClient } from '../../shared/storage/client';
import { primaryKey } from '../../shared/storage/item-keys';
import { tableName } from '../../shared/storage/table-definition';
import { startDeliveryQueue } from '../local/delivery-queue';
import { startGateway } from '../local/gateway';
import type { Recorder } from './access-patterns';
import type { RawItem } from './item-size';
import { OPERATIONS } from './model';

/** The card the sandbox always approves (expiry three years ahead). */
const CARD = {
  card_number: '4242424242424242',
  card_exp_month: '12',
  card_exp_year: String(new Date().getUTCFullYear() + 3),
  card_cvc: '123',
};

/** A create body like a shop's: amount, currency, description, a customer e-mail and order metadata. */
const CREATE_BODY = {
  amount: 12_500,
  currency: 'NGN',
  description: 'Order #100234 — 2 items',
  email: 'ada.obi@example.com',
  metadata: { order_id: 'ord_100234', cart_id: 'cart_8f2c1e', channel: 'web' },
};

/** Items per list page the model assumes (the list calls use `limit=` this). */
export const LIST_PAGE_SIZE = 10;

/** What the driver needs: the recorder and the run's merchant and API key. */
export interface DriveOptions {
  recorder: Recorder;
  merchantId: string;
  apiKey: string;
  /**
   * List shards the merchant is driven with (default 1, today's layout). Above 1 the run's API key
   * item gets `list_shards_read`/`list_shards_write` (the attributes the sharded list indexes read:
   * shared/storage/list-shards.ts), so the recorded list entries and list Queries are the sharded ones.
   */
  listShards?: number;
}

/** A loopback receiver answering every webhook delivery with 204. */
async function startReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, server };
}

/** The stream records DynamoDB Streams (NEW_IMAGE) would carry for these inserted items. */
function streamEvent(items: RawItem[]): DynamoDBStreamEvent {
  return {
    Records: items.map(
      (item, i): DynamoDBRecord => ({
        eventID: `capacity-${i}`,
        eventName: 'INSERT',
        eventSource: 'aws:dynamodb',
        eventVersion: '1.1',
        awsRegion: process.env.AWS_REGION ?? 'us-east-1',
        dynamodb: {
          Keys: { PK: item.PK, SK: item.SK } as never,
          NewImage: item as Record<string, AttributeValue> as never,
          SequenceNumber: String(1000 + i),
          StreamViewType: 'NEW_IMAGE',
        },
      }),
    ),
  };
}

const STREAM_CONTEXT = {
  functionName: 'WebhookDelivery',
  awsRequestId: 'capacity',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

/**
 * Runs the lifecycle; every step is checked (a failed step throws, naming it):
 * API key read + touch (first request), create, create with an Idempotency-Key, confirm with a card
 * (Succeeded, attempts recorded), create + confirm with mobile money (Processing), the sandbox
 * connector's webhook completing it, a partial refund, a retrieve, a page of payments and of events
 * ({@link LIST_PAGE_SIZE} items), a reconciler run. Each event item a step writes is fanned out to
 * one subscribed endpoint in the same phase (the delivery function's writes count with the step
 * that caused them).
 */
export async function driveLifecycle(options: DriveOptions): Promise<void> {
  const { recorder, merchantId, apiKey } = options;
  await putApiKey(apiKey, merchantId, 'capacity model');
  if ((options.listShards ?? 1) > 1) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: primaryKey.apiKey(hashApiKey(apiKey)),
        UpdateExpression: 'SET list_shards_read = :n, list_shards_write = :n',
        ExpressionAttributeValues: { ':n': options.listShards },
      }),
    );
  }
  const receiver = await startReceiver();
  const gateway = await startGateway(0, '127.0.0.1');
  // The delivery queue's worker sends what the stream handler queues; a step waits for it, so the
  // worker's DynamoDB calls are the step's too.
  const deliveryQueue = await startDeliveryQueue();
  try {
    const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${gateway.url}${path}`, {
        method,
        headers: { 'api-key': apiKey, 'content-type': 'application/json', ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
      return JSON.parse(text) as Record<string, unknown>;
    };
    /** Runs a step in a phase, then fans out the events it wrote (still in the phase). */
    const step = <T>(operation: string, fn: () => Promise<T>) =>
      recorder.phase(operation, async () => {
        const result = await fn();
        const events = recorder.takeNewEvents();
        if (events.length > 0) {
          await streamHandler(streamEvent(events), STREAM_CONTEXT);
          await deliveryQueue.drained();
        }
        return result;
      });

    await step('auth probe', () => call('GET', '/payments?limit=1'));
    await call('POST', '/webhook_endpoints', { url: receiver.url, enabled_events: ['*'], description: 'capacity model receiver' });
    recorder.takeNewEvents();

    const created = await step(OPERATIONS.create, () => call('POST', '/payments', CREATE_BODY));
    const paymentId = String(created.payment_id);
    await step('idempotency probe', () => call('POST', '/payments', CREATE_BODY, { 'idempotency-key': `capacity-${Date.now()}` }));
    const confirmed = await step(OPERATIONS.confirmCard, () =>
      call('POST', `/payments/${paymentId}/confirm`, { payment_method: 'card', payment_method_data: { card: CARD } }),
    );
    if (confirmed.status !== 'Succeeded') throw new Error(`confirm (card): expected Succeeded, got ${String(confirmed.status)}`);

    const asyncPayment = await call('POST', '/payments', { ...CREATE_BODY, currency: 'KES', payment_method: 'mobile_money' });
    recorder.takeNewEvents();
    const asyncId = String(asyncPayment.payment_id);
    const processing = await step(OPERATIONS.confirmAsync, () => call('POST', `/payments/${asyncId}/confirm`, {}));
    if (processing.status !== 'Processing') throw new Error(`confirm (async): expected Processing, got ${String(processing.status)}`);
    const transactionId = processing.connector_transaction_id;
    if (typeof transactionId !== 'string') throw new Error('confirm (async): the payment has no connector_transaction_id');
    const status = await step(OPERATIONS.webhook, () =>
      deliverSandboxWebhook(
        gateway.url,
        { payment_id: asyncId, transaction_id: transactionId, amount: CREATE_BODY.amount, capture_method: 'automatic' },
        'succeeded',
      ),
    );
    if (status !== 200) throw new Error(`connector webhook answered ${status}`);

    await step(OPERATIONS.refund, () => call('POST', `/payments/${paymentId}/refund`, { amount: 2_500, reason: 'requested_by_customer' }));
    await step(OPERATIONS.retrieve, () => call('GET', `/payments/${paymentId}`));

    for (let i = 0; i < LIST_PAGE_SIZE; i += 1) await call('POST', '/payments', CREATE_BODY);
    recorder.takeNewEvents();
    await step(OPERATIONS.listPayments, () => call('GET', `/payments?limit=${LIST_PAGE_SIZE}`));
    await step(OPERATIONS.listEvents, () => call('GET', `/events?limit=${LIST_PAGE_SIZE}`));
    await step(OPERATIONS.reconciler, () => reconcileOpenOperations({ deadlineMs: Date.now() + 20_000 }));
  } finally {
    await deliveryQueue.stop();
    await gateway.close();
    await new Promise<void>((ok) => receiver.server.close(() => ok()));
  }
}
