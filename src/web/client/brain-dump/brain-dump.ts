import { fieldValue } from '../http.js';
import { say } from '../acting/toast.js';
import { swapLists, WITH_SIDEBAR } from '../regions/swap-lists.js';
import { quickAddChips, type QuickAddSpan } from '../quick-add/quick-add-chips.js';
import { depths, removeRow, replaceRow, type Source } from './text-edits.js';

/** Quiet time after typing before the text is split, as the quick-add preview waits. */
const DEBOUNCE_MS = 300;
/** Prose goes to a model (decision 0099): a longer pause, so a sentence being typed is not split word by word. */
const PROSE_DEBOUNCE_MS = 1200;
/** Fewer words than this is one thought: not worth a model call. */
const PROSE_WORDS_MIN = 6;

/** A row of the server's split (src/web/routes/brain-dump.routes.ts). */
interface Row {
  title: string;
  source: Source;
  parent_index: number | null;
  is_completed: boolean;
  spans: QuickAddSpan[];
  all_day?: boolean;
}

/** A text worth splitting: several non-empty lines, or one line with `; ` between clauses. */
const looksLikeList = (text: string): boolean =>
  text
    .trim()
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== '').length > 1 || /;\s/.test(text);

/** Prose a model might split: one line of a few words. */
const looksLikeProse = (text: string): boolean => text.trim().split(/\s+/).length >= PROSE_WORDS_MIN;

/*
 * Brain dump in the capture box: for a text of several items the box offers "One item" (what the
 * form does without this script) or "Split into N items", which lists the items as the server
 * reads them, each with its chips, editable and removable (edits go to the text, read again).
 * Capturing the split stores them as one batch; the toast's Undo removes the whole batch.
 */
