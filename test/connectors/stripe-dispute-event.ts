import type { WebhookEvent } from '../../shared/connectors/connector';

/**
 * What the Stripe adapter maps the recorded `event.charge.dispute.created.json` fixture to: a dispute event
 * naming the PaymentIntent, not our payment (the core reads it back with the PaymentIntent expanded). One expectation
 * for the adapter, contract and dispute tests.
 */
export const RECORDED_DISPUTE_CREATED_EVENT: WebhookEvent = {
  kind: 'dispute',
  eventId: 'evt_3OzKx2LkdIwHu7ix1DiSpUtE',
  connectorDisputeId: 'du_1OzKx2LkdIwHu7ixDiSpUtE1',
  paymentId: null,
  dispute: {
    connectorDisputeId: 'du_1OzKx2LkdIwHu7ixDiSpUtE1',
    paymentId: null,
    connectorTransactionId: 'pi_3OzKx2LkdIwHu7ix1AbCdEfG',
    amount: 150000,
    currency: 'USD',
    stage: 'dispute',
    status: 'dispute_opened',
    connectorStatus: 'needs_response',
    connectorReason: 'fraudulent',
    connectorReasonCode: null,
    challengeRequiredBy: null,
    createdAt: null,
  },
};
