/**
 * What Switchyard routes to Flutterwave and with which charge type, apart from the adapter's wire code
 * (requests, responses) so the capability table (shared/connectors/capabilities.ts) is built without loading it.
 * [DC]: Flutterwave's charge documentation (the sources cited in ./requests.ts).
 */
import type { Currency } from '../../domain/money';
import type { PaymentMethod } from '../../domain/payment';

/** The `?type=` of `POST /v3/charges` for the methods this adapter uses [DC]. */
export type FlutterwaveChargeType = 'card' | 'bank_transfer' | 'ussd' | 'mobile_money_ghana' | 'mpesa';

/**
 * The (method, currency) pairs this adapter charges, and the Flutterwave charge
 * type each uses [DC]: cards in all five currencies; bank transfer and USSD in NGN
 * only ("Bank transfer is currently only supported for NGN transactions", "USSD
 * payments are only available for NGN"); mobile money as Ghana MoMo (GHS) and
 * M-Pesa (KES). ZAR/USD have no Flutterwave mobile money, bank transfer or USSD here.
 */
export const FLUTTERWAVE_CHARGE_TYPES: Readonly<Record<PaymentMethod, Partial<Record<Currency, FlutterwaveChargeType>>>> = {
  card: { NGN: 'card', USD: 'card', GHS: 'card', ZAR: 'card', KES: 'card' },
  bank_transfer: { NGN: 'bank_transfer' },
  ussd: { NGN: 'ussd' },
  mobile_money: { GHS: 'mobile_money_ghana', KES: 'mpesa' },
};

/**
 * @returns the Flutterwave charge type for a payment, or undefined when the adapter does not support the pair
 */
export function flutterwaveChargeType(currency: Currency, method: PaymentMethod): FlutterwaveChargeType | undefined {
  return FLUTTERWAVE_CHARGE_TYPES[method]?.[currency];
}
