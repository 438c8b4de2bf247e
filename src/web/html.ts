/**
 * A tagged template that escapes every interpolated value unless it is already SafeHtml, so
 * markup is built by composition and user text can never become markup.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

const NEEDS_ESCAPE = /[&<>"']/;
// Most text has nothing to escape: testing first spares replace() its copy.
const escapeHtml = (text: string): string => (NEEDS_ESCAPE.test(text) ? text.replace(/[&<>"']/g, (c) => ESCAPES[c]!) : text);

/*
 * Strings are appended with `+=`, never joined: V8 keeps an appended string as a rope and copies it
 * once when the answer is written, where join() copies every piece at every level of nesting.
 * Measured on a page of 200 rows: 1.7-3.3 ms with map/join, 0.95-1.1 ms so (issue 52's Today page).
 */
function render(value: HtmlValue): string {
  // Booleans render nothing, so `${cond && html`…`}` reads naturally.
  if (value === null || value === undefined || typeof value === 'boolean') return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value as readonly HtmlValue[]) out += render(item);
    return out;
  }
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i += 1) out += render(values[i]) + (strings[i + 1] ?? '');
  return new SafeHtml(out);
}
