/**
 * The request-body properties of test/http/property-based-suite.ts (create, confirm, refund, customer update):
 * whatever the body, never a 5xx, every 4xx in the error shape, a rejected request writes nothing.
 */
import { requestBodyProperties } from './property-based-suite';

requestBodyProperties();
