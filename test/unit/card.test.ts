import { detectBrand, fullExpiryYear, isExpired, passesLuhn, summarizeCard } from '../../shared/domain/card';

describe('card rules', () => {
  test('Luhn accepts the test cards and rejects a changed digit', () => {
    for (const n of ['4242424242424242', '4111111111111111', '5555555555554444', '4000000000000002', '378282246310005']) {
      expect(passesLuhn(n)).toBe(true);
    }
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('')).toBe(false);
    expect(passesLuhn('42a2')).toBe(false);
  });

  test("brand from the leading digits (credit-card-type's ranges; Verve and Discover pinned in card-detector.test.ts)", () => {
    expect(detectBrand('4242424242424242')).toBe('visa');
    expect(detectBrand('5555555555554444')).toBe('mastercard');
    expect(detectBrand('2223003122003222')).toBe('mastercard');
    expect(detectBrand('378282246310005')).toBe('amex');
    expect(detectBrand('5061000000000000000')).toBe('verve');
    expect(detectBrand('5060666666666666666')).toBe('verve');
    expect(detectBrand('6011111111111117')).toBe('discover');
    expect(detectBrand('36227206271667')).toBe('diners');
    expect(detectBrand('6200000000000005')).toBe('unionpay');
    expect(detectBrand('9999999999999995')).toBe('unknown');
  });

  test('expiry: two-digit years are this century; a card is valid through its expiry month', () => {
    expect(fullExpiryYear('30')).toBe(2030);
    expect(fullExpiryYear('2031')).toBe(2031);
    const now = new Date(Date.UTC(2026, 10, 21));
    expect(isExpired(11, 2026, now)).toBe(false);
    expect(isExpired(10, 2026, now)).toBe(true);
    expect(isExpired(12, 2025, now)).toBe(true);
  });

  test('the summary keeps last4, brand and expiry only', () => {
    const summary = summarizeCard({ card_number: '4242424242424242', card_exp_month: '07', card_exp_year: '31', card_cvc: '123' }, 'fp_x');
    expect(summary).toEqual({ last4: '4242', brand: 'visa', exp_month: 7, exp_year: 2031, fingerprint: 'fp_x' });
    expect(JSON.stringify(summary)).not.toContain('123');
  });
});

describe('card numbers in free text', () => {
  test('a card number of a real brand is detected, with or without separators', () => {
    const { containsCardNumber } = jest.requireActual('../../shared/domain/card') as typeof import('../../shared/domain/card');
    expect(containsCardNumber('card 4242424242424242 thanks')).toBe(true);
    expect(containsCardNumber('4242 4242 4242 4242')).toBe(true);
    expect(containsCardNumber('5555-5555-5555-4444')).toBe(true);
    expect(containsCardNumber('order 4242424242424241')).toBe(false); // fails Luhn
    expect(containsCardNumber('invoice 12345')).toBe(false);
    expect(containsCardNumber('+2348012345678')).toBe(false);
  });

  test('the spellings an older detector missed are found; a digit glued to a card number makes another number', () => {
    const { containsCardNumber } = jest.requireActual('../../shared/domain/card') as typeof import('../../shared/domain/card');
    const spelled = [
      '4242.4242.4242.4242',
      '4242/4242/4242/4242',
      '4242_4242_4242_4242',
      '4242,4242,4242,4242',
      '4242  4242  4242  4242',
      '4242\t4242\t4242\t4242',
      '4242\n4242\n4242\n4242',
      '4242 - 4242 - 4242 - 4242',
      '4242\u20134242\u20134242\u20134242',
      '4242\u00a04242\u00a04242\u00a04242',
      '4242\u200b4242\u200b4242\u200b4242',
      '４２４２４２４２４２４２４２４２',
      'phone +378282246310005',
      'ref 1 4242424242424242 9',
    ];
    for (const text of spelled) expect({ text, found: containsCardNumber(text) }).toEqual({ text, found: true });
    // A digit glued to a card number makes a 17-digit number no brand issues at that length: not one.
    for (const text of ['14242424242424242', '42424242424242429'])
      expect({ text, found: containsCardNumber(text) }).toEqual({ text, found: false });
  });

  test('values the old detector refused (a Luhn-valid digit run no brand issues) are accepted', () => {
    const { containsCardNumber, passesLuhn } = jest.requireActual('../../shared/domain/card') as typeof import('../../shared/domain/card');
    // Each passes Luhn as a whole: the old rule refused them all.
    const legitimate = ['1732012345671', '+234 803 123 4561', '0580123456783', 'ada2348031234561@example.com', 'ORD-7000123412341237'];
    for (const value of legitimate) {
      expect(passesLuhn(value.replace(/\D/g, ''))).toBe(true);
      expect({ value, found: containsCardNumber(value) }).toEqual({ value, found: false });
    }
  });
});

