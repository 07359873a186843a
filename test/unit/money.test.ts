import { checkRefundAmount, MAX_AMOUNT, refundableAmount } from '../../shared/domain/money';

describe('refund arithmetic (minor units)', () => {
  test('refundable remainder is captured minus refunded, never negative', () => {
    expect(refundableAmount(10000, 2500)).toBe(7500);
    expect(refundableAmount(10000, 10000)).toBe(0);
    expect(refundableAmount(100, 150)).toBe(0);
  });

  test('omitted amount refunds what is left', () => {
    expect(checkRefundAmount(undefined, 10000, 2500)).toEqual({ ok: true, amount: 7500 });
  });

  test('an amount up to the remainder is accepted, one more is refused', () => {
    expect(checkRefundAmount(7500, 10000, 2500)).toEqual({ ok: true, amount: 7500 });
    expect(checkRefundAmount(7501, 10000, 2500)).toEqual({ ok: false, problem: 'exceeds_refundable', refundable: 7500 });
  });

  test('a fully refunded payment has nothing left', () => {
    expect(checkRefundAmount(undefined, 10000, 10000)).toEqual({ ok: false, problem: 'nothing_left', refundable: 0 });
  });

  test('partial refunds never sum above the captured amount', () => {
    const captured = 99_999;
    let refunded = 0;
    const requests = [40_000, 40_000, 40_000, undefined, 1];
    for (const r of requests) {
      const d = checkRefundAmount(r, captured, refunded);
      if (d.ok) refunded += d.amount;
    }
    expect(refunded).toBe(captured);
  });

  test('the largest amount is exact in a JS number', () => {
    expect(Number.isSafeInteger(MAX_AMOUNT)).toBe(true);
    expect(MAX_AMOUNT).toBe(99_999_999_999);
  });
});
