/**
 * The stage's payout settings, read from the environment at each use (so tests and operators can change them).
 */
import type { Currency } from '../domain/money';

/**
 * Default daily payout limits per merchant, in minor units per currency (one UTC day): ₦50,000,000 (NGN),
 * GH₵500,000 (GHS), KSh 10,000,000 (KES), R1,000,000 (ZAR). Paystack's own default is a per-transfer and
 * per-day limit set on the business (https://paystack.com/docs/transfers/single-transfers/); ours is a second
 * guard in front of it, so a leaked API key cannot drain a balance in a day.
 */
export const DEFAULT_PAYOUT_DAILY_LIMITS: Readonly<Partial<Record<Currency, number>>> = {
  NGN: 5_000_000_000,
  GHS: 50_000_000,
  KES: 1_000_000_000,
  ZAR: 100_000_000,
};

/**
 * The daily payout limit of one merchant in `currency`, in minor units: `PAYOUT_DAILY_LIMITS` (JSON object of
 * currency → whole minor units, e.g. `{"NGN": 100000000}`; currencies it leaves out keep their default), else
 * {@link DEFAULT_PAYOUT_DAILY_LIMITS}. A value that is not a whole number ≥ 0 is ignored (the default stands).
 * @returns minor units; 0 means no payout in that currency
 */
export function payoutDailyLimit(currency: Currency, env: NodeJS.ProcessEnv = process.env): number {
  const fallback = DEFAULT_PAYOUT_DAILY_LIMITS[currency] ?? 0;
  const raw = env.PAYOUT_DAILY_LIMITS;
  if (!raw) return fallback;
  try {
    const value = (JSON.parse(raw) as Record<string, unknown>)[currency];
    return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : fallback;
  } catch {
    return fallback;
  }
}
