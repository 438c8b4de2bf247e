import type { SessionUser } from '../../modules/accounts/accounts.service.js';
import type { ProjectView } from '../../modules/projects/projects.service.js';
import { sentence } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { csrfField, renderPage } from '../layout.js';

export interface ProjectsPageData {
  user: SessionUser;
  csrf: string;
  projects: ProjectView[];
  notice?: string;
  /** The create form's name and message when it was refused. */
  draft?: { name: string; error: string };
}

const plural = (n: number) => `${n} item${n === 1 ? '' : 's'}`;

export function projectsPage(d: ProjectsPageData): string {
  const body = html`<h1>Projects</h1>
${d.notice ? html`<div class="alert success" role="status">${d.notice}</div>` : ''}
<form class="card inline-form" method="post" action="/projects">
  ${csrfField(d.csrf)}
  <div class="field${d.draft ? ' has-error' : ''}"><label for="project-name">New project</label>
    <input id="project-name" name="name" type="text" maxlength="100" required value="${d.draft?.name ?? ''}"${d.draft ? html` aria-invalid="true" aria-describedby="project-name-error"` : ''}>
    ${d.draft ? html`<p class="field-error" id="project-name-error">${sentence(d.draft.error)}</p>` : ''}</div>
  <button class="primary" type="submit">Create project</button>
</form>
<ul class="items project-list">
${d.projects.map(
  (p) => html`<li class="item"><div class="row"><div class="body"><p class="title"><a href="/projects/${p.id}">${p.name}</a></p>
  <p class="meta">${p.open_count} open${p.item_count > p.open_count ? html` · ${plural(p.item_count)} in all` : ''}${p.is_default ? ' · captures without a project land here' : ''}</p></div></div></li>`,
)}
</ul>`;
  return renderPage({ title: 'Projects', section: 'projects', user: d.user, csrf: d.csrf, body });
}

/** A project page's heading, with rename and delete for every project but the Inbox. */
export function projectHeader(p: ProjectView, csrf: string, rename?: { name: string; error: string }): SafeHtml {
  if (p.is_default) return html`<h1>${p.name}</h1>`;
  return html`<h1>${p.name}</h1>
<details class="card project-manage"${rename ? html` open` : ''}><summary>Rename or delete this project</summary>
  <form class="inline-form" method="post" action="/projects/${p.id}/rename">
    ${csrfField(csrf)}
    <div class="field${rename ? ' has-error' : ''}"><label for="rename-name">Name</label>
      <input id="rename-name" name="name" type="text" maxlength="100" required value="${rename?.name ?? p.name}"${rename ? html` aria-invalid="true" aria-describedby="rename-error"` : ''}>
      ${rename ? html`<p class="field-error" id="rename-error">${sentence(rename.error)}</p>` : ''}</div>
    <button type="submit">Rename</button>
  </form>
  <form method="post" action="/projects/${p.id}/delete" data-confirm="Delete the project “${p.name}”? Its ${plural(p.item_count)} move to the Inbox.">
    ${csrfField(csrf)}<button class="danger" type="submit">Delete project</button>
    <span class="hint">Its items move to the Inbox.</span>
  </form>
</details>`;
}
