/**
 * The log lines disputes write for operators: one JSON line per dispute opened, reminder sent and dispute
 * expired, each with `account` (the merchant connector account, or `platform:<connector>`), `connector`,
 * `merchant_id` and `dispute_id`. CloudWatch Contributor Insights rules count them by account
 * (lib/monitoring/disputes-section.ts): one series however many accounts there are.
 */
export const DISPUTE_LOG_MESSAGES = {
  opened: 'dispute opened',
  reminded: 'dispute reminder sent',
  expired: 'dispute expired',
} as const;
