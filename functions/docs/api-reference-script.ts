import { REDOC_SCRIPT_FILE } from '../../shared/api/reference-files';
import { staticAssetHandler } from './static-asset';

/**
 * `GET /docs/redoc.standalone.js` (public, no api-key): Redoc's standalone browser bundle (redoc
 * 2.5.4, node_modules/redoc/bundles/redoc.standalone.js, about 1.1 MB), copied into this function's
 * bundle at build time, so the reference page loads nothing from a CDN. `text/javascript` (RFC 9239)
 * in UTF-8; cached for a year and never revalidated (`immutable`): the page asks for it as
 * `docs/redoc.standalone.js?v=<redoc version>`, so a Redoc upgrade is a new URL.
 */
export const handler = staticAssetHandler({
  file: REDOC_SCRIPT_FILE,
  contentType: 'text/javascript; charset=utf-8',
  cacheControl: 'public, max-age=31536000, immutable',
});
