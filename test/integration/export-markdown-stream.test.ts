import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { actor, ok } from '../helpers/items.js';
import { seedItems, type SeedItem } from '../helpers/seed-items.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { renderProjectMarkdown } from '../../src/modules/transfer/markdown.js';
import type { ItemView } from '../../src/modules/items/item-view.js';
import { newItemRow } from '../../src/modules/items/new-item.js';
import { newId } from '../../src/lib/ids.js';

/*
 * The Markdown export streams a project a page of top-level items at a time (decision 0096). It
 * must write exactly what rendering the whole project at once writes: across page boundaries
 * (500 top-level items a page), with subtasks two deep, a note after a task line, archived and
 * done items, tags, and a subtask whose parent is in another project (top-level there).
 */
describe.each(DIALECTS)('Markdown export streamed page by page (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes each project as rendering it whole would, across pages', async () => {
    const a = await actor(t);
    const garden = ok(await a.c.post('projects', { name: 'Garden' })).id as string;
    const base = Date.parse('2026-01-01T00:00:00Z');
    const at = (i: number) => new Date(base + i * 1000).toISOString();
    const specs: SeedItem[] = [];
    const item = (i: number, extra: Partial<SeedItem>): SeedItem => ({
      title: `item ${i}`,
      content_md: i % 7 === 0 ? `notes of ${i}\n\nsecond paragraph` : null,
      type: i % 5 === 0 ? 'note' : 'todo',
      status: i % 11 === 0 ? 'archived' : i % 3 === 0 ? 'done' : 'todo',
      is_completed: i % 3 === 0,
      project_id: a.user.inboxId,
      due_at: i % 13 === 0 ? at(i + 86_400) : null,
      created_at: at(i),
      tags: i % 17 === 0 ? ['garden work'] : [],
      ...extra,
    });
    for (let i = 0; i < 1_150; i += 1) specs.push(item(i, {}));
    const seeded = await seedItems(t, a.user.id, specs);
    // Subtasks (created later than the page their parent is on), a sub-subtask, and one whose parent is in Garden.
    const subtask = async (i: number, parentId: string, extra: { type?: 'todo' | 'note'; project_id?: string } = {}): Promise<string> => {
      const id = newId();
      const row = newItemRow({
        id,
        user_id: a.user.id,
        project_id: extra.project_id ?? a.user.inboxId,
        parent_id: parentId,
        type: extra.type ?? 'todo',
        title: `item ${i}`,
        content_md: null,
        created_at: at(i),
      });
      await t.services.db.insertInto('items').values(row).execute();
      return id;
    };
    const sub = await subtask(2_000, seeded[499]!.id);
    await subtask(2_001, seeded[500]!.id);
    await subtask(2_002, seeded[3]!.id, { type: 'note', project_id: garden });
    await subtask(2_003, sub);

    const res = await a.c.get('export?format=markdown');
    expect(res.status).toBe(200);

    const whole: string[] = [];
    for (const project of await t.services.projects.list(a.user.id)) {
      const items: ItemView[] = [];
      let cursor: string | undefined;
      do {
        const page = await t.services.items.inProject(a.user.id, project.id, { limit: 1000, ...(cursor ? { cursor } : {}) });
        items.push(...page.items);
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      whole.push(`\n${renderProjectMarkdown(project.name, items, 'UTC')}`);
    }
    const body = res.text.slice(res.text.indexOf('\n') + 1);
    expect(body).toBe(whole.join(''));
    expect(body).toContain('  - [ ] item 2000\n    - [ ] item 2003\n');
    expect(body).toMatch(/# Garden\n\n\*\*item 2002\*\*/);
  });
});
