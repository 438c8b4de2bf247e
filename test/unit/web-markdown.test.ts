import { describe, expect, it } from 'vitest';
import { markdownExcerpt, renderMarkdown } from '../../src/web/markdown.js';

describe('renderMarkdown', () => {
  it('renders Markdown, leaves HTML as text and links with rel noopener noreferrer nofollow', () => {
    const out = renderMarkdown('**a** <img src=x onerror=alert(1)> [ok](https://example.org) [bad](javascript:alert(1)) [data](data:text/html,x)');
    expect(out).toContain('<strong>a</strong>');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">ok</a>');
    expect(out).not.toMatch(/href="(javascript|data):/);
  });

  it('renders only http, https, mailto and scheme-less links as links; any other scheme stays text (issue 45)', () => {
    const out = renderMarkdown(
      '[a](ftp://example.org) [b](cid:x@y) [c](tel:+1) <JaVaScRiPt:alert(1)> [d](java&#x09;script:alert(1)) [e](vbscript:x) [f](mailto:a@b.test) [g](/items/1) https://example.org/x',
    );
    expect(out.match(/href="[^"]*"/g)).toEqual(['href="mailto:a@b.test"', 'href="/items/1"', 'href="https://example.org/x"']);
    expect(out).toContain('[a](ftp://example.org)');
  });

  it('renders no images (a foreign image would be a read receipt)', () => {
    expect(renderMarkdown('![x](https://tracker.example/p.gif)')).not.toContain('<img');
  });
});

describe('markdownExcerpt', () => {
  it('keeps the words, drops the syntax, and cuts long notes', () => {
    expect(markdownExcerpt('See **notes** and [the draft](https://example.org/draft)\n\n- one\n- `two`')).toBe('See notes and the draft\none\ntwo');
    expect(markdownExcerpt('x'.repeat(1000), 10)).toBe('xxxxxxxxxx…');
  });
});
