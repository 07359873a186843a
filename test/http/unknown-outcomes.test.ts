/**
 * The reconciler's fault suite (test/http/unknown-outcomes-suite.ts) with payments on the platform's own
 * Stripe account: the harness merchant has no connector account, so the stage's routing rules send its
 * USD cards to Stripe (the stand-in's default account), then the sandbox.
 */
import { unknownOutcomesSuite } from './unknown-outcomes-suite';

unknownOutcomesSuite({ merchantAccount: false });
