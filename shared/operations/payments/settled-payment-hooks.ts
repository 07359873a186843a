/**
 * Steps other capabilities run after a payment's outcome is recorded, registered by them so that payments
 * import none of them: billing moves the invoice a subscription's payment was charged for
 * (shared/operations/billing/invoice-settlement-hook.ts); payment links give back the place of a link payment that
 * ended `Failed` or `Cancelled` (shared/operations/payment-links/link-place-hook.ts). A module that can settle a payment and sits above
 * payments (a handler, the reconciler, inbound webhooks, payer and sandbox pages, billing's own charges) imports
 * the registrations it needs once; each registration is idempotent.
 */
import type { Payment } from '../../domain/payment';

/**
 * One step run after a payment's outcome is recorded (`Succeeded`, `RequiresCapture`, `Failed`, …).
 * It must not throw for a failure of its own work (log it): the payment's answer does not depend on it.
 */
export type SettledPaymentHook = (merchantId: string, payment: Payment) => Promise<void>;

const hooks: SettledPaymentHook[] = [];

/** Registers a step; registering the same function again changes nothing. */
export function onSettledPayment(hook: SettledPaymentHook): void {
  if (!hooks.includes(hook)) hooks.push(hook);
}

/**
 * Runs the registered steps in registration order, one after the other.
 * @throws what a step throws (a step is expected not to)
 */
export async function runSettledPaymentHooks(merchantId: string, payment: Payment): Promise<void> {
  for (const hook of hooks) await hook(merchantId, payment);
}
