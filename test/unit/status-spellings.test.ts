import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVOICE_STATUSES, SUBSCRIPTION_STATUSES } from '../../shared/domain/billing-statuses';
import { CONNECTOR_ACCOUNT_STATUSES } from '../../shared/domain/connector-account';
import { DISPUTE_STAGES, DISPUTE_STATUSES } from '../../shared/domain/dispute-vocabulary';
import { SAVED_METHOD_STATUSES } from '../../shared/domain/payment-method';
import { PAYMENT_STATUSES } from '../../shared/domain/payment-status';
import { REFUND_STATUSES } from '../../shared/domain/refund';
import { TEST_CLOCK_STATUSES } from '../../shared/domain/test-clock';
import { WEBHOOK_ENDPOINT_STATUSES } from '../../shared/domain/webhook-endpoint';
import { DELIVERY_STATUSES } from '../../shared/schemas/event-delivery-resource-schema';

/**
 * The "Values" cells of docs/api.md "Status spellings", by the label in front of each list (`payments`,
 * `stages`, …; a list without a label is keyed by its row's first cell).
 */
function documentedValues(): Map<string, string[]> {
  const doc = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');
  const section = doc.split('\n## Status spellings\n')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Resources') && !l.startsWith('|---'));
  const values = new Map<string, string[]>();
  for (const row of rows) {
    const [resources = '', , cell = ''] = row.split(' | ');
    for (const part of cell.split(';')) {
      const label = part.slice(0, part.indexOf('`')).trim() || resources.replace(/^\| /, '');
      values.set(
        label,
        [...part.matchAll(/`([^`]+)`/g)].map((m) => m[1]!),
      );
    }
  }
  return values;
}

describe('docs/api.md "Status spellings"', () => {
  test('lists exactly the values each resource has, as the code spells them', () => {
    const documented = Object.fromEntries([...documentedValues()].map(([label, list]) => [label, [...list].sort()]));
    const sorted = (list: readonly string[]) => [...list].sort();
    expect(documented).toEqual({
      payments: sorted(PAYMENT_STATUSES),
      refunds: sorted(REFUND_STATUSES),
      subscriptions: sorted(SUBSCRIPTION_STATUSES),
      invoices: sorted(INVOICE_STATUSES),
      'disputes (`dispute_status`, `dispute_stage`)': sorted(DISPUTE_STATUSES),
      stages: sorted(DISPUTE_STAGES),
      'connector accounts': sorted(CONNECTOR_ACCOUNT_STATUSES),
      'saved payment methods': sorted(SAVED_METHOD_STATUSES),
      'webhook endpoints': sorted(WEBHOOK_ENDPOINT_STATUSES),
      'event deliveries': sorted(DELIVERY_STATUSES),
      'test clocks': sorted(TEST_CLOCK_STATUSES),
    });
  });
});
