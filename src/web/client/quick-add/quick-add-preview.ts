import { fieldValue } from '../http.js';
import { quickAddChips, type QuickAddReading, type QuickAddSpan } from './quick-add-chips.js';
import { installQuickAddField } from './quick-add-field.js';
import { shiftRanges } from './shift-ranges.js';

/** Quiet time after typing before the text is read, so a word costs one request, not one a key. */
const DEBOUNCE_MS = 250;

/** A reading the user refused: its words, where they are now in the text. */
interface Refused {
  start: number;
  end: number;
}

/*
 * Quick add while typing: what the first line says (#project, @tag, a date, every …) is marked in
 * the text (quick-add-field.ts) and listed under the box with what it means, from the server's own
 * reading (debounced). A wrong reading can be refused (decision 0098): its chip's × button, a click
 * on the marked words once the box has the focus, or Backspace right after them. Its range goes in
 * the form's `literal` field, so the server reads those words as plain text, in this preview and in
 * the capture. The text is never touched, so a failed request only hides the preview; an answer to
 * older text is dropped.
 */
export function installQuickAddPreview(): void {
  document.querySelectorAll<HTMLElement>('[data-quick-add]').forEach((preview) => {
    const form = preview.closest('form');
    const box = form?.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    if (!form || !box || !window.fetch) return;
    const said = form.querySelector<HTMLElement>('[data-quick-add-said]');
    const literal = document.createElement('input');
    literal.type = 'hidden';
    literal.name = 'literal';
    form.append(literal);
    const field = installQuickAddField(box);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    let seen = box.value;
    let reading: QuickAddReading = { spans: [] };
    let refused: Refused[] = [];
    let lastSaid = '';
    const projectName = (id: string): string => form.querySelector(`select[name=project_id] option[value="${CSS.escape(id)}"]`)?.textContent ?? '';

    const say = (words: string): void => {
      if (!said || words === lastSaid) return;
      lastSaid = words;
      said.textContent = words;
    };

    const show = (next: QuickAddReading, announce: boolean): void => {
      reading = next;
      preview.textContent = '';
      const chips = quickAddChips(reading, projectName);
      chips.forEach((chip, i) => {
        const span = reading.spans[i]!;
        const element = document.createElement('span');
        element.className = `chip chip-${chip.kind}`;
        element.setAttribute('data-kind', chip.kind);
        if (chip.allDay) element.setAttribute('data-all-day', '');
        const label = document.createElement('b');
        label.textContent = `${chip.label} `;
        element.append(label, chip.text);
        const refuse = document.createElement('button');
        refuse.type = 'button';
        refuse.className = 'chip-refuse';
        refuse.textContent = '×';
        refuse.setAttribute('aria-label', `Keep “${span.text}” as text`);
        refuse.addEventListener('click', () => {
          refuseSpan(span);
          box.focus();
        });
        preview.append(element, refuse);
      });
      preview.hidden = chips.length === 0;
      field.draw(reading.spans);
      // Only a reading is said: an empty one would cut short "kept as text" or say nothing anyway.
      if (announce && chips.length > 0) say(`Understood: ${chips.map((c) => `${c.label} ${c.text}`).join('; ')}.`);
    };

    const ask = (): void => {
      const text = box.value;
      const mine = ++asked;
      if (text.trim() === '') return show({ spans: [] }, true);
      const data = new URLSearchParams();
      data.append('_csrf', fieldValue(form, '_csrf'));
      data.append('text', text);
      data.append('literal', literal.value);
      fetch('/inbox/parse', { method: 'POST', body: data, credentials: 'same-origin' })
        .then(async (res) => {
          if (!res.ok) throw new Error(`status ${res.status}`);
          return (await res.json()) as Partial<QuickAddReading>;
        })
        .then((answer) => {
          if (mine === asked && box.value === text) show({ spans: answer.spans ?? [], all_day: answer.all_day === true }, true);
        })
        .catch(() => {
          if (mine === asked) show({ spans: [] }, true);
        });
    };

    // The refused ranges travel with the form, in its own words: `start-end` pairs (src/web/literal-ranges.ts).
    const writeLiteral = (): void => {
      literal.value = refused.map((r) => `${r.start}-${r.end}`).join(',');
    };

    /** Refusing one piece of a reading refuses the reading: every span of that date (or tag, or project). */
    function refuseSpan(span: QuickAddSpan): void {
      const same = reading.spans.filter((s) => s.kind === span.kind && s.value === span.value);
      refused.push(...same.map((s) => ({ start: s.start, end: s.end })));
      writeLiteral();
      show({ ...reading, spans: reading.spans.filter((s) => !same.includes(s)) }, false);
      say(`“${same.map((s) => s.text).join(' ')}” kept as text.`);
      // What is left may read differently now (a date's other words): ask again at once.
      clearTimeout(timer);
      ask();
    }

    box.addEventListener('input', () => {
      // Marks and refusals follow the words while the server is asked about the new text.
      refused = shiftRanges(refused, seen, box.value);
      const spans = shiftRanges(reading.spans, seen, box.value);
      seen = box.value;
      writeLiteral();
      show({ ...reading, spans }, false);
      clearTimeout(timer);
      timer = setTimeout(ask, DEBOUNCE_MS);
    });
    // Backspace right after a marked reading takes the reading away, not the last letter (as Todoist does).
    box.addEventListener('keydown', (event) => {
      if (event.key !== 'Backspace' || event.altKey || event.ctrlKey || event.metaKey || box.selectionStart !== box.selectionEnd) return;
      const span = reading.spans.find((s) => s.end === box.selectionStart);
      if (!span || box.value !== seen) return;
      event.preventDefault();
      refuseSpan(span);
    });
    // A click on a marked reading refuses it, once the box has the focus: the click that focuses it only places the caret.
    let hadFocus = false;
    box.addEventListener('pointerdown', () => {
      hadFocus = document.activeElement === box;
    });
    box.addEventListener('click', () => {
      if (!hadFocus || box.selectionStart !== box.selectionEnd) return;
      const span = reading.spans.find((s) => s.start < box.selectionStart && box.selectionStart < s.end);
      if (span) refuseSpan(span);
    });
    if (box.value.trim() !== '') ask();
  });
}
