import { describe, expect, it } from 'vitest';
import { applyChange } from '../../src/modules/organizer/recent-titles.js';
import type { RecentTitle } from '../../src/modules/organizer/organizer.repository.js';

const row = (
  id: string,
  created: number,
  title: string | null = `t${id}`,
  project = 'p',
): { id: string; project_id: string; title: string | null; created_at: string } => ({
  id,
  project_id: project,
  title,
  created_at: new Date(Date.UTC(2026, 10, 1, 0, created)).toISOString(),
});
const kept = (ids: Array<[string, number]>, complete: boolean) => ({ rows: ids.map(([id, c]) => row(id, c) as RecentTitle), complete });
const ids = (k: { rows: RecentTitle[] }) => k.rows.map((r) => r.id);

describe('applyChange (the kept latest titles, decision 0103)', () => {
  it('puts a new item in its place by created_at, then id, and trims a full window to its size', () => {
    const k = kept(
      [
        ['c', 3],
        ['b', 2],
        ['a', 1],
      ],
      false,
    );
    expect(applyChange(k, 3, { deleted: false, item: row('d', 4) })).toBe(true);
    expect(ids(k)).toEqual(['d', 'c', 'b']);
    expect(applyChange(k, 3, { deleted: false, item: row('bb', 2) })).toBe(true);
    expect(ids(k)).toEqual(['d', 'c', 'bb']);
  });

  it('leaves out an item older than every kept one when older ones exist beyond the window, keeps it when none do', () => {
    const full = kept(
      [
        ['c', 3],
        ['b', 2],
      ],
      false,
    );
    expect(applyChange(full, 3, { deleted: false, item: row('z', 0) })).toBe(true);
    expect(ids(full)).toEqual(['c', 'b']);
    const all = kept(
      [
        ['c', 3],
        ['b', 2],
      ],
      true,
    );
    expect(applyChange(all, 3, { deleted: false, item: row('z', 0) })).toBe(true);
    expect(ids(all)).toEqual(['c', 'b', 'z']);
  });

  it('changes a kept item in place: its title and project', () => {
    const k = kept(
      [
        ['b', 2],
        ['a', 1],
      ],
      true,
    );
    expect(applyChange(k, 3, { deleted: false, item: row('a', 1, 'new title', 'q') })).toBe(true);
    expect(k.rows[1]).toMatchObject({ id: 'a', title: 'new title', project_id: 'q' });
  });

  it('drops a deleted or untitled item; asks for a whole read when older titles could take its place', () => {
    const all = kept(
      [
        ['b', 2],
        ['a', 1],
      ],
      true,
    );
    expect(applyChange(all, 3, { deleted: true, item: row('b', 2) })).toBe(true);
    expect(applyChange(all, 3, { deleted: false, item: row('a', 1, null) })).toBe(true);
    expect(ids(all)).toEqual([]);
    const full = kept(
      [
        ['b', 2],
        ['a', 1],
      ],
      false,
    );
    expect(applyChange(full, 3, { deleted: true, item: row('b', 2) })).toBe(false);
    expect(applyChange(kept([['b', 2]], false), 3, { deleted: true, item: row('x', 9) })).toBe(true);
  });
});
