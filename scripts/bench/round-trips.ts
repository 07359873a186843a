/**
 * DynamoDB round trips per operation, counted the way test/http/round-trips-and-faults.test.ts
 * counts them: a middleware on the process-wide client (shared/storage/client.ts `baseClient`)
 * records every command while the real handlers, run in this process by the local gateway
 * (scripts/local/gateway.ts), answer one request of each operation.
 */

import { baseClient } from '../../shared/storage/client';
import { isRateLimitCounterKey } from '../../shared/storage/rate-limit-repository';
import { startGateway } from '../local/gateway';

/** One operation's count against its floor (docs/money-safety.md, "DynamoDB round trips per request"). */
export interface RoundTripCount {
  /** e.g. `create with a customer` */
  name: string;
  /**
   * The DynamoDB commands made, in order (`GetItem`, `TransactWriteItems`, …), API-key bookkeeping and
   * rate-limit lease writes (amortized over many requests: docs/rate-limits.md "Cost") excluded.
   */
  made: string[];
  /** The fewest round trips the operation can make (docs/money-safety.md, "DynamoDB round trips per request"). */
  floor: number;
  /** The most that still meets the target (the floor, or 3 for refund when it cannot stay atomic in 2). */
  allowed: number;
  /** HTTP status of the request (2xx expected). */
  status: number;
}

/** What the requests send (the benchmark's own bodies). */
export interface RoundTripRequests {
  apiKey: string;
  createBody: string;
  confirmBody: string;
  refundBody: string;
}

/**
 * Whether a command's input concerns an API-key item (the cached key lookup and its last-used note) or
 * a rate-limit counter (a lease, amortized over the requests of a window).
 */
function isApiKeyCall(input: unknown): boolean {
  const key = (input as { Key?: { PK?: unknown } })?.Key;
  const pk = key?.PK as unknown;
  const pkText = typeof pk === 'object' && pk !== null && 'S' in pk ? (pk as { S: unknown }).S : pk;
  return JSON.stringify(key ?? {}).includes('APIKEY#') || isRateLimitCounterKey(pkText);
}

let recording: string[] | undefined;
let hooked = false;

/** Adds the counting middleware to the process-wide client, once. */
function hookClient(): void {
  if (hooked) return;
  hooked = true;
  baseClient().middlewareStack.add(
    (next, context) => async (args) => {
      if (recording && !isApiKeyCall(args.input)) recording.push(String(context.commandName).replace(/Command$/, ''));
      return next(args);
    },
    { step: 'initialize', name: 'benchRoundTripCounter' },
  );
}

/**
 * Starts the local gateway in this process (DYNAMODB_ENDPOINT and TABLE_NAME already set), makes
 * one request of each operation with the benchmark's API key and counts the DynamoDB commands
 * each one makes; closes the gateway.
 * @returns create, create with a customer, retrieve, confirm, refund and list, in that order
 * @throws when a request that the next ones need (create, confirm) does not succeed
 */
export async function countRoundTrips(requests: RoundTripRequests): Promise<RoundTripCount[]> {
  hookClient();
  const gateway = await startGateway(0, '127.0.0.1');
  const send = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { 'api-key': requests.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body } : {}),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // not JSON: left empty
    }
    return { status: res.status, json };
  };
  const counts: RoundTripCount[] = [];
  const count = async (name: string, floor: number, allowed: number, call: () => ReturnType<typeof send>) => {
    recording = [];
    const r = await call();
    const made = recording;
    recording = undefined;
    counts.push({ name, made, floor, allowed, status: r.status });
    return r;
  };
  try {
    await send('GET', '/payments?limit=1'); // warms the API-key cache
    // Warms the merchant's routing configuration cache (one Query per container per
    // CONNECTOR_CONFIG_CACHE_MS): what every later create and confirm of a warm container costs.
    await send('POST', '/payments', requests.createBody);
    const created = await count('create', 1, 1, () => send('POST', '/payments', requests.createBody));
    const id = created.json.payment_id;
    if (typeof id !== 'string') throw new Error(`POST /payments answered ${created.status}`);
    const customer = await send('POST', '/customers', '{}');
    const withCustomer = JSON.stringify({ ...(JSON.parse(requests.createBody) as object), customer_id: customer.json.customer_id });
    await count('create with a customer', 2, 2, () => send('POST', '/payments', withCustomer));
    await count('retrieve', 1, 1, () => send('GET', `/payments/${id}`));
    const confirmed = await count('confirm', 2, 2, () => send('POST', `/payments/${id}/confirm`, requests.confirmBody));
    if (confirmed.json.status !== 'Succeeded') throw new Error(`confirm answered ${confirmed.status} ${String(confirmed.json.status)}`);
    await count('refund', 2, 3, () => send('POST', `/payments/${id}/refund`, requests.refundBody));
    await count('list', 1, 1, () => send('GET', '/payments?limit=20'));
    await countWithActiveAlgorithm(send, count, requests);
    return counts;
  } finally {
    recording = undefined;
    await gateway.close();
  }
}

/**
 * Create and confirm for a merchant with its own connector accounts and an active routing
 * algorithm (two sandbox accounts, `volume_split` 50/50) cost no DynamoDB round trip more than without:
 * the accounts and the active algorithm come from the per-container configuration cache
 * (shared/processor-call/connector-config-cache.ts), warmed by one create first.
 * @throws when the setup requests (accounts, algorithm) do not succeed
 */
async function countWithActiveAlgorithm(
  send: (method: string, path: string, body?: string) => Promise<{ status: number; json: Record<string, unknown> }>,
  count: (
    name: string,
    floor: number,
    allowed: number,
    call: () => Promise<{ status: number; json: Record<string, unknown> }>,
  ) => Promise<{ status: number; json: Record<string, unknown> }>,
  requests: RoundTripRequests,
): Promise<void> {
  const ids: string[] = [];
  for (const label of ['bench a', 'bench b']) {
    const res = await send('POST', '/connector_accounts', JSON.stringify({ connector_name: 'sandbox', connector_label: label }));
    if (typeof res.json.merchant_connector_id !== 'string') throw new Error(`POST /connector_accounts answered ${res.status}`);
    ids.push(res.json.merchant_connector_id);
  }
  const algorithm = await send(
    'POST',
    '/routing',
    JSON.stringify({
      name: 'bench split',
      algorithm: { type: 'volume_split', data: ids.map((id) => ({ split: 50, merchant_connector_id: id })) },
    }),
  );
  const algorithmId = algorithm.json.routing_algorithm_id;
  if (typeof algorithmId !== 'string') throw new Error(`POST /routing answered ${algorithm.status}`);
  const activated = await send('POST', `/routing/${algorithmId}/activate`, '{}');
  if (activated.status !== 200) throw new Error(`activate answered ${activated.status}`);
  await send('POST', '/payments', requests.createBody); // warms the configuration cache
  const created = await count('create (active algorithm)', 1, 1, () => send('POST', '/payments', requests.createBody));
  const id = created.json.payment_id;
  if (typeof id !== 'string') throw new Error(`POST /payments answered ${created.status}`);
  await count('confirm (active algorithm)', 2, 2, () => send('POST', `/payments/${id}/confirm`, requests.confirmBody));
}
