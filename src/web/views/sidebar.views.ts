import type { ProjectView } from '../../modules/projects/projects.service.js';
import { html, type SafeHtml } from '../html.js';

export interface SidebarData {
  projects: ProjectView[];
  tags: { name: string; item_count: number }[];
  /** The project or tag of the page, marked as current. */
  currentProject?: string;
  currentTag?: string;
}

/** Projects with their counts and the tags to filter by: beside the list on a desktop, below it on a phone. */
export function sidebar(d: SidebarData): SafeHtml {
  const current = (yes: boolean) => (yes ? html` aria-current="page"` : '');
  return html`<aside class="sidebar" id="sidebar" aria-label="Projects and tags">
  <h2 id="projects-heading">Projects</h2>
  <ul class="nav-list" aria-labelledby="projects-heading">
    ${d.projects.map((p) => html`<li><a href="/projects/${p.id}"${current(p.id === d.currentProject)}><span>${p.name}</span><span class="count" aria-label="${p.open_count} open">${p.open_count}</span></a></li>`)}
  </ul>
  <p class="small"><a href="/projects">New project…</a></p>
  ${
    d.tags.length > 0
      ? html`<h2 id="tags-heading">Tags</h2>
  <ul class="tag-list" aria-labelledby="tags-heading">
    ${d.tags.map((t) => html`<li><a class="tag" href="/?tag=${encodeURIComponent(t.name)}"${current(t.name.toLowerCase() === (d.currentTag ?? '').toLowerCase())}>@${t.name} <span class="count" aria-label="${t.item_count} items">${t.item_count}</span></a></li>`)}
  </ul>`
      : ''
  }
</aside>`;
}
