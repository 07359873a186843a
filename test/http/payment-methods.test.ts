/**
 * Saved payment methods over HTTP (docs/api.md "Saved payment methods"), against the local API:
 * - `GET /customers/{customer_id}/payment_methods` (newest first, `limit`, `starting_after`, items sharing a
 *   millisecond), `GET /payment_methods/{id}`, 404s for unknown ids and another merchant's;
 * - `DELETE /payment_methods/{id}` detaches at the processor (the sandbox's `detachSavedMethod`, spied: the
 *   token decrypted for that account only) and here (`payment_method.detached`, out of the list); a second
 *   DELETE is 409 `payment_method_unexpected_state`; a processor refusal still detaches here; a processor
 *   technical failure is 503 `connector_unreachable` and changes nothing; a connector without a detach call
 *   (Flutterwave) forgets the token here only;
 * - a customer delete detaches the customer's methods, resumably: a processor failure leaves the method
 *   attached and the delete open, a retried DELETE or the reconciler's step finishes it;
 * - the SDK's `paymentMethods` resource;
 * - no token in any response, event or table item.
 * The save-on-payment flow is built elsewhere: methods are seeded with `attachPaymentMethod` and `sealToken`.
 */
import { randomBytes } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Switchyard } from '../../clients/typescript/src/index';
import { ConnectorRequestError, ConnectorTechnicalError, type SavedMethodCharge } from '../../shared/connectors/connector';
import { SandboxConnector } from '../../shared/connectors/sandbox/sandbox-connector';
import { newId } from '../../shared/domain/ids';
import { cardExpiryEnd, type PaymentMethodResource } from '../../shared/domain/payment-method';
import { finishCustomerDelete } from '../../shared/operations/customers/customer-deletion';
import { sealToken } from '../../shared/operations/payment-methods/token-vault';
import { documentClient } from '../../shared/storage/client';
import { attachPaymentMethod, getStoredPaymentMethod } from '../../shared/storage/payment-methods-repository';
import { tableName } from '../../shared/storage/table-definition';
import { card, expectError, type LocalApi, type RequestOptions, startLocalApi, type TestResponse } from '../helpers/local-api';

let api: LocalApi;
/** Every response body of this file, to look for tokens in. */
const answers: string[] = [];
/** Every token seeded, in clear: none may appear in an answer, an event or an item. */
const tokens: string[] = [];

/** The sandbox's detach call, put on its prototype (the adapter of the platform's sandbox and of sandbox accounts alike). */
type DetachFn = (request: SavedMethodCharge) => Promise<void>;
const sandbox = SandboxConnector.prototype as unknown as { detachSavedMethod?: DetachFn };
const ownDetach = Object.getOwnPropertyDescriptor(sandbox, 'detachSavedMethod');
const detach = jest.fn<Promise<void>, [SavedMethodCharge]>(async () => undefined);

/** Gives the sandbox adapter `fn` as its detach call (undefined: a connector without one, as Flutterwave). */
function sandboxDetach(fn: DetachFn | undefined) {
  Object.defineProperty(sandbox, 'detachSavedMethod', { value: fn, configurable: true, writable: true });
}

beforeAll(async () => {
  api = await startLocalApi();
  sandboxDetach(detach);
});
afterEach(() => {
  detach.mockReset();
  detach.mockImplementation(async () => undefined);
  sandboxDetach(detach);
});
afterAll(async () => {
  if (ownDetach) Object.defineProperty(sandbox, 'detachSavedMethod', ownDetach);
  else delete sandbox.detachSavedMethod;
  await api.close();
});

/** A request whose answer is kept for the token checks. */
async function call(method: string, path: string, options?: RequestOptions): Promise<TestResponse> {
  const res = await api.request(method, path, options);
  answers.push(res.text);
  return res;
}

/** Asserts a 200 and returns the body. */
function ok(res: TestResponse) {
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.anything() });
  return res.body;
}

async function newCustomer(key?: string): Promise<string> {
  return ok(await call('POST', '/customers', { body: { email: 'ada@example.com' }, ...(key ? { key } : {}) })).customer_id;
}

/** A distinctive token of the processor's shape (Paystack's `AUTH_…`). */
const newToken = () => {
  const token = `AUTH_${randomBytes(12).toString('hex')}`;
  tokens.push(token);
  return token;
};

/**
 * Saves a card on a customer as the save-on-payment flow will: the token sealed for the merchant and the
 * issuing account (the platform's sandbox, or a sandbox connector account), then attached.
 */
