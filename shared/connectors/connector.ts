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
 * A downstream processor. Every method speaks minor units. A business outcome
 * (decline, insufficient funds) is a result; a technical failure (timeout,
 * network, 5xx) is a thrown error.
 */
export interface Connector {
  /** Name shown in a payment's `connector` field. */
  readonly name: string;
  authorize(request: AuthorizeRequest): Promise<PaymentResult>;
  /** Captures `amount` minor units of an authorization. */
  capture(request: { connectorTransactionId: string; amount: number; currency: Currency }): Promise<PaymentResult>;
  /** Voids (cancels) an authorization or a pending payment. */
  void(request: { connectorTransactionId: string }): Promise<PaymentResult>;
  /** Refunds `amount` minor units of a captured payment. */
  refund(request: { connectorTransactionId: string; amount: number; currency: Currency; refundId: string }): Promise<RefundResult>;
}
