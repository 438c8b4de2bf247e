import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = resolve(import.meta.dirname, '../../dist');

/*
 * V8 holds a script's source as one byte per character only when all of it is Latin-1; the bundle
 * is kept ASCII by scripts/bundle.mjs so its 3 MB are not held as 6 (npm test builds it first).
 */
describe('the server bundle', () => {
  const files = ['server.js', ...readdirSync(join(DIST, 'chunks')).map((name) => join('chunks', name))].filter((f) => f.endsWith('.js'));

  it.each(files)('%s is ASCII only', (file) => {
    const text = readFileSync(join(DIST, file), 'utf8');
    const first = /[\u0080-\uffff]/.exec(text);
    expect(first === null ? null : text.slice(Math.max(0, first.index - 60), first.index + 20)).toBeNull();
  });

  it('does not read the raw text of a template literal that an escape would change', () => {
    // `.raw` of a template with an escaped character differs from the one written in the source.
    const text = readFileSync(join(DIST, 'server.js'), 'utf8');
    const rawReads = text.match(/String\.raw`[^`]*\\u[0-9a-f]{4}/g) ?? [];
    expect(rawReads).toEqual([]);
  });
});
