/**
 * The SDK against the local stack (the gateway `npm start` serves, DynamoDB Local from jest's global
 * setup): the README walk-through through typed methods, and its retry policy proven through a
 * loopback stand-in placed in front of the API (./helpers/api-stand-in.ts) that loses answers,
 * hangs, or answers 429/503/409 itself.
 */
import { createServer } from 'node:net';
import { card, type LocalApi, startLocalApi } from '../../../test/helpers/local-api';
import {
  API_VERSION,
  ApiError,
  AuthenticationError,
  IdempotencyError,
  InvalidRequestError,
  isSwitchyardError,
  type Payment,
  parseRetryAfter,
  retryDelayMs,
  Switchyard,
  SwitchyardConnectionError,
  SwitchyardError,
  type SwitchyardOptions,
} from '../src/index';
import { type ApiStandIn, type StandInRequest, startApiStandIn } from './helpers/api-stand-in';

let api: LocalApi;
let standIn: ApiStandIn;

beforeAll(async () => {
  api = await startLocalApi();
  standIn = await startApiStandIn(api.url);
});
afterAll(async () => {
  await standIn?.close();
  await api?.close();
});

/** A client through the stand-in, with short backoff so retries cost milliseconds. */
function client(options: Partial<SwitchyardOptions> = {}): Switchyard {
  return new Switchyard({ apiKey: api.apiKey, baseUrl: standIn.url, retryDelay: { initialMs: 10, maxMs: 40 }, ...options });
}

/** The requests the stand-in got since `from` (an index into its log). */
const since = (from: number): StandInRequest[] => standIn.requests.slice(from);

