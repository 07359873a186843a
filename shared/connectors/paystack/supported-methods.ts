/**
 * What Switchyard routes to Paystack (methods by currency, the USSD banks), apart from the adapter's
 * wire code (requests, responses) so the capability table (shared/connectors/capabilities.ts) is built without loading them.
 * [OAS]: PaystackOSS/openapi; [DCS]: PaystackOSS/doc (the sources cited in ./requests.ts and ./wire-types.ts).
 */
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';

/**
 * Which currencies each payment method is offered in through Paystack, per the
 * "Payment Channels" page (https://paystack.com/docs/payments/payment-channels/):
 * - `card`: "Card payment channels are available on all Paystack accounts" → all five currencies;
 * - `bank_transfer`: Pay with Transfer is Nigerian (NGN); Pesalink (Kenya, KES) uses the same
 *   `bank_transfer` object of the Charge API;
 * - `ussd`: "available to Nigerian customers only" (NGN);
 * - `mobile_money`: Ghana (GHS) and Kenya (KES); Côte d'Ivoire's XOF is not one of our currencies.
 */
export const PAYSTACK_SUPPORTED: Readonly<Record<PaymentMethod, readonly Currency[]>> = {
  card: ['NGN', 'USD', 'GHS', 'ZAR', 'KES'],
  bank_transfer: ['NGN', 'KES'],
  ussd: ['NGN'],
  mobile_money: ['GHS', 'KES'],
};

/**
 * The USSD `type` values of POST /charge: the `USSD` schema's enum in PaystackOSS/openapi [OAS]
 * (components/schemas/USSD.yaml: "The three-digit USSD code", `737`, `919`, `822`, `966`).
 */
export const PAYSTACK_USSD_TYPES = ['737', '919', '822', '966'] as const;

/** One of {@link PAYSTACK_USSD_TYPES}. */
export type PaystackUssdType = (typeof PAYSTACK_USSD_TYPES)[number];

/**
 * The Nigerian banks Paystack's USSD channel serves: CBN/NIBSS bank code (the keys of
 * `USSD_BANKS`, shared/domain/ussd-banks.ts) → the Paystack USSD `type` sent in `ussd.type`.
 * Each `type` is the bank's own USSD short code, which Paystack's samples show the payer dialling
 * (`*737*33*4*18791#`, [DCS] src/doc/payments/payment-methods/ussd/index.json):
 * - `058` Guaranty Trust Bank → `737` (GTBank *737#);
 * - `033` United Bank for Africa → `919` (UBA *919#);
 * - `232` Sterling Bank → `822` (Sterling *822#);
 * - `057` Zenith Bank → `966` (Zenith *966#).
 * The four values are exactly the enum of [OAS] components/schemas/USSD.yaml; the bank each
 * short code belongs to is public (e.g. the USSD bank table of https://developers.klasha.com/accepting-payments/payments-api/ussd).
 * Any other bank is not served through Paystack: {@link paystackSupports} answers false for it.
 */
export const PAYSTACK_USSD_BANKS: Readonly<Record<string, PaystackUssdType>> = {
  '058': '737',
  '033': '919',
  '232': '822',
  '057': '966',
};

/**
 * @param options.ussdBankCode for USSD, the payer's bank (CBN code): Paystack serves only the banks
 *   of {@link PAYSTACK_USSD_BANKS}; without it the answer is the (currency, method) matrix alone
 * @returns true when {@link PAYSTACK_SUPPORTED} lists `currency` for `method` (and, for USSD with a
 *   chosen bank, Paystack serves that bank)
 */
export function paystackSupports(currency: Currency, method: PaymentMethod, options?: { ussdBankCode?: string }): boolean {
  if (!PAYSTACK_SUPPORTED[method].includes(currency)) return false;
  if (method === 'ussd' && options?.ussdBankCode !== undefined) return Object.hasOwn(PAYSTACK_USSD_BANKS, options.ussdBankCode);
  return true;
}