async function seedMethod(
  customerId: string,
  options: { merchantConnectorId?: string | null; createdAt?: string; merchantId?: string } = {},
): Promise<{ method: PaymentMethodResource; token: string }> {
  const merchantId = options.merchantId ?? api.merchantId;
  const merchantConnectorId = options.merchantConnectorId ?? null;
  const token = newToken();
  const { method } = await attachPaymentMethod(merchantId, {
    method: {
      payment_method_id: newId('paymentMethod'),
      customer_id: customerId,
      type: 'card',
      card: {
        brand: 'visa',
        last4: '4081',
        exp_month: 12,
        exp_year: 2030,
        fingerprint: `fp_${randomBytes(16).toString('hex')}`,
        bin: '408408',
        issuer_country: 'NG',
      },
      connector: 'sandbox',
      merchant_connector_id: merchantConnectorId,
      recurring_enabled: true,
      status: 'active',
      default: false,
      payment_id: newId('payment'),
      created_at: options.createdAt ?? new Date().toISOString(),
      last_used_at: null,
      expires_at: cardExpiryEnd(12, 2030),
    },
    tokenCiphertext: await sealToken(token, { merchantId, merchantConnectorId, connector: 'sandbox' }),
    processorCustomerId: null,
    tokenEmail: 'ada@example.com',
  });
  return { method, token };
}

/** The `payment_method.detached` events of the merchant about one method. */
async function detachedEvents(paymentMethodId: string) {
  const events = ok(await call('GET', '/events?type=payment_method.detached&limit=100')).data as {
    type: string;
    data: PaymentMethodResource;
  }[];
  return events.filter((e) => e.data.payment_method_id === paymentMethodId);
}

const ids = (list: { data: PaymentMethodResource[] }) => list.data.map((m) => m.payment_method_id);

