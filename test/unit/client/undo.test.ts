import { describe, expect, it } from 'vitest';
import { actedMessage, undoRequest, type ActedOn } from '../../../src/web/client/acting/undo.js';

const ROW = { projectId: 'p-1', dueDate: '2026-12-01', dueTime: '09:30' };
const acted = (action: string, extra: Partial<ActedOn> = {}): ActedOn => ({
  action,
  formAction: `http://127.0.0.1/items/i-1/${action}`,
  csrf: 'token',
  returnTo: '/inbox',
  row: ROW,
  ...extra,
});
const entries = (data: URLSearchParams | undefined) => (data ? [...data.entries()] : null);

describe('undoing an action in place', () => {
  it.each([
    ['toggle', 'toggle'],
    ['archive', 'unarchive'],
    ['unarchive', 'archive'],
  ])('undoes %s with %s on the same item, with the form token and return address', (action, inverse) => {
    const undo = undoRequest(acted(action));
    expect(undo?.url).toBe(`http://127.0.0.1/items/i-1/${inverse}`);
    expect(entries(undo?.data)).toEqual([
      ['_csrf', 'token'],
      ['return', '/inbox'],
    ]);
  });

  it('moves an item back to the project its row was in, and sets back the date it had', () => {
    expect(entries(undoRequest(acted('move'))?.data)).toContainEqual(['project_id', 'p-1']);
    const due = undoRequest(acted('due'));
    expect(due?.url).toBe('http://127.0.0.1/items/i-1/due');
    expect(entries(due?.data)).toEqual([
      ['_csrf', 'token'],
      ['return', '/inbox'],
      ['due_date', '2026-12-01'],
      ['due_time', '09:30'],
    ]);
  });

  it('cannot undo a move or a date without the row that says what it was, nor a delete or a subtask', () => {
    expect(undoRequest(acted('move', { row: null }))).toBeNull();
    expect(undoRequest(acted('due', { row: null }))).toBeNull();
    expect(undoRequest(acted('delete'))).toBeNull();
    expect(undoRequest(acted('subtasks'))).toBeNull();
  });

  it('sends no return address when the form had none', () => {
    expect(entries(undoRequest(acted('toggle', { returnTo: null }))?.data)).toEqual([['_csrf', 'token']]);
  });

  it('says what was done, and that a done item was reopened', () => {
    expect(actedMessage('toggle', false)).toBe('Marked done.');
    expect(actedMessage('toggle', true)).toBe('Marked not done.');
    expect(actedMessage('delete', false)).toBe('Deleted.');
    expect(actedMessage('something-new', false)).toBe('Done.');
  });
});
