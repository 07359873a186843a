import { SandboxConnector } from '../connectors/sandbox/sandbox-connector';
import type { Connector } from '../connectors/connector';
import type { Currency } from '../domain/money';
import type { PaymentMethod } from '../domain/payment';
import { ApiError } from '../domain/errors';

/** One routing rule: payments matching `currency`/`payment_method` (absent = any) go to the first of `connectors`. */
export interface RoutingRule {
  currency?: Currency;
  payment_method?: PaymentMethod;
  connectors: string[];
}

/** The default rules: everything to the sandbox (local stack, tests). */
export const DEFAULT_ROUTING_RULES: readonly RoutingRule[] = [{ connectors: ['sandbox'] }];

const CONNECTORS: Record<string, Connector> = { sandbox: new SandboxConnector() };

/**
 * Chooses the connector for a payment at create: the first rule matching the
 * currency and payment method (an unset method matches rules without one), then
 * the first connector of that rule.
 * @returns the connector's name
 * @throws ApiError 400 `no_connector_available` when no rule matches
 */
export function chooseConnector(
  currency: Currency,
  paymentMethod: PaymentMethod | undefined,
  rules: readonly RoutingRule[] = DEFAULT_ROUTING_RULES,
): string {
  const rule = rules.find(
    (r) => (!r.currency || r.currency === currency) && (!r.payment_method || r.payment_method === paymentMethod),
  );
  const name = rule?.connectors[0];
  if (!name) {
    throw new ApiError(400, 'invalid_request_error', 'no_connector_available', `No connector is configured for ${currency} ${paymentMethod ?? ''} payments.`.replace('  ', ' '));
  }
  return name;
}

/**
 * The adapter registered under `name`.
 * @throws ApiError 502 `connector_error` when no adapter has that name (a configuration fault)
 */
export function connectorByName(name: string): Connector {
  const connector = CONNECTORS[name];
  if (!connector) throw new ApiError(502, 'connector_error', 'connector_unavailable', `Connector ${name} is not available.`);
  return connector;
}
