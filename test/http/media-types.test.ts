/**
 * Media types of request bodies (RFC 9110 §8.3.1): type and subtype are case-insensitive, whitespace may
 * surround the `;` of parameters, parameters may follow (or an empty one); a JSON body must be UTF-8.
 * Unit tests of shared/http/request-body.ts, then the same rules through the local gateway and the
 * real handlers (which also base64-encodes the bodies API Gateway encodes).
 *
 * Set FC_SEED (and FC_PATH) to replay a failure that fast-check reported.
 */

import fc from 'fast-check';
import { SANDBOX_STEP_VALUES } from '../../shared/connectors/sandbox/transformers';
import { isJsonMediaType, isUtf8Charset, parseMediaType } from '../../shared/http/request-body';
import { stepFormCsrf } from '../helpers/checkout-browser';
import { card, expectError, type LocalApi, startLocalApi } from '../helpers/local-api';

jest.setTimeout(240_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function params(numRuns: number): fc.Parameters<any> {
  const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
  return { numRuns, ...(seed !== undefined ? { seed, path: process.env.FC_PATH } : {}) };
}

/** `application/json` in random letter case, with optional whitespace and parameters (RFC 9110 §8.3.1, §5.6.3 OWS). */
const jsonMediaType = fc
  .tuple(
    fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
    fc.array(
      fc.tuple(
        fc.constantFrom('', ' ', '\t', '  '),
        fc.constantFrom('', ' ', '\t'),
        fc.oneof(
          fc.constant(''),
          fc.constantFrom(
            'charset=utf-8',
            'charset=UTF-8',
            'charset="utf-8"',
            'Charset=Utf8',
            'profile="https://example.com/p"',
            'version=2',
            'q=x',
          ),
        ),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([upper, parameters]) => {
    const essence = [...'application/json'].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
    return essence + parameters.map(([before, after, p]) => `${before};${after}${p}`).join('');
  });

describe('parseMediaType / isJsonMediaType / isUtf8Charset', () => {
  test.each([
    'application/json',
    'Application/JSON',
    'APPLICATION/JSON',
    'application/json ; charset=utf-8',
    'application/json;',
    'application/json;;',
    'application/json;charset="UTF-8"',
    ' application/json ',
    'application/problem+json',
    'application/vnd.api+json; ext=bulk',
  ])('%j is JSON in UTF-8', (header) => {
    const type = parseMediaType(header);
    expect(isJsonMediaType(type)).toBe(true);
    expect(isUtf8Charset(type?.charset)).toBe(true);
  });

  test.each([
    'text/plain',
    'application/jsonp',
    'application/json-seq',
    'json',
    'application',
    '',
    'application/json, text/plain',
    'application/x-www-form-urlencoded',
    'text/json+plain',
  ])('%j is not a JSON media type', (header) => {
    expect(isJsonMediaType(parseMediaType(header))).toBe(false);
  });

  test.each([
    ['utf-8', true],
    ['UTF-8', true],
    ['utf8', true],
    ['unicode-1-1-utf-8', true],
    ['iso-8859-1', false],
    ['latin1', false],
    ['us-ascii', false],
    ['utf-16', false],
    ['not-a-charset', false],
  ])('charset=%s names UTF-8: %s', (charset, utf8) => {
    expect(isUtf8Charset(parseMediaType(`application/json; charset=${charset}`)?.charset)).toBe(utf8);
  });

  test('the first charset parameter counts (WHATWG MIME parsing); no charset means UTF-8', () => {
    expect(parseMediaType('application/json; charset=utf-8; charset=latin1')?.charset).toBe('utf-8');
    expect(isUtf8Charset(parseMediaType('application/json')?.charset)).toBe(true);
  });

  test('property: any letter case, whitespace and parameters of application/json are JSON in UTF-8', () => {
    fc.assert(
      fc.property(jsonMediaType, (header) => {
        const type = parseMediaType(header);
        expect(type?.essence).toBe('application/json');
        expect(isUtf8Charset(type?.charset)).toBe(true);
      }),
      params(1000),
    );
  });

  test('property: parseMediaType never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (header) => {
        parseMediaType(header);
      }),
      params(2000),
    );
  });
});

