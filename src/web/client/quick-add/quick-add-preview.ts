import { fieldValue } from '../http.js';
import { quickAddChips, type QuickAddReading } from './quick-add-chips.js';

/** Quiet time after typing before the text is read, so a word costs one request, not one a key. */
const DEBOUNCE_MS = 250;

/*
 * Quick add while typing: what the first line says (#project, @tag, a date, every …) is shown
 * under the box, from the server's own reading (debounced). The text is never touched, so a
 * failed request only hides the preview; an answer to older text is dropped.
 */
export function installQuickAddPreview(): void {
  document.querySelectorAll<HTMLElement>('[data-quick-add]').forEach((preview) => {
    const form = preview.closest('form');
    const box = form?.querySelector<HTMLTextAreaElement>('textarea[name=text]');
    if (!form || !box || !window.fetch) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    const projectName = (id: string): string => form.querySelector(`select[name=project_id] option[value="${CSS.escape(id)}"]`)?.textContent ?? '';
    const show = (reading: QuickAddReading): void => {
      const { spans } = reading;
      preview.textContent = '';
      for (const chip of quickAddChips(reading, projectName)) {
        const element = document.createElement('span');
        element.className = `chip chip-${chip.kind}`;
        element.setAttribute('data-kind', chip.kind);
        if (chip.allDay) element.setAttribute('data-all-day', '');
        const label = document.createElement('b');
        label.textContent = `${chip.label} `;
        element.appendChild(label);
        element.appendChild(document.createTextNode(chip.text));
        preview.appendChild(element);
      }
      preview.hidden = spans.length === 0;
    };
    const ask = (): void => {
      const text = box.value;
      const mine = ++asked;
      if (text.trim() === '') return show({ spans: [] });
      const data = new URLSearchParams();
      data.append('_csrf', fieldValue(form, '_csrf'));
      data.append('text', text);
      fetch('/inbox/parse', { method: 'POST', body: data, credentials: 'same-origin' })
        .then(async (res) => {
          if (!res.ok) throw new Error(`status ${res.status}`);
          return (await res.json()) as Partial<QuickAddReading>;
        })
        .then((answer) => {
          if (mine === asked) show({ spans: answer.spans ?? [], all_day: answer.all_day === true });
        })
        .catch(() => {
          if (mine === asked) show({ spans: [] });
        });
    };
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(ask, DEBOUNCE_MS);
    });
    if (box.value.trim() !== '') ask();
  });
}
