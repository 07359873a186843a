import { ApiError } from '../shared/domain/errors';
import { apiHandler } from '../shared/http/api-handler';

/** The `$default` route: any unknown method or path → 404 `route_not_found` in the API's error shape. */
export const handler = apiHandler({ auth: false }, async (req) => {
  throw new ApiError(
    404,
    'invalid_request_error',
    'route_not_found',
    `Unrecognized request: ${req.event.requestContext.http.method} ${req.event.rawPath}. See docs/api.md for the list of endpoints.`,
  );
});
