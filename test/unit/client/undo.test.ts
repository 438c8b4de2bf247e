import { describe, expect, it } from 'vitest';
import { insertionIndex, orderOf, parseActAnswer, undoRequest } from '../../../src/web/client/acting/undo.js';

describe('answers of actions in place (decision 0076)', () => {
  it('reads the server’s answer, and refuses what is not one', () => {
    const answer = {
      message: 'Marked “A” done.',
      undo: 'u-1',
      item: { id: 'i-1', updated_at: '2026-11-26T10:00:00.000Z' },
      row: { place: 'done-today', html: '<li></li>' },
      sidebar: '<aside id="sidebar"></aside>',
    };
    expect(parseActAnswer(answer)).toEqual(answer);
    expect(parseActAnswer({ message: 'Deleted.', undo: null, item: null, row: { place: null, html: '' } })).toEqual({
      message: 'Deleted.',
      undo: null,
      item: null,
      row: { place: null, html: '' },
      sidebar: null,
    });
    expect(parseActAnswer({ ...answer, sidebar: 3 })?.sidebar).toBeNull();
    expect(parseActAnswer({ ...answer, row: null })?.row).toBeNull();
    expect(parseActAnswer('<html>')).toBeNull();
    expect(parseActAnswer({ undo: 'u-1' })).toBeNull();
    expect(parseActAnswer({ message: 'x', row: { place: 3, html: '' } })?.row).toBeNull();
  });

  it('undoes by sending back the id of the inverse the server kept, with the form token and return address', () => {
    const undo = undoRequest('0190f5e2-7c3a', 'token', '/inbox');
    expect(undo.url).toBe('/inbox/undo/0190f5e2-7c3a');
    expect([...undo.data.entries()]).toEqual([
      ['_csrf', 'token'],
      ['return', '/inbox'],
    ]);
    expect([...undoRequest('a/b', 't', null).data.keys()]).toEqual(['_csrf']);
    expect(undoRequest('a/b', 't', null).url).toBe('/inbox/undo/a%2Fb');
  });

  it('puts a row where its group keeps it: by due time, newest first, or the latest done first', () => {
    expect(orderOf('overdue')).toBe('due');
    expect(orderOf('day-3')).toBe('due');
    expect(orderOf('open')).toBe('created');
    expect(orderOf('done-today')).toBe('latest');
    const dues = ['2026-11-24T16:00:00.000Z', '2026-11-25T08:00:00.000Z'];
    expect(insertionIndex('due', dues, '2026-11-25T07:00:00.000Z')).toBe(1);
    expect(insertionIndex('due', dues, '2026-11-20T07:00:00.000Z')).toBe(0);
    expect(insertionIndex('due', dues, '2026-11-26T07:00:00.000Z')).toBe(2);
    // Undated rows come last.
    expect(insertionIndex('due', [...dues, ''], '2026-11-26T07:00:00.000Z')).toBe(2);
    expect(insertionIndex('due', dues, '')).toBe(2);
    const created = ['2026-11-26T09:00:00.000Z', '2026-11-20T09:00:00.000Z'];
    expect(insertionIndex('created', created, '2026-11-22T09:00:00.000Z')).toBe(1);
    expect(insertionIndex('created', created, '2026-11-27T09:00:00.000Z')).toBe(0);
    expect(insertionIndex('latest', created, '2026-11-22T09:00:00.000Z')).toBe(0);
  });
});