export function installBrainDump(): void {
  document.querySelectorAll<HTMLElement>('[data-brain-dump]').forEach((region) => {
    const form = region.closest('form');
    const box = form?.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    const list = region.querySelector<HTMLOListElement>('[data-brain-dump-list]');
    const count = region.querySelector<HTMLElement>('[data-brain-dump-count]');
    const splitChoice = region.querySelector<HTMLInputElement>('input[value=split]');
    const oneChoice = region.querySelector<HTMLInputElement>('input[value=one]');
    if (!form || !box || !list || !count || !splitChoice || !oneChoice || !window.fetch) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    let rows: Row[] = [];
    const projectName = (id: string): string => form.querySelector(`select[name=project_id] option[value="${CSS.escape(id)}"]`)?.textContent ?? '';
    const splitting = (): boolean => !region.hidden && splitChoice.checked && rows.length > 1;
    // With the model's split (data-split-prose: Pro, an openai organizer), Organize ticked sends prose too.
    const organize = region.hasAttribute('data-split-prose') ? form.querySelector<HTMLInputElement>('input[type=checkbox][name=organize]') : null;
    const organizing = (): boolean => organize?.checked === true;
    const withOrganize = (data: URLSearchParams): URLSearchParams => {
      if (organizing()) data.append('organize', '1');
      return data;
    };

    const setText = (text: string): void => {
      box.value = text;
      // The quick-add preview and the offline draft follow the box.
      box.dispatchEvent(new Event('input', { bubbles: true }));
      ask();
    };

    const drawRow = (row: Row, i: number, depth: number): HTMLLIElement => {
      const item = document.createElement('li');
      item.setAttribute('data-depth', String(Math.min(depth, 3)));
      if (row.is_completed) item.classList.add('done');
      const words = document.createElement('input');
      words.type = 'text';
      words.value = box.value.slice(row.source.start, row.source.start + row.source.length);
      words.setAttribute('aria-label', `Item ${i + 1}${row.is_completed ? ' (done)' : ''}`);
      words.addEventListener('change', () => setText(replaceRow(box.value, row.source, words.value)));
      // Enter in a row keeps the edit; it must not capture the whole box.
      words.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        words.dispatchEvent(new Event('change'));
      });
      const remove = document.createElement('button');
      remove.type = 'button';
      remove.className = 'small';
      remove.textContent = 'Remove';
      remove.setAttribute('aria-label', `Remove item ${i + 1}`);
      remove.addEventListener('click', () => setText(removeRow(box.value, row.source)));
      const chips = document.createElement('span');
      chips.className = 'quick-add small';
      for (const chip of quickAddChips({ spans: row.spans, all_day: row.all_day === true }, projectName)) {
        const element = document.createElement('span');
        element.className = `chip chip-${chip.kind}`;
        element.setAttribute('data-kind', chip.kind);
        const label = document.createElement('b');
        label.textContent = `${chip.label} `;
        element.append(label, chip.text);
        chips.appendChild(element);
      }
      item.append(words, remove);
      if (chips.childElementCount > 0) item.appendChild(chips);
      return item;
    };

    const show = (fresh: Row[]): void => {
      rows = fresh;
      region.hidden = rows.length < 2;
      count.textContent = `Split into ${rows.length} items`;
      list.hidden = !splitChoice.checked || region.hidden;
      // Redrawing the row being typed in would lose its caret: the list waits for the edit's change.
      if (list.contains(document.activeElement) && document.activeElement instanceof HTMLInputElement) return;
      const deep = depths(rows.map((r) => r.parent_index));
      list.replaceChildren(...rows.map((row, i) => drawRow(row, i, deep[i]!)));
    };

    function ask(): void {
      const text = box!.value;
      const mine = ++asked;
      if (!looksLikeList(text) && !(organizing() && looksLikeProse(text))) return show([]);
      const data = withOrganize(new URLSearchParams({ _csrf: fieldValue(form!, '_csrf'), text }));
      fetch('/inbox/split', { method: 'POST', body: data, credentials: 'same-origin' })
        .then(async (res) => (res.ok ? ((await res.json()) as { items: Row[] }).items : []))
        .then((fresh) => mine === asked && show(fresh))
        .catch(() => mine === asked && show([]));
    }

    box.addEventListener('input', (event) => {
      if (!event.isTrusted) return;
      clearTimeout(timer);
      timer = setTimeout(ask, organizing() && !looksLikeList(box.value) ? PROSE_DEBOUNCE_MS : DEBOUNCE_MS);
    });
    for (const choice of [splitChoice, oneChoice]) choice.addEventListener('change', () => show(rows));
    organize?.addEventListener('change', ask);

    // Capture phase: the split is saved here, before the offline queue and the plain form see the submit.
    form.addEventListener(
      'submit',
      (event) => {
        if (!splitting()) return;
        event.preventDefault();
        event.stopImmediatePropagation();
        const data = withOrganize(new URLSearchParams({ _csrf: fieldValue(form, '_csrf'), text: box.value }));
        const project = form.querySelector<HTMLSelectElement>('select[name=project_id]')?.value;
        if (project) data.append('project_id', project);
        const back = fieldValue(form, 'return') || location.pathname;
        fetch('/inbox/capture-batch', { method: 'POST', body: data, credentials: 'same-origin' })
          .then(async (res) => {
            const answer = (await res.json()) as { ids?: string[]; error?: string };
            if (!res.ok || !answer.ids) throw new Error(answer.error ?? `status ${res.status}`);
            box.value = '';
            oneChoice.checked = true;
            show([]);
            const page = await (await fetch(back, { credentials: 'same-origin' })).text();
            swapLists(page, answer.ids[0] ?? null, 0, null, WITH_SIDEBAR);
            const undo = new URLSearchParams({ _csrf: fieldValue(form, '_csrf'), ids: answer.ids.join(','), return: back });
            const count = answer.ids.length;
            // One Undo removes the whole batch; the undo route answers the page it returns to, whose lists replace these.
            const run = () =>
              void fetch('/inbox/capture-batch/undo', { method: 'POST', body: undo, credentials: 'same-origin' })
                .then(async (res) => {
                  swapLists(await res.text(), null, 0, null, WITH_SIDEBAR);
                  say(res.ok ? `Undone: the ${count} items are gone.` : 'Not undone: try again.');
                })
                .catch(() => say('Not undone: try again.'));
            say(`Captured ${count} items.`, { label: 'Undo', run });
          })
          .catch((error: unknown) => say(`Not captured: ${error instanceof Error ? error.message : 'try again'}`));
      },
      { capture: true },
    );
  });
}