describe('GET /customers/{customer_id}/payment_methods and GET /payment_methods/{id}', () => {
  test("the customer's attached methods, newest first (then by id), paged by limit and starting_after", async () => {
    const customer = await newCustomer();
    const base = Date.now() - 60_000;
    const at = (s: number) => new Date(base + s * 1000).toISOString();
    // Two share a millisecond: the order is by id (descending) among them, on every page.
    const seeded = [
      await seedMethod(customer, { createdAt: at(1) }),
      await seedMethod(customer, { createdAt: at(2) }),
      await seedMethod(customer, { createdAt: at(2) }),
      await seedMethod(customer, { createdAt: at(3) }),
    ].map((s) => s.method);
    const expected = [...seeded]
      .sort((a, b) =>
        a.created_at === b.created_at ? (a.payment_method_id < b.payment_method_id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1,
      )
      .map((m) => m.payment_method_id);

    const all = ok(await call('GET', `/customers/${customer}/payment_methods`));
    expect(ids(all)).toEqual(expected);
    expect(all.has_more).toBe(false);
    expect(all.data[0]).toEqual(seeded.find((m) => m.payment_method_id === expected[0]));

    const paged: string[] = [];
    let after: string | undefined;
    for (;;) {
      const page = ok(await call('GET', `/customers/${customer}/payment_methods?limit=1${after ? `&starting_after=${after}` : ''}`));
      paged.push(...ids(page));
      if (!page.has_more) break;
      after = page.data[0].payment_method_id;
    }
    expect(paged).toEqual(expected);

    const two = ok(await call('GET', `/customers/${customer}/payment_methods?limit=2&starting_after=${expected[0]}`));
    expect({ ids: ids(two), has_more: two.has_more }).toEqual({ ids: expected.slice(1, 3), has_more: true });
    const last = ok(await call('GET', `/customers/${customer}/payment_methods?limit=5&offset=3`));
    expect({ ids: ids(last), has_more: last.has_more }).toEqual({ ids: expected.slice(3), has_more: false });

    const got = ok(await call('GET', `/payment_methods/${expected[1]}`));
    expect(got).toEqual(seeded.find((m) => m.payment_method_id === expected[1]));
    expect(Object.keys(got).some((k) => /token|ciphertext|processor_customer/.test(k))).toBe(false);
  });

  test('a customer without methods lists none; a starting_after that is not one of its methods → 400 resource_missing', async () => {
    const customer = await newCustomer();
    expect(ok(await call('GET', `/customers/${customer}/payment_methods`))).toEqual({ data: [], has_more: false });
    const elsewhere = (await seedMethod(await newCustomer())).method.payment_method_id;
    for (const cursor of [elsewhere, newId('paymentMethod'), 'junk']) {
      const res = await call('GET', `/customers/${customer}/payment_methods?starting_after=${cursor}`);
      expect(expectError(res, 400, 'resource_missing').param).toBe('starting_after');
    }
    expectError(await call('GET', `/customers/${customer}/payment_methods?limit=0`), 400, 'parameter_invalid');
  });

  test("404 for an unknown, malformed or another merchant's customer or method", async () => {
    const other = await api.newMerchantKey();
    const customer = await newCustomer();
    const { method } = await seedMethod(customer);
    for (const path of [
      `/customers/${newId('customer')}/payment_methods`,
      '/customers/not_an_id/payment_methods',
      `/payment_methods/${newId('paymentMethod')}`,
      '/payment_methods/pm_',
    ]) {
      expectError(await call('GET', path), 404, 'resource_missing');
    }
    expectError(await call('GET', `/customers/${customer}/payment_methods`, { key: other }), 404, 'resource_missing');
    expectError(await call('GET', `/payment_methods/${method.payment_method_id}`, { key: other }), 404, 'resource_missing');
    expectError(await call('DELETE', `/payment_methods/${method.payment_method_id}`, { key: other }), 404, 'resource_missing');
    expectError(await call('DELETE', `/payment_methods/${newId('paymentMethod')}`), 404, 'resource_missing');
    expect(detach).not.toHaveBeenCalled();
    expect(ok(await call('GET', `/payment_methods/${method.payment_method_id}`)).status).toBe('active');
  });
});

describe('DELETE /payment_methods/{id}', () => {
  test('detaches at the processor with the decrypted token, then here: event, out of the list; a second DELETE is 409', async () => {
    const customer = await newCustomer();
    const { method, token } = await seedMethod(customer);
    const kept = (await seedMethod(customer)).method;

    const res = ok(await call('DELETE', `/payment_methods/${method.payment_method_id}`));
    expect(res).toEqual({ ...method, status: 'detached', default: false });
    expect(detach).toHaveBeenCalledTimes(1);
    expect(detach.mock.calls[0]![0]).toEqual({ token, processorCustomerId: null, email: 'ada@example.com' });

    expect(ok(await call('GET', `/payment_methods/${method.payment_method_id}`))).toEqual(res);
    expect(ids(ok(await call('GET', `/customers/${customer}/payment_methods`)))).toEqual([kept.payment_method_id]);
    const events = await detachedEvents(method.payment_method_id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual(res);
    const stored = await getStoredPaymentMethod(api.merchantId, method.payment_method_id);
    expect(stored?.tokenCiphertext).toBeNull();

    const again = expectError(await call('DELETE', `/payment_methods/${method.payment_method_id}`), 409, 'payment_method_unexpected_state');
    expect(again.message).toMatch(/already detached/);
    expect(detach).toHaveBeenCalledTimes(1);
    expect(await detachedEvents(method.payment_method_id)).toHaveLength(1);
  });

  test('a method of a connector account is detached through that account, its token opened for that account', async () => {
    const account = ok(await call('POST', '/connector_accounts', { body: { connector_name: 'sandbox' } }));
    const customer = await newCustomer();
    const { method, token } = await seedMethod(customer, { merchantConnectorId: account.merchant_connector_id });
    const res = ok(await call('DELETE', `/payment_methods/${method.payment_method_id}`));
    expect(res).toMatchObject({ status: 'detached', merchant_connector_id: account.merchant_connector_id });
    expect(detach.mock.calls.map(([r]) => r.token)).toEqual([token]);
  });

  test('the processor refusing (already detached there) still detaches it here', async () => {
    detach.mockRejectedValueOnce(new ConnectorRequestError('sandbox', 'authorization_code_not_found', 'Authorization code not found.'));
    const { method } = await seedMethod(await newCustomer());
    expect(ok(await call('DELETE', `/payment_methods/${method.payment_method_id}`)).status).toBe('detached');
    expect(await detachedEvents(method.payment_method_id)).toHaveLength(1);
  });

  test('the processor failing technically → 503 connector_unreachable, the method still attached; a retry detaches it', async () => {
    const customer = await newCustomer();
    const { method } = await seedMethod(customer);
    detach.mockRejectedValueOnce(new ConnectorTechnicalError('sandbox', 'timeout'));
    const failed = expectError(await call('DELETE', `/payment_methods/${method.payment_method_id}`), 503, 'connector_unreachable');
    expect(failed.message).toMatch(/could not be reached.*still attached.*Retry/);
    expect(ok(await call('GET', `/payment_methods/${method.payment_method_id}`))).toEqual(method);
    expect(ids(ok(await call('GET', `/customers/${customer}/payment_methods`)))).toEqual([method.payment_method_id]);
    expect(await detachedEvents(method.payment_method_id)).toHaveLength(0);
    expect((await getStoredPaymentMethod(api.merchantId, method.payment_method_id))?.tokenCiphertext).toEqual(expect.any(String));

    expect(ok(await call('DELETE', `/payment_methods/${method.payment_method_id}`)).status).toBe('detached');
    expect(detach).toHaveBeenCalledTimes(2);
  });

  test('a connector without a detach call (as Flutterwave) forgets the token here only', async () => {
    sandboxDetach(undefined);
    const { method } = await seedMethod(await newCustomer());
    expect(ok(await call('DELETE', `/payment_methods/${method.payment_method_id}`)).status).toBe('detached');
    expect(detach).not.toHaveBeenCalled();
    expect((await getStoredPaymentMethod(api.merchantId, method.payment_method_id))?.tokenCiphertext).toBeNull();
  });
});

describe('with the payment flow', () => {
  test('a card saved by a payment is listed, retrieved and detached; a detached method can no longer be charged', async () => {
    const customer = await newCustomer();
    const saved = ok(
      await call('POST', '/payments', {
        body: {
          amount: 5000,
          currency: 'NGN',
          confirm: true,
          customer_id: customer,
          payment_method_data: card('4242424242424242'),
          setup_future_usage: 'off_session',
          customer_acceptance: {
            acceptance_type: 'online',
            accepted_at: '2026-11-20T10:00:00Z',
            online: { ip_address: '102.89.1.10', user_agent: 'Mozilla/5.0 (test)' },
          },
        },
      }),
    );
    expect(saved).toMatchObject({ status: 'Succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
    const pmId = saved.payment_method_id as string;
    const stored = await getStoredPaymentMethod(api.merchantId, pmId);
    expect(stored?.tokenCiphertext).toEqual(expect.any(String));

    const list = ok(await call('GET', `/customers/${customer}/payment_methods`));
    expect(ids(list)).toEqual([pmId]);
    expect(list.data[0]).toMatchObject({ customer_id: customer, payment_id: saved.payment_id, status: 'active', connector: 'sandbox' });
    expect(ok(await call('GET', `/payment_methods/${pmId}`))).toEqual(list.data[0]);

    expect(ok(await call('DELETE', `/payment_methods/${pmId}`)).status).toBe('detached');
    expect(detach).toHaveBeenCalledTimes(1);
    expect(ids(ok(await call('GET', `/customers/${customer}/payment_methods`)))).toEqual([]);
    const charge = await call('POST', '/payments', {
      body: { amount: 2500, currency: 'NGN', confirm: true, payment_method_id: pmId, off_session: true },
    });
    expect(charge.status).toBe(400);
  });
});

describe('DELETE /customers/{customer_id}', () => {
  test("detaches the customer's methods at the processor and here", async () => {
    const customer = await newCustomer();
    const seeded = [await seedMethod(customer), await seedMethod(customer)];
    expect(ok(await call('DELETE', `/customers/${customer}`))).toEqual({ customer_id: customer, deleted: true });
    expect(detach.mock.calls.map(([r]) => r.token).sort()).toEqual(seeded.map((s) => s.token).sort());
    for (const { method } of seeded) {
      expect(ok(await call('GET', `/payment_methods/${method.payment_method_id}`)).status).toBe('detached');
      expect(await detachedEvents(method.payment_method_id)).toHaveLength(1);
    }
    expectError(await call('GET', `/customers/${customer}/payment_methods`), 404, 'resource_missing');
    // Finished: a DELETE now answers 404, and the reconciler's last pass removes the record.
    expectError(await call('DELETE', `/customers/${customer}`), 404, 'resource_missing');
    expect(await finishCustomerDelete(api.merchantId, customer, Date.now() + 10_000)).toBe('done');
  });

  test('a customer with more methods than one page of its list (some sharing a millisecond): every one detached', async () => {
    const customer = await newCustomer();
    const base = Date.now() - 600_000;
    const seeded: string[] = [];
    for (let i = 0; i < 105; i += 1) {
      // Pairs share a millisecond, so the page boundary may fall between two methods of one millisecond.
      const { token } = await seedMethod(customer, { createdAt: new Date(base + Math.floor(i / 2)).toISOString() });
      seeded.push(token);
    }
    // A DELETE that used up its 10 s budget (a slow machine) answers the same and is finished by a retry.
    let res = await call('DELETE', `/customers/${customer}`);
    for (let retries = 0; res.status === 200 && retries < 5; retries += 1) {
      expect(res.body).toEqual({ customer_id: customer, deleted: true });
      res = await call('DELETE', `/customers/${customer}`);
    }
    expectError(res, 404, 'resource_missing');
    expect(detach.mock.calls.map(([r]) => r.token).sort()).toEqual([...seeded].sort());
  });

  test('a processor failure leaves the method attached and the delete open: a retried DELETE, or the reconciler, finishes it', async () => {
    const first = await newCustomer();
    const a = await seedMethod(first);
    const b = await seedMethod(first);
    detach.mockImplementation(async (r) => {
      if (r.token === a.token) throw new ConnectorTechnicalError('sandbox', 'timeout');
    });
    expect(ok(await call('DELETE', `/customers/${first}`))).toEqual({ customer_id: first, deleted: true });
    expect(ok(await call('GET', `/payment_methods/${a.method.payment_method_id}`)).status).toBe('active');
    expect(ok(await call('GET', `/payment_methods/${b.method.payment_method_id}`)).status).toBe('detached');
    expectError(await call('GET', `/customers/${first}`), 404, 'resource_missing');
    // Still open: the retried DELETE answers the same, and detaches once the processor answers.
    expect(ok(await call('DELETE', `/customers/${first}`))).toEqual({ customer_id: first, deleted: true });
    expect(ok(await call('GET', `/payment_methods/${a.method.payment_method_id}`)).status).toBe('active');
    detach.mockImplementation(async () => undefined);
    expect(ok(await call('DELETE', `/customers/${first}`))).toEqual({ customer_id: first, deleted: true });
    expect(ok(await call('GET', `/payment_methods/${a.method.payment_method_id}`)).status).toBe('detached');
    expectError(await call('DELETE', `/customers/${first}`), 404, 'resource_missing');

    // The reconciler's step finishes one left open the same way.
    const second = await newCustomer();
    const c = await seedMethod(second);
    detach.mockRejectedValue(new ConnectorTechnicalError('sandbox', 'timeout'));
    expect(ok(await call('DELETE', `/customers/${second}`))).toEqual({ customer_id: second, deleted: true });
    expect(await finishCustomerDelete(api.merchantId, second, Date.now() + 10_000)).toBe('pending');
    expect(ok(await call('GET', `/payment_methods/${c.method.payment_method_id}`)).status).toBe('active');
    detach.mockResolvedValue(undefined);
    expect(await finishCustomerDelete(api.merchantId, second, Date.now() + 10_000)).toBe('done');
    expect(ok(await call('GET', `/payment_methods/${c.method.payment_method_id}`)).status).toBe('detached');
    expect(await detachedEvents(c.method.payment_method_id)).toHaveLength(1);
  });
});

describe('the SDK', () => {
  test('paymentMethods.list, retrieve and delete', async () => {
    const switchyard = new Switchyard({ apiKey: api.apiKey, baseUrl: api.url, maxRetries: 0 });
    const customer = await newCustomer();
    const { method } = await seedMethod(customer);
    const page = await switchyard.paymentMethods.list(customer, { limit: 10 });
    expect(page).toEqual({ data: [method], has_more: false });
    expect(await switchyard.paymentMethods.retrieve(method.payment_method_id)).toEqual(method);
    const detached = await switchyard.paymentMethods.delete(method.payment_method_id);
    expect(detached.status).toBe('detached');
    await expect(switchyard.paymentMethods.delete(method.payment_method_id)).rejects.toMatchObject({
      status: 409,
      code: 'payment_method_unexpected_state',
    });
    answers.push(JSON.stringify([page, detached]));
  });
});

describe('tokens', () => {
  test('no token in any answer, event or table item', async () => {
    expect(tokens.length).toBeGreaterThan(10);
    const events = ok(await call('GET', '/events?limit=100'));
    expect(events.data.some((e: { type: string }) => e.type === 'payment_method.detached')).toBe(true);
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      // A full table dump: test-only inspection of what rests in storage.
      const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    const dump = JSON.stringify(items);
    expect(dump).toContain('payment_method');
    const everything = [...answers, dump].join('\n');
    for (const token of tokens) expect(everything).not.toContain(token);
  });
});
