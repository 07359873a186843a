/**
 * The query-string, path and card-text properties of test/http/property-based-suite.ts: whatever the query or path,
 * never a 5xx and every 4xx in the error shape; a card number in any spelling in any stored field is refused, and
 * legitimate long digit runs are accepted.
 */
import { cardTextProperties, pathProperties, queryStringProperties } from './property-based-suite';

queryStringProperties();
pathProperties();
cardTextProperties();
