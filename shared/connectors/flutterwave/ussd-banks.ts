/**
 * The banks Flutterwave takes USSD charges for, and which of them Switchyard offers.
 *
 * Sources (the tags cited on each export):
 * - [USSD] USSD guide, "Supported Banks": https://developer.flutterwave.com/docs/collections-inflow/ussd (updated 13 September 2026;
 *   the same 18 banks on https://developer.flutterwave.com/v3.0/docs/ussd, /docs/direct-charge/ussd/ and
 *   https://flutterwaveinc.mintlify.app/payment-api/ussd). The table is kept verbatim, with that version, in
 *   test/connectors/fixtures/flutterwave/ussd-supported-banks.json; test/connectors/flutterwave-ussd-banks.test.ts holds
 *   {@link FLUTTERWAVE_DOCUMENTED_USSD_BANKS} to it, code for code and name for name. The official SDK
 *   (flutterwave-node-v3 1.4.1, `ussdChargeSchema`) lists no banks: it only takes `account_bank` as a 3–11 character string.
 */
import { USSD_BANKS } from '../../domain/ussd-banks';

/**
 * Every bank Flutterwave documents for USSD charges, by the `account_bank` code it takes (the Nigerian
 * CBN/NIBSS bank code), with the name Flutterwave prints [USSD]: "USSD payments are currently only supported
 * for the following banks". Switchyard offers those that are also in `USSD_BANKS` ({@link FLUTTERWAVE_USSD_BANKS});
 * today that is all of them.
 */
export const FLUTTERWAVE_DOCUMENTED_USSD_BANKS: Readonly<Record<string, string>> = {
  '044': 'Access bank',
  '050': 'Ecobank',
  '070': 'Fidelity bank',
  '011': 'First bank of Nigeria',
  '214': 'First City Monument Bank (FCMB)',
  '058': 'Guaranty trust bank',
  '030': 'Heritage bank',
  '082': 'Keystone bank',
  '303': 'Lotus bank',
  '105': 'Premium Trust bank',
  '221': 'Stanbic IBTC bank',
  '232': 'Sterling bank',
  '032': 'Union bank',
  '033': 'United Bank for Africa (UBA)',
  '215': 'Unity Bank',
  '090110': 'VFD microfinance bank',
  '035': 'Wema bank',
  '057': 'Zenith bank',
};

/**
 * The USSD banks this adapter serves, as sorted CBN codes: the banks Flutterwave documents for USSD
 * ({@link FLUTTERWAVE_DOCUMENTED_USSD_BANKS}) that Switchyard offers (`USSD_BANKS`). The payer's choice is sent
 * as `account_bank`; `supports('NGN', 'ussd', {ussdBankCode})` is false for any other code, so routing skips
 * Flutterwave for that bank.
 */
export const FLUTTERWAVE_USSD_BANKS: readonly string[] = Object.keys(FLUTTERWAVE_DOCUMENTED_USSD_BANKS)
  .filter((code) => Object.hasOwn(USSD_BANKS, code))
  .sort();

/** @returns whether Flutterwave takes USSD charges for this CBN bank code ({@link FLUTTERWAVE_USSD_BANKS}) */
export function isFlutterwaveUssdBank(bankCode: string): boolean {
  return FLUTTERWAVE_USSD_BANKS.includes(bankCode);
}
