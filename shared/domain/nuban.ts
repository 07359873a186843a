/**
 * Nigerian account numbers written with their bank's code, as the card-number detector
 * (shared/domain/card.ts) must tell them from card numbers: a NUBAN (the CBN's 10-digit account
 * number, 9-digit serial + check digit) followed or preceded by a bank code of 3, 5 or 6 digits
 * makes 13 to 16 digits, and `4012345678 090267` or `0902674012345678` is as long as a Visa
 * number and passes Luhn one time in ten. Such a digit string is a bank account, not a card,
 * when its code is one of {@link NIGERIAN_BANK_CODES} and the NUBAN's check digit is right for
 * that bank: a card number passes both about once in 200,000 (a 6-digit code of the list
 * as its last six digits, one time in 23,000, and the check digit, one in ten; measured in
 * test/unit/card-detector-precision.test.ts: none of 100,000).
 *
 * The check digit (CBN, "Revised Standards on Nigeria Uniform Bank Account Number (NUBAN) for
 * Banks and Other Financial Institutions", March 2020; the 2010 NUBAN proposals for the 3-digit
 * form): 10 − (Σ digit × weight mod 10), 0 for 10, over the bank's 6-digit NUBAN code then the
 * 9-digit serial, weights 3, 7, 3 repeated. The 6-digit NUBAN code of a deposit money bank is
 * `000` + its 3-digit CBN code (the 2010 form's 12-digit sum is the same), of another
 * institution its 6-digit code, or `9` + its 5-digit code.
 */

/**
 * Bank codes as merchants and processors write them, each with the 6-digit code its NUBANs'
 * check digits are computed with. Sources: the CBN's 3-digit codes of deposit money, merchant
 * and non-interest banks (as Paystack's and Flutterwave's bank lists give them); the NIBSS
 * Instant Payment (NIP) institution codes of the same banks (`000001`–`000027`, whose check
 * code is the bank's CBN code) and of the largest microfinance, payment service and mobile
 * money institutions; Paystack's 5-digit codes of the same institutions.
 */
export const NIGERIAN_BANK_CODES: Readonly<Record<string, { name: string; nubanCode: string }>> = (() => {
  const banks: Array<[name: string, cbn: string, nip: string | null]> = [
    ['Sterling Bank', '232', '000001'],
    ['Keystone Bank', '082', '000002'],
    ['First City Monument Bank', '214', '000003'],
    ['United Bank for Africa', '033', '000004'],
    ['Access Bank (Diamond)', '063', '000005'],
    ['Jaiz Bank', '301', '000006'],
    ['Fidelity Bank', '070', '000007'],
    ['Polaris Bank', '076', '000008'],
    ['Citibank Nigeria', '023', '000009'],
    ['Ecobank Nigeria', '050', '000010'],
    ['Unity Bank', '215', '000011'],
    ['Stanbic IBTC Bank', '221', '000012'],
    ['Guaranty Trust Bank', '058', '000013'],
    ['Access Bank', '044', '000014'],
    ['Zenith Bank', '057', '000015'],
    ['First Bank of Nigeria', '011', '000016'],
    ['Wema Bank', '035', '000017'],
    ['Union Bank of Nigeria', '032', '000018'],
    ['Enterprise Bank', '084', '000019'],
    ['Heritage Bank', '030', '000020'],
    ['Standard Chartered Bank', '068', '000021'],
    ['Suntrust Bank', '100', '000022'],
    ['Providus Bank', '101', '000023'],
    ['Titan Trust Bank', '102', '000025'],
    ['TAJ Bank', '302', '000026'],
    ['Globus Bank', '103', '000027'],
    ['Lotus Bank', '303', null],
    ['Parallex Bank', '104', null],
    ['PremiumTrust Bank', '105', null],
    ['Signature Bank', '106', null],
    ['Optimus Bank', '107', null],
  ];
  /** Institutions outside the CBN's 3-digit list: their 6-digit (NIP) codes and Paystack's 5-digit ones. */
  const others: Array<[name: string, code: string]> = [
    ['VFD Microfinance Bank', '090110'],
    ['Kuda Microfinance Bank', '090267'],
    ['Kuda Microfinance Bank', '50211'],
    ['Moniepoint Microfinance Bank', '090405'],
    ['Moniepoint Microfinance Bank', '50515'],
    ['OPay', '100004'],
    ['OPay', '999992'],
    ['PalmPay', '100033'],
    ['PalmPay', '999991'],
    ['9 Payment Service Bank', '120001'],
    ['HopePSB', '120002'],
    ['MoMo Payment Service Bank', '120003'],
    ['SmartCash Payment Service Bank', '120004'],
    ['FairMoney Microfinance Bank', '090551'],
    ['Carbon', '100026'],
    ['Rubies Microfinance Bank', '090175'],
    ['Accion Microfinance Bank', '090134'],
    ['LAPO Microfinance Bank', '090177'],
    ['Coronation Merchant Bank', '060001'],
    ['FBNQuest Merchant Bank', '060002'],
    ['Nova Merchant Bank', '060003'],
    ['Abbey Mortgage Bank', '070010'],
  ];
  const out: Record<string, { name: string; nubanCode: string }> = {};
  for (const [name, cbn, nip] of banks) {
    out[cbn] = { name, nubanCode: `000${cbn}` };
    if (nip) out[nip] = { name, nubanCode: `000${cbn}` };
  }
  for (const [name, code] of others) out[code] = { name, nubanCode: code.length === 5 ? `9${code}` : code };
  return out;
})();

