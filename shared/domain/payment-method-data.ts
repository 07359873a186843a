/**
 * What a payment's `payment_method_data` says about its method, apart from the schema that validates it
 * (shared/schemas/common.ts `paymentMethodDataSchema`), so operations can ask without building the request schemas
 * (a refund or capture handler's cold start loads no create/confirm schema).
 */

/**
 * The method a `payment_method_data` implies: `card` when it holds card data, else `ussd` (the two kinds the schema
 * accepts; it holds exactly one).
 * @param data a validated `payment_method_data`
 */
export function methodOfData(data: { card?: unknown }): 'card' | 'ussd' {
  return data.card ? 'card' : 'ussd';
}
