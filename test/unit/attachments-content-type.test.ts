import { describe, expect, it } from 'vitest';
import { cleanFilename, contentDisposition, isInline, sniffContentType } from '../../src/modules/attachments/content-type.js';

describe('attachment names and types', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['C:\\temp\\a.txt', 'a.txt'],
    ['a\u0000b\u001fc\u007fd\u0085e.txt', 'abcde.txt'],
    ['', 'file'],
    ['..', 'file'],
    [undefined, 'file'],
    ['  spaced.txt  ', 'spaced.txt'],
  ])('cleanFilename(%j) is %j', (given, expected) => {
    expect(cleanFilename(given)).toBe(expected);
  });

  it('cuts a long name at 255 characters, never inside a character', () => {
    expect([...cleanFilename('😀'.repeat(300))]).toHaveLength(255);
  });

  it.each([
    ['image/png', true],
    ['image/svg+xml', false],
    ['application/pdf', true],
    ['audio/mpeg', true],
    ['text/plain; charset=utf-8', true],
    ['text/html', false],
    ['application/xml', false],
    ['application/octet-stream', false],
  ])('isInline(%s) is %s', (type, inline) => {
    expect(isInline(type)).toBe(inline);
  });

  it('gives an ASCII filename and the exact one in filename*', () => {
    expect(contentDisposition('naïve "quote"\\.bin', 'application/octet-stream')).toBe(
      `attachment; filename="na_ve _quote__.bin"; filename*=UTF-8''na%C3%AFve%20%22quote%22%5C.bin`,
    );
  });

  it('reads types from bytes: text without control characters is plain text, anything unknown octet-stream', async () => {
    expect(await sniffContentType(Buffer.from('%PDF-1.4\n'))).toBe('application/pdf');
    expect(await sniffContentType(Buffer.from('héllo\nworld\t!'))).toBe('text/plain; charset=utf-8');
    expect(await sniffContentType(Buffer.from([0x68, 0x69, 0x00]))).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.from([0xc3, 0x28, 0x41]))).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.alloc(0))).toBe('application/octet-stream');
  });
});
