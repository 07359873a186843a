/**
 * The scenarios of `npm run routing:simulate` (docs/routing.md "The simulator"): virtual accounts whose approval
 * probability depends on the payment's segment and the (virtual) time. Every scenario runs card payments in NGN,
 * half Visa and half Mastercard, one every {@link PAYMENT_INTERVAL_MS} of virtual time.
 */
import prand from 'pure-rand';

/** Virtual time between two payments: 500 ms (2 payments a second, 7,200 an hour). */
export const PAYMENT_INTERVAL_MS = 500;

/** The card networks payments are drawn from (evenly): one segment each. */
export const NETWORKS = ['visa', 'mastercard'] as const;

/** One scenario: its accounts' approval probability (0–1) for a network at a time since the start (ms). */
export interface Scenario {
  name: string;
  description: string;
  /** Virtual duration, ms. */
  durationMs: number;
  accounts: string[];
  /** Whether the accounts' behaviour changes (the goals differ: docs/routing.md "The simulator"). */
  stationary: boolean;
  approval(account: number, network: (typeof NETWORKS)[number], tMs: number): number;
  /** The outage: when it starts, for which network, and the account that fails (for the "moves within" goal). */
  outage?: { startMs: number; network: (typeof NETWORKS)[number]; account: number };
}

const MIN = 60_000;
const HOUR = 60 * MIN;

/** Piecewise-constant levels per account: a new level drawn from [lo, hi] every `stepMs`, seeded. */
function noisyLevels(seed: number, accounts: number, steps: number, lo: number, hi: number): number[][] {
  const rng = prand.xoroshiro128plus(seed);
  return Array.from({ length: accounts }, () =>
    Array.from({ length: steps }, () => lo + (prand.unsafeUniformIntDistribution(0, 1_000_000, rng) / 1_000_000) * (hi - lo)),
  );
}

/**
 * The five scenarios of the issue.
 * @param seed seeds the noise of "three accounts with noise"
 */
export function scenarios(seed: number): Scenario[] {
  const noiseStepMs = 20 * MIN;
  const noiseDuration = 4 * HOUR;
  const levels = noisyLevels(seed, 3, noiseDuration / noiseStepMs, 0.78, 0.95);
  return [
    {
      name: 'stationary',
      description: 'A approves 92 %, B 88 %, for every card, all the time.',
      durationMs: 3 * HOUR,
      accounts: ['A', 'B'],
      stationary: true,
      approval: (a) => (a === 0 ? 0.92 : 0.88),
    },
    {
      name: 'outage',
      description: 'A 92 %, B 88 %; after an hour A approves only 30 % of Visa cards for 20 minutes, then recovers.',
      durationMs: 3 * HOUR,
      accounts: ['A', 'B'],
      stationary: false,
      approval: (a, network, t) => {
        if (a === 1) return 0.88;
        return network === 'visa' && t >= HOUR && t < HOUR + 20 * MIN ? 0.3 : 0.92;
      },
      outage: { startMs: HOUR, network: 'visa', account: 0 },
    },
    {
      name: 'drift',
      description: 'A falls from 95 % to 80 % and B rises from 82 % to 94 % over 3 hours: they cross.',
      durationMs: 3 * HOUR,
      accounts: ['A', 'B'],
      stationary: false,
      approval: (a, _n, t) => {
        const x = t / (3 * HOUR);
        return a === 0 ? 0.95 - 0.15 * x : 0.82 + 0.12 * x;
      },
    },
    {
      name: 'segments',
      description: 'A approves 93 % of Visa and 85 % of Mastercard; B 86 % of Visa and 92 % of Mastercard.',
      durationMs: 3 * HOUR,
      accounts: ['A', 'B'],
      stationary: false,
      approval: (a, network) => (a === 0 ? (network === 'visa' ? 0.93 : 0.85) : network === 'visa' ? 0.86 : 0.92),
    },
    {
      name: 'three-noisy',
      description: 'Three accounts, each at a level drawn from 78–95 % anew every 20 minutes (seeded).',
      durationMs: noiseDuration,
      accounts: ['A', 'B', 'C'],
      stationary: false,
      approval: (a, _n, t) => levels[a]![Math.min(levels[a]!.length - 1, Math.floor(t / noiseStepMs))]!,
    },
  ];
}
