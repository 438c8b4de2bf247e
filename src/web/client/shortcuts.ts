/** "g" then one of these keys goes to that page. */
const GO: Record<string, string> = { t: '/', u: '/upcoming', i: '/inbox', p: '/projects' };

const rowOf = (): HTMLElement | null => document.activeElement?.closest<HTMLElement>('li.item') ?? null;

/** Focuses the item `by` rows after the current one (the first when none is). */
function step(by: number): void {
  const rows = Array.from(document.querySelectorAll<HTMLElement>('li.item'));
  if (rows.length === 0) return;
  const at = rows.indexOf(rowOf() as HTMLElement);
  const next = rows[at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + by))];
  next?.focus();
  next?.scrollIntoView({ block: 'nearest' });
}

function openEdit(): boolean {
  const edit = document.getElementById('edit') as HTMLDetailsElement | null;
  if (!edit) return false;
  edit.open = true;
  document.getElementById('title')?.focus();
  return true;
}

/*
 * "/" jumps to search, "c" to the capture box (from any page: elsewhere it opens Today's), "?"
 * lists the shortcuts, "g" then t/u/i/p goes to Today, Upcoming, the Inbox, projects; j/k move
 * through the items, x marks the current one done, e opens it, # moves it: unless the user is typing.
 */
export function installShortcuts(): void {
  let pendingG = false;
  document.addEventListener('keydown', (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (pendingG) {
      pendingG = false;
      const to = GO[event.key];
      if (to) {
        window.location.href = to;
        return;
      }
    }
    if (event.key === 'g') {
      pendingG = true;
      return;
    }
    if (event.key === '?') {
      const dialog = document.getElementById('shortcuts') as HTMLDialogElement | null;
      if (dialog && typeof dialog.showModal === 'function' && !dialog.open) {
        event.preventDefault();
        dialog.showModal();
      }
      return;
    }
    if (event.key === 'j' || event.key === 'k') {
      event.preventDefault();
      step(event.key === 'j' ? 1 : -1);
      return;
    }
    const row = rowOf();
    if (row && event.key === 'x') {
      event.preventDefault();
      row.querySelector<HTMLButtonElement>('button.check')?.click();
      return;
    }
    if (row && event.key === 'e') {
      event.preventDefault();
      const link = row.querySelector<HTMLAnchorElement>('.title a');
      if (link) window.location.href = `${link.href}#edit`;
      return;
    }
    if (row && event.key === '#') {
      event.preventDefault();
      const more = row.querySelector<HTMLDetailsElement>('details.more');
      if (more) {
        more.open = true;
        more.querySelector<HTMLSelectElement>('select[name=project_id]')?.focus();
      }
      return;
    }
    if (event.key === 'e' && document.getElementById('edit')) {
      event.preventDefault();
      openEdit();
      return;
    }
    if (event.key === 'c' && !document.getElementById('capture-text')) {
      window.location.href = '/#capture';
      return;
    }
    const id = event.key === '/' ? 'search' : event.key === 'c' ? 'capture-text' : null;
    const field = id ? document.getElementById(id) : null;
    if (field) {
      event.preventDefault();
      field.focus();
    }
  });
}

/** Opening an item to edit it (e from a list, or #edit) opens its form; #capture focuses the capture box. */
export function openFromHash(): void {
  if (window.location.hash === '#edit') openEdit();
  if (window.location.hash === '#capture') document.getElementById('capture-text')?.focus();
}
