import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import fc from 'fast-check';
import isEmail from 'validator/lib/isEmail';
import { ApiError } from '../../shared/domain/errors';
import { illFormedStringIn, illFormedTextError, jsonBody } from '../../shared/http/request-body';
import { isWellFormedText, metadataSchema, text } from '../../shared/schemas/common';
import { EMAIL_PATTERN, emailSchema } from '../../shared/schemas/contact-schemas';
import { listQuerySchema, timestampParamSchema } from '../../shared/schemas/list-query-schema';

/**
 * Inputs: impossible calendar dates in list filters, strings holding NUL or lone
 * UTF-16 surrogates, and e-mail addresses checked by `validator`'s `isEmail` in agreement with the
 * OpenAPI document. The same rules over HTTP: test/http/validation-errors.test.ts.
 */

/** Node 20's `String.prototype.isWellFormed` (ES2024), which the TypeScript lib in use does not declare. */
const wellFormed = (s: string) => (s as string & { isWellFormed(): boolean }).isWellFormed();

describe('timestampParamSchema: real calendar dates only', () => {
  test.each([
    '2026-02-30',
    '2026-02-29',
    '2100-02-29',
    '1900-02-29',
    '2026-04-31',
    '2026-06-31',
    '2026-09-31',
    '2026-11-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '2026-01-32',
    '2026-02-30T10:00:00Z',
    '2026-02-30T10:00',
    '2026-01-01T25:00:00Z',
    '2026-01-01T24:01:00Z',
    '2026-01-01T24:00:01Z',
    '2026-01-01T24:00:00.5Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:60Z',
    '2026-01-01T10:00:00+24:00',
    '2026-01-01T10:00:00+05:60',
    // A written year before 1970 (the spec's pattern), even when the offset moves the instant past the epoch (CI seed 1098359822).
    '1969-12-31T23:59:59.991-0530',
    '1969-12-31',
    '2026-01-01\u0000',
    '\uD800',
    '',
  ])('%j is refused, with a message that does not repeat it', (raw) => {
    const result = timestampParamSchema.safeParse(raw);
    expect(result.success).toBe(false);
    for (const issue of result.error?.issues ?? []) if (raw.length > 0) expect(issue.message).not.toContain(raw);
  });

  test.each([
    ['2028-02-29', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29', '2000-02-29T00:00:00.000Z'],
    ['2026-02-28', '2026-02-28T00:00:00.000Z'],
    ['2026-04-30', '2026-04-30T00:00:00.000Z'],
    ['2026-12-31T23:59:59Z', '2026-12-31T23:59:59.000Z'],
    ['2026-01-31T24:00Z', '2026-02-01T00:00:00.000Z'],
    ['2026-03-01T01:00:00+02:00', '2026-02-28T23:00:00.000Z'],
    ['1763719200', '2025-11-21T10:00:00.000Z'],
  ])('%s is read as %s', (raw, iso) => {
    expect(timestampParamSchema.parse(raw)).toBe(iso);
  });

  test('every day of 1970–2400 is accepted exactly when it exists, and read as itself', () => {
    for (let year = 1970; year <= 2400; year += 1) {
      for (let month = 1; month <= 12; month += 1) {
        for (let day = 28; day <= 31; day += 1) {
          const raw = `${year}-${String(month).padStart(2, '0')}-${day}`;
          const exists = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
          const result = timestampParamSchema.safeParse(raw);
          if (result.success !== exists) throw new Error(`${raw}: accepted ${result.success}, exists ${exists}`);
          if (result.success) expect(result.data.slice(0, 10)).toBe(raw);
        }
      }
    }
  });

  test('a list query names the bound: created.gte', () => {
    const result = listQuerySchema({}).safeParse({ created: { gte: '2026-02-30' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['created', 'gte']);
  });
});

describe('NUL and lone surrogates', () => {
  test('isWellFormedText is "well-formed UTF-16 and no NUL", for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 20 }), (s) => {
        expect(isWellFormedText(s)).toBe(wellFormed(s) && !s.includes('\u0000'));
      }),
      { numRuns: 2000 },
    );
    expect(isWellFormedText('Ada 😀 Ọlá')).toBe(true);
    expect(isWellFormedText('\uD83D\uDE00')).toBe(true);
    for (const bad of ['\u0000', 'a\u0000b', '\uD800', '\uDC00', 'x\uDE00\uD83D', '\uD83D']) expect(isWellFormedText(bad)).toBe(false);
  });

  test('the shared string builders refuse them', () => {
    for (const bad of ['a\u0000', 'a\uD800']) {
      expect(text(100).safeParse(bad).success).toBe(false);
      expect(metadataSchema.safeParse({ note: bad }).success).toBe(false);
      expect(metadataSchema.safeParse({ [bad]: 'v' }).success).toBe(false);
      expect(emailSchema.safeParse(`ada${bad}@example.com`).success).toBe(false);
      expect(listQuerySchema({}).safeParse({ starting_after: bad }).success).toBe(false);
    }
    expect(text(100).safeParse('Ada 😀').success).toBe(true);
  });

  test('the body walk finds the first one, value or key, and names its field', () => {
    expect(illFormedStringIn({ a: 'x', b: [1, 'y', { c: null }], d: true })).toBeUndefined();
    expect(illFormedStringIn({ a: 'x', billing: { address: { line1: 'a\u0000' } } })).toEqual({
      path: ['billing', 'address', 'line1'],
      isKey: false,
    });
    expect(illFormedStringIn({ items: ['ok', 'b\uDC00'] })).toEqual({ path: ['items', 1], isKey: false });
    expect(illFormedStringIn({ metadata: { 'k\u0000': 'v' } })).toEqual({ path: ['metadata'], isKey: true });
    expect(illFormedStringIn('\uD800')).toEqual({ path: [], isKey: false });
  });

  test('a deeply nested body is walked without exhausting the stack', () => {
    const depth = 100_000;
    const deep = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    expect(illFormedStringIn(deep)?.path).toHaveLength(depth);
  });

  test('the error: 400 parameter_invalid naming the field, never the value', () => {
    const cases: [Parameters<typeof illFormedTextError>[0], string | undefined][] = [
      [{ path: ['billing', 'address', 'line1'], isKey: false }, 'billing.address.line1'],
      [{ path: ['metadata'], isKey: true }, 'metadata'],
      [{ path: ['metadata', '4242424242424242'], isKey: false }, 'metadata'],
      [{ path: [], isKey: true }, undefined],
    ];
    for (const [bad, param] of cases) {
      const err = illFormedTextError(bad);
      expect(err.statusCode).toBe(400);
      const body = err.toBody();
      expect(body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid' });
      expect(body.error.param).toBe(param);
      expect(body.error.message).toMatch(/NUL characters \(U\+0000\) or unpaired UTF-16 surrogates/);
      expect(body.error.message).not.toContain('4242');
      expect(isWellFormedText(body.error.message)).toBe(true);
    }
  });

  test('jsonBody refuses such a body before validation', async () => {
    const run = async (raw: string, base64 = false) => {
      const event = {
        body: base64 ? Buffer.from(raw, 'utf8').toString('base64') : raw,
        isBase64Encoded: base64,
        headers: { 'content-type': 'application/json' },
      } as unknown as APIGatewayProxyEventV2;
      try {
        await jsonBody().before?.({ event, context: {}, response: undefined, error: undefined, internal: {} } as never);
        return undefined;
      } catch (err) {
        return err;
      }
    };
    const nul = await run('{"name":"Ada\\u0000"}');
    expect(nul).toBeInstanceOf(ApiError);
    expect((nul as ApiError).toBody().error).toMatchObject({ code: 'parameter_invalid', param: 'name' });
    const surrogate = await run('{"metadata":{"note":"x\\ud800y"}}', true);
    expect((surrogate as ApiError).toBody().error).toMatchObject({ code: 'parameter_invalid', param: 'metadata.note' });
    expect(await run('{"name":"Ada \\ud83d\\ude00"}')).toBeUndefined();
  });
});

