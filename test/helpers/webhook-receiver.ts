import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: method, path, lower-cased headers, raw body text, when. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

/** How a receiver answers a request: a status (and headers), or `hang` (never answers). */
export type ReceiverAnswer = { status: number; headers?: Record<string, string> } | 'hang';

/** A loopback webhook receiver for tests. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hooks`. */
  url: string;
  /** Every request so far, in arrival order. */
  received: ReceivedWebhook[];
  /**
   * Sets how the next requests are answered, in order; once used up, `fallback` applies
   * (default 200).
   */
  answer(queue: ReceiverAnswer[], fallback?: ReceiverAnswer): void;
  /**
   * Waits until `predicate` holds for the received requests. The default ceiling is generous: a delivery goes through
   * the stream poll, the queue and a worker, which on a loaded CI machine can take well over 10 s; the verdict is what
   * arrives, not how fast.
   * @param timeoutMs default 30 000
   * @throws Error naming what was received when it does not hold in time
   */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * Starts a node:http server on 127.0.0.1 (a free port) that records every request and
 * answers as told ({@link WebhookReceiver.answer}); answers 200 by default.
 */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let queue: ReceiverAnswer[] = [];
  let fallback: ReceiverAnswer = { status: 200 };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      });
      const answer = queue.shift() ?? fallback;
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...(answer.headers ?? {}) });
      res.end('ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answer(next, fb) {
      queue = [...next];
      if (fb) fallback = fb;
    },
    async waitFor(predicate, timeoutMs = 30_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > until) {
          throw new Error(
            `receiver: condition not met in ${timeoutMs} ms; got ${received.length} request(s): ${received.map((r) => r.body.slice(0, 80)).join(' | ')}`,
          );
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections?.();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
