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

  /** The event-type families of the catalogue (`payment`, `refund`, …). */
  const families = new Set(EVENT_TYPES.map((t) => t.slice(0, t.indexOf('.'))));
  /** Every backticked `family.name` (or `family.*`) of a catalogue family in a text. */
  const namedTypes = (text: string) =>
    [...text.matchAll(/`([a-z_]+)\.([a-z_]+|\*)`/g)].filter((m) => families.has(m[1] as string)).map((m) => `${m[1]}.${m[2]}`);

  test('docs/api.md names no event type outside the catalogue (a `family.*` names a family of it)', () => {
    const docs = readFileSync(join(process.cwd(), 'docs/api.md'), 'utf8');
    const unknown = namedTypes(docs).filter((t) => !(t.endsWith('.*') || isEventType(t)));
    expect(unknown).toEqual([]);
  });

  test("docs/api.md's list of the types a webhook endpoint can subscribe to is the whole catalogue", () => {
    const docs = readFileSync(join(process.cwd(), 'docs/api.md'), 'utf8');
    const start = docs.indexOf('Event types (`enabled_events`)');
    expect(start).toBeGreaterThan(docs.indexOf('## Webhook endpoints'));
    const paragraph = docs.slice(start, docs.indexOf('\n\n', start));
    const listed = namedTypes(paragraph);
    // Either it lists every type, or it names none and points at the catalogue's table (which the first test checks).
    if (listed.length > 0) expect([...listed].sort()).toEqual([...EVENT_TYPES].sort());
    else expect(paragraph).toContain('](#events)');
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
