/**
 * The saved payment method routes in the route table: what each may do, hence what the stack
 * grants it. The DELETEs that detach a method at its processor — `DELETE /payment_methods/{id}` and the
 * customer delete, which detaches the customer's methods — call connectors: they get the processors' keys,
 * the routing rules and the connector-accounts KMS key (the token is decrypted for the call); the reads do
 * not. Both families live in the Customers nested stack.
 */
import { functionGroup } from '../../lib/function-groups';
import { OPENAPI_OPERATIONS } from '../../scripts/openapi/openapi-operations';
import { ROUTES } from '../../shared/api/routes';

const route = (name: string) => {
  const found = ROUTES.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
};

test('the saved payment method routes and the customer delete: authenticated, with the table access and connector use they need', () => {
  expect(
    ['ListCustomerPaymentMethods', 'GetPaymentMethod', 'DeletePaymentMethod', 'DeleteCustomer'].map((name) => {
      const { method, path, access, auth, connectors } = route(name);
      return { name, method, path, access, auth, connectors };
    }),
  ).toEqual([
    {
      name: 'ListCustomerPaymentMethods',
      method: 'GET',
      path: '/customers/{customer_id}/payment_methods',
      access: 'read',
      auth: true,
      connectors: false,
    },
    {
      name: 'GetPaymentMethod',
      method: 'GET',
      path: '/payment_methods/{payment_method_id}',
      access: 'read',
      auth: true,
      connectors: false,
    },
    {
      name: 'DeletePaymentMethod',
      method: 'DELETE',
      path: '/payment_methods/{payment_method_id}',
      access: 'write',
      auth: true,
      connectors: true,
    },
    { name: 'DeleteCustomer', method: 'DELETE', path: '/customers/{customer_id}', access: 'write', auth: true, connectors: true },
  ]);
});

test('grouped with the customers (one nested stack), documented, and the DELETE stores no Idempotency-Key like the other DELETEs', () => {
  for (const name of ['ListCustomerPaymentMethods', 'GetPaymentMethod', 'DeletePaymentMethod'])
    expect(functionGroup(route(name))).toBe('Customers');
  for (const r of ROUTES.filter((x) => x.method === 'DELETE')) expect(OPENAPI_OPERATIONS[r.name]?.idempotent).toBe(false);
  expect(OPENAPI_OPERATIONS.DeletePaymentMethod?.errors).toMatchObject({
    404: ['resource_missing'],
    409: ['payment_method_unexpected_state', 'concurrent_update'],
    502: ['connector_unavailable'],
    503: expect.arrayContaining(['connector_unreachable', 'service_unavailable']),
  });
});
