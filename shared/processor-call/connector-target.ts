import type {
  AuthenticateRequest,
  AuthorizeRequest,
  Connector,
  InboundWebhook,
  PaymentResult,
  RefundLookupRequest,
  RefundResult,
  SavedMethodCharge,
  SyncRequest,
  TransactionRef,
  WebhookEvent,
} from '../connectors/connector';
import type { Currency } from '../domain/money';
import type { PaymentMethod } from '../domain/payment';

/**
 * Where a processor call goes: the connector (`name`: `stripe`, `paystack`, …) and the merchant
 * connector account whose credentials it uses (`mca_…`), or null for the stage's own (platform)
 * account of that connector. Circuits, metrics, claims and attempts are kept per target.
 */
export interface ConnectorTarget {
  readonly name: string;
  readonly merchantConnectorId: string | null;
}

/**
 * The key of a target's circuit breaker and health: the account id, or the connector name for the
 * platform account — so one merchant's failing account never opens another's circuit.
 */
export function healthKey(target: string | ConnectorTarget): string {
  return typeof target === 'string' ? target : (target.merchantConnectorId ?? target.name);
}

/** The connector name of a target given as a name or a target. */
export function targetName(target: string | ConnectorTarget): string {
  return typeof target === 'string' ? target : target.name;
}

/** The account id of a target (null for the platform's own account or a bare name). */
export function targetAccount(target: string | ConnectorTarget): string | null {
  return typeof target === 'string' ? null : target.merchantConnectorId;
}

/**
 * A connector adapter bound to one account: the adapter (built from that account's credentials, or
 * the stage's for the platform account) plus the account's id. Every call is the adapter's own.
 */
export class RoutedConnector implements Connector, ConnectorTarget {
  /** Present only when the adapter takes authentication steps. */
  readonly authenticate?: (request: AuthenticateRequest) => Promise<PaymentResult>;

  /** Present only when the adapter can detach a saved method at its processor (see `Connector.detachSavedMethod`). */
  readonly detachSavedMethod?: (request: SavedMethodCharge) => Promise<void>;

  /** The adapter's dispute calls, present when it has them (see `Connector.fetchDispute` and the others). */
  readonly fetchDispute?: Connector['fetchDispute'];
  readonly listDisputes?: Connector['listDisputes'];
  readonly acceptDispute?: Connector['acceptDispute'];
  readonly submitDisputeEvidence?: Connector['submitDisputeEvidence'];

  /** The adapter's payout calls, when it sends payouts (shared/connectors/payout-connector.ts). */
  readonly payouts?: Connector['payouts'];

  /**
   * @param adapter the connector adapter holding the account's credentials
   * @param merchantConnectorId the account (`mca_…`), or null for the platform account
   */
  constructor(
    readonly adapter: Connector,
    readonly merchantConnectorId: string | null,
  ) {
    if (adapter.authenticate) this.authenticate = (request) => adapter.authenticate!(request);
    if (adapter.detachSavedMethod) this.detachSavedMethod = (request) => adapter.detachSavedMethod!(request);
    if (adapter.fetchDispute) this.fetchDispute = (request) => adapter.fetchDispute!(request);
    if (adapter.listDisputes) this.listDisputes = (since) => adapter.listDisputes!(since);
    if (adapter.acceptDispute) this.acceptDispute = (request) => adapter.acceptDispute!(request);
    if (adapter.submitDisputeEvidence) this.submitDisputeEvidence = (request) => adapter.submitDisputeEvidence!(request);
    if (adapter.payouts) this.payouts = adapter.payouts;
  }

  /** The connector's name (`stripe`, …). */
  get name(): string {
    return this.adapter.name;
  }

  /** See {@link Connector.supports}. */
  supports(currency: Currency, paymentMethod: PaymentMethod, options?: { ussdBankCode?: string }): boolean {
    return this.adapter.supports(currency, paymentMethod, options);
  }

  /** See {@link Connector.authorize}. */
  authorize(request: AuthorizeRequest): Promise<PaymentResult> {
    return this.adapter.authorize(request);
  }

  /** See {@link Connector.capture}. */
  capture(request: TransactionRef & { amount: number }): Promise<PaymentResult> {
    return this.adapter.capture(request);
  }

  /** See {@link Connector.void}. */
  void(request: TransactionRef): Promise<PaymentResult> {
    return this.adapter.void(request);
  }

  /** See {@link Connector.refund}. */
  refund(request: TransactionRef & { amount: number; refundId: string }): Promise<RefundResult> {
    return this.adapter.refund(request);
  }

  /** See {@link Connector.sync}. */
  sync(request: SyncRequest): Promise<PaymentResult> {
    return this.adapter.sync(request);
  }

  /** See {@link Connector.findRefund}. */
  findRefund(request: RefundLookupRequest): Promise<RefundResult | null> {
    return this.adapter.findRefund(request);
  }

  /** See {@link Connector.syncRefund}. */
  syncRefund(request: { refundId: string; connectorRefundId: string; currency: Currency }): Promise<RefundResult> {
    return this.adapter.syncRefund(request);
  }

  /** See {@link Connector.parseWebhook}. */
  parseWebhook(webhook: InboundWebhook): Promise<WebhookEvent> {
    return this.adapter.parseWebhook(webhook);
  }

  /** See `Connector.verifyCredentials`: one read-only authenticated call at the processor. */
  verifyCredentials(): Promise<void> {
    return this.adapter.verifyCredentials();
  }
}
