import { describe, expect, it } from 'vitest';
import { quickAddChips, type QuickAddSpan } from '../../../src/web/client/quick-add/quick-add-chips.js';

const span = (kind: QuickAddSpan['kind'], text: string, value: string, shown?: string): QuickAddSpan => ({
  kind,
  start: 0,
  end: text.length,
  text,
  value,
  ...(shown === undefined ? {} : { shown }),
});

const projects = new Map([
  ['p-work', 'Work'],
  ['p-home', 'Home renovation'],
]);
const projectName = (id: string) => projects.get(id) ?? '';

describe('the quick-add preview chips', () => {
  it('labels each span by its kind, in the order the server read them', () => {
    const chips = quickAddChips([span('tag', '@errand', 'errand'), span('recurrence', 'every monday', 'FREQ=WEEKLY;BYDAY=MO')], projectName);
    expect(chips).toEqual([
      { kind: 'tag', label: 'Tag', text: '@errand' },
      { kind: 'recurrence', label: 'Repeats', text: 'every monday' },
    ]);
  });

  it('shows a date as the words typed and the day they mean', () => {
    expect(quickAddChips([span('date', 'tomorrow 9am', '2026-11-30T09:00:00.000Z', 'Mon 30 Nov, 9:00 AM')], projectName)).toEqual([
      { kind: 'date', label: 'Due', text: 'tomorrow 9am · Mon 30 Nov, 9:00 AM' },
    ]);
  });

  it('names a project only when the words do not already say its name (any case)', () => {
    expect(quickAddChips([span('project', '#work', 'p-work')], projectName)).toEqual([{ kind: 'project', label: 'Project', text: '#work' }]);
    expect(quickAddChips([span('project', '#home', 'p-home')], projectName)).toEqual([{ kind: 'project', label: 'Project', text: '#home · Home renovation' }]);
  });

  it('shows just the words of a project the page does not know', () => {
    expect(quickAddChips([span('project', '#new', 'p-unknown')], projectName)).toEqual([{ kind: 'project', label: 'Project', text: '#new' }]);
  });

  it('has no chips for no spans', () => {
    expect(quickAddChips([], projectName)).toEqual([]);
  });
});
