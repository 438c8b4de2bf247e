import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';

export interface LabelledInput {
  id: string;
  /** The form field's name, when it is not the id. */
  name?: string;
  label: string;
  /** The input's other attributes (type, autocomplete, bounds, value). */
  attrs: SafeHtml;
  error?: string | undefined;
  hint?: string | undefined;
}

/** A labelled input with its hint and its error, tied to it for assistive technology (aria-describedby, aria-invalid). */
export function labelledInput({ id, name = id, label, attrs, error, hint }: LabelledInput): SafeHtml {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field${error ? ' has-error' : ''}"><label for="${id}">${label}</label>
  ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
  <input id="${id}" name="${name}" ${attrs}${describedBy ? html` aria-describedby="${describedBy}"` : ''}${error ? html` aria-invalid="true"` : ''}>
  ${error ? html`<p class="field-error" id="${id}-error">${sentence(error)}</p>` : ''}</div>`;
}
