/**
 * What a payment's create and confirm both derive from its request (apart from both, so that a create without
 * `confirm` loads no processor call): the stored summary of its method's details, the facts routing decides on,
 * the USSD bank, a saved method's one connector, the stored `customer_acceptance`.
 */
import { type CardBrand, summarizeCard } from '../../domain/card';
import type { RoutingFacts } from '../../domain/connector-account';
import type { Payment, PaymentMethod, PaymentMethodSummary } from '../../domain/payment';
import { DEFAULT_USSD_BANK_CODE, USSD_BANKS } from '../../domain/ussd-banks';
import { connectorForTarget } from '../../processor-call/account-connectors';
import type { PaymentMethodData } from '../../schemas/common';
import { CARD_BRANDS } from '../../schemas/payment-resource-schema';
import type { CreatePaymentBody } from '../../schemas/payment-schemas';
import { cardFingerprint } from '../../security/keyed-hash';
import type { SavedMethodToCharge } from '../payment-methods/saved-methods';
import type { RoutedCandidates } from '../routing/route-candidates';
import type { AuthorizationInput } from './payment-authorization';

/**
 * The storable summary of a method's details: a card's last4, brand, expiry and keyed
 * fingerprint (never the PAN or CVC), or the USSD bank's code and name.
 */
export async function methodSummary(data: PaymentMethodData): Promise<PaymentMethodSummary> {
  if (data.card) return { card: summarizeCard(data.card, await cardFingerprint(data.card.card_number)) };
  const code = data.ussd!.bank_code;
  return { ussd: { bank_code: code, bank_name: USSD_BANKS[code] ?? code } };
}

/** Processors' names for brands a card summary names otherwise (Stripe's short names are the summary's). */
const BRAND_ALIASES: Readonly<Record<string, CardBrand>> = {
  'american express': 'amex',
  'american-express': 'amex',
  americanexpress: 'amex',
  'diners club': 'diners',
  'diners-club': 'diners',
  'master card': 'mastercard',
  'china unionpay': 'unionpay',
};

/**
 * The summary a charge of a saved method shows in `payment_method_data`, as a card payment shows its card's: the
 * saved card's brand (the method's lower-case processor brand, read as one of the summary's brands, else
 * `unknown`), last4, expiry and fingerprint — the method's own (`GET /payment_methods/{id}` `card.fingerprint`):
 * there is no card number to hash here. Merchants print receipts from it.
 */
export function savedMethodSummary(saved: SavedMethodToCharge): PaymentMethodSummary {
  const c = saved.stored.method.card;
  const name = c.brand.trim().toLowerCase().replace(/\s+/g, ' ');
  const brand: CardBrand = BRAND_ALIASES[name] ?? ((CARD_BRANDS as readonly string[]).includes(name) ? (name as CardBrand) : 'unknown');
  return { card: { last4: c.last4, brand, exp_month: c.exp_month, exp_year: c.exp_year, fingerprint: c.fingerprint } };
}

/** What routing decides on for a payment (docs/api.md "Routing": `lhs` values of advanced rules). */
export function routingFacts(
  p: Pick<Payment, 'payment_id' | 'amount' | 'currency' | 'metadata' | 'billing'>,
  paymentMethod: PaymentMethod | undefined,
  summary: PaymentMethodSummary | null,
): RoutingFacts {
  return {
    payment_id: p.payment_id,
    amount: p.amount,
    currency: p.currency,
    payment_method: paymentMethod,
    card_network: summary && 'card' in summary ? summary.card.brand : null,
    billing_country: p.billing?.address?.country ?? null,
    metadata: p.metadata ?? null,
  };
}

/** The USSD bank chosen for a payment (its stored summary), else the default bank {@link DEFAULT_USSD_BANK_CODE}. */
export function ussdBankOf(summary: PaymentMethodSummary | null, paymentMethod: PaymentMethod | undefined): string | undefined {
  if (paymentMethod !== 'ussd') return undefined;
  return summary && 'ussd' in summary ? summary.ussd.bank_code : DEFAULT_USSD_BANK_CODE;
}

/** The one connector a saved method is charged through: the account that issued its token. */
export async function savedMethodCandidates(merchantId: string, saved: SavedMethodToCharge): Promise<RoutedCandidates> {
  const m = saved.stored.method;
  const only = await connectorForTarget(merchantId, m.connector, m.merchant_connector_id);
  return Object.assign([only] as [typeof only], { skipped: [] });
}

/** The stored form of `customer_acceptance` (`online` null when not given). */
export function acceptanceOf(a: CreatePaymentBody['customer_acceptance']): Payment['customer_acceptance'] {
  return a ? { acceptance_type: a.acceptance_type, accepted_at: a.accepted_at, online: a.online ?? null } : null;
}

/**
 * What the processor call of a create with `confirm` and of a confirm is given (./payment-authorization.ts
 * `authorizeClaimed`): the method, the card sent with this request (never stored), the payer's phone, the USSD bank,
 * the routed candidates and, for a saved method, its decrypted token and whether the payer is absent.
 */
export function authorizationInput(
  body: { payment_method_data?: PaymentMethodData; off_session?: boolean },
  facts: Pick<AuthorizationInput, 'paymentMethod' | 'phone' | 'ussdBankCode' | 'candidates'> & { saved: SavedMethodToCharge | undefined },
): AuthorizationInput {
  const { saved, ...rest } = facts;
  return {
    ...rest,
    card: body.payment_method_data?.card,
    ...(saved ? { savedMethod: saved.charge, offSession: body.off_session ?? false } : {}),
  };
}
