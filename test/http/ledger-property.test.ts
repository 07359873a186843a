/**
 * The ledger property (test/http/ledger-property-suite.ts) with payments on the platform's own Stripe
 * account (the harness merchant has no connector account).
 */
import { ledgerPropertySuite } from './ledger-property-suite';

ledgerPropertySuite({ merchantAccount: false });
