/**
 * `npm run webhooks:listen` — like `stripe listen`: receives the local stack's webhooks in
 * this terminal.
 *
 *   npm run webhooks:listen [-- --forward-to http://localhost:PORT/path] [--events payment.succeeded,refund.created]
 *
 * 1. Finds the running local stack (`npm start` writes .data/local-stack.json; or
 *    `SWITCHYARD_URL` / `--base-url`), with the API key `API_KEY` or the development default.
 * 2. Starts an HTTP server on 127.0.0.1 (a free port) and registers it as a webhook endpoint
 *    (`POST /webhook_endpoints`, `enabled_events` from `--events`, default all).
 * 3. Prints each webhook as it arrives: time, type, event id, resource id, and whether its
 *    signature verifies with the endpoint's secret (the `standardwebhooks` package, as a
 *    receiver should check it: Standard Webhooks, "Verifying webhooks").
 * 4. With `--forward-to`, POSTs each one on, unchanged (body and `webhook-*` headers), and
 *    answers the stack with the forward's status (so a failing app sees the retries).
 * 5. Ctrl-C deletes its endpoint and exits.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Webhook } from 'standardwebhooks';
import { DEFAULT_DEV_API_KEY } from './local/dev-merchant';
import { readLocalStackInfo } from './local/local-stack-file';

const USAGE = `usage: npm run webhooks:listen [-- --forward-to http://localhost:PORT/path] [--events type,type] [--base-url http://127.0.0.1:3000]
Needs a running local stack (npm start). API key: $API_KEY, else the development key.`;

function fail(message: string): never {
  process.stderr.write(`webhooks:listen: ${message}\n${USAGE}\n`);
  process.exit(2);
}

/** The id of the resource an event carries (payment, refund or customer). */
function resourceId(data: Record<string, unknown> | undefined): string {
  return String(data?.refund_id ?? data?.payment_id ?? data?.customer_id ?? '-');
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { 'forward-to': { type: 'string' }, events: { type: 'string' }, 'base-url': { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const baseUrl = (values['base-url'] ?? process.env.SWITCHYARD_URL ?? readLocalStackInfo()?.baseUrl)?.replace(/\/$/, '');
  if (!baseUrl) fail('no local stack is running: start it with `npm start` (or pass --base-url).');
  const apiKey = process.env.API_KEY || DEFAULT_DEV_API_KEY;
  const forwardTo = values['forward-to'];
  if (forwardTo !== undefined) {
    try {
      new URL(forwardTo);
    } catch {
      fail(`--forward-to must be an absolute URL, e.g. http://localhost:4000/webhooks.`);
    }
  }
  const enabledEvents = values.events
    ? values.events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
    : ['*'];

  let secret = '';
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      let verified = false;
      try {
        new Webhook(secret).verify(body, headers);
        verified = true;
      } catch {
        verified = false;
      }
      let event: { event_id?: string; type?: string; data?: Record<string, unknown> } = {};
      try {
        event = JSON.parse(body) as typeof event;
      } catch {
        /* printed as unknown below */
      }
      const line = [
        new Date().toISOString().slice(11, 19),
        (event.type ?? '(not JSON)').padEnd(26),
        (event.event_id ?? headers['webhook-id'] ?? '-').padEnd(36),
        resourceId(event.data).padEnd(36),
        `signature ${verified ? 'verified' : 'NOT verified'}`,
      ].join('  ');
      let status = 200;
      let forwarded = '';
      if (forwardTo) {
        try {
          const out = await fetch(forwardTo, {
            method: 'POST',
            headers: Object.fromEntries(Object.entries(headers).filter(([k]) => k.startsWith('webhook-') || k === 'content-type')),
            body,
            signal: AbortSignal.timeout(10_000),
          });
          await out.body?.cancel().catch(() => undefined);
          status = out.status;
          forwarded = `  -> ${forwardTo} [${out.status}]`;
        } catch (err) {
          status = 502;
          forwarded = `  -> ${forwardTo} [failed: ${(err as Error).name}]`;
        }
      }
      process.stdout.write(`${line}${forwarded}\n`);
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status < 300 ? 'ok' : 'forward failed');
    })().catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/webhooks`;

  const created = await fetch(`${baseUrl}/webhook_endpoints`, {
    method: 'POST',
    headers: { 'api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url, enabled_events: enabledEvents, description: 'npm run webhooks:listen' }),
  }).catch((err: unknown) => fail(`the local stack at ${baseUrl} does not answer (${(err as Error).message}).`));
  const answer = (await created.json()) as { webhook_endpoint_id?: string; secret?: string; error?: { message?: string } };
  if (!created.ok || !answer.webhook_endpoint_id || !answer.secret) {
    server.close();
    fail(`could not register the endpoint (${created.status}): ${answer.error?.message ?? 'unexpected answer'}`);
  }
  secret = answer.secret;
  const endpointId = answer.webhook_endpoint_id;
  process.stdout.write(
    [
      `Listening for ${baseUrl}'s webhooks on ${url}${forwardTo ? `, forwarding to ${forwardTo}` : ''}.`,
      `  Endpoint : ${endpointId}  (events: ${enabledEvents.join(', ')})`,
      `  Secret   : ${secret}   (to verify in your app; this endpoint is deleted on Ctrl-C)`,
      'Press Ctrl-C to stop.',
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      const res = await fetch(`${baseUrl}/webhook_endpoints/${endpointId}`, { method: 'DELETE', headers: { 'api-key': apiKey } });
      process.stdout.write(`\nDeleted endpoint ${endpointId} (${res.status}).\n`);
    } catch (err) {
      process.stderr.write(`\nCould not delete endpoint ${endpointId}: ${(err as Error).message}\n`);
    }
    server.closeAllConnections?.();
    server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  process.stderr.write(`webhooks:listen failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
