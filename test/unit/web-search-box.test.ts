import { describe, expect, it } from 'vitest';
import { readSearchBox } from '../../src/web/search-box.js';

const ctx = {
  tags: ['Home', 'errands'],
  projects: [
    { id: 'p-side', name: 'Side project' },
    { id: 'p-work', name: 'Work' },
  ],
};

describe("the web search box's tag and project words", () => {
  it('reads @tag as the tag, whether or not the user has it, and leaves the other words', () => {
    expect(readSearchBox('milk @home', ctx)).toEqual({ text: 'milk', tag: 'home', ignoredTags: [], projectId: null, noWords: false });
    expect(readSearchBox('@garden.', ctx)).toMatchObject({ text: '.', tag: 'garden', noWords: false });
  });

  it('reads #name as the tag it names, else as the project quick add files under, else as words', () => {
    expect(readSearchBox('#HOME milk', ctx)).toMatchObject({ text: 'milk', tag: 'Home', projectId: null });
    expect(readSearchBox('#sideproject slides', ctx)).toMatchObject({ text: 'slides', tag: null, projectId: 'p-side' });
    expect(readSearchBox('#"Side project"', ctx)).toMatchObject({ text: '', projectId: 'p-side' });
    expect(readSearchBox('#unknown idea', ctx)).toMatchObject({ text: '#unknown idea', tag: null, projectId: null });
    expect(readSearchBox('#work', { tags: ctx.tags, projects: [] })).toMatchObject({ text: '#work', projectId: null });
  });

  it('keeps the first tag named and reports the others; an address or a time is not a tag', () => {
    expect(readSearchBox('#errands x @home @Home', ctx)).toMatchObject({ text: 'x', tag: 'errands', ignoredTags: ['home'] });
    expect(readSearchBox('mail me@example.com at @5pm', ctx)).toMatchObject({ text: 'mail me@example.com at @5pm', tag: null });
  });

  it('says when what is left has no letter or digit to search for', () => {
    expect(readSearchBox('🎉', ctx)).toMatchObject({ text: '🎉', noWords: true });
    expect(readSearchBox('!!', ctx)).toMatchObject({ text: '!!', noWords: true });
    expect(readSearchBox('@home 🎉', ctx)).toMatchObject({ text: '🎉', tag: 'home', noWords: false });
    expect(readSearchBox('@home', ctx)).toMatchObject({ text: '', noWords: false });
    expect(readSearchBox('準備', ctx)).toMatchObject({ noWords: false });
  });
});
