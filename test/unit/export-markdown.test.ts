import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import type { ItemView } from '../../src/modules/items/item-view.js';
import { readQuickAdd } from '../../src/modules/quick-add/grammar.js';
import { renderProjectMarkdown } from '../../src/modules/transfer/markdown.js';

let counter = 0;
function item(fields: Partial<ItemView> & Pick<ItemView, 'type' | 'title'>): ItemView {
  counter += 1;
  const at = new Date(Date.UTC(2026, 10, 21, 10, 0, counter)).toISOString();
  return {
    id: `0190f5e2-7c3a-7b1d-9e2f-${String(counter).padStart(12, '0')}`,
    project_id: '0190f5e2-7c3a-7b1d-9e2f-000000000000',
    content_md: null,
    is_completed: false,
    status: 'todo',
    due_at: null,
    parent_id: null,
    tags: [],
    archived_at: null,
    recurrence: null,
    remind_at: null,
    all_day: false,
    attachments: [],
    created_at: at,
    updated_at: at,
    ...fields,
  };
}

/* The export is read by Markdown renderers: rendered with markdown-it (CommonMark), it must mean what it says. */
describe('the Markdown export, rendered', () => {
  const md = new MarkdownIt();

  it('keeps a note after a task its own paragraph, and a task body its own paragraph inside the task', () => {
    const task = item({ type: 'todo', title: 'Plan the trip', content_md: 'Book the hotel first' });
    const sub = item({ type: 'todo', title: 'Pack the bags', parent_id: task.id, content_md: 'Remember the charger' });
    const note = item({ type: 'note', title: 'Soil notes', content_md: 'Acidic near the fence' });
    const html = md.render(renderProjectMarkdown('Garden', [task, sub, note], 'UTC'));
    expect(html).toBe(
      [
        '<h1>Garden</h1>',
        '<ul>',
        '<li>',
        '<p>[ ] Plan the trip</p>',
        '<p>Book the hotel first</p>',
        '<ul>',
        '<li>',
        '<p>[ ] Pack the bags</p>',
        '<p>Remember the charger</p>',
        '</li>',
        '</ul>',
        '</li>',
        '</ul>',
        '<p><strong>Soil notes</strong></p>',
        '<p>Acidic near the fence</p>',
        '',
      ].join('\n'),
    );
  });

  it('ends the list before a note that follows a task without a body', () => {
    const html = md.render(renderProjectMarkdown('Inbox', [item({ type: 'todo', title: 'Call mum' }), item({ type: 'note', title: 'An idea' })], 'UTC'));
    expect(html).toBe('<h1>Inbox</h1>\n<ul>\n<li>[ ] Call mum</li>\n</ul>\n<p><strong>An idea</strong></p>\n');
  });
});

/*
 * Tags are `@name` everywhere (quick add, cin, the web app, MCP): `#name` is a project. There is no
 * Markdown import; what reads a line of the export back is quick add, when the line is pasted into a
 * capture, so that is the round trip checked.
 */
describe('the Markdown export, read back by quick add', () => {
  const callsProject = { id: '0190f5e2-7c3a-7b1d-9e2f-0000000000aa', name: 'calls' };

  it('writes tags as @name, which quick add reads as the same tags and never as a project of that name', () => {
    const tagged = item({ type: 'todo', title: 'Call Ana', tags: ['calls', 'phone list'] });
    const note = item({ type: 'note', title: 'Ideas', tags: ['calls'] });
    const text = renderProjectMarkdown('Work', [tagged, note], 'UTC');
    expect(text).toContain('- [ ] Call Ana @calls @phone-list\n');
    expect(text).toContain('**Ideas** @calls\n');
    for (const [line, title] of [
      ['- [ ] Call Ana @calls @phone-list', 'Call Ana'],
      ['**Ideas** @calls', '**Ideas**'],
    ] as const) {
      const read = readQuickAdd(line.replace(/^- \[[ x]\] /, ''), { now: new Date('2026-11-21T10:00:00Z'), zone: 'UTC', projects: [callsProject] });
      expect(read).toMatchObject({ title, project_id: null });
      expect(read.tags).toEqual(line.includes('phone') ? ['calls', 'phone-list'] : ['calls']);
    }
  });
});
