/**
 * Which payment methods a link's checkout page offers: those the link allows (its `payment_methods`, all when null)
 * that the merchant's routing can serve for the link's currency and amount right now, asked of the very routing a
 * confirm uses (shared/operations/routing/route-payment.ts `routePayment`: the merchant's accounts, their
 * `payment_methods_enabled`, each connector's `supports()`, the USSD banks it serves; the stage's platform rules for
 * a merchant without accounts). Circuits are not consulted (`respectCircuits: false`): a processor failing for a
 * moment does not hide a method, and no probe is handed out by drawing a page. Cards first (`PAYMENT_METHODS` order).
 * The same routing says whether the payer's e-mail is needed: when any account it could pick (its choice and every
 * fallback) is of a connector that refuses a charge without one (`CONNECTOR_CAPABILITIES[…].requires_payer_email`:
 * Paystack, Flutterwave).
 */
import { requiresPayerEmail } from '../../domain/connector-account';
import { ApiError } from '../../domain/errors';
import { ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import { MAX_AMOUNT, MIN_AMOUNT } from '../../domain/money';
import { PAYMENT_METHODS, type PaymentMethod } from '../../domain/payment';
import type { PaymentLink } from '../../domain/payment-link';
import { USSD_BANK_CODES, USSD_BANKS } from '../../domain/ussd-banks';

/** The methods a drawing of the page offers and the one whose fields it shows. */
export interface MethodChoice {
  /** Offered, cards first (allowed by the link, served by routing); at least one. */
  methods: readonly PaymentMethod[];
  /** The method whose fields are shown: one of `methods`. */
  method: PaymentMethod;
  /** For USSD: the banks routing serves (CBN code and name). */
  ussdBanks?: readonly { code: string; name: string }[];
  /**
   * Whether the page asks the payer's e-mail for the shown method: routing could pick a connector that needs one
   * ({@link methodRouting}) and no e-mail is known for the payer (a single-use link's payment or its customer).
   * A link whose `customer_fields` hold `email` asks it anyway.
   */
  askEmail: boolean;
}

/**
 * The page's method choice for a drawing: the offered methods, the one asked for (`?payment_method=`, or the form's
 * hidden field) when offered, else the first (cards when offered), with the USSD banks when USSD is shown, and whether
 * the payer's e-mail is asked ({@link MethodChoice.askEmail}).
 * @param emailKnown whether an e-mail is already known for the payer (./checkout.ts `CheckoutLink.payerEmail`)
 * @returns `choice` undefined when routing serves no method the link allows; `refused` true when the one asked for is
 *   not offered (the page then says so, with the first method's fields)
 * @throws what routing throws besides `no_connector_available`
 */
export async function methodChoice(
  merchantId: string,
  link: PaymentLink,
  requested: string | undefined,
  emailKnown = false,
): Promise<{ choice?: MethodChoice; refused: boolean }> {
  const routed = await offeredRouting(merchantId, link);
  const methods = routed.map((r) => r.method);
  const refused = requested !== undefined && !(methods as string[]).includes(requested);
  const method = refused || requested === undefined ? methods[0] : (requested as PaymentMethod);
  if (!method) return { refused };
  const ussdBanks = method === 'ussd' ? await offeredUssdBanks(merchantId, link) : undefined;
  const askEmail = !emailKnown && routed.some((r) => r.method === method && r.payerEmailRequired);
  return { choice: { methods, method, ...(ussdBanks ? { ussdBanks } : {}), askEmail }, refused };
}

/** The sentence of a link no method can pay now (routing serves none of the methods it allows in its currency). */
export const NO_METHOD_SENTENCE =
  'This link cannot take payments right now: none of its payment methods is available in its currency. Nothing was paid. Ask the merchant.';

/** The sentence of a method the page does not offer (not allowed by the link, or not served by routing now). */
export const METHOD_NOT_OFFERED_SENTENCE =
  'That payment method is not available on this link. Nothing was paid. Choose one of the methods shown.';

/** The words a payer reads for each method (the chooser's links, the form's legend). */
export const METHOD_LABELS: Readonly<Record<PaymentMethod, string>> = {
  card: 'Card',
  bank_transfer: 'Bank transfer',
  ussd: 'USSD',
  mobile_money: 'Mobile money',
};

/** Whether a value is one of the domain's payment methods. */
export function isPaymentMethod(value: unknown): value is PaymentMethod {
  return typeof value === 'string' && (PAYMENT_METHODS as readonly string[]).includes(value);
}

/** What routing answers for a method on a link. */
export interface MethodRouting {
  /** Some account (or, without accounts, a platform connector) takes the payment. */
  served: boolean;
  /** Some connector routing could pick for it (its choice or a fallback) needs the payer's e-mail. */
  payerEmailRequired: boolean;
}

/**
 * Asks the merchant's routing, as a confirm would route it, whether an account (or, without accounts, a platform
 * connector) takes a payment of the link with this method, and whether any connector among all it could try (its
 * choice and every fallback) needs the payer's e-mail.
 * @param options.amount the payment's amount (minor units) once the payer chose it; without it the link's amount, or
 *   for a customer-chosen amount both ends of its range (served: at its lowest; e-mail: at either end)
 * @param options.ussdBankCode for USSD, the payer's bank (CBN code): only connectors serving it count
 * @throws what routing throws besides `no_connector_available` (storage unavailable)
 */
export async function methodRouting(
  merchantId: string,
  link: PaymentLink,
  method: PaymentMethod,
  options: { amount?: number; ussdBankCode?: string | undefined } = {},
): Promise<MethodRouting> {
  const lowest = options.amount ?? link.amount ?? link.amount_min ?? MIN_AMOUNT;
  const highest = options.amount ?? link.amount ?? link.amount_max ?? MAX_AMOUNT;
  const amounts = lowest === highest ? [lowest] : [lowest, highest];
  const names = await Promise.all(amounts.map((amount) => routedConnectors(merchantId, link, method, amount, options.ussdBankCode)));
  return { served: names[0] !== undefined, payerEmailRequired: names.some((n) => n?.some(requiresPayerEmail) ?? false) };
}

/**
 * The connector names routing would try, in order, for a payment of the link; undefined when it takes none.
 * @param amount minor units
 */
async function routedConnectors(
  merchantId: string,
  link: PaymentLink,
  method: PaymentMethod,
  amount: number,
  ussdBankCode: string | undefined,
): Promise<string[] | undefined> {
  // Routing (and the connector registry it builds adapters with) is loaded by the first page drawn, not at import.
  const { routePayment } = await import('../routing/route-payment');
  try {
    const candidates = await routePayment(
      merchantId,
      // No payment exists yet; a volume split's hash of this id only orders accounts, never removes one.
      { payment_id: `pay_${link.payment_link_id}`, amount, currency: link.currency, payment_method: method, metadata: link.metadata },
      { ussdBankCode, respectCircuits: false },
    );
    return candidates.map((c) => c.name);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'no_connector_available') return undefined;
    throw err;
  }
}