describe('card numbers hidden among other digits', () => {
  test('a PAN touching other digits is still found, and redacted in logs', () => {
    const { containsCardNumber } = jest.requireActual('../../shared/domain/card') as typeof import('../../shared/domain/card');
    const { redactText } = jest.requireActual(
      '../../shared/observability/redaction',
    ) as typeof import('../../shared/observability/redaction');
    for (const text of [
      'card 4242424242424242 123',
      'ref 12 4111111111111111',
      'x 4242 4242 4242 4242 99',
      '4242424242424242@example.com',
    ]) {
      expect(containsCardNumber(text)).toBe(true);
      expect(redactText(text)).not.toMatch(/4242424242424242|4111111111111111|4242 4242 4242 4242/);
    }
    expect(redactText('amount 1500 order 77')).toBe('amount 1500 order 77');
  });
});

describe('authentication step values in logs', () => {
  test('PIN and OTP are masked in JSON bodies, form bodies and structured records; other fields stay', () => {
    const { redactText, redactingReplacer, REDACTED } = jest.requireActual(
      '../../shared/observability/redaction',
    ) as typeof import('../../shared/observability/redaction');
    expect(redactText('{"pin":"1234","otp" : "123456","amount":1500}')).toBe(`{"pin":"${REDACTED}","otp" : "${REDACTED}","amount":1500}`);
    expect(redactText('pin=1234&address_city=Lagos')).toBe(`pin=${REDACTED}&address_city=Lagos`);
    expect(redactText('address_city=Lagos&otp=998877&card_cvc=123')).toBe(`address_city=Lagos&otp=${REDACTED}&card_cvc=${REDACTED}`);
    expect(redactText('spin=1&pinned=2')).toBe('spin=1&pinned=2');
    expect(JSON.parse(JSON.stringify({ body: { pin: '1234', OTP: '123456', phone: '+2348012345678' } }, redactingReplacer))).toEqual({
      body: { pin: REDACTED, OTP: REDACTED, phone: '+2348012345678' },
    });
  });
});

describe('ids given in bodies', () => {
  test('an id of our own shape is accepted even when its hex holds a card-like digit run; anything else holding a card number is refused', () => {
    const { referenceIdSchema } = jest.requireActual('../../shared/schemas/common') as typeof import('../../shared/schemas/common');
    const { containsCardNumber } = jest.requireActual('../../shared/domain/card') as typeof import('../../shared/domain/card');
    const ownShape = 'cus_4242424242424242abcdefabcdefabcd';
    expect(containsCardNumber(ownShape)).toBe(true);
    expect(referenceIdSchema().safeParse(ownShape).success).toBe(true);
    for (const id of ['cus_4242424242424242', 'CUS_4242424242424242abcdefabcdefabcd', 'order 4242 4242 4242 4242', 'x'.repeat(101)]) {
      expect({ id, ok: referenceIdSchema().safeParse(id).success }).toEqual({ id, ok: false });
    }
    expect(referenceIdSchema().safeParse('cus_0123456789abcdef0123456789abcdef').success).toBe(true);
    expect(referenceIdSchema().safeParse('ORD-20241121-000123').success).toBe(true);
  });
});
