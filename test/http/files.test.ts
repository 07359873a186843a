/**
 * `POST /files` and `GET /files/{file_id}` (evidence files), through their Lambda handlers with API
 * Gateway (payload 2.0) events against DynamoDB Local and a temporary FILES_DIR. The routes are not in
 * shared/api/routes.ts (nor docs/openapi.json) yet, so the local gateway, which checks every exchange against the
 * OpenAPI document, cannot serve them: TODO once `CreateFile` and `GetFile` are routed, also drive these cases
 * through test/helpers/local-api.ts `api.request`.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { handler as createHandler } from '../../functions/files/create-file';
import { handler as getHandler } from '../../functions/files/get-file';
import { MAX_FILE_BYTES } from '../../shared/domain/file';
import { readFileForEvidence } from '../../shared/operations/files/file-operations';
import { putApiKey } from '../../shared/storage/api-keys-repository';
import { destroyDocumentClient } from '../../shared/storage/client';
import { expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

const PDF = Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const dir = mkdtempSync(join(tmpdir(), 'switchyard-files-'));
const previousDir = process.env.FILES_DIR;
let keyA = '';
let merchantA = '';
let keyB = '';

beforeAll(async () => {
  process.env.FILES_DIR = dir;
  merchantA = `mer_${randomUUID().replace(/-/g, '')}`;
  keyA = `sk_test_${randomUUID().replace(/-/g, '')}`;
  keyB = `sk_test_${randomUUID().replace(/-/g, '')}`;
  await putApiKey(keyA, merchantA, 'test');
  await putApiKey(keyB, `mer_${randomUUID().replace(/-/g, '')}`, 'test');
});

afterAll(() => {
  if (previousDir === undefined) delete process.env.FILES_DIR;
  else process.env.FILES_DIR = previousDir;
  rmSync(dir, { recursive: true, force: true });
  destroyDocumentClient();
});

/** A payload 2.0 event as the HTTP API (and scripts/local/gateway.ts) builds it: a multipart body arrives base64-encoded. */
function event(method: string, path: string, key: string, body?: Buffer, contentType?: string, pathParameters?: Record<string, string>) {
  const headers: Record<string, string> = { 'api-key': key, host: 'localhost' };
  if (contentType) headers['content-type'] = contentType;
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'jest' },
      requestId: randomUUID(),
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    ...(pathParameters ? { pathParameters } : {}),
    ...(body ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
  } as unknown as APIGatewayProxyEventV2;
}

const context = { getRemainingTimeInMillis: () => 29_000, awsRequestId: 'test', functionName: 'test' } as unknown as Context;