/**
 * The check digit of a NUBAN serial for a bank (see the module comment).
 * @param nubanCode the bank's 6-digit NUBAN code (`000058`, `090267`, `950211`)
 * @param serial the account's 9-digit serial
 * @returns 0–9
 */
export function nubanCheckDigit(nubanCode: string, serial: string): number {
  const digits = nubanCode + serial;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += (digits.charCodeAt(i) - 48) * (i % 3 === 1 ? 7 : 3);
  return (10 - (sum % 10)) % 10;
}

/** Written code (its digit count × 10⁶ + its value, so `058` and `58` differ) → the code's NUBAN code as 6 digit values. */
const BY_KEY = new Map<number, Uint8Array>(
  Object.entries(NIGERIAN_BANK_CODES).map(([code, { nubanCode }]) => [
    code.length * 1e6 + Number(code),
    Uint8Array.from(nubanCode, (c) => c.charCodeAt(0) - 48),
  ]),
);

/** Whether `digits[nubanStart…+10]` is a NUBAN whose check digit is right for the code at `digits[codeStart…+codeLength]`. */
function isNubanOf(digits: ArrayLike<number>, nubanStart: number, codeStart: number, codeLength: number): boolean {
  let key = 0;
  for (let i = 0; i < codeLength; i += 1) key = key * 10 + (digits[codeStart + i] as number);
  const nubanCode = BY_KEY.get(codeLength * 1e6 + key);
  if (!nubanCode) return false;
  let sum = 0;
  for (let i = 0; i < 6; i += 1) sum += (nubanCode[i] as number) * (i % 3 === 1 ? 7 : 3);
  for (let i = 0; i < 9; i += 1) sum += (digits[nubanStart + i] as number) * (i % 3 === 1 ? 7 : 3);
  return (10 - (sum % 10)) % 10 === digits[nubanStart + 9];
}

/**
 * Whether `length` digits from `digits[start]` are a NUBAN and a bank code of
 * {@link NIGERIAN_BANK_CODES}, in either order, the NUBAN's check digit right for that bank.
 * @param digits digit values 0–9 (the detector's run buffer)
 * @param start index of the first digit
 * @param length 13–16 (a 3- to 6-digit code and 10 digits); anything else is never one
 */
export function isNubanWithBankCode(digits: ArrayLike<number>, start: number, length: number): boolean {
  const codeLength = length - 10;
  if (codeLength < 3 || codeLength > 6) return false;
  return isNubanOf(digits, start, start + 10, codeLength) || isNubanOf(digits, start + codeLength, start, codeLength);
}
