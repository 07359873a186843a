import * as z from 'zod';
import { CURRENCIES, type Currency } from '../../domain/money';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment';

/**
 * One routing rule: payments matching `currency` and `payment_method` (absent =
 * any) go to the first of `connectors` that is configured and supports them; on
 * a technical failure at confirm, the next one is tried once. A connector whose circuit is open
 * (repeated technical failures, shared/processor-call/circuit-breaker.ts) is passed over while another qualifies.
 */
export interface RoutingRule {
  currency?: Currency;
  payment_method?: PaymentMethod;
  connectors: string[];
}

/** The default rules (local stack, tests, and any stage without rules): everything to the sandbox. */
export const DEFAULT_ROUTING_RULES: readonly RoutingRule[] = [{ connectors: ['sandbox'] }];

const rulesSchema = z.array(
  z.strictObject({
    currency: z.enum(CURRENCIES).optional(),
    payment_method: z.enum(PAYMENT_METHODS).optional(),
    connectors: z.array(z.string().min(1)).min(1),
  }),
);

/**
 * The stage's rules: `ROUTING_RULES` (JSON, set by the CDK stack from the stage
 * config, or by hand locally), else {@link DEFAULT_ROUTING_RULES}. Read on every
 * call so tests and operators can change it.
 * @throws Error when `ROUTING_RULES` is not a valid rule list (a configuration fault)
 */
export function routingRules(): readonly RoutingRule[] {
  const raw = process.env.ROUTING_RULES;
  if (!raw) return DEFAULT_ROUTING_RULES;
  const parsed = rulesSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`ROUTING_RULES is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * The ordered connector names for a payment: those of the first rule whose
 * currency and method match. With the method not known yet (create without
 * one), rules for any method of the currency match.
 */
export function connectorsFor(
  currency: Currency,
  paymentMethod: PaymentMethod | undefined,
  rules: readonly RoutingRule[] = routingRules(),
): string[] {
  const rule = rules.find(
    (r) =>
      (!r.currency || r.currency === currency) && (!r.payment_method || paymentMethod === undefined || r.payment_method === paymentMethod),
  );
  return rule ? [...rule.connectors] : [];
}
