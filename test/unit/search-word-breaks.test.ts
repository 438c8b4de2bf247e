import { describe, expect, it } from 'vitest';
import { ftsMatch, searchWords, tsQuery } from '../../src/modules/search/search-words.js';
import { MAX_SEGMENTED, searchText, spaceWords } from '../../src/lib/word-breaks.js';

describe('search word breaks', () => {
  it('leaves text without an unspaced script alone: no search_text', () => {
    expect(searchText('Buy milk', '2% from the corner shop\nCafé, Ölwechsel, 회의 준비')).toBeNull();
    expect(searchText(null, null)).toBeNull();
  });

  it('puts spaces at the word breaks of Chinese, Japanese and Thai runs, and only adds spaces', () => {
    const title = '会議の準備 memo準備';
    const content = '我们明天开会\nภาษาไทยง่าย';
    const text = searchText(title, content)!;
    expect(text).toBe('会議 の 準備 memo 準備 我们 明天 开会\nภาษา ไทย ง่าย');
    expect(text.replaceAll(' ', '')).toBe(`${title} ${content}`.replaceAll(' ', ''));
  });

  it('breaks the runs of q the same way, one search word per run', () => {
    expect(searchWords('会議の準 milk 准备')).toEqual(['会議 の 準', 'milk', '准备']);
    expect(ftsMatch(searchWords('会議の準 milk'))).toBe('"会議 の 準"* AND "milk"*');
    expect(tsQuery(searchWords('会議の準 milk'))).toBe('会議 <-> の <-> 準:* & milk:*');
  });

  it('divides the first MAX_SEGMENTED characters of a long text and keeps the rest whole', () => {
    const long = '会議の準備'.repeat(MAX_SEGMENTED / 5 + 100);
    const spaced = spaceWords(long);
    expect(spaced.replaceAll(' ', '')).toBe(long);
    expect(spaced.startsWith('会議 の 準備 会議')).toBe(true);
    expect(spaced.endsWith('会議の準備'.repeat(100))).toBe(true);
  });

  it('works through a long text in pieces without splitting a surrogate pair or losing a character', () => {
    const text = `${'会議の準備🎉'.repeat(300)}${'準'.repeat(1500)}`;
    const spaced = spaceWords(text);
    expect(spaced.replaceAll(' ', '')).toBe(text);
    expect(spaced).toContain('🎉会議 の 準備🎉');
    expect(spaced).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
  });
});
