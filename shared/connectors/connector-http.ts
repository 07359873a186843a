import { ConnectorRequestError, ConnectorTechnicalError } from './connector';

/** Default timeout of one processor call, in milliseconds. */
export const DEFAULT_CONNECTOR_TIMEOUT_MS = 8000;

/** One HTTP call to a processor. */
export interface ConnectorHttpRequest {
  connector: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Full URL (the adapter joins its configured base URL and the documented path). */
  url: string;
  headers: Record<string, string>;
  /** Already encoded (JSON or form), or undefined. */
  body?: string;
  timeoutMs?: number;
  /**
   * Maps a 4xx error body to the processor's code and message. Without it the
   * code is `http_<status>`.
   */
  errorOf?: (status: number, body: unknown) => { code: string; message: string };
}

/**
 * Calls a processor with the platform `fetch`, with a timeout, and parses JSON.
 * @returns the parsed JSON body of a 2xx answer
 * @throws ConnectorTechnicalError on timeout, network failure, 5xx or an unparseable body
 * @throws ConnectorRequestError on a 4xx, with the processor's code and message
 */
export async function connectorFetch<T>(request: ConnectorHttpRequest): Promise<T> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(request.timeoutMs ?? DEFAULT_CONNECTOR_TIMEOUT_MS),
    });
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    throw new ConnectorTechnicalError(request.connector, timedOut ? `${request.connector} did not answer in time.` : `${request.connector} could not be reached.`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    if (response.status >= 400 && response.status < 500) {
      throw new ConnectorRequestError(request.connector, `http_${response.status}`, `${request.connector} refused the request (HTTP ${response.status}).`);
    }
    throw new ConnectorTechnicalError(request.connector, `${request.connector} answered HTTP ${response.status} with a body that is not JSON.`);
  }
  if (response.status >= 500) throw new ConnectorTechnicalError(request.connector, `${request.connector} answered HTTP ${response.status}.`);
  if (response.status >= 400) {
    const mapped = request.errorOf?.(response.status, body) ?? { code: `http_${response.status}`, message: `${request.connector} refused the request (HTTP ${response.status}).` };
    throw new ConnectorRequestError(request.connector, mapped.code, mapped.message);
  }
  return body as T;
}