describe('e-mail addresses: validator isEmail, and the OpenAPI document agrees', () => {
  const document = JSON.parse(readFileSync('docs/openapi.json', 'utf8'));
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  const specEmail = ajv.compile(
    document.paths['/customers'].post.requestBody.content['application/json'].schema.properties.email as object,
  );
  const serverEmail = (s: string) => emailSchema.safeParse(s).success;

  test.each([
    'ada@example-.com',
    'ada@-example.com',
    'ada@example.c',
    'ada@example.123',
    'ada@example',
    'ada@@example.com',
    '.ada@example.com',
    'ada.@example.com',
    'a..da@example.com',
    `${'a'.repeat(65)}@example.com`,
    `ada@${'b'.repeat(64)}.com`,
    'ada@[127.0.0.1]',
    'Ada <ada@example.com>',
    'ada@exa_mple.com',
    'ada@example.com ',
    '',
  ])('%j is refused by the server and by the document', (address) => {
    expect(serverEmail(address)).toBe(false);
    expect(specEmail(address)).toBe(false);
  });

  test.each([
    'ada@example.com',
    'ADA@EXAMPLE.COM',
    'x.y+z@sub.example.ng',
    "o'neil@example.co.za",
    'a-b_c@ex-ample.io',
    `${'a'.repeat(64)}@${'b'.repeat(63)}.com`,
  ])('%j is accepted by both', (address) => {
    expect(serverEmail(address)).toBe(true);
    expect(specEmail(address)).toBe(true);
  });

  test('whatever the pattern the document states accepts, isEmail accepts too, and the server agrees with the document', () => {
    const chars = [..."abAB09._-+'@!#/ ", '@', '.'];
    const address = fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 30 });
    const shaped = fc
      .tuple(
        fc.string({ unit: fc.constantFrom(..."aZ9._-+'"), minLength: 1, maxLength: 70 }),
        fc.array(fc.string({ unit: fc.constantFrom(...'aZ9-_'), minLength: 0, maxLength: 65 }), { minLength: 1, maxLength: 4 }),
      )
      .map(([local, labels]) => `${local}@${labels.join('.')}`);
    fc.assert(
      fc.property(fc.oneof(address, shaped), (s) => {
        if (EMAIL_PATTERN.test(s)) expect(isEmail(s)).toBe(true);
        expect(serverEmail(s)).toBe(specEmail(s));
      }),
      { numRuns: 5000 },
    );
  });
});
