import { createServer, type IncomingMessage, type Server } from 'node:http';
import {
  cancelSandboxDeliveries,
  deliverSandboxEventUntilAcknowledged,
  SANDBOX_SIGNATURE_HEADER,
  scheduleSandboxDelivery,
  scheduleSandboxWebhook,
  verifySandboxWebhook,
} from '../../shared/connectors/sandbox/sandbox-webhooks';

/** A loopback receiver answering each delivery with the next status of `answers` (then 200), recording what it got. */
let server: Server;
let baseUrl = '';
let answers: number[] = [];
let received: Array<{ path: string; body: string; signatureValid: boolean; at: number }> = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    received.push({
      path: req.url ?? '',
      body,
      signatureValid: await verifySandboxWebhook(body, req.headers[SANDBOX_SIGNATURE_HEADER] as string | undefined),
      at: Date.now(),
    });
    const status = answers.shift() ?? 200;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { received: true } : { error: { type: 'conflict', code: 'payment_busy', message: 'retry' } }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((ok) => server.close(() => ok())));
beforeEach(() => {
  answers = [];
  received = [];
});

async function waitForDeliveries(count: number, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (received.length < count) {
    if (Date.now() > until) throw new Error(`${received.length} deliveries after ${ms} ms, expected ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('the sandbox redelivers an event until the service acknowledges it, as a processor does', () => {
  test('409 payment_busy and 503 are delivered again: the same bytes, the same event id, a valid signature, each try later than the last', async () => {
    answers = [409, 503];
    const rawBody = JSON.stringify({ id: 'evt_redelivery_1', type: 'payment.succeeded', data: { payment_id: 'pay_x' } });
    await expect(deliverSandboxEventUntilAcknowledged(baseUrl, rawBody)).resolves.toBe(200);
    expect(received).toHaveLength(3);
    for (const r of received) expect(r).toMatchObject({ path: '/webhooks/sandbox', body: rawBody, signatureValid: true });
    expect(received[1]!.at).toBeGreaterThan(received[0]!.at);
    expect(received[2]!.at).toBeGreaterThan(received[1]!.at);
  });

  test('an acknowledged first delivery is the only one', async () => {
    const rawBody = JSON.stringify({ id: 'evt_redelivery_2', type: 'payment.succeeded', data: { payment_id: 'pay_y' } });
    await expect(deliverSandboxEventUntilAcknowledged(baseUrl, rawBody)).resolves.toBe(200);
    await new Promise((r) => setTimeout(r, 600)); // longer than the first redelivery's delay: none comes
    expect(received).toHaveLength(1);
  });

  test('a receiver that is not listening yet (the network fails) is tried again', async () => {
    const spare = createServer();
    await new Promise<void>((ok) => spare.listen(0, '127.0.0.1', ok));
    const port = (spare.address() as { port: number }).port;
    await new Promise<void>((ok) => spare.close(() => ok()));
    let hits = 0;
    const late = createServer((req, res) => {
      hits += 1;
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    });
    // Nothing listens on `port` for the first try; the receiver starts there 100 ms later.
    const delivered = deliverSandboxEventUntilAcknowledged(`http://127.0.0.1:${port}`, '{"id":"evt_redelivery_3"}');
    await new Promise((r) => setTimeout(r, 100));
    await new Promise<void>((ok) => late.listen(port, '127.0.0.1', ok));
    try {
      await expect(delivered).resolves.toBe(200);
      expect(hits).toBe(1);
    } finally {
      await new Promise<void>((ok) => late.close(() => ok()));
    }
  });

  test('an offline payment completion scheduled by the sandbox connector is redelivered after a busy answer, keeping its event id', async () => {
    process.env.SANDBOX_WEBHOOK_DELAY_MS = '10';
    try {
      answers = [409];
      scheduleSandboxWebhook(baseUrl, { payment_id: 'pay_z', transaction_id: 'sbx_z', amount: 300, capture_method: 'automatic' });
      await waitForDeliveries(2);
      const [first, second] = received.map((r) => JSON.parse(r.body));
      expect(second).toEqual(first);
      expect(first).toMatchObject({ type: 'payment.succeeded', data: { payment_id: 'pay_z', amount: 300 } });
      expect(first.id).toMatch(/^evt_[0-9a-f]{32}$/);
    } finally {
      delete process.env.SANDBOX_WEBHOOK_DELAY_MS;
    }
  });
});

describe('the sandbox stops with the local API', () => {
  test('cancelled deliveries to a base URL stop: neither the scheduled first try nor a redelivery is sent', async () => {
    process.env.SANDBOX_WEBHOOK_DELAY_MS = '300';
    try {
      // One scheduled and not yet due, one redelivering after a busy answer.
      answers = [409, 409, 409, 409];
      scheduleSandboxWebhook(baseUrl, { payment_id: 'pay_late', transaction_id: 'sbx_late', amount: 300, capture_method: 'automatic' });
      scheduleSandboxDelivery(baseUrl, '{"id":"evt_cancelled"}', 0);
      await waitForDeliveries(1);
      cancelSandboxDeliveries(`${baseUrl}/`);
      const seen = received.length;
      await new Promise((r) => setTimeout(r, 1_500)); // past the scheduled try and several redelivery delays
      expect(received.length).toBe(seen);
      expect(received.every((r) => r.body === '{"id":"evt_cancelled"}')).toBe(true);
    } finally {
      delete process.env.SANDBOX_WEBHOOK_DELAY_MS;
    }
  });
});
