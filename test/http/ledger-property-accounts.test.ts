/**
 * The ledger property (test/http/ledger-property-suite.ts) with payments on the merchant's own connector
 * accounts: its Stripe account of the stand-in, then its sandbox account; every call must use
 * that account's key and the platform's account sees nothing (test/helpers/fault-harness.ts).
 */
import { ledgerPropertySuite } from './ledger-property-suite';

ledgerPropertySuite({ merchantAccount: true });
