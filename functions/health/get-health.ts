import { apiHandler } from '../../shared/http/api-handler';
import { tableAnswers } from '../../shared/storage/health-repository';

/** `GET /health` (no key): 200 `{status: "ok", dynamodb: "ok", time}`, or 503 `{status: "unavailable", dynamodb: "unreachable", time}`. */
export const handler = apiHandler({ auth: false }, async () => {
  const ok = await tableAnswers();
  return {
    statusCode: ok ? 200 : 503,
    body: { status: ok ? 'ok' : 'unavailable', dynamodb: ok ? 'ok' : 'unreachable', time: new Date().toISOString() },
  };
});
