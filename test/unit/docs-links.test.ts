import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** The README is the front door: what the project is, the quick start, where to read next. */
const README_MAX_BYTES = 12_000;

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Markdown without fenced code blocks, where `](` and `#` are sample text. */
const withoutFences = (text: string): string => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
/** Prose without code at all (inline code holds sample links too). */
const proseOf = (text: string): string => withoutFences(text).replace(/`[^`\n]*`/g, '');

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slugOf = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(path: string): Set<string> {
  const headings = withoutFences(readFileSync(path, 'utf8'))
    .split('\n')
    .flatMap((line) => /^#{1,6}\s+(.*)$/.exec(line)?.[1] ?? []);
  return new Set(headings.map(slugOf));
}

/** Every relative link of a file that does not lead to an existing file (and heading, when it names one). */
function brokenLinks(path: string): string[] {
  const links = [...proseOf(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!);
  return links.flatMap((link) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) return [];
    const [target = '', anchor] = link.split('#');
    const file = target === '' ? path : resolve(dirname(path), decodeURIComponent(target));
    if (!existsSync(file)) return [`${link} (no such file)`];
    if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) return [`${link} (no such heading)`];
    return [];
  });
}

describe('documentation', () => {
  it(`keeps README.md under ${README_MAX_BYTES} bytes`, () => {
    expect(statSync(join(ROOT, 'README.md')).size).toBeLessThan(README_MAX_BYTES);
  });

  it('has every relative link of README.md and docs/**/*.md lead to a file and heading that exist', () => {
    const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
    const broken = files.flatMap((file) => brokenLinks(file).map((link) => `${relative(ROOT, file)}: ${link}`));
    expect(broken).toEqual([]);
  });

  it('reports a link to a missing file or heading, and passes the ones that exist', () => {
    // The check itself: a link it cannot follow must be reported, or the test above proves nothing.
    const dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    try {
      writeFileSync(join(dir, 'other.md'), '# Other\n\n## The web app, server side\n\n### `TRUST_PROXY`\n');
      writeFileSync(
        join(dir, 'page.md'),
        [
          '# Page',
          '[ok](other.md) [ok](other.md#the-web-app-server-side) [ok](other.md#trust_proxy) [ok](#page) [web](https://example.com/x.md)',
          '[missing](gone.md) [bad anchor](other.md#nowhere)',
          '```',
          '[in a code block](not-a-link.md)',
          '```',
          'and `[inline code](not-a-link.md)`',
        ].join('\n'),
      );
      expect(brokenLinks(join(dir, 'page.md'))).toEqual(['gone.md (no such file)', 'other.md#nowhere (no such heading)']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
