/*
 * A region replaced by a fresh copy from the server keeps what the user is doing in it: the
 * disclosures they opened, what they typed or chose, and the focus (the same control of the same
 * row, found through the nearest element with an id and its place among that one's focusables).
 */
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';

/** Where the focus is, as an id and an index that survive the region's replacement. */
export interface FocusPlace {
  id: string;
  /** -1: the element with the id itself. */
  index: number;
}

export function focusPlace(within: readonly Element[]): FocusPlace | null {
  const active = document.activeElement;
  if (!active || !within.some((region) => region.contains(active))) return null;
  const holder = active.id ? active : active.parentElement?.closest('[id]');
  if (!holder) return null;
  return { id: holder.id, index: holder === active ? -1 : Array.prototype.indexOf.call(holder.querySelectorAll(FOCUSABLE), active) };
}

/** Focuses the place again; whether the focus is there now. */
export function refocus(place: FocusPlace | null): boolean {
  if (!place) return false;
  const holder = document.getElementById(place.id);
  const target = holder && (place.index < 0 ? holder : holder.querySelectorAll<HTMLElement>(FOCUSABLE)[place.index]);
  if (!target) return false;
  target.focus({ preventScroll: true });
  return document.activeElement === target;
}

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function edited(field: Field): boolean {
  if (!(field instanceof HTMLSelectElement)) return field.value !== field.defaultValue;
  const chosen = field.options[field.selectedIndex];
  return !chosen || !chosen.defaultSelected;
}

/** Carries the open disclosures and the edited fields of `mine` over to `theirs`, its replacement. */
export function keepState(mine: Element, theirs: Element): void {
  mine.querySelectorAll<HTMLDetailsElement>('details[id]').forEach((details) => {
    const twin = theirs.querySelector<HTMLDetailsElement>(`#${CSS.escape(details.id)}`);
    if (twin) twin.open = details.open;
  });
  // A row's ⋯ menu has no id of its own: its row's says which one it is.
  mine.querySelectorAll('li.item[id] > .line details.more[open]').forEach((details) => {
    const row = details.closest('li.item');
    const twin = row && theirs.querySelector<HTMLDetailsElement>(`#${CSS.escape(row.id)} > .line details.more`);
    if (twin) twin.open = true;
  });
  mine.querySelectorAll<Field>('input[id], textarea[id], select[id]').forEach((field) => {
    const twin = theirs.querySelector<Field>(`#${CSS.escape(field.id)}`);
    if (twin && edited(field)) twin.value = field.value;
  });
}
