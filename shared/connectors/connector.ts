import type { CardDetails } from '../domain/card';
import type { Currency } from '../domain/money';
import type { CaptureMethod, NextAction, PaymentMethod } from '../domain/payment';
import type { PaymentStatus } from '../domain/payment-status';
import type { RefundStatus } from '../domain/refund';

/**
 * What a connector is asked to authorize (and, for automatic capture, capture).
 * `card` holds the PAN and CVC in memory only; an adapter must never log or store it.
 */
export interface AuthorizeRequest {
  paymentId: string;
  /** Minor units. */
  amount: number;
  currency: Currency;
  paymentMethod: PaymentMethod;
  captureMethod: CaptureMethod;
  card?: CardDetails;
  email?: string | null;
  /** Public base URL of this API (e.g. `https://api.example.com`), for hosted pages and redirects. */
  publicBaseUrl: string;
}

/** A connector's answer about a payment, mapped to our statuses. */
export interface PaymentResult {
  status: Extract<PaymentStatus, 'Succeeded' | 'Failed' | 'Processing' | 'RequiresAction' | 'RequiresCapture' | 'Cancelled'>;
  connectorTransactionId: string | null;
  /** Minor units captured by this call (0 unless money was captured). */
  amountCaptured: number;
  nextAction?: NextAction | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/** A connector's answer about a refund. */
export interface RefundResult {
  status: RefundStatus;
  connectorRefundId: string | null;
  errorCode?: string | null;
  errorMessage?: string | null;
}

/**
 * A technical failure talking to a connector (timeout, network error, 5xx):
 * the outcome is unknown, unlike a decline. The payment stays `Processing`
 * until a sync settles it.
 */
export class ConnectorTechnicalError extends Error {
  constructor(
    readonly connector: string,
    message: string,
  ) {
    super(message);
    this.name = 'ConnectorTechnicalError';
  }
}

/** What a sync needs to find a payment at the connector: our id (the reference we sent) and what we know of it. */
export interface SyncRequest {
  paymentId: string;
  connectorTransactionId: string | null;
  amount: number;
  currency: Currency;
  paymentMethod: PaymentMethod | null;
  captureMethod: CaptureMethod;
  /** ISO 8601 UTC: when the payment was created. */
  createdAt: string;
}

/**
 * A downstream processor. Every method speaks minor units. A business outcome
 * (decline, insufficient funds) is a result; a technical failure (timeout,
 * network, 5xx) is a thrown {@link ConnectorTechnicalError}.
 */
export interface Connector {
  /** Name shown in a payment's `connector` field. */
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<PaymentResult>;
  /** Captures `amount` minor units of an authorization. */
  capture(request: { connectorTransactionId: string; amount: number; currency: Currency }): Promise<PaymentResult>;
  /** Voids (cancels) an authorization or a pending payment. */
  void(request: { connectorTransactionId: string }): Promise<PaymentResult>;
  /** The connector's current view of a payment (reconciliation); does not change anything there. */
  sync(request: SyncRequest): Promise<PaymentResult>;
  /** Refunds `amount` minor units of a captured payment. */
  refund(request: { connectorTransactionId: string; amount: number; currency: Currency; refundId: string }): Promise<RefundResult>;
}
