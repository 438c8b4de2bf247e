import { describe, expect, it } from 'vitest';
import { archiveState, setStatusState, toggleState, unarchiveState, type ItemState } from '../../src/modules/items/item-state.js';

const NOW = '2026-11-21T10:00:00.000Z';
const open = (status: ItemState['status'] = 'todo'): ItemState => ({
  is_completed: status === 'done',
  status,
  status_before_archive: null,
  archived_at: null,
});

describe('item state rules', () => {
  it('toggle completes to done and uncompletes to todo, notes included', () => {
    const done = toggleState(open('backlog'));
    expect(done).toMatchObject({ is_completed: true, status: 'done' });
    expect(toggleState(done)).toMatchObject({ is_completed: false, status: 'todo' });
  });

  it('toggle to an explicit value that the item has changes nothing', () => {
    const state = open('doing');
    expect(toggleState(state, false)).toBe(state);
  });

  it('toggle on an archived item flips completion and stays archived', () => {
    const archived = archiveState(open('doing'), NOW);
    expect(toggleState(archived)).toMatchObject({ is_completed: true, status: 'archived', archived_at: NOW });
  });

  it('archive remembers the status; archiving again is a no-op', () => {
    const archived = archiveState(open('doing'), NOW);
    expect(archived).toMatchObject({ status: 'archived', status_before_archive: 'doing', archived_at: NOW });
    expect(archiveState(archived, '2027-01-01T00:00:00.000Z')).toBe(archived);
  });

  it('unarchive restores the remembered status, done when completed, todo when it was done', () => {
    expect(unarchiveState(archiveState(open('doing'), NOW))).toMatchObject({ status: 'doing', archived_at: null });
    expect(unarchiveState(toggleState(archiveState(open('doing'), NOW)))).toMatchObject({ status: 'done', is_completed: true });
    const wasDone = toggleState(archiveState(open('done'), NOW));
    expect(unarchiveState(wasDone)).toMatchObject({ status: 'todo', is_completed: false });
    expect(unarchiveState({ ...archiveState(open(), NOW), status_before_archive: null })).toMatchObject({ status: 'todo' });
  });

  it('unarchive of an open item is a no-op', () => {
    const state = open('doing');
    expect(unarchiveState(state)).toBe(state);
  });

  it('setting a status keeps completion consistent and archived acts as archive/unarchive', () => {
    expect(setStatusState(open(), 'done', NOW)).toMatchObject({ is_completed: true, status: 'done' });
    expect(setStatusState(open('done'), 'doing', NOW)).toMatchObject({ is_completed: false, status: 'doing' });
    expect(setStatusState(open('doing'), 'archived', NOW)).toMatchObject({ status: 'archived', status_before_archive: 'doing' });
    const archived = toggleState(archiveState(open(), NOW));
    expect(setStatusState(archived, 'backlog', NOW)).toEqual({ status: 'backlog', is_completed: false, status_before_archive: null, archived_at: null });
  });
});
