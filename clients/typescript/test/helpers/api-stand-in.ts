import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How the stand-in handles one request:
 * - `forward`: passes it to the API and its answer back;
 * - `drop-after-forward`: passes it to the API, waits for the answer (so the API did the work),
 *   then destroys the client's connection without answering — a response lost on the way back;
 * - `hang`: never answers (the client's timeout fires); nothing reaches the API;
 * - an object: answers that status, headers and JSON body itself; nothing reaches the API.
 */
export type StandInBehaviour =
  | 'forward'
  | 'drop-after-forward'
  | 'hang'
  | { status: number; headers?: Record<string, string>; body?: unknown; text?: string };

/** One request the stand-in got, and what the API answered when it was forwarded. */
export interface StandInRequest {
  method: string;
  path: string;
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  body: string;
  behaviour: StandInBehaviour;
  /** The API's status and `idempotent-replayed` header, for forwarded requests. */
  upstream?: { status: number; replayed: string | null };
}

/** A loopback HTTP server in front of the API, to prove what the SDK sends and how it retries. */
export interface ApiStandIn {
  /** `http://127.0.0.1:<port>`: the SDK's `baseUrl`. */
  url: string;
  /** Every request, in arrival order. */
  requests: StandInRequest[];
  /** Sets how the next requests are handled, in order; once used up, requests are forwarded. */
  next(behaviours: StandInBehaviour[]): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/**
 * Starts the stand-in on 127.0.0.1 (a free port) in front of `upstream` (the local gateway's URL).
 * Forwarding uses the global fetch; answers are written back with the API's status, headers and body.
 */
export async function startApiStandIn(upstream: string): Promise<ApiStandIn> {
  const requests: StandInRequest[] = [];
  let queue: StandInBehaviour[] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        const body = Buffer.concat(chunks).toString('utf8');
        const behaviour = queue.shift() ?? 'forward';
        const entry: StandInRequest = { method: req.method ?? '', path: req.url ?? '', headers, body, behaviour };
        requests.push(entry);
        if (behaviour === 'hang') {
          open.add(res);
          return;
        }
        if (typeof behaviour === 'object') {
          const text = behaviour.text ?? JSON.stringify(behaviour.body ?? {});
          res.writeHead(behaviour.status, {
            'content-type': behaviour.text !== undefined ? 'text/plain' : 'application/json',
            ...behaviour.headers,
          });
          res.end(text);
          return;
        }
        const forwarded = await fetch(`${upstream}${entry.path}`, {
          method: entry.method,
          headers: Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k))),
          ...(entry.method === 'GET' || entry.method === 'HEAD' ? {} : { body }),
        });
        const answer = await forwarded.text();
        entry.upstream = { status: forwarded.status, replayed: forwarded.headers.get('idempotent-replayed') };
        if (behaviour === 'drop-after-forward') {
          req.socket.destroy();
          return;
        }
        const out: Record<string, string> = {};
        forwarded.headers.forEach((v, k) => {
          if (!HOP_BY_HOP.has(k) && k !== 'content-encoding') out[k] = v;
        });
        res.writeHead(forwarded.status, out);
        res.end(answer);
      })().catch((err: unknown) => {
        res.writeHead(599, { 'content-type': 'text/plain' });
        res.end(`stand-in failed: ${(err as Error).message}`);
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next(behaviours) {
      queue = [...behaviours];
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
