import { describe, expect, it } from 'vitest';
import { splitCapturedText } from '../../src/lib/capture-text.js';

describe('splitCapturedText', () => {
  it('takes the first non-empty line as title and the trimmed rest as content', () => {
    expect(splitCapturedText('\n\n  Buy milk  \r\n\r\n  2%, not skim \n')).toEqual({ title: 'Buy milk', content_md: '2%, not skim' });
  });

  it('leaves content null when nothing follows the title', () => {
    expect(splitCapturedText('  just a title \n \n')).toEqual({ title: 'just a title', content_md: null });
  });

  it('cuts a long first line to 500 characters and keeps the whole text as content', () => {
    const long = `${'é'.repeat(600)}\nsecond`;
    const { title, content_md } = splitCapturedText(long);
    expect(Array.from(title)).toHaveLength(500);
    expect(content_md).toBe(long);
  });

  it('does not split a surrogate pair when cutting', () => {
    const { title } = splitCapturedText('😀'.repeat(501));
    expect(Array.from(title)).toHaveLength(500);
    expect(title.endsWith('😀')).toBe(true);
  });
});
