/**
 * A webhook receiver verifying Switchyard's deliveries with the SDK (Standard Webhooks signatures).
 *
 *   npx tsx examples/webhook-receiver.ts
 *
 * Listens on http://127.0.0.1:$PORT/webhooks (default 4000). Its secret:
 * - `SWITCHYARD_WEBHOOK_SECRET` — the `whsec_…` secret of an endpoint you registered (comma-separated
 *   for two during a rotation), e.g. with `npm run webhooks:listen -- --forward-to http://127.0.0.1:4000/webhooks`
 *   (it prints the secret); or, when unset,
 * - it registers itself on the running local stack through the SDK (`SWITCHYARD_API_KEY`,
 *   `SWITCHYARD_BASE_URL` and their fallbacks as in examples/walkthrough.ts), keeps the secret the
 *   answer carries, and deletes the endpoint on Ctrl-C.
 * Then run `npx tsx examples/walkthrough.ts` in another terminal and watch the events arrive.
 *
 * What a receiver must do (docs/api.md, "Webhook delivery"): verify the raw bytes, never a
 * re-serialised object; answer 2xx within 15 s; dedupe on `webhook-id` (delivery is at least once).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Switchyard, verifyWebhook, WebhookVerificationError } from '@switchyard/client';

/** The key `npm start` seeds when `API_KEY` is unset (README, "Quick start"); local only. */
const LOCAL_DEV_API_KEY = 'sk_test_switchyard_local_dev_key';

const port = Number(process.env.PORT || 4000);
const url = `http://127.0.0.1:${port}/webhooks`;
const seen = new Set<string>();

/** The request body exactly as it arrived (bytes), for the signature check. */
async function rawBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Handles one delivery: 400 when it does not verify, 200 once its event is taken care of. */
async function receive(req: IncomingMessage, res: ServerResponse, secrets: string[]): Promise<void> {
  if (req.method !== 'POST' || req.url !== '/webhooks') {
    res.writeHead(404).end();
    return;
  }
  const body = await rawBody(req);
  try {
    const event = verifyWebhook(body, req.headers, secrets);
    if (seen.has(event.event_id)) {
      console.log(`${event.type.padEnd(26)} ${event.event_id}  (already handled)`);
    } else {
      seen.add(event.event_id);
      const data = event.data as Record<string, unknown>;
      const id = data.refund_id ?? data.payment_id ?? data.customer_id ?? '-';
      console.log(`${event.type.padEnd(26)} ${event.event_id}  ${String(id)}  ${String(data.status ?? '')}`);
      // Fulfil orders here, from the event (or a GET of the resource), never from a redirect's query.
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    console.warn(`refused a delivery: ${err.code}`);
    res.writeHead(400, { 'content-type': 'text/plain' }).end(err.code);
  }
}

async function main(): Promise<void> {
  let secrets = (process.env.SWITCHYARD_WEBHOOK_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  let cleanup = async () => {};
  const server = createServer((req, res) => {
    receive(req, res, secrets).catch((err: unknown) => {
      console.error(err);
      res.writeHead(500).end();
    });
  });
  await new Promise<void>((ok) => server.listen(port, '127.0.0.1', ok));

  if (secrets.length === 0) {
    const switchyard = new Switchyard({
      apiKey: process.env.SWITCHYARD_API_KEY || process.env.API_KEY || LOCAL_DEV_API_KEY,
      baseUrl: process.env.SWITCHYARD_BASE_URL || process.env.SWITCHYARD_URL || 'http://localhost:3000',
    });
    const endpoint = await switchyard.webhookEndpoints.create({ url, description: 'examples/webhook-receiver.ts' });
    secrets = [endpoint.secret];
    console.log(`Registered ${endpoint.webhook_endpoint_id} for ${url} (all events).`);
    cleanup = async () => {
      await switchyard.webhookEndpoints.delete(endpoint.webhook_endpoint_id);
      console.log(`Deleted ${endpoint.webhook_endpoint_id}.`);
    };
  }
  console.log(`Listening on ${url}. Ctrl-C to stop.`);

  const stop = () => {
    cleanup()
      .catch((err: unknown) => console.error(`could not delete the endpoint: ${(err as Error).message}`))
      .finally(() => {
        server.closeAllConnections();
        server.close();
        process.exit(0);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
