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
    const chips = quickAddChips({ spans: [span('tag', '@errand', 'errand'), span('recurrence', 'every monday', 'FREQ=WEEKLY;BYDAY=MO')] }, projectName);
    expect(chips).toEqual([
      { kind: 'tag', label: 'Tag', text: '@errand', allDay: false },
      { kind: 'recurrence', label: 'Repeats', text: 'every monday', allDay: false },
    ]);
  });

  it('shows a date as the words typed and the day they mean', () => {
    expect(quickAddChips({ spans: [span('date', 'tomorrow 9am', '2026-11-30T09:00:00.000Z', 'Mon 30 Nov, 9:00 AM')] }, projectName)).toEqual([
      { kind: 'date', label: 'Due', text: 'tomorrow 9am · Mon 30 Nov, 9:00 AM', allDay: false },
    ]);
  });

  it('says "all day" after the day of a date without a time, never a time of day (issue 47, all-day dates)', () => {
    expect(quickAddChips({ spans: [span('date', 'tomorrow', '2026-11-29T23:00:00.000Z', 'Mon 30 Nov')], all_day: true }, projectName)).toEqual([
      { kind: 'date', label: 'Due', text: 'tomorrow · Mon 30 Nov · all day', allDay: true },
    ]);
    // all_day is the date's: a tag beside it is not all-day.
    expect(quickAddChips({ spans: [span('tag', '@home', 'home')], all_day: true }, projectName)[0]!.allDay).toBe(false);
  });

  it('names a project only when the words do not already say its name (any case)', () => {
    expect(quickAddChips({ spans: [span('project', '#work', 'p-work')] }, projectName)).toEqual([
      { kind: 'project', label: 'Project', text: '#work', allDay: false },
    ]);
    expect(quickAddChips({ spans: [span('project', '#home', 'p-home')] }, projectName)).toEqual([
      { kind: 'project', label: 'Project', text: '#home · Home renovation', allDay: false },
    ]);
  });

  it('shows just the words of a project the page does not know', () => {
    expect(quickAddChips({ spans: [span('project', '#new', 'p-unknown')] }, projectName)).toEqual([
      { kind: 'project', label: 'Project', text: '#new', allDay: false },
    ]);
  });

  it('has no chips for no spans', () => {
    expect(quickAddChips({ spans: [] }, projectName)).toEqual([]);
  });
});