describe('JSON bodies through the gateway and the handlers', () => {
  let api: LocalApi;
  beforeAll(async () => {
    api = await startLocalApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const body = JSON.stringify({ name: 'Ada Lovelace' });
  const post = (contentType: string | undefined, raw: string | Buffer = body) =>
    fetch(`${api.url}/customers`, {
      method: 'POST',
      headers: { 'api-key': api.apiKey, ...(contentType !== undefined ? { 'content-type': contentType } : {}) },
      body: raw,
    }).then(async (r) => {
      const text = await r.text();
      return { status: r.status, text, body: JSON.parse(text) };
    });

  test.each([
    'application/json',
    'Application/JSON',
    'APPLICATION/JSON; CHARSET=UTF-8',
    'application/json ; charset=utf-8',
    'application/json;',
    'application/json;charset="UTF-8"',
    'application/json; charset=utf8',
    'application/json; profile="https://example.com/customer"',
    'application/merge-patch+json',
  ])('content-type %j → 200', async (contentType) => {
    const res = await post(contentType);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Ada Lovelace', customer_id: expect.stringMatching(/^cus_/) });
  });

  test.each([
    'text/plain',
    'application/json; charset=iso-8859-1',
    'application/json; charset=utf-16',
    'application/json; charset=bogus-9',
    'application/json, text/plain',
    'application/jsonp',
    'json',
    'application/x-www-form-urlencoded',
  ])('content-type %j → 415 unsupported_media_type, without repeating the header', async (contentType) => {
    const res = await post(contentType);
    const error = expectError({ ...res, headers: new Headers() }, 415, 'unsupported_media_type');
    // The message is the same whatever was sent: nothing of the header is repeated.
    const other = await post('image/png; x=unrelated');
    expect(error.message).toBe(other.body.error.message);
    expect(error.param).toBeUndefined();
  });

  test('a body without a content type → 415 (API Gateway sends it base64-encoded; it is refused before decoding)', async () => {
    const res = await post(undefined);
    expectError({ ...res, headers: new Headers() }, 415, 'unsupported_media_type');
  });

  test('no body needs no content type (read as {})', async () => {
    const res = await fetch(`${api.url}/customers`, { method: 'POST', headers: { 'api-key': api.apiKey, 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
  });

  test('malformed JSON → 400 invalid_json, without repeating the body', async () => {
    const res = await post('Application/Json', '{"name": "Zaphod Beeblebrox",}');
    const error = expectError({ ...res, headers: new Headers() }, 400, 'invalid_json');
    expect(res.text).not.toContain('Zaphod');
    expect(error.message).not.toContain('Beeblebrox');
  });

  test('a base64 body (a +json type, which API Gateway encodes) that is not UTF-8 → 400 invalid_json', async () => {
    const res = await post(
      'application/vnd.api+json',
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
    );
    expectError({ ...res, headers: new Headers() }, 400, 'invalid_json');
  });

  test('a UTF-8 byte order mark before a base64 JSON body is ignored (RFC 8259 §8.1)', async () => {
    const res = await post('application/vnd.api+json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]));
    expect(res.status).toBe(200);
  });

  test('property: any letter case, whitespace and parameters of application/json → 200', async () => {
    await fc.assert(
      fc.asyncProperty(jsonMediaType, async (contentType) => {
        expect((await post(contentType)).status).toBe(200);
      }),
      params(40),
    );
  });

  describe('forms of the payer pages', () => {
    const otpPayment = async () => {
      const res = await api.request('POST', '/payments', {
        body: { amount: 150000, currency: 'NGN', confirm: true, payment_method_data: card('5060990000000000019') },
      });
      expect(res.body.next_action?.type).toBe('submit_otp');
      return res.body.payment_id as string;
    };
    const submit = async (id: string, contentType: string) => {
      const csrf = await stepFormCsrf(id);
      return fetch(`${api.url}/pay/${id}/authenticate`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': contentType, cookie: csrf.cookie },
        body: `otp=${SANDBOX_STEP_VALUES.otp}&csrf_token=${csrf.csrf_token}`,
      });
    };

    test.each([
      'application/x-www-form-urlencoded',
      'Application/X-WWW-Form-Urlencoded',
      'application/x-www-form-urlencoded ; charset=UTF-8',
    ])('%j is read as the form → 303', async (contentType) => {
      const res = await submit(await otpPayment(), contentType);
      expect(res.status).toBe(303);
    });

    test('a form in another charset → 400 page "could not be read", the payment untouched', async () => {
      const id = await otpPayment();
      const res = await submit(id, 'application/x-www-form-urlencoded; charset=iso-8859-1');
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await res.text()).toContain('could not be read');
      expect((await api.request('GET', `/payments/${id}`)).body.status).toBe('RequiresAction');
    });
  });
});
