import { API_VERSION, API_VERSION_HEADER } from '../../shared/api/api-version';
import { OPENAPI_DOCUMENT_FILE } from '../../shared/api/reference-files';
import { staticAssetHandler } from './static-asset';

/**
 * `GET /openapi.json` (public, no api-key): the committed OpenAPI 3.1 document (docs/openapi.json,
 * written by `npm run openapi`), byte for byte, as `application/json`. Cacheable for 5 minutes by
 * anyone (`public, max-age=300`), then revalidated by its `ETag` (304 when unchanged). It names the
 * version it describes in `Switchyard-Version`, like every JSON answer of the API.
 */
export const handler = staticAssetHandler({
  file: OPENAPI_DOCUMENT_FILE,
  contentType: 'application/json',
  cacheControl: 'public, max-age=300',
  headers: { [API_VERSION_HEADER]: API_VERSION },
});
