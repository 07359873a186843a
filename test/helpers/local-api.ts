import { randomUUID } from 'node:crypto';
import { type LocalGateway, startGateway } from '../../scripts/local/gateway';
import { putApiKey } from '../../shared/storage/api-keys-repository';
import { destroyDocumentClient } from '../../shared/storage/client';
import { ContractRecorder } from './contract-validator';

/** A response as the tests see it: status, parsed JSON body (or raw text), headers. */
export interface TestResponse {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
  headers: Headers;
}

/** Options of one request. `body` is JSON-encoded unless `raw` is given. */
export interface RequestOptions {
  body?: unknown;
  raw?: string;
  key?: string | null;
  headers?: Record<string, string>;
}

/** A test's handle on the local API: the gateway, a fresh merchant and its key. */
export interface LocalApi {
  url: string;
  merchantId: string;
  apiKey: string;
  /**
   * Sends a request to the gateway.
   * @throws ContractMismatchError when the exchange does not keep docs/openapi.json (test/helpers/contract-validator.ts)
   */
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Issues another merchant with its own key (for isolation tests). */
  newMerchantKey(): Promise<string>;
  /**
   * Stops the gateway and writes the file's contract coverage.
   * @throws Error listing the exchanges made with a raw `fetch` that did not keep docs/openapi.json
   */
  close(): Promise<void>;
}

/**
 * Starts the local gateway with every exchange checked against docs/openapi.json
 * (test/helpers/contract-validator.ts): for tests that talk to the gateway with `fetch` only.
 * Its `close()` throws a report of the exchanges that broke the contract.
 */
export async function startCheckedGateway(): Promise<LocalGateway & { contract: ContractRecorder }> {
  const contract = new ContractRecorder();
  const gateway = await startGateway(0, '127.0.0.1', { onExchange: contract.observe });
  return {
    ...gateway,
    contract,
    close: async () => {
      await gateway.close();
      contract.finish();
    },
  };
}

/**
 * Starts the local gateway (the same code `npm start` serves) on a free port and
 * seeds a fresh merchant with its own API key, so each test file sees only its
 * own data in the shared DynamoDB Local. Every exchange, raw `fetch` calls to `url` included, is
 * checked against docs/openapi.json: `request` throws on a mismatch of its own exchange, `close`
 * on those of the others.
 */
export async function startLocalApi(): Promise<LocalApi> {
  const gateway = await startCheckedGateway();
  const newMerchantKey = async () => {
    const merchantId = `mer_${randomUUID().replace(/-/g, '')}`;
    const key = `sk_test_${randomUUID().replace(/-/g, '')}`;
    await putApiKey(key, merchantId, 'test');
    return key;
  };
  const merchantId = `mer_${randomUUID().replace(/-/g, '')}`;
  const apiKey = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(apiKey, merchantId, 'test');
  const request = async (method: string, path: string, options: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (options.key !== null) headers['api-key'] = options.key ?? apiKey;
    let body: string | undefined = options.raw;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${gateway.url}${path}`, { method, headers, body });
    const text = await res.text();
    gateway.contract.claim(res.headers.get('apigw-requestid'));
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return {
    url: gateway.url,
    merchantId,
    apiKey,
    request,
    newMerchantKey,
    close: async () => {
      try {
        await gateway.close();
      } finally {
        destroyDocumentClient();
      }
    },
  };
}

/** A card body for `payment_method_data`, expiring in a future year. */
export function card(number: string): { card: Record<string, string> } {
  return {
    card: { card_number: number, card_exp_month: '12', card_exp_year: String(new Date().getUTCFullYear() + 3), card_cvc: '123' },
  };
}

/** Asserts the API's error body shape and returns its `error` object. */
export function expectError(
  res: TestResponse,
  status: number,
  code?: string,
): { type: string; code: string; message: string; param?: string } {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { error: { type: expect.any(String), code: expect.any(String), message: expect.any(String) } },
  });
  if (code) expect(res.body.error.code).toBe(code);
  return res.body.error;
}
