/**
 * The subscription and invoice routes in the route table: what each may do,
 * hence what the stack grants it. The create charges the first period (createPayment: processors' keys,
 * the connector-accounts KMS key to open the saved method's token) and the update checks a new method the
 * same way; the reads and the cancel call no processor. Both families live in the Billing nested stack.
 */
import { functionGroup } from '../../lib/function-groups';
import { OPENAPI_OPERATIONS } from '../../scripts/openapi/openapi-operations';
import { ROUTES } from '../../shared/api/routes';

const NAMES = [
  'CreateSubscription',
  'ListSubscriptions',
  'GetSubscription',
  'UpdateSubscription',
  'CancelSubscription',
  'ListInvoices',
  'GetInvoice',
];

test('authenticated, with the table access and connector use they need, in the Billing group', () => {
  const routes = NAMES.map((name) => {
    const r = ROUTES.find((x) => x.name === name);
    if (!r) throw new Error(`no route ${name}`);
    return r;
  });
  expect(routes.map(({ name, method, path, access, auth, connectors }) => ({ name, method, path, access, auth, connectors }))).toEqual([
    { name: 'CreateSubscription', method: 'POST', path: '/subscriptions', access: 'write', auth: true, connectors: true },
    { name: 'ListSubscriptions', method: 'GET', path: '/subscriptions', access: 'read', auth: true, connectors: false },
    { name: 'GetSubscription', method: 'GET', path: '/subscriptions/{subscription_id}', access: 'read', auth: true, connectors: false },
    { name: 'UpdateSubscription', method: 'PUT', path: '/subscriptions/{subscription_id}', access: 'write', auth: true, connectors: true },
    {
      name: 'CancelSubscription',
      method: 'POST',
      path: '/subscriptions/{subscription_id}/cancel',
      access: 'write',
      auth: true,
      connectors: false,
    },
    { name: 'ListInvoices', method: 'GET', path: '/invoices', access: 'read', auth: true, connectors: false },
    { name: 'GetInvoice', method: 'GET', path: '/invoices/{invoice_id}', access: 'read', auth: true, connectors: false },
  ]);
  for (const r of routes) expect(functionGroup(r)).toBe('Billing');
});

test('documented: the create keyed with the saved-method refusals and the money-call errors; cancel unkeyed with its 409', () => {
  expect(OPENAPI_OPERATIONS.CreateSubscription?.idempotent).toBe(true);
  expect(OPENAPI_OPERATIONS.CreateSubscription?.errors).toMatchObject({
    422: ['idempotency_key_reused'],
    503: expect.arrayContaining(['outcome_unknown']),
  });
  expect(OPENAPI_OPERATIONS.CreateSubscription?.errors?.[400]).toEqual(
    expect.arrayContaining(['resource_missing', 'payment_method_unusable']),
  );
  expect(OPENAPI_OPERATIONS.CancelSubscription?.idempotent).toBe(false);
  expect(OPENAPI_OPERATIONS.CancelSubscription?.errors?.[409]).toEqual(expect.arrayContaining(['subscription_unexpected_state']));
  expect(OPENAPI_OPERATIONS.ListInvoices?.errors?.[400]).toEqual(expect.arrayContaining(['parameter_missing']));
});
