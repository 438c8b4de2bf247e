import { describe, expect, it } from 'vitest';
import { isAllowedLinkUrl, unlinkDisallowedMarkdown } from '../../src/lib/link-schemes.js';

describe('isAllowedLinkUrl', () => {
  it.each([
    ['https://example.org/a?b#c', true],
    ['HTTP://example.org', true],
    ['mailto:ann@example.org', true],
    ['/items/1', true],
    ['//example.org/x', true],
    ['#part', true],
    ['notes.txt', true],
    ['javascript:alert(1)', false],
    ['JaVaScRiPt:alert(1)', false],
    [' \u0001javascript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['java&#x09;script&colon;alert(1)', false],
    ['javascript&#58;alert(1)', false],
    ['javascript\\:alert(1)', false],
    ['data:text/html,<script>x</script>', false],
    ['vbscript:x', false],
    ['file:///etc/passwd', false],
    ['cid:image001.png@01DA', false],
    ['ftp://example.org', false],
    ['tel:+4930123', false],
  ])('%s is allowed: %s', (url, allowed) => {
    expect(isAllowedLinkUrl(url)).toBe(allowed);
  });
});

describe('unlinkDisallowedMarkdown', () => {
  it.each([
    ['[click](javascript:alert(1))', 'click'],
    ['see [the \\[draft\\]](javascript:void(0) "t") now', 'see the \\[draft\\] now'],
    ['[a [b] c](<javascript:x>)', 'a [b] c'],
    ['![logo](cid:image001.png@01DA)', 'logo'],
    ['<javascript:alert(1)>', 'javascript:alert(1)'],
    ['[x][r]\n\n[r]: javascript:alert(1) "t"', '[x][r]\n\n'],
    [
      '[ok](https://example.org/a_(b)) and <https://example.org> and [m](mailto:a@b.test)',
      '[ok](https://example.org/a_(b)) and <https://example.org> and [m](mailto:a@b.test)',
    ],
    ['\\[not a link](javascript:x)', '\\[not a link](javascript:x)'],
    ['[r]: https://example.org', '[r]: https://example.org'],
  ])('%j becomes %j', (input, output) => {
    expect(unlinkDisallowedMarkdown(input)).toBe(output);
  });
});
