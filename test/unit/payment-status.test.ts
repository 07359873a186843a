import { ALLOWED_FROM, canApply, canTransition, isTerminal, PAYMENT_STATUSES, TRANSITIONS } from '../../shared/domain/payment-status';

describe('payment state machine', () => {
  test('terminal statuses have no way out', () => {
    for (const s of PAYMENT_STATUSES) {
      expect(isTerminal(s)).toBe(TRANSITIONS[s].length === 0);
    }
    expect(PAYMENT_STATUSES.filter(isTerminal).sort()).toEqual(['Cancelled', 'Failed', 'Succeeded']);
  });

  test('confirm only from RequiresConfirmation', () => {
    expect(PAYMENT_STATUSES.filter((s) => canApply('confirm', s))).toEqual(['RequiresConfirmation']);
  });

  test('cancel from RequiresConfirmation, RequiresAction, Processing, RequiresCapture only', () => {
    expect(PAYMENT_STATUSES.filter((s) => canApply('cancel', s)).sort()).toEqual([
      'Processing',
      'RequiresAction',
      'RequiresCapture',
      'RequiresConfirmation',
    ]);
  });

  test('capture only from RequiresCapture, refund only from Succeeded', () => {
    expect(PAYMENT_STATUSES.filter((s) => canApply('capture', s))).toEqual(['RequiresCapture']);
    expect(PAYMENT_STATUSES.filter((s) => canApply('refund', s))).toEqual(['Succeeded']);
  });

  test('every status an operation may start from can reach Cancelled when cancel allows it', () => {
    for (const s of ALLOWED_FROM.cancel) expect(canTransition(s, 'Cancelled')).toBe(true);
    expect(canTransition('Succeeded', 'Cancelled')).toBe(false);
    expect(canTransition('RequiresConfirmation', 'Succeeded')).toBe(false);
  });
});
