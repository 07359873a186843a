/**
 * The reconciler's fault suite (test/http/unknown-outcomes-suite.ts) with payments on the merchant's own
 * connector accounts: the harness merchant connects a Stripe account of the stand-in, then a
 * sandbox account, and every payment, capture, void, refund and reconciler call must use that account's
 * key; table and that account's ledger converge as on the platform's account, and the platform's account
 * sees nothing (test/helpers/fault-harness.ts, `merchantAccount`).
 */
import { unknownOutcomesSuite } from './unknown-outcomes-suite';

unknownOutcomesSuite({ merchantAccount: true });
