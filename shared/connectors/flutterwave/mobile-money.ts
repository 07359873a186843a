/**
 * Ghana's mobile-money networks as Flutterwave names them, and the national number of a payer's phone
 * (M-Pesa and Ghana mobile-money charges).
 *
 * Sources (the tags cited on each export):
 * - [GH] Ghana mobile money: https://developer.flutterwave.com/docs/ghana.md ("Supported networks: MTN, Telecel, TIGO"),
 *   the older https://developer.flutterwave.com/docs/ghana ("MTN", "VODAFONE", or "TIGO"), and the SDK's `momoSchema`
 *   (flutterwave-node-v3 1.4.1 services/schema/create.js: MTN, AIRTELTIGO, VODAFONE since 1.2.1, 2025-04-14).
 */
import type { GhanaMobileNetwork } from '../../domain/ghana-mobile-networks';

/** The `network` values this adapter sends for Ghana mobile money ({@link FLUTTERWAVE_GHANA_NETWORKS}) [GH]. */
export type FlutterwaveGhanaNetwork = 'MTN' | 'VODAFONE' | 'AIRTELTIGO';

/**
 * Ghana's mobile-money operators and the `network` value this adapter sends for each [GH]:
 * - `MTN` → `"MTN"` (every source);
 * - Telecel Cash (Vodafone Cash until the 2024 rebrand; the current guide lists "Telecel") → `"VODAFONE"`;
 * - AirtelTigo Money (the guides list "TIGO") → `"AIRTELTIGO"`.
 * The wire values are the ones the official SDK's `momoSchema` accepts for GHS (flutterwave-node-v3 1.4.1,
 * `['MTN', 'AIRTELTIGO', 'VODAFONE']`, changed from `MTN/VODAFONE/TIGO` by Flutterwave in 1.2.1): the guides'
 * spellings `Telecel` and `TIGO` are refused by that schema, `VODAFONE` is also the value of the older guide
 * and of the SDK's own sample, and the contract tests validate every body against the SDK's schema.
 */
export const FLUTTERWAVE_GHANA_NETWORKS: Readonly<Record<'MTN' | 'TELECEL' | 'AIRTELTIGO', FlutterwaveGhanaNetwork>> = {
  MTN: 'MTN',
  TELECEL: 'VODAFONE',
  AIRTELTIGO: 'AIRTELTIGO',
};

/** Ghana's networks (`shared/domain/ghana-mobile-networks.ts`) → the `network` values of {@link FLUTTERWAVE_GHANA_NETWORKS} [GH]. */
export const FLUTTERWAVE_NETWORK_OF: Readonly<Record<GhanaMobileNetwork, FlutterwaveGhanaNetwork>> = {
  mtn: FLUTTERWAVE_GHANA_NETWORKS.MTN,
  telecel: FLUTTERWAVE_GHANA_NETWORKS.TELECEL,
  at: FLUTTERWAVE_GHANA_NETWORKS.AIRTELTIGO,
};

/**
 * The national significant number of a phone in E.164 (`+233…`), international
 * without `+` (`233…`) or national (`0…`) form.
 * @returns the digits after the country code, or undefined when the number is not of that country
 */
export function nationalNumber(phone: string, countryCode: string, nationalLength: number): string | undefined {
  const digits = phone.replace(/[\s()-]/g, '');
  let national: string | undefined;
  if (digits.startsWith(`+${countryCode}`)) national = digits.slice(countryCode.length + 1);
  else if (digits.startsWith(countryCode) && digits.length === countryCode.length + nationalLength)
    national = digits.slice(countryCode.length);
  else if (digits.startsWith('0')) national = digits.slice(1);
  return national && /^\d+$/.test(national) && national.length === nationalLength ? national : undefined;
}
