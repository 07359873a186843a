import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_CATALOGUE, EVENT_TYPES, isEventType, paymentStatusEvent, refundStatusEvent } from '../../shared/domain/events';
import { PAYMENT_STATUSES } from '../../shared/domain/payment-status';

describe('the event catalogue', () => {
  test('docs/api.md lists exactly the catalogue, with its descriptions', () => {
    const docs = readFileSync(join(process.cwd(), 'docs/api.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Events'), docs.indexOf('\n## ', docs.indexOf('## Events') + 5));
    const rows = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| (.+) \|$/gm)].map((m) => [m[1], m[2]]);
    expect(rows).toEqual(EVENT_TYPES.map((t) => [t, EVENT_CATALOGUE[t]]));
  });

  test('every status a payment can reach after creation has its event; unchanged statuses emit none', () => {
    for (const status of PAYMENT_STATUSES.filter((s) => s !== 'RequiresConfirmation')) {
      expect(paymentStatusEvent('RequiresConfirmation', status)).toBe(
        `payment.${status === 'RequiresAction' ? 'requires_action' : status === 'RequiresCapture' ? 'requires_capture' : status.toLowerCase()}`,
      );
      expect(paymentStatusEvent(status, status)).toBeUndefined();
    }
    expect(refundStatusEvent('Pending', 'Succeeded')).toBe('refund.succeeded');
    expect(refundStatusEvent('Pending', 'Pending')).toBeUndefined();
    expect(isEventType('payment.succeeded')).toBe(true);
    expect(isEventType('toString')).toBe(false);
  });
});
