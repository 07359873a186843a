import { cleanFilename, detectFileType, fileExpiry, fileTypeOfMediaType, MAX_FILE_BYTES } from '../../shared/domain/file';
import { createFile } from '../../shared/operations/files/file-operations';

const PDF = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);

describe('file type by magic bytes', () => {
  it.each([
    [PDF, 'pdf'],
    [PNG, 'png'],
    [JPG, 'jpg'],
  ])('reads %#', (bytes, type) => expect(detectFileType(bytes)).toBe(type));

  it.each([
    ['empty', Buffer.alloc(0)],
    ['GIF', Buffer.from('GIF89a')],
    ['text named .pdf', Buffer.from('hello.pdf')],
    ['PDF header cut short', Buffer.from('%PDF')],
    ['PNG signature cut short', PNG.subarray(0, 7)],
    ['ZIP (docx)', Buffer.from([0x50, 0x4b, 0x03, 0x04])],
    ['JPEG marker alone', Buffer.from([0xff, 0xd8])],
  ])('refuses %s', (_label, bytes) => expect(detectFileType(bytes)).toBeUndefined());

  it('maps declared media types', () => {
    expect(fileTypeOfMediaType('Application/PDF')).toBe('pdf');
    expect(fileTypeOfMediaType('image/jpg')).toBe('jpg');
    expect(fileTypeOfMediaType('image/gif')).toBeUndefined();
  });
});

describe('upload checks before anything is stored', () => {
  const ctx = { merchantId: 'mer_limits' };
  const base = { purpose: 'dispute_evidence', filename: 'a.pdf', mediaType: 'application/pdf' };

  it('refuses a file over 4 MiB, and one cut while reading', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(MAX_FILE_BYTES + 1 - PDF.length)]);
    await expect(createFile(ctx, { ...base, bytes: big })).rejects.toMatchObject({
      statusCode: 400,
      code: 'file_too_large',
      param: 'file',
    });
    await expect(createFile(ctx, { ...base, bytes: PDF, truncated: true })).rejects.toMatchObject({ code: 'file_too_large' });
  });

  it('refuses another type, a type that is not the declared one, an empty file, and a wrong purpose', async () => {
    await expect(createFile(ctx, { ...base, bytes: Buffer.from('GIF89a') })).rejects.toMatchObject({
      code: 'file_type_unsupported',
      param: 'file',
    });
    await expect(createFile(ctx, { ...base, mediaType: 'image/png', bytes: PDF })).rejects.toMatchObject({ code: 'file_type_unsupported' });
    await expect(createFile(ctx, { ...base, bytes: Buffer.alloc(0) })).rejects.toMatchObject({ code: 'file_empty' });
    await expect(createFile(ctx, { ...base, purpose: 'identity_document', bytes: PDF })).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'purpose',
    });
    await expect(createFile(ctx, { ...base, purpose: undefined, bytes: PDF })).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'purpose',
    });
  });

  it('cleans file names and dates expiry 400 days on', () => {
    expect(cleanFilename('C:\\docs\\receipt.pdf', 'pdf')).toBe('receipt.pdf');
    expect(cleanFilename('../../etc/passwd', 'pdf')).toBe('passwd');
    expect(cleanFilename('a\u0000b\u202e.pdf', 'pdf')).toBe('ab.pdf');
    expect(cleanFilename('', 'png')).toBe('file.png');
    expect(cleanFilename('..', 'jpg')).toBe('file.jpg');
    expect(Array.from(cleanFilename(`${'x'.repeat(300)}.pdf`, 'pdf'))).toHaveLength(200);
    expect(fileExpiry(new Date('2026-01-01T00:00:00.500Z')).toISOString()).toBe('2027-02-05T00:00:00.000Z');
  });
});
