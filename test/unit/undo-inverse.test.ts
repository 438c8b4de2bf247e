import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../src/modules/items/item-view.js';
import { inverseOf, parseInverse } from '../../src/modules/undo/inverse.js';

const ITEM: ItemView = {
  id: 'i-1',
  project_id: 'p-inbox',
  type: 'todo',
  title: 'Weekly review',
  content_md: null,
  is_completed: false,
  status: 'todo',
  status_before_archive: null,
  due_at: '2026-11-27T09:00:00.000Z',
  remind_at: '2026-11-27T08:30:00.000Z',
  parent_id: null,
  tags: [],
  archived_at: null,
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
  recurrence: null,
} as unknown as ItemView;

describe('the inverse of an action (issue 47 item 1)', () => {
  it('undoes a repeating item’s completion by putting the due date and reminder back and forgetting the completion, not by another toggle', () => {
    const before = { ...ITEM, recurrence: { rule: 'FREQ=WEEKLY', from: 'due' } } as ItemView;
    const after = { ...before, due_at: '2026-12-04T09:00:00.000Z', remind_at: '2026-12-04T08:30:00.000Z', updated_at: '2026-11-26T10:00:00.000Z' };
    expect(inverseOf(before, after)).toEqual({
      kind: 'completedOccurrence',
      inverse: {
        patch: { due_at: '2026-11-27T09:00:00.000Z', remind_at: '2026-11-27T08:30:00.000Z' },
        state: null,
        forgetCompletion: { due_at: '2026-11-27T09:00:00.000Z', completed_at: '2026-11-26T10:00:00.000Z' },
      },
    });
  });

  it('undoes a toggle, an archive and a move with exactly what they changed', () => {
    expect(inverseOf(ITEM, { ...ITEM, is_completed: true, status: 'done' })).toEqual({
      kind: 'completed',
      inverse: { patch: {}, state: 'reopen', forgetCompletion: null },
    });
    expect(inverseOf({ ...ITEM, is_completed: true, status: 'done' }, ITEM)?.inverse.state).toBe('complete');
    expect(inverseOf(ITEM, { ...ITEM, status: 'archived' })?.inverse.state).toBe('unarchive');
    expect(inverseOf({ ...ITEM, status: 'archived' }, ITEM)?.inverse.state).toBe('archive');
    expect(inverseOf(ITEM, { ...ITEM, project_id: 'p-work' })).toEqual({
      kind: 'moved',
      inverse: { patch: { project_id: 'p-inbox' }, state: null, forgetCompletion: null },
    });
  });

  it('puts the reminder back with a due date, so the default reminder is not added by the undo', () => {
    expect(inverseOf(ITEM, { ...ITEM, due_at: '2026-11-30T09:00:00.000Z' })?.inverse.patch).toEqual({
      due_at: '2026-11-27T09:00:00.000Z',
      remind_at: '2026-11-27T08:30:00.000Z',
    });
  });

  it('has nothing to undo when nothing changed, and reads back only inverses it wrote', () => {
    expect(inverseOf(ITEM, { ...ITEM })).toBeNull();
    const stored = JSON.stringify(inverseOf(ITEM, { ...ITEM, status: 'archived' })!.inverse);
    expect(parseInverse(stored)).toEqual({ patch: {}, state: 'unarchive', forgetCompletion: null });
    expect(parseInverse('{"patch":{},"state":"explode"}')).toBeNull();
    expect(parseInverse('not json')).toBeNull();
  });
});
