import { ApiError } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';

/**
 * The `$default` route: any unknown method or path → 404 `route_not_found` in the API's error
 * shape. The message does not repeat the method or the path: both are caller input (a path can
 * hold anything, a card number included).
 */
export const handler = apiHandler({ auth: false }, async () => {
  throw new ApiError(
    404,
    'invalid_request_error',
    'route_not_found',
    'No endpoint matches this method and path. Check both against docs/api.md, which lists every endpoint.',
  );
});
