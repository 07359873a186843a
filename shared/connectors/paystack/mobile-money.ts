/**
 * Paystack's mobile-money providers and the `mobile_money` object of POST /charge for a payer's phone: Ghana's
 * networks (MTN, Telecel, AT) and M-PESA in Kenya.
 *
 * Sources: https://paystack.com/docs/payments/payment-channels/#mobile-money; [DCS] PaystackOSS/doc-code-snippets
 * src/doc/payments/payment-methods/{mobile,mobile-charge,mobile-vodafone}/, src/doc/transfers/recipients/list-telcos/;
 * [OAS] PaystackOSS/openapi components/schemas/MobileMoney.yaml.
 */
import { type GhanaMobileNetwork, ghanaMobileNetwork } from '../../domain/ghana-mobile-networks';
import type { Currency } from '../../domain/money';
import { ConnectorRequestError } from '../connector';
import { PAYSTACK_CONNECTOR_NAME } from './connector-name';

/**
 * Mobile-money `provider` codes of the Charge API for our currencies, as Paystack's charge samples
 * write them ([DCS] src/doc/payments/payment-methods/mobile/index.sh and mobile-charge/index.json:
 * `"provider": "mtn"`; the List Banks answer for `type=mobile_money` gives the same codes in upper
 * case, `MTN`/`ATL`/`VOD`, [DCS] src/doc/transfers/recipients/list-telcos/index.json; the openapi says
 * the provider "can be fetched from the List Bank endpoint", [OAS] components/schemas/MobileMoney.yaml).
 * See {@link PAYSTACK_MOBILE_MONEY_PROVIDERS}.
 */
export type PaystackMobileMoneyProvider = 'mtn' | 'atl' | 'vod' | 'mpesa';

/**
 * The networks behind each provider code, for documentation and display:
 * - `mtn` MTN Mobile Money (Ghana);
 * - `atl` AT Money, formerly AirtelTigo Money (Ghana; still "AirtelTigo" in Paystack's List Banks sample);
 * - `vod` Telecel Cash, formerly Vodafone Cash (Ghana; "Vodafone" in the List Banks sample). A Telecel
 *   charge answers `send_otp` with "Please dial *110# to generate a voucher code. Then input the
 *   voucher" ([DCS] src/doc/payments/payment-methods/mobile-vodafone/index.json): the voucher is the OTP
 *   of the `submit_otp` step;
 * - `mpesa` M-PESA (Kenya, STK push).
 */
export const PAYSTACK_MOBILE_MONEY_PROVIDERS: Readonly<Record<PaystackMobileMoneyProvider, string>> = {
  mtn: 'MTN Mobile Money',
  atl: 'AT Money (formerly AirtelTigo Money)',
  vod: 'Telecel Cash (formerly Vodafone Cash)',
  mpesa: 'M-PESA',
};

/** Ghana's networks (`shared/domain/ghana-mobile-networks.ts`) → Paystack provider: MTN `mtn`, Telecel (ex-Vodafone) `vod`, AT (ex-AirtelTigo) `atl`. */
export const PAYSTACK_GHANA_PROVIDERS: Readonly<Record<GhanaMobileNetwork, PaystackMobileMoneyProvider>> = {
  mtn: 'mtn',
  telecel: 'vod',
  at: 'atl',
};

/**
 * The `mobile_money` object for a payer's E.164 phone:
 * - GHS: `+233XXXXXXXXX` → local form `0XXXXXXXXX` (the documented samples, e.g. `0551234987`) and
 *   the provider from {@link PAYSTACK_GHANA_PROVIDERS};
 * - KES: M-PESA (`mpesa`, STK push) with the phone in international form ("Include the country code
 *   in the phone number (e.g. +254722000000)"); Airtel Money Kenya is not offered.
 * @throws ConnectorRequestError `phone_required` without a phone, `invalid_phone` when the number is
 *   not a mobile number of the currency's country, `mobile_money_provider_unknown` for an unknown
 *   Ghanaian prefix — nothing is sent to Paystack then.
 */
export function mobileMoneyTarget(
  currency: Currency,
  phone: string | null | undefined,
): { phone: string; provider: PaystackMobileMoneyProvider } {
  if (!phone)
    throw new ConnectorRequestError(
      PAYSTACK_CONNECTOR_NAME,
      'phone_required',
      "Mobile money through Paystack needs the payer's phone number.",
    );
  if (currency === 'GHS') {
    const match = /^\+233(\d{9})$/.exec(phone);
    if (!match)
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'invalid_phone',
        'A GHS mobile-money payment needs a Ghanaian number (+233 followed by 9 digits).',
      );
    const national = match[1] as string;
    const network = ghanaMobileNetwork(phone);
    const provider = network ? PAYSTACK_GHANA_PROVIDERS[network] : undefined;
    if (!provider)
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'mobile_money_provider_unknown',
        'The phone number does not belong to a Ghanaian mobile-money network (MTN, Telecel, AirtelTigo).',
      );
    return { phone: `0${national}`, provider };
  }
  if (currency === 'KES') {
    if (!/^\+254\d{9}$/.test(phone))
      throw new ConnectorRequestError(
        PAYSTACK_CONNECTOR_NAME,
        'invalid_phone',
        'A KES mobile-money payment needs a Kenyan number (+254 followed by 9 digits).',
      );
    return { phone, provider: 'mpesa' };
  }
  throw new ConnectorRequestError(
    PAYSTACK_CONNECTOR_NAME,
    'payment_method_not_supported',
    `Paystack offers no mobile money in ${currency}.`,
  );
}
