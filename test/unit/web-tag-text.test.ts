import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../src/modules/items/item-view.js';
import { itemRow } from '../../src/web/views/item-row.views.js';
import { sidebar } from '../../src/web/views/sidebar.views.js';

/* One notation for tags everywhere, as quick add reads them: `@calls`; `#Name` is a project. */
describe('tag text in the web views', () => {
  const item: ItemView = {
    id: '0190f5e2-7c3a-7b1d-9e2f-000000000001',
    project_id: '0190f5e2-7c3a-7b1d-9e2f-000000000000',
    type: 'todo',
    title: 'Call Ana',
    content_md: null,
    is_completed: false,
    status: 'todo',
    due_at: null,
    parent_id: null,
    tags: ['calls'],
    archived_at: null,
    recurrence: null,
    remind_at: null,
    all_day: false,
    attachments: [],
    created_at: '2026-11-21T10:00:00.000Z',
    updated_at: '2026-11-21T10:00:00.000Z',
  };

  it('an item row links its tags as @name', () => {
    const row = itemRow(
      { csrf: 't', self: '/', dates: { zone: 'UTC', locale: 'en-GB', now: new Date('2026-11-21T10:00:00Z') }, projects: [], projectNames: new Map() },
      item,
    ).value;
    expect(row).toContain('href="/items?tag=calls">@calls</a>');
    expect(row).not.toContain('#calls');
  });

  it('the sidebar lists tags as @name', () => {
    const aside = sidebar({ projects: [], tags: [{ name: 'calls', item_count: 2 }] }).value;
    expect(aside).toMatch(/>@calls <span class="count"/);
    expect(aside).not.toContain('#calls');
  });
});