/**
 * Whether the merchant's routing takes a payment of the link with this method ({@link methodRouting}'s `served`).
 * @param ussdBankCode for USSD, the payer's bank (CBN code): only connectors serving it count
 * @throws what routing throws besides `no_connector_available` (storage unavailable)
 */
export async function methodServed(merchantId: string, link: PaymentLink, method: PaymentMethod, ussdBankCode?: string): Promise<boolean> {
  return (await methodRouting(merchantId, link, method, { ussdBankCode })).served;
}

/**
 * The methods the page offers for a link, cards first, with what routing answers for each: allowed by the link and
 * served by the merchant's routing. An empty list means the link cannot be paid now (no account takes its currency).
 * @throws what routing throws besides `no_connector_available`
 */
async function offeredRouting(merchantId: string, link: PaymentLink): Promise<({ method: PaymentMethod } & MethodRouting)[]> {
  const allowed = PAYMENT_METHODS.filter((m) => link.payment_methods === null || link.payment_methods.includes(m));
  const routed = await Promise.all(allowed.map(async (method) => ({ method, ...(await methodRouting(merchantId, link, method)) })));
  return routed.filter((r) => r.served);
}

/**
 * The USSD banks the page offers (CBN code → name, in `USSD_BANKS` order): those a connector the merchant's routing
 * reaches serves (Paystack four banks, Flutterwave more: docs/connectors.md).
 */
export async function offeredUssdBanks(merchantId: string, link: PaymentLink): Promise<{ code: string; name: string }[]> {
  const codes = Object.keys(USSD_BANKS);
  const served = await Promise.all(codes.map((code) => methodServed(merchantId, link, 'ussd', code)));
  return codes.filter((_, i) => served[i]).map((code) => ({ code, name: USSD_BANKS[code] as string }));
}

/** Whether a posted bank code is one of the domain's USSD banks (a bank routing does not serve is refused later). */
export function isUssdBankCode(value: string | undefined): value is string {
  return value !== undefined && USSD_BANK_CODES.includes(value);
}

/**
 * What is wrong with a mobile-money phone for the currency, in words for the payer, or undefined when it is fine:
 * - GHS: a Ghanaian mobile number of MTN, Telecel or AT (`+233` and 9 digits with a known network prefix:
 *   shared/domain/ghana-mobile-networks.ts, the table the adapters pick the provider from);
 * - KES: an M-PESA (Safaricom) number, `+254` followed by 9 digits starting 7 or 1 (Kenya's mobile ranges,
 *   Paystack's "Include the country code in the phone number (e.g. +254722000000)",
 *   https://paystack.com/docs/payments/payment-channels/#mobile-money).
 * Spaces and dashes the payer typed are ignored ({@link normalizedPhone}).
 */
export function mobileMoneyPhoneProblem(currency: PaymentLink['currency'], phone: string | undefined): string | undefined {
  const e164 = normalizedPhone(phone);
  if (currency === 'GHS' && !ghanaMobileNetwork(e164)) {
    return 'Enter your MTN, Telecel or AT mobile number with the country code, like +233241234567.';
  }
  if (currency === 'KES' && !/^\+254[17]\d{8}$/.test(e164)) {
    return 'Enter your M-PESA number with the country code, like +254722000000.';
  }
  if (currency !== 'GHS' && currency !== 'KES') return 'Mobile money is not taken in this currency.';
  return undefined;
}

/** A phone as typed, without spaces, dashes, dots or brackets (`+233 24 123 4567` → `+233241234567`). */
export function normalizedPhone(phone: string | undefined): string {
  return (phone ?? '').replace(/[\s\-.()]/g, '');
}
