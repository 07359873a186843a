import { htmlHandler, referenceSecurityHeaders } from '../../shared/http/html-handler';

/**
 * The version of redoc whose bundle `GET /docs/redoc.standalone.js` serves (package.json pins it;
 * test/http/api-reference.test.ts checks the two agree). It is the script URL's `v` query parameter,
 * so browsers may cache the script for a year and still fetch a new one after an upgrade.
 */
export const REDOC_VERSION = '2.5.4';

/**
 * The reference page: Redoc rendering `openapi.json`. Both URLs are relative to the page (`/docs` →
 * `/openapi.json` and `/docs/redoc.standalone.js`), so the page works under any base path (a stage
 * path, a custom domain's mapping). The `<redoc>` element comes before the script: the bundle renders
 * the first `<redoc spec-url>` it finds when it runs. No inline script (the CSP allows none).
 */
export const API_REFERENCE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>Switchyard API reference</title>
<style>body{margin:0;padding:0}</style>
</head>
<body>
<redoc spec-url="openapi.json"></redoc>
<script src="docs/redoc.standalone.js?v=${REDOC_VERSION}"></script>
</body>
</html>
`;

/**
 * `GET /docs` (public, no api-key): the API reference, rendered in the browser by Redoc from
 * `GET /openapi.json`, with the Content-Security-Policy of {@link referenceSecurityHeaders}. Cacheable
 * for 5 minutes. Asked for as `/docs/` (with a trailing slash, which the page's relative URLs would
 * misread), it answers 308 to `/docs`, by a relative `Location` that keeps any base path.
 */
export const handler = htmlHandler(
  async (event) => {
    const trailing = /\/+$/.exec(event.rawPath ?? '')?.[0].length ?? 0;
    if (trailing > 0) {
      return { statusCode: 308, html: '', headers: { location: `${'../'.repeat(trailing)}docs` } };
    }
    return { html: API_REFERENCE_HTML };
  },
  { securityHeaders: referenceSecurityHeaders, cacheControl: 'public, max-age=300' },
);
