/**
 * Payment links: a URL a merchant with no web developer shares (WhatsApp, Instagram, an invoice) where a payer
 * pays on Switchyard's hosted checkout page. A link is reusable, after Stripe Payment Links
 * (https://docs.stripe.com/api/payment_links): every visit that pays creates a payment of its own carrying
 * `payment_link_id`; `max_payments` plays the part of Stripe's `restrictions.completed_sessions.limit`; an amount the
 * payer chooses within `amount_min`…`amount_max` serves donations and tips (Paystack payment pages without
 * `fixed_amount`, https://paystack.com/docs/api/page/).
 */
import type { Currency } from './money';
import type { PaymentMethod } from './payment';

/**
 * Where a link is: `active` (its page takes payments), `inactive` (deactivated), `expired` (`expires_at` passed),
 * `completed` (used up: `payments_count` reached `max_payments`).
 */
export const PAYMENT_LINK_STATUSES = ['active', 'inactive', 'expired', 'completed'] as const;

/** One of {@link PAYMENT_LINK_STATUSES}. */
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

/** What the checkout page may ask of the payer besides the payment (Paystack's `custom_fields`, Stripe's `phone_number_collection`). */
export const CUSTOMER_FIELDS = ['email', 'name', 'phone'] as const;

/** One of {@link CUSTOMER_FIELDS}. */
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];

/** The largest `max_payments` a link takes. */
export const MAX_PAYMENTS_LIMIT = 1_000_000;

/** A payment link as the API answers it (component `PaymentLink`). Amounts in minor units; timestamps ISO 8601 UTC. */
export interface PaymentLink {
  /** `plink_…` */
  payment_link_id: string;
  /** The checkout page's URL (`<stage>/checkout/plink_…`): the link to share. */
  url: string;
  /** False once deactivated (Stripe's `active`). */
  active: boolean;
  status: PaymentLinkStatus;
  /** A fixed amount, or null when the payer chooses it within `amount_min`…`amount_max`. */
  amount: number | null;
  amount_min: number | null;
  amount_max: number | null;
  currency: Currency;
  description: string | null;
  /** The methods the page offers (null: every method routing can serve for the currency). */
  payment_methods: PaymentMethod[] | null;
  expires_at: string | null;
  /** How many payments the link may take (null: no limit). */
  max_payments: number | null;
  /** Payments created from the link that hold a place under `max_payments` (a payment that failed on the page gives its place back). */
  payments_count: number;
  return_url: string | null;
  customer_fields: CustomerField[];
  metadata: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/**
 * The status of a link at a time.
 * @param nowMs epoch ms
 */
export function paymentLinkStatus(
  link: Pick<PaymentLink, 'active' | 'expires_at' | 'max_payments' | 'payments_count'>,
  nowMs: number,
): PaymentLinkStatus {
  if (!link.active) return 'inactive';
  if (link.expires_at !== null && Date.parse(link.expires_at) <= nowMs) return 'expired';
  if (link.max_payments !== null && link.payments_count >= link.max_payments) return 'completed';
  return 'active';
}

/** The sentence the checkout page shows (with 410) for a link that takes no payment, by status. */
export const CLOSED_LINK_SENTENCES: Readonly<Record<Exclude<PaymentLinkStatus, 'active'>, string>> = {
  inactive: 'This payment link has been turned off by the merchant. No payment was made. Ask the merchant for a new link.',
  expired: 'This payment link has expired. No payment was made. Ask the merchant for a new link.',
  completed: 'This payment link has already been used as many times as the merchant allowed. No payment was made.',
};

/**
 * Single-use links on a payment (Hyperswitch's model: `payment_link: true` and `session_expiry` on
 * `PaymentsRequest`, answered as `payment_link: {link, payment_link_id}`; juspay/hyperswitch
 * crates/api_models/src/payments.rs, and `DEFAULT_SESSION_EXPIRY = 15 * 60` in crates/common_utils/src/consts.rs):
 * how long the link takes payment, in seconds, when `session_expiry` is left out.
 */
export const DEFAULT_SESSION_EXPIRY_SECONDS = 900;

/** The longest `session_expiry`, in seconds (7,890,000: about three months). */
export const MAX_SESSION_EXPIRY_SECONDS = 7_890_000;

/** The shortest `session_expiry`, in seconds: a link that closes within a minute could not be paid on. */
export const MIN_SESSION_EXPIRY_SECONDS = 60;

/** The sentences of a single-use link's page (answered with 410) once its payment can no longer be paid there. */
export const PAYMENT_CLOSED_SENTENCES = {
  paid: 'This payment has already been made. Nothing more is due, and nothing was charged again.',
  ended: 'This payment can no longer be made: it failed or was cancelled. No money was taken. Ask the merchant for a new link.',
} as const;

/** The checkout page's path of a link: `/checkout/{payment_link_id}`. */
export function checkoutPath(paymentLinkId: string): string {
  return `/checkout/${encodeURIComponent(paymentLinkId)}`;
}