/** Catches what `promise` rejects with, failing the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<SwitchyardError> {
  try {
    await promise;
  } catch (err) {
    if (isSwitchyardError(err)) return err;
    throw err;
  }
  throw new Error('expected the call to throw');
}

const sandboxCard = (number: string) =>
  card(number) as { card: { card_number: string; card_exp_month: string; card_exp_year: string; card_cvc: string } };

test('the README walk-through through the SDK: customer, payment, confirm, retrieve, refund, lists', async () => {
  const switchyard = client();
  const from = standIn.requests.length;
  const customer = await switchyard.customers.create({ email: 'ada@example.com', name: 'Ada Obi', phone: '+2348012345678' });
  expect(customer.customer_id).toMatch(/^cus_/);

  const created = await switchyard.payments.create({
    amount: 150000,
    currency: 'NGN',
    payment_method: 'card',
    customer_id: customer.customer_id,
    description: 'Order 42',
  });
  expect((await switchyard.payments.retrieve(created.payment_id)).status).toBe('RequiresConfirmation');

  const confirmed = await switchyard.payments.confirm(created.payment_id, { payment_method_data: sandboxCard('4242424242424242') });
  expect(confirmed.status).toBe('Succeeded');
  expect(confirmed.payment_method_data).toMatchObject({ card: { last4: '4242' } });

  const refund = await switchyard.payments.refund(created.payment_id, { amount: 50000, reason: 'damaged item' });
  expect(refund).toMatchObject({ payment_id: created.payment_id, amount: 50000 });
  expect((await switchyard.refunds.retrieve(refund.refund_id)).refund_id).toBe(refund.refund_id);
  expect((await switchyard.payments.retrieve(created.payment_id)).amount_refunded).toBe(50000);

  const succeeded = await switchyard.payments.list({ limit: 5, status: 'Succeeded' });
  expect(succeeded.data.map((p: Payment) => p.payment_id)).toContain(created.payment_id);
  expect((await switchyard.payments.listRefunds(created.payment_id)).data.map((r) => r.refund_id)).toEqual([refund.refund_id]);
  expect((await switchyard.customers.list({ email: 'ADA@example.com' })).data.map((c) => c.customer_id)).toEqual([customer.customer_id]);

  // Every request carried the key and the version; every POST a key of its own, no GET one.
  const sent = since(from);
  expect(sent.length).toBe(10);
  for (const r of sent) {
    expect(r.headers['switchyard-version']).toBe(API_VERSION);
    expect(r.headers['api-key']).toBe(api.apiKey);
    expect(r.headers['user-agent']).toMatch(/^switchyard-typescript\//);
  }
  const posts = sent.filter((r) => r.method === 'POST');
  expect(posts).toHaveLength(4);
  const keys = posts.map((r) => r.headers['idempotency-key']);
  for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{36}$/);
  expect(new Set(keys).size).toBe(4);
  for (const r of sent.filter((x) => x.method === 'GET')) expect(r.headers['idempotency-key']).toBeUndefined();

  // The raw typed client (same transport) gives the response too: the API answers in the version asked for.
  const { data, response } = await switchyard.api.GET('/payments/{payment_id}', { params: { path: { payment_id: created.payment_id } } });
  expect(data?.amount_refunded).toBe(50000);
  expect(response.headers.get('switchyard-version')).toBe(API_VERSION);
});

test('an answer lost after the API ran: the POST is re-sent with the same Idempotency-Key and the payment exists once', async () => {
  const key = await api.newMerchantKey();
  const switchyard = client({ apiKey: key });
  const from = standIn.requests.length;
  standIn.next(['drop-after-forward']);
  const payment = await switchyard.payments.create({
    amount: 7000,
    currency: 'NGN',
    confirm: true,
    payment_method_data: sandboxCard('4242424242424242'),
  });
  expect(payment.status).toBe('Succeeded');

  const [first, second] = since(from);
  expect(first?.behaviour).toBe('drop-after-forward');
  expect(first?.upstream).toEqual({ status: 200, replayed: null });
  expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  expect(second?.body).toBe(first?.body);
  expect(second?.upstream).toEqual({ status: 200, replayed: 'true' });
  const all = await switchyard.payments.list();
  expect(all.data.map((p) => p.payment_id)).toEqual([payment.payment_id]);
});

test('an upload whose answer was lost, sent again by a new call with its Idempotency-Key (a new multipart boundary), answers the same file_id', async () => {
  const switchyard = client({ apiKey: await api.newMerchantKey(), maxRetries: 0 });
  const from = standIn.requests.length;
  standIn.next(['drop-after-forward']);
  const params = {
    purpose: 'dispute_evidence' as const,
    file: new Blob([Buffer.from('%PDF-1.4\n% delivery note\n%%EOF\n', 'latin1')], { type: 'application/pdf' }),
    filename: 'delivery.pdf',
  };
  // The API stored the file, but its answer never came back: the call fails, naming the key it sent.
  const lost = await rejection(switchyard.files.create(params));
  expect(lost).toMatchObject({ code: 'network_error', idempotencyKey: expect.any(String) });
  // The application calls again with that key: the SDK builds the form anew, so the boundary differs.
  const file = await switchyard.files.create(params, { idempotencyKey: lost.idempotencyKey! });
  const [first, second] = since(from);
  expect(first?.upstream).toEqual({ status: 200, replayed: null });
  expect(second?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  expect(second?.headers['content-type']).not.toBe(first?.headers['content-type']);
  expect(second?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
  expect(second?.upstream).toEqual({ status: 200, replayed: 'true' });
  expect(file).toMatchObject({ file_id: expect.stringMatching(/^file_/), filename: 'delivery.pdf' });
  // The same key with another file is still refused.
  const other = await rejection(
    switchyard.files.create(
      { ...params, file: new Blob([Buffer.from('%PDF-1.4\n% another note\n%%EOF\n', 'latin1')], { type: 'application/pdf' }) },
      { idempotencyKey: lost.idempotencyKey! },
    ),
  );
  expect(other).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
});

test('429 and 503 are retried (Retry-After honoured) with the same key; a proxy 502 too; the payment is created once', async () => {
  const key = await api.newMerchantKey();
  const switchyard = client({ apiKey: key, maxRetries: 3 });
  const from = standIn.requests.length;
  standIn.next([
    { status: 429, headers: { 'retry-after': '0' }, body: { message: 'Too Many Requests' } },
    {
      status: 503,
      headers: { 'retry-after': '0' },
      body: { error: { type: 'api_error', code: 'service_unavailable', message: 'Nothing was changed.' } },
    },
    { status: 502, text: 'Bad Gateway' },
  ]);
  const payment = await switchyard.payments.create({ amount: 2500, currency: 'NGN' });
  const sent = since(from);
  expect(sent.map((r) => r.upstream?.status ?? (r.behaviour as { status: number }).status)).toEqual([429, 503, 502, 200]);
  expect(new Set(sent.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  expect((await switchyard.payments.list()).data.map((p) => p.payment_id)).toEqual([payment.payment_id]);
});

test('409 idempotency_key_in_use is retried; after the last retry it is thrown as an IdempotencyError with the key', async () => {
  const switchyard = client({ maxRetries: 1 });
  const inUse = {
    status: 409,
    body: { error: { type: 'idempotency_error', code: 'idempotency_key_in_use', message: 'Still being processed.' } },
  };
  let from = standIn.requests.length;
  standIn.next([inUse]);
  const customer = await switchyard.customers.create({ name: 'Retry Once' });
  expect(customer.name).toBe('Retry Once');
  expect(since(from)).toHaveLength(2);

  from = standIn.requests.length;
  standIn.next([inUse, inUse]);
  const err = await rejection(switchyard.customers.create({ name: 'Never' }, { idempotencyKey: 'order-never-1' }));
  expect(err).toBeInstanceOf(IdempotencyError);
  expect(err).toMatchObject({
    status: 409,
    type: 'idempotency_error',
    code: 'idempotency_key_in_use',
    idempotencyKey: 'order-never-1',
    attempts: 2,
  });
  expect(since(from).map((r) => r.headers['idempotency-key'])).toEqual(['order-never-1', 'order-never-1']);
});

test('a 409 payment_unexpected_state is a decision: thrown at once, typed, never retried', async () => {
  const switchyard = client();
  const paid = await switchyard.payments.create({
    amount: 1000,
    currency: 'NGN',
    confirm: true,
    payment_method_data: sandboxCard('4242424242424242'),
  });
  const from = standIn.requests.length;
  const err = await rejection(switchyard.payments.confirm(paid.payment_id, { payment_method_data: sandboxCard('4242424242424242') }));
  expect(err).toBeInstanceOf(InvalidRequestError);
  expect(err).toMatchObject({ status: 409, type: 'invalid_request_error', code: 'payment_unexpected_state', attempts: 1 });
  expect(err.message).toMatch(/Succeeded/);
  expect(err.requestId).toEqual(expect.any(String));
  expect(err.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(since(from)).toHaveLength(1);
});

test('a 400 is thrown at once with type, code, message, param and request id; a 401 is an AuthenticationError', async () => {
  const switchyard = client();
  const from = standIn.requests.length;
  const err = await rejection(switchyard.payments.create({ amount: 100, currency: 'NGN', email: 'not-an-email' }));
  expect(err).toBeInstanceOf(InvalidRequestError);
  expect(err).toMatchObject({ status: 400, type: 'invalid_request_error', code: 'parameter_invalid', param: 'email', attempts: 1 });
  expect(err.message).toEqual(expect.any(String));
  expect(err.requestId).toBe(err.headers?.get('request-id'));
  expect(err.body).toMatchObject({ error: { code: 'parameter_invalid', param: 'email' } });
  expect(since(from)).toHaveLength(1);

  const unauthenticated = await rejection(client({ apiKey: 'sk_test_not_a_key' }).payments.list());
  expect(unauthenticated).toBeInstanceOf(AuthenticationError);
  expect(unauthenticated).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key' });
});

test('a 500 is not retried; a caller key wins and replays the first answer', async () => {
  const switchyard = client();
  let from = standIn.requests.length;
  standIn.next([{ status: 500, body: { error: { type: 'api_error', code: 'internal_error', message: 'Something went wrong.' } } }]);
  const err = await rejection(switchyard.customers.create({ name: 'x' }));
  expect(err).toBeInstanceOf(ApiError);
  expect(err).toMatchObject({ status: 500, code: 'internal_error', attempts: 1 });
  expect(since(from)).toHaveLength(1);

  from = standIn.requests.length;
  const key = `order-${Date.now()}`;
  const a = await switchyard.payments.create({ amount: 3000, currency: 'NGN' }, { idempotencyKey: key });
  const b = await switchyard.payments.create({ amount: 3000, currency: 'NGN' }, { idempotencyKey: key });
  expect(b.payment_id).toBe(a.payment_id);
  expect(since(from).map((r) => [r.headers['idempotency-key'], r.upstream?.replayed])).toEqual([
    [key, null],
    [key, 'true'],
  ]);
});

test("a timed-out attempt is retried with the same key; the caller's abort is not; no answer at all ends in a SwitchyardConnectionError", async () => {
  // The timeout applies to each attempt: the hung first one ends after it, and the forwarded retry (a customer create
  // through the local API) must finish within it. 5 s: at 300 ms a retry was cut short once in CI, and 1.5 s is within
  // reach of a create on a CI worker starved of CPU; the hang costs the test those 5 s.
  const switchyard = client({ timeoutMs: 5_000 });
  const from = standIn.requests.length;
  standIn.next(['hang']);
  const customer = await switchyard.customers.create({ name: 'After a timeout' });
  expect(customer.name).toBe('After a timeout');
  const sent = since(from);
  expect(sent).toHaveLength(2);
  expect(sent[1]?.headers['idempotency-key']).toBe(sent[0]?.headers['idempotency-key']);

  // The caller's signal ends the call at once, between or during attempts, and is never retried.
  const before = standIn.requests.length;
  standIn.next(['hang']);
  const aborted = switchyard.customers.create({ name: 'aborted' }, { signal: AbortSignal.timeout(100) });
  await expect(aborted).rejects.toMatchObject({ name: 'TimeoutError' });
  expect(since(before)).toHaveLength(1);

  const closed = new Switchyard({ apiKey: api.apiKey, baseUrl: 'http://127.0.0.1:9', retryDelay: { initialMs: 1, maxMs: 1 } });
  const err = await rejection(closed.customers.create({ name: 'nobody home' }));
  expect(err).toBeInstanceOf(SwitchyardConnectionError);
  expect(err).toMatchObject({ type: 'connection_error', code: 'network_error', status: undefined, attempts: 3 });
  expect(err.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
});

test('a connection error says what happened: refused is never received (retry); a lost answer depends on the method', async () => {
  // Refused (a port nothing listens on; not port 9, which fetch itself blocks as a "bad port" before
  // any connection): the request never left, whatever its method.
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  const closed = new Switchyard({ apiKey: api.apiKey, baseUrl: `http://127.0.0.1:${port}`, retryDelay: { initialMs: 1, maxMs: 1 } });
  const refusedPost = await rejection(closed.customers.create({ name: 'nobody home' }));
  const refusedGet = await rejection(closed.customers.list());
  expect(refusedGet).toMatchObject({ code: 'network_error', attempts: 3, idempotencyKey: undefined });
  for (const err of [refusedPost, refusedGet]) {
    expect(err.message).toMatch(/was not received .*nothing was done; retry\.$/);
    expect(err.message).not.toMatch(/may have been received|idempotency key/);
  }
  expect(refusedGet.message).toMatch(/^Could not reach Switchyard \(GET \/customers, 3 attempts\)/);

  // Sent, answer lost: a keyed POST is retried with its key; a GET is read again; an unkeyed POST is read first.
  const switchyard = client({ maxRetries: 0 });
  standIn.next(['drop-after-forward']);
  const lostPost = await rejection(switchyard.customers.create({ name: 'lost answer' }));
  expect(lostPost.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  expect(lostPost.message).toMatch(/may have been received: retry with the same idempotency key \(error\.idempotencyKey\)/);

  const customer = await switchyard.customers.create({ name: 'read twice' });
  standIn.next(['drop-after-forward']);
  const lostGet = await rejection(switchyard.customers.retrieve(customer.customer_id));
  expect(lostGet).toMatchObject({ code: 'network_error', idempotencyKey: undefined });
  expect(lostGet.message).toMatch(/may have been received; a read changes nothing: read the resource again\.$/);
  expect(lostGet.message).not.toMatch(/idempotency key/);

  standIn.next(['hang']);
  const lateGet = await rejection(client({ maxRetries: 0, timeoutMs: 200 }).customers.retrieve(customer.customer_id));
  expect(lateGet).toMatchObject({ code: 'timeout', attempts: 1 });
  expect(lateGet.message).toMatch(/^No answer from Switchyard within 200 ms .*a read changes nothing: read the resource again\.$/);

  standIn.next(['drop-after-forward']);
  const lostDelete = await rejection(switchyard.customers.delete(customer.customer_id));
  expect(lostDelete.message).toMatch(/may have been received: read the resource before sending it again\.$/);
});

test('authenticate carries no key: re-sent only on answers saying nothing was done, never after a lost answer or outcome_unknown', async () => {
  const switchyard = client();
  const verve = await switchyard.payments.create({
    amount: 150000,
    currency: 'NGN',
    confirm: true,
    payment_method_data: sandboxCard('5060666666666666666'),
  });
  expect(verve.next_action).toMatchObject({ type: 'submit_pin' });
  const apiError = (code: string) => ({
    status: 503,
    headers: { 'retry-after': '0' },
    body: { error: { type: 'api_error', code, message: code } },
  });

  // outcome_unknown: the step may have reached the processor, and no key would replay it → thrown.
  let from = standIn.requests.length;
  standIn.next([apiError('outcome_unknown')]);
  const unknown = await rejection(switchyard.payments.authenticate(verve.payment_id, { pin: '1234' }));
  expect(unknown).toMatchObject({ status: 503, code: 'outcome_unknown', attempts: 1, idempotencyKey: undefined });
  expect(since(from)).toHaveLength(1);

  // service_unavailable: nothing was changed → re-sent, and the PIN goes through.
  from = standIn.requests.length;
  standIn.next([apiError('service_unavailable')]);
  const afterPin = await switchyard.payments.authenticate(verve.payment_id, { pin: '1234' });
  expect(afterPin.next_action).toMatchObject({ type: 'submit_otp' });
  expect(since(from)).toHaveLength(2);

  // A lost answer: not re-sent (the OTP went through once).
  from = standIn.requests.length;
  standIn.next(['drop-after-forward']);
  const lost = await rejection(switchyard.payments.authenticate(verve.payment_id, { otp: '123456' }));
  expect(lost).toBeInstanceOf(SwitchyardConnectionError);
  expect(lost).toMatchObject({ code: 'network_error', attempts: 1, idempotencyKey: undefined });
  expect(lost.message).toMatch(/may have been received: read the resource before sending it again\.$/);
  const sent = since(from);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.upstream?.status).toBe(200);
  expect(sent[0]?.headers['idempotency-key']).toBeUndefined();
  expect((await switchyard.payments.retrieve(verve.payment_id)).status).toBe('Succeeded');
});

test('backoff: full jitter under a doubling, capped ceiling, never below Retry-After; Retry-After parsing', () => {
  const delay = { initialMs: 100, maxMs: 1000 };
  expect(retryDelayMs(0, delay, undefined, () => 0.999)).toBe(99);
  expect(retryDelayMs(2, delay, undefined, () => 0.999)).toBe(399);
  expect(retryDelayMs(10, delay, undefined, () => 0.999)).toBe(999);
  expect(retryDelayMs(3, delay, undefined, () => 0)).toBe(0);
  expect(retryDelayMs(0, delay, 5000, () => 0.5)).toBe(5000);
  expect(retryDelayMs(0, {}, undefined, () => 0.999)).toBe(499);
  expect(parseRetryAfter('5')).toBe(5000);
  expect(parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
  expect(parseRetryAfter('soon')).toBeUndefined();
  expect(parseRetryAfter(null)).toBeUndefined();
});

test('the constructor refuses a missing key or base URL; a path id must be an id', async () => {
  expect(() => new Switchyard({ apiKey: '', baseUrl: 'http://localhost:3000' })).toThrow(TypeError);
  expect(() => new Switchyard({ apiKey: 'sk_test_x', baseUrl: 'localhost:3000' })).toThrow(TypeError);
  expect(() => new Switchyard({ apiKey: 'sk_test_x', baseUrl: 'http://localhost:3000', maxRetries: -1 })).toThrow(TypeError);
  await expect(client().payments.retrieve('..')).rejects.toThrow(TypeError);
  expect(new SwitchyardError('api_error', { code: 'x', message: 'y' })).toBeInstanceOf(Error);
});

test('disputes, evidence files and test clocks through the SDK', async () => {
  const switchyard = client();
  // A test clock, a customer on it, advanced a day.
  const clock = await switchyard.testHelpers.testClocks.create({ frozen_time: '2026-01-01T00:00:00.000Z' });
  expect(clock).toMatchObject({ test_clock_id: expect.stringMatching(/^clock_/), status: 'ready' });
  const customer = await switchyard.customers.create({ name: 'On a clock', test_clock: clock.test_clock_id });
  expect(customer.test_clock).toBe(clock.test_clock_id);
  const advanced = await switchyard.testHelpers.testClocks.advance(clock.test_clock_id, { frozen_time: '2026-01-02T00:00:00.000Z' });
  expect(advanced).toMatchObject({ frozen_time: '2026-01-02T00:00:00.000Z', status: 'ready' });
  expect((await switchyard.testHelpers.testClocks.retrieve(clock.test_clock_id)).frozen_time).toBe('2026-01-02T00:00:00.000Z');

  // The sandbox's dispute card: the dispute arrives with the scheduled worker's poll.
  const payment = await switchyard.payments.create({
    amount: 4000,
    currency: 'NGN',
    confirm: true,
    payment_method_data: sandboxCard('4000000000000259'),
  });
  const { runBillingWork } = await import('../../../shared/operations/billing/renewal-worker');
  await runBillingWork({ deadlineMs: Date.now() + 30_000, publicBaseUrl: api.url });
  const page = await switchyard.disputes.list({ payment_id: payment.payment_id });
  const dispute = page.data[0]!;
  expect(dispute).toMatchObject({ payment_id: payment.payment_id, dispute_status: 'dispute_opened' });
  expect((await switchyard.disputes.retrieve(dispute.dispute_id)).amount_held).toBe(4000);

  const file = await switchyard.files.create({
    purpose: 'dispute_evidence',
    file: new Blob([Buffer.from('%PDF-1.4\n% receipt\n%%EOF\n', 'latin1')], { type: 'application/pdf' }),
    filename: 'receipt.pdf',
  });
  expect(file).toMatchObject({ file_id: expect.stringMatching(/^file_/), type: 'pdf', filename: 'receipt.pdf' });
  expect((await switchyard.files.retrieve(file.file_id)).size).toBe(file.size);
  const answered = await switchyard.disputes.submitEvidence(dispute.dispute_id, { evidence: { receipt: file.file_id }, submit: false });
  expect(answered.evidence).toEqual({ receipt: file.file_id });
  const accepted = await switchyard.disputes.accept(dispute.dispute_id);
  expect(accepted.dispute_status).toBe('dispute_accepted');
});

test('auto-pagination: awaited, a list is its first page; iterated with for await, every item of every page; refunds.list', async () => {
  const switchyard = client();
  const customer = await switchyard.customers.create({ name: 'Paged' });
  const made: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    const p = await switchyard.payments.create({
      amount: 1000 + i,
      currency: 'NGN',
      confirm: true,
      customer_id: customer.customer_id,
      payment_method_data: sandboxCard('4242424242424242'),
    });
    made.push(p.payment_id);
  }
  const first = await switchyard.payments.list({ customer_id: customer.customer_id, limit: 2 });
  expect(first.data.map((p) => p.payment_id)).toEqual([made[4], made[3]]);
  expect(first.has_more).toBe(true);
  const from = standIn.requests.length;
  const seen: string[] = [];
  for await (const p of switchyard.payments.list({ customer_id: customer.customer_id, limit: 2 })) seen.push(p.payment_id);
  expect(seen).toEqual([...made].reverse());
  // Three pages of at most 2, each asked once, the next after the last id seen.
  const asked = since(from).filter((r) => r.path.startsWith('/payments?'));
  expect(asked).toHaveLength(3);
  expect(asked[1]?.path).toContain(`starting_after=${made[3]}`);

  const refund = await switchyard.payments.refund(made[0]!, { amount: 500 });
  const refunds: string[] = [];
  for await (const r of switchyard.refunds.list({ payment_id: made[0] })) refunds.push(r.refund_id);
  expect(refunds).toEqual([refund.refund_id]);
  expect((await switchyard.refunds.list()).data.map((r) => r.refund_id)).toContain(refund.refund_id);
});

test('types as wide as the API: force_sync a boolean, created bounds as Unix seconds', async () => {
  const switchyard = client();
  const p = await switchyard.payments.create({
    amount: 1500,
    currency: 'NGN',
    confirm: true,
    payment_method_data: sandboxCard('4242424242424242'),
  });
  const from = standIn.requests.length;
  expect((await switchyard.payments.retrieve(p.payment_id, { force_sync: true })).payment_id).toBe(p.payment_id);
  expect(since(from)[0]?.path).toContain('force_sync=true');
  const createdSeconds = Math.floor(Date.parse(p.created_at) / 1000);
  const page = await switchyard.payments.list({ created: { gte: createdSeconds }, limit: 100 });
  expect(page.data.map((x) => x.payment_id)).toContain(p.payment_id);
  const none = await switchyard.payments.list({ created: { gt: createdSeconds + 3600 } });
  expect(none.data.map((x) => x.payment_id)).not.toContain(p.payment_id);
});

test('payouts through the SDK: create keyed (a retry answers the same payout), OTP unkeyed, cancel, list, resolveAccount', async () => {
  const switchyard = client();
  const bank = (accountNumber: string) => ({ bank: { account_number: accountNumber, bank_code: '058', country: 'NG' as const } });
  let from = standIn.requests.length;
  standIn.next([
    { status: 503, headers: { 'retry-after': '0' }, body: { error: { type: 'api_error', code: 'service_unavailable', message: 'x' } } },
  ]);
  const sent = await switchyard.payouts.create({
    amount: 250000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: bank('0000000000'),
    description: 'Rider payout',
    confirm: true,
  });
  expect(sent).toMatchObject({ status: 'Processing', connector: 'sandbox' });
  const posts = since(from).filter((r) => r.method === 'POST');
  expect(posts).toHaveLength(2);
  expect(posts[0]!.headers['idempotency-key']).toBeDefined();
  expect(posts[1]!.headers['idempotency-key']).toBe(posts[0]!.headers['idempotency-key']);
  expect((await switchyard.payouts.retrieve(sent.payout_id)).payout_id).toBe(sent.payout_id);

  const otp = await switchyard.payouts.create({
    amount: 1000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: bank('0000000002'),
    description: 'Seller payout',
    confirm: true,
  });
  expect(otp.next_action).toMatchObject({ type: 'submit_otp' });
  from = standIn.requests.length;
  expect((await switchyard.payouts.authenticate(otp.payout_id, { otp: '123456' })).status).toBe('Succeeded');
  expect(since(from)[0]!.headers['idempotency-key']).toBeUndefined();

  const waiting = await switchyard.payouts.create({
    amount: 1000,
    currency: 'NGN',
    payout_type: 'bank',
    payout_method_data: bank('0000000000'),
    description: 'Later',
  });
  expect((await switchyard.payouts.cancel(waiting.payout_id)).status).toBe('Cancelled');
  const listed: string[] = [];
  for await (const p of switchyard.payouts.list({ limit: 1 })) listed.push(p.payout_id);
  expect(listed).toEqual(expect.arrayContaining([sent.payout_id, otp.payout_id, waiting.payout_id]));
  expect((await switchyard.payouts.resolveAccount({ country: 'NG', bank_code: '058', account_number: '0000000000' })).account_name).toBe(
    'SANDBOX TEST ACCOUNT 0000',
  );
  expect(await switchyard.payouts.getPriority()).toEqual({ priority: [], is_custom: false });
  expect(await switchyard.payouts.setPriority({ priority: [] })).toEqual({ priority: [], is_custom: false });
});
