/**
 * Nigerian banks a payer can choose for a USSD payment, by their CBN/NIBSS bank code (the code
 * Nigerian banks are known by, e.g. `058` Guaranty Trust Bank). This is the union of what the
 * connectors serve; each adapter lists its own subset next to its status table
 * (`PAYSTACK_USSD_BANKS`, `FLUTTERWAVE_USSD_BANKS`), taken from the processor's documentation,
 * and a unit test keeps every subset inside this list. Routing skips a connector whose
 * subset lacks the payer's bank. See docs/connectors.md for the per-processor matrix.
 */
export const USSD_BANKS: Readonly<Record<string, string>> = {
  '044': 'Access Bank',
  '050': 'Ecobank Nigeria',
  '070': 'Fidelity Bank',
  '011': 'First Bank of Nigeria',
  '214': 'First City Monument Bank',
  '058': 'Guaranty Trust Bank',
  '030': 'Heritage Bank',
  '082': 'Keystone Bank',
  '303': 'Lotus Bank',
  '105': 'PremiumTrust Bank',
  '221': 'Stanbic IBTC Bank',
  '232': 'Sterling Bank',
  '032': 'Union Bank of Nigeria',
  '033': 'United Bank for Africa',
  '215': 'Unity Bank',
  '035': 'Wema Bank',
  '057': 'Zenith Bank',
  '090110': 'VFD Microfinance Bank',
};

/** Every code of {@link USSD_BANKS}, sorted. */
export const USSD_BANK_CODES: readonly string[] = Object.keys(USSD_BANKS).sort();

/**
 * The bank a USSD payment uses when the payer chose none: Guaranty Trust Bank (`058`, 737), the
 * bank of both Paystack's and Flutterwave's USSD examples and the one payments used before the
 * payer could choose. Documented in docs/api.md.
 */
export const DEFAULT_USSD_BANK_CODE = '058';
