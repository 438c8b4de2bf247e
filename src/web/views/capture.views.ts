import type { ProjectView } from '../../modules/projects/projects.service.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField } from '../layout.js';

export interface CaptureFormData {
  csrf: string;
  /** The page the form comes back to. */
  self: string;
  projects: ProjectView[];
  /** The project preselected (the project page's own). */
  project: string;
  draft?: string;
  /** Pro: the organizer checkbox, ticked as the user left it last time; `splitsProse` when its model may split prose (decision 0099). */
  organize: { checked: boolean; splitsProse?: boolean } | null;
  /** Pro: the record button, with why it cannot work when the server has no speech engine. */
  voice: { unavailable: string | null } | null;
  error?: string;
}

const option = (value: string, label: string, selected: boolean): SafeHtml =>
  html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

export function captureForm(d: CaptureFormData): SafeHtml {
  return html`<form class="capture" method="post" action="/inbox/capture">
  ${csrfField(d.csrf)}<input type="hidden" name="return" value="${d.self}"><input type="hidden" name="client_id" value="">
  <label for="capture-text" class="visually-hidden">Capture a note or todo</label>
  <textarea id="capture-text" name="text" rows="2" required data-enter-submits enterkeyhint="enter"
    placeholder="Capture a thought…" aria-describedby="capture-keys${d.error ? ' capture-error' : ''}"${d.draft || d.error ? html` autofocus` : ''}${d.error ? html` aria-invalid="true"` : ''}>${d.draft ?? ''}</textarea>
  <p class="capture-keys small muted" id="capture-keys">Enter saves, Shift+Enter starts a new line.</p>
  <p class="quick-add small" data-quick-add hidden></p>
  <div class="visually-hidden" data-quick-add-said role="status" aria-live="polite"></div>
  ${brainDump(d.organize?.splitsProse === true)}
  ${d.error ? html`<p class="field-error" id="capture-error">${sentence(d.error)}</p>` : ''}
  <div class="options">
    <select name="type" aria-label="Type">${option('', 'Type: auto', true)}${option('todo', 'Todo', false)}${option('note', 'Note', false)}</select>
    <select name="project_id" aria-label="Project">${option('', 'Project: auto', d.project === '')}${d.projects.map((p) => option(p.id, p.name, p.id === d.project))}</select>
    ${
      d.organize
        ? html`<input type="hidden" name="organize_shown" value="1"><label class="check-label"><input type="checkbox" name="organize" value="1"${d.organize.checked ? html` checked` : ''}> Organize</label>`
        : ''
    }
    ${d.voice ? html`<button type="button" class="voice" data-voice hidden aria-pressed="false"${d.voice.unavailable ? html` data-voice-unavailable="${d.voice.unavailable}"` : ''}>Record</button>` : ''}
    <button class="primary" type="submit">Capture</button>
  </div>
  <p class="small offline-queue" data-offline-queue role="status" aria-live="polite" hidden></p>
  ${d.voice ? html`<p class="small muted" data-voice-status role="status" aria-live="polite"></p>` : ''}
</form>`;
}

/**
 * The brain dump (src/web/client/brain-dump/): for a text of several items the script offers one
 * item, as the form does without it, or the split, listed as it would be stored. Hidden until then.
 * With `splitsProse`, prose is previewed too while Organize is ticked: the model may split it.
 */
function brainDump(splitsProse: boolean): SafeHtml {
  return html`<fieldset class="brain-dump" data-brain-dump${splitsProse ? html` data-split-prose` : ''} hidden>
    <legend class="visually-hidden">Capture as</legend>
    <label class="check-label"><input type="radio" name="capture_as" value="one" checked> One item</label>
    <label class="check-label"><input type="radio" name="capture_as" value="split"> <span data-brain-dump-count>Split into items</span></label>
    <ol class="brain-dump-list" data-brain-dump-list aria-label="Items to capture" hidden></ol>
  </fieldset>`;
}
