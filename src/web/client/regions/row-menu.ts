/*
 * A row's ⋯ menu (set a date, move, archive, delete), built here from the row instead of sent in
 * every row (issue 47 item 8, decision 0077): the server sends only its "⋯", hidden from a browser
 * without this script (the title's link leads to the item's page). Built for every row of a region before the
 * region is shown, so the shortcuts, the kept state of a replaced region and the tests find the
 * same menu as before.
 */

import { quickDates } from './quick-dates.js';
import { rowItemId } from './row-id.js';

type Attributes = Record<string, string | boolean>;

function el(tag: string, attributes: Attributes, ...children: Array<Node | string>): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    node.setAttribute(name, value === true ? '' : value);
  }
  node.append(...children);
  return node;
}

const hidden = (name: string, value: string): HTMLElement => el('input', { type: 'hidden', name, value });
const button = (label: string, formaction: string, extra: Attributes = {}): HTMLElement =>
  el('button', { class: 'small', type: 'submit', formaction, ...extra }, label);

/** The item's project: its row's badge, or (a subtask's row, without one) its data-project-id. */
function projectOf(row: HTMLElement): string {
  const badge = row.querySelector<HTMLAnchorElement>(':scope > .line .badge');
  return row.getAttribute('data-project-id') ?? badge?.getAttribute('href')?.split('/').pop() ?? '';
}

/** The row's due date and time as the date field shows them, in the user's zone (the page's #act says which). */
function localDue(iso: string, zone: string): [string, string] {
  if (!iso) return ['', ''];
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone || 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return [`${part('year')}-${part('month')}-${part('day')}`, `${part('hour')}:${part('minute')}`];
}

/** The user's date now: the page's (server's clock), else the browser's in the user's zone. */
function todayOf(act: Element | null, zone: string): string {
  return act?.getAttribute('data-today') || localDue(new Date().toISOString(), zone)[0];
}

/** The row's own due moment: the datetime of its due badge ('' without one). */
export const dueOf = (row: Element): string => row.querySelector(':scope > .line .due time')?.getAttribute('datetime') ?? '';

/** The item page's snooze choices (views/item.views.ts SNOOZE_CHOICES). */
const SNOOZES: ReadonlyArray<[string, string]> = [
  ['10', 'Snooze 10 minutes'],
  ['60', 'Snooze 1 hour'],
  ['1440', 'Snooze 1 day'],
];

function menuForm(row: HTMLElement, id: string): HTMLElement {
  const base = `/inbox/items/${id}`;
  const act = document.getElementById('act');
  const csrf = act?.querySelector<HTMLInputElement>('input[name=_csrf]')?.value ?? '';
  const back = act?.querySelector<HTMLInputElement>('input[name=return]')?.value ?? '/';
  const [date, time] = localDue(dueOf(row), act?.getAttribute('data-zone') ?? '');
  const select = el('select', { id: `move-${id}`, name: 'project_id' });
  const options = document.getElementById('project-options');
  if (options instanceof HTMLTemplateElement) select.appendChild(options.content.cloneNode(true));
  const project = projectOf(row);
  for (const option of Array.from((select as HTMLSelectElement).options)) option.defaultSelected = option.value === project;
  const archived = row.hasAttribute('data-archived');
  const dateField = el('input', { id: `due-${id}`, type: 'date', name: 'due_date', value: date });
  // Two taps to tomorrow: ⋯, then a chip. Each chip sets the date field and sends the form; the
  // hidden time keeps a timed item's time and an all-day (or undated) item all-day.
  const chips = quickDates(todayOf(act, act?.getAttribute('data-zone') ?? '')).map(([label, day]) => {
    const chip = button(label, `${base}/due`, { class: 'small chip', 'data-date': day, 'data-quick': label.toLowerCase().replace(' ', '-') });
    chip.addEventListener('click', () => {
      (dateField as HTMLInputElement).value = day;
    });
    return chip;
  });
  const pick = el('button', { class: 'small chip', type: 'button' }, 'Pick');
  pick.addEventListener('click', () => {
    const field = dateField as HTMLInputElement;
    field.focus();
    try {
      field.showPicker();
    } catch {
      // No picker without a user gesture or in older browsers: the focused field is the picker.
    }
  });
  return el(
    'form',
    { class: 'more-form', method: 'post', action: `${base}/due`, 'data-inplace': true },
    hidden('_csrf', csrf),
    hidden('return', back),
    // An all-day item's time stays empty, so setting its date keeps it all-day (the server reads no time as a day).
    hidden('due_time', row.hasAttribute('data-all-day') ? '' : time),
    // "Set date" comes first: Enter in the date field sends the form with its first button.
    el('div', { class: 'more-line' }, el('label', { for: `due-${id}` }, 'Due date'), dateField, button('Set date', `${base}/due`)),
    el('div', { class: 'more-line quick-dates', role: 'group', 'aria-label': 'Quick dates' }, ...chips, pick),
    el('div', { class: 'more-line' }, el('label', { for: `move-${id}` }, 'Project'), select, button('Move', `${base}/move`)),
    // Snooze from the row too (issue 47 item 10), for a row with a reminder: later, never earlier.
    ...(row.querySelector(':scope > .line .mark.remind')
      ? [
          el(
            'div',
            { class: 'more-line' },
            el('span', {}, 'Snooze'),
            ...SNOOZES.map(([m, label]) => button(label, `${base}/snooze`, { name: 'minutes', value: m })),
          ),
        ]
      : []),
    el(
      'div',
      { class: 'more-line' },
      archived ? button('Unarchive', `${base}/unarchive`) : button('Archive', `${base}/archive`),
      button('Delete', `${base}/delete`, { class: 'small danger', 'data-grace': true }),
    ),
  );
}

/** Builds the menu of every row under `root` that has none yet. */
export function upgradeRows(root: ParentNode): void {
  root.querySelectorAll<HTMLDetailsElement>('li.item > .line > details.more').forEach((details) => {
    const row = details.closest<HTMLElement>('li.item');
    const id = row ? rowItemId(row) : '';
    if (!row || !id || details.querySelector('.more-form')) return;
    details.appendChild(menuForm(row, id));
  });
}
