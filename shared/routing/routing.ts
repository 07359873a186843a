import type { Connector } from '../connectors/connector';
import { configuredConnector } from '../connectors/registry';
import { ApiError } from '../domain/errors';
import type { Currency } from '../domain/money';
import type { PaymentMethod } from '../domain/payment';
import { connectorsFor, type RoutingRule } from './routing-rules';

export type { RoutingRule } from './routing-rules';

/**
 * The connectors that can take a payment, in routing order: the matching rule's
 * list, keeping those that are configured and support the currency and method (and, for USSD,
 * the payer's bank: `options.ussdBankCode`).
 * `preferred` (the connector chosen at create) goes first when it qualifies.
 * @returns at least one connector
 * @throws ApiError 400 `no_connector_available` when none can take the payment
 */
export async function routeCandidates(
  currency: Currency,
  paymentMethod: PaymentMethod | undefined,
  preferred?: string,
  rules?: readonly RoutingRule[],
  options: { ussdBankCode?: string | undefined } = {},
): Promise<[Connector, ...Connector[]]> {
  const bank = options.ussdBankCode ? { ussdBankCode: options.ussdBankCode } : undefined;
  const names = connectorsFor(currency, paymentMethod, rules);
  const ordered = preferred && names.includes(preferred) ? [preferred, ...names.filter((n) => n !== preferred)] : names;
  const out: Connector[] = [];
  for (const name of ordered) {
    const connector = await configuredConnector(name);
    if (connector && (paymentMethod === undefined || connector.supports(currency, paymentMethod, bank))) out.push(connector);
  }
  const [first, ...rest] = out;
  if (!first) {
    throw new ApiError(
      400,
      'invalid_request_error',
      'no_connector_available',
      bank
        ? `No connector serves USSD payments from this bank (payment_method_data.ussd.bank_code). Choose another bank; docs/connectors.md lists the banks each processor serves.`
        : `No connector is configured for ${currency}${paymentMethod ? ` ${paymentMethod}` : ''} payments. Use another currency or payment_method.`,
      bank ? 'payment_method_data.ussd.bank_code' : paymentMethod ? 'payment_method' : 'currency',
    );
  }
  return [first, ...rest];
}

/**
 * The adapter registered under `name`, for operations on an existing payment.
 * @throws ApiError 502 `connector_unavailable` when it is not configured (any more)
 */
export async function connectorByName(name: string): Promise<Connector> {
  const connector = await configuredConnector(name);
  if (!connector) throw new ApiError(502, 'connector_error', 'connector_unavailable', `Connector ${name} is not configured on this stage.`);
  return connector;
}
