/**
 * The payment state machine. Status names are written exactly as the interface
 * document shows them (section 3), plus `RequiresCapture` for manual capture.
 */

/** Every status a payment can be in. */
export const PAYMENT_STATUSES = [
  'RequiresConfirmation',
  'RequiresAction',
  'Processing',
  'RequiresCapture',
  'Succeeded',
  'Failed',
  'Cancelled',
] as const;

/** One of {@link PAYMENT_STATUSES}. */
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Operations that move a payment from one status to another. */
export type PaymentOperation = 'confirm' | 'authenticate' | 'cancel' | 'capture' | 'refund' | 'connector_update';

/** Statuses no operation ever leaves. */
export const TERMINAL_STATUSES: readonly PaymentStatus[] = ['Succeeded', 'Failed', 'Cancelled'];

/**
 * Which statuses each operation may start from:
 * - confirm: only a payment created with `confirm: false`;
 * - authenticate: a payment whose processor asks for a PIN, OTP, phone, birthday or address step;
 * - cancel: before money moved or while it is held (void);
 * - capture: a manual-capture authorization;
 * - refund: a completed payment (it stays `Succeeded`);
 * - connector_update: a connector's answer settling a pending payment.
 */
export const ALLOWED_FROM: Readonly<Record<PaymentOperation, readonly PaymentStatus[]>> = {
  confirm: ['RequiresConfirmation'],
  authenticate: ['RequiresAction'],
  cancel: ['RequiresConfirmation', 'RequiresAction', 'Processing', 'RequiresCapture'],
  capture: ['RequiresCapture'],
  refund: ['Succeeded'],
  connector_update: ['Processing', 'RequiresAction'],
};

/** Every edge of the state machine: status → statuses it may move to. */
export const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  RequiresConfirmation: ['Processing', 'Cancelled'],
  Processing: ['Succeeded', 'Failed', 'RequiresAction', 'RequiresCapture', 'Cancelled'],
  RequiresAction: ['Processing', 'Succeeded', 'Failed', 'RequiresCapture', 'Cancelled'],
  RequiresCapture: ['Succeeded', 'Cancelled'],
  Succeeded: [],
  Failed: [],
  Cancelled: [],
};

/**
 * @returns true when `operation` may run on a payment in `status`.
 */
export function canApply(operation: PaymentOperation, status: PaymentStatus): boolean {
  return ALLOWED_FROM[operation].includes(status);
}

/**
 * @returns true when the state machine has an edge `from → to`.
 */
export function canTransition(from: PaymentStatus, to: PaymentStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** @returns true for `Succeeded`, `Failed` and `Cancelled`. */
export function isTerminal(status: PaymentStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
