import { requiresPayerEmail } from '../../domain/connector-account';
import type { PaymentMethod } from '../../domain/payment';
import { getCustomer } from '../../storage/customers-repository';

/** What a charge takes from the payment's customer when the payment does not carry it itself. */
export interface CustomerContact {
  /** The phone (E.164) a mobile-money payment is collected from, or null. Never stored on the payment. */
  phone: string | null;
  /** The customer's e-mail, for a payment without one routed where an e-mail is required, or null. */
  email: string | null;
}

/**
 * The customer's phone and e-mail a charge needs, reading the customer at most once and only when one is needed:
 * - the phone for a mobile-money charge, unless the payer typed one (`payerPhone`);
 * - the e-mail when the payment has none and a connector it may go to (its choice or any fallback) refuses a charge
 *   without one (`requiresPayerEmail`: Paystack, Flutterwave; Stripe and the sandbox need none). Paystack itself
 *   identifies a customer by e-mail (https://paystack.com/docs/api/customer/#create: `email` required), so the
 *   customer's e-mail is the payer's there. The caller stores it as the payment's `email` (docs/api.md, "Payments").
 * @param input.customerId the payment's customer, if any (without one, nothing is read: both null)
 * @param input.candidates the connectors routing answered, in order
 * @returns the contact (each null when not needed, or the customer, deleted or missing, has none)
 */
export async function customerContactFor(
  merchantId: string,
  input: {
    customerId: string | null | undefined;
    paymentMethod: PaymentMethod | undefined;
    payerPhone?: string;
    hasEmail: boolean;
    candidates: readonly { name: string }[];
  },
): Promise<CustomerContact> {
  const needsPhone = input.paymentMethod === 'mobile_money' && !input.payerPhone;
  const needsEmail = !input.hasEmail && input.candidates.some((c) => requiresPayerEmail(c.name));
  const customer = input.customerId && (needsPhone || needsEmail) ? await getCustomer(merchantId, input.customerId) : undefined;
  return {
    phone: input.paymentMethod === 'mobile_money' ? (input.payerPhone ?? customer?.phone ?? null) : null,
    email: needsEmail ? (customer?.email ?? null) : null,
  };
}