function multipart(parts: { name: string; value?: string; filename?: string; type?: string; content?: Buffer }[]) {
  const boundary = `----switchyard${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(p.content ?? Buffer.from(p.value ?? ''));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function call(h: typeof createHandler, e: APIGatewayProxyEventV2) {
  const res = (await h(e, context)) as APIGatewayProxyStructuredResultV2;
  return { status: res.statusCode as number, body: JSON.parse(String(res.body)), text: String(res.body) };
}

const upload = (key: string, parts: Parameters<typeof multipart>[0], headers: Record<string, string> = {}) => {
  const { body, contentType } = multipart(parts);
  const e = event('POST', '/files', key, body, contentType);
  Object.assign(e.headers, headers);
  return call(createHandler, e);
};

const evidence = (content: Buffer, filename: string, type: string) => [
  { name: 'purpose', value: 'dispute_evidence' },
  { name: 'file', filename, type, content },
];

describe('POST /files', () => {
  it('stores a PDF and a PNG under the merchant prefix and answers their metadata only', async () => {
    for (const [content, name, type, kind] of [
      [PDF, 'receipt.pdf', 'application/pdf', 'pdf'],
      [PNG, 'shipping label.png', 'image/png', 'png'],
    ] as const) {
      const res = await upload(keyA, evidence(content, name, type));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        file_id: expect.stringMatching(/^file_[0-9a-f]{32}$/),
        purpose: 'dispute_evidence',
        filename: name,
        size: content.length,
        type: kind,
        created_at: expect.any(String),
        expires_at: expect.any(String),
      });
      expect(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at)).toBeGreaterThan(399 * 86_400_000);
      // the bytes are in the store, under <merchant_id>/<file_id>, and in no response
      expect(readFileSync(join(dir, merchantA, res.body.file_id)).equals(content)).toBe(true);
      expect(res.text).not.toContain(content.toString('base64'));
      expect(res.text).not.toContain(content.toString('latin1'));
      const got = await call(
        getHandler,
        event('GET', `/files/${res.body.file_id}`, keyA, undefined, undefined, { file_id: res.body.file_id }),
      );
      expect(got).toMatchObject({ status: 200, body: res.body });
      const read = await readFileForEvidence(merchantA, res.body.file_id);
      expect(read).toMatchObject({ fileId: res.body.file_id, filename: name, mediaType: type });
      expect(read.content.equals(content)).toBe(true);
    }
    expect(readdirSync(dir)).toEqual([merchantA]);
  });

  it('refuses a file over 4 MiB with 400 file_too_large, storing nothing', async () => {
    const before = readdirSync(join(dir, merchantA)).length;
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_FILE_BYTES + 1 - PDF.length)]);
    const res = await upload(keyA, evidence(big, 'big.pdf', 'application/pdf'));
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'file_too_large', param: 'file' } } });
    const huge = await upload(keyA, evidence(Buffer.concat([big, Buffer.alloc(200_000)]), 'huge.pdf', 'application/pdf'));
    expect(huge).toMatchObject({ status: 400, body: { error: { code: 'file_too_large' } } });
    expect(readdirSync(join(dir, merchantA))).toHaveLength(before);
  });

  it('refuses another type (by content, whatever its name) with 400 file_type_unsupported', async () => {
    const gif = await upload(keyA, evidence(Buffer.from('GIF89a\x01\x00'), 'photo.png', 'image/png'));
    expect(gif).toMatchObject({ status: 400, body: { error: { code: 'file_type_unsupported', param: 'file' } } });
    const lying = await upload(keyA, evidence(PDF, 'receipt.png', 'image/png'));
    expect(lying).toMatchObject({ status: 400, body: { error: { code: 'file_type_unsupported' } } });
  });

  it('answers 400, never 5xx, to a wrong purpose, a missing file and broken multipart; 415 to another media type', async () => {
    const purpose = await upload(keyA, [
      { name: 'purpose', value: 'identity_document' },
      ...evidence(PDF, 'a.pdf', 'application/pdf').slice(1),
    ]);
    expect(purpose).toMatchObject({ status: 400, body: { error: { code: 'parameter_invalid', param: 'purpose' } } });
    const noFile = await upload(keyA, [{ name: 'purpose', value: 'dispute_evidence' }]);
    expect(noFile).toMatchObject({ status: 400, body: { error: { code: 'parameter_missing', param: 'file' } } });
    const two = await upload(keyA, [...evidence(PDF, 'a.pdf', 'application/pdf'), { name: 'file', filename: 'b.pdf', content: PDF }]);
    expect(two).toMatchObject({ status: 400, body: { error: { code: 'invalid_multipart' } } });
    const { body, contentType } = multipart(evidence(PDF, 'a.pdf', 'application/pdf'));
    const cut = await call(createHandler, event('POST', '/files', keyA, body.subarray(0, body.length - 30), contentType));
    expect(cut.status).toBe(400);
    const garbage = await call(createHandler, event('POST', '/files', keyA, Buffer.from('not multipart at all'), contentType));
    expect(garbage.status).toBe(400);
    const noBoundary = await call(createHandler, event('POST', '/files', keyA, body, 'multipart/form-data'));
    expect(noBoundary.status).toBe(415);
    const json = await call(createHandler, event('POST', '/files', keyA, Buffer.from('{}'), 'application/json'));
    expect(json).toMatchObject({ status: 415, body: { error: { code: 'unsupported_media_type' } } });
  });

  it('requires the api key', async () => {
    const res = await upload('sk_test_nope', evidence(PDF, 'a.pdf', 'application/pdf'));
    expect(res.status).toBe(401);
  });
});

describe('GET /files/{file_id}', () => {
  it("answers 404 for another merchant's file, and for unknown or junk ids; the bytes cannot be read across merchants", async () => {
    const mine = await upload(keyA, evidence(PDF, 'mine.pdf', 'application/pdf'));
    const id = mine.body.file_id as string;
    const other = await call(getHandler, event('GET', `/files/${id}`, keyB, undefined, undefined, { file_id: id }));
    expect(other).toMatchObject({ status: 404, body: { error: { code: 'resource_missing', param: 'file_id' } } });
    for (const junk of ['file_0000', 'pay_123', '../etc']) {
      const res = await call(getHandler, event('GET', `/files/${junk}`, keyA, undefined, undefined, { file_id: junk }));
      expect(res.status).toBe(404);
    }
    await expect(readFileForEvidence('mer_someoneelse', id)).rejects.toMatchObject({
      statusCode: 400,
      code: 'resource_missing',
      param: 'evidence',
    });
  });
});

describe('POST /files with an Idempotency-Key, through the local gateway', () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** Sends an upload as a client does, with a multipart boundary of its own drawn for this send. */
  async function send(parts: Parameters<typeof multipart>[0], key: string) {
    const { body, contentType } = multipart(parts);
    const res = await fetch(`${api.url}/files`, {
      method: 'POST',
      headers: { 'api-key': api.apiKey, 'content-type': contentType, 'idempotency-key': key },
      body,
    });
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text), text, headers: res.headers, boundary: contentType };
  }

  it('a retry with a new boundary (parts in any order) answers the same file; another file or name under the key is 422', async () => {
    const key = `upload-${randomUUID()}`;
    const first = await send(evidence(PDF, 'receipt.pdf', 'application/pdf'), key);
    expect(first.status).toBe(200);
    const retry = await send(evidence(PDF, 'receipt.pdf', 'application/pdf'), key);
    expect(retry.boundary).not.toBe(first.boundary);
    expect({ status: retry.status, body: retry.body }).toEqual({ status: 200, body: first.body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const reordered = await send([...evidence(PDF, 'receipt.pdf', 'application/pdf')].reverse(), key);
    expect(reordered.body).toEqual(first.body);
    // Another file, another file name, another declared type: another request under the same key.
    for (const parts of [
      evidence(PNG, 'receipt.pdf', 'image/png'),
      evidence(Buffer.concat([PDF, Buffer.from('% one more line\n')]), 'receipt.pdf', 'application/pdf'),
      evidence(PDF, 'invoice.pdf', 'application/pdf'),
      evidence(PDF, 'receipt.pdf', 'application/octet-stream'),
    ]) {
      expectError(await send(parts, key), 422, 'idempotency_key_reused');
    }
    // One file stored for the key.
    expect(readdirSync(join(dir, api.merchantId))).toEqual([first.body.file_id]);
  });
});
