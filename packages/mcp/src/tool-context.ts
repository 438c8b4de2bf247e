import { InboxApiError, isApiError, type InboxApi, type Item, type Me, type Project } from './inbox-api.js';

/** How long names and the time zone are reused: summaries may be a little stale, calls are counted. */
const CACHE_MS = 30_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Cached<T> {
  value: T;
  at: number;
}

/**
 * What summaries reuse between calls: the user (time zone, the key's scopes) and project names. It
 * belongs to one key (the stdio process's, or one key's entry on the service), never shared between keys.
 */
export interface ToolCache {
  me?: Cached<Me | null> | undefined;
  projects?: Cached<Project[] | null> | undefined;
}

/** What the tools of one server share: the API of one key and that key's cache. */
export class ToolContext {
  constructor(
    readonly api: InboxApi,
    private readonly cache: ToolCache = {},
    private readonly now: () => number = Date.now,
  ) {}

  /** GET /me, or null when it cannot be read. */
  private async me(): Promise<Me | null> {
    if (this.cache.me && this.now() - this.cache.me.at < CACHE_MS) return this.cache.me.value;
    const value = await this.api.me().catch(() => null);
    this.cache.me = { value, at: this.now() };
    return value;
  }

  /** The user's IANA zone, for due dates in summaries; null when it cannot be read (then UTC is shown). */
  async timeZone(): Promise<string | null> {
    return (await this.me())?.timezone ?? null;
  }

  /**
   * Refuses, before anything is done, a step of several calls whose later call the key's scopes
   * would refuse (a subtask is captured, then placed under its parent with write). Unknown scopes
   * (GET /me unreadable) let the API judge each call.
   */
  async requireScope(scope: 'read' | 'write', forWhat: string): Promise<void> {
    const scopes = (await this.me())?.key?.scopes;
    if (scopes && !scopes.includes(scope))
      throw new InboxApiError(403, 'insufficient_scope', `this API key lacks the ${scope} scope, which ${forWhat} needs; nothing was done`);
  }

  /** The projects, or null when this key may not read them (a capture-only key). */
  private async projectList(fresh: boolean): Promise<Project[] | null> {
    if (!fresh && this.cache.projects && this.now() - this.cache.projects.at < CACHE_MS) return this.cache.projects.value;
    const value = await this.api.listProjects().catch((error: unknown) => {
      if (isApiError(error) && error.error === 'insufficient_scope') return null;
      throw error;
    });
    this.cache.projects = { value, at: this.now() };
    return value;
  }

  async listProjects(): Promise<Project[]> {
    const projects = await this.api.listProjects();
    this.cache.projects = { value: projects, at: this.now() };
    return projects;
  }

  /**
   * A project named by its id or by its name (case-insensitive). An id passes as it is, so a
   * capture-only key can still file into a project it knows the id of; the API judges it.
   */
  async resolveProject(nameOrId: string): Promise<string> {
    const wanted = nameOrId.trim();
    if (UUID.test(wanted)) return wanted;
    const find = (list: Project[] | null) => list?.find((p) => p.name.toLocaleLowerCase() === wanted.toLocaleLowerCase());
    const cached = await this.projectList(false);
    const found = find(cached) ?? find(cached === null ? null : await this.projectList(true));
    if (found) return found.id;
    // A capture-only key cannot read names: say so, rather than "no project named" and a list_projects that fails too.
    if (cached === null) {
      throw new InboxApiError(
        403,
        'insufficient_scope',
        `this API key lacks the read scope, which finding the project named "${wanted}" needs; nothing was done. Pass the project's id, leave project out (the item goes to Inbox), or ask the user for a key with the read scope`,
      );
    }
    throw new InboxApiError(404, 'not_found', `no project named "${wanted}"; list_projects shows the names (or pass a project id)`);
  }

  /** The item as tools answer it: the API's fields plus its project's name. */
  async view<T extends Item>(item: T): Promise<T & { project_name: string | null }> {
    const [view] = await this.views([item]);
    return view!;
  }

  async views<T extends Item>(items: readonly T[]): Promise<Array<T & { project_name: string | null }>> {
    let list = await this.projectList(false).catch(() => null);
    // A project made since the cache was filled (by the organizer, say) is looked up once more.
    if (list && items.some((item) => !list!.some((p) => p.id === item.project_id))) list = await this.projectList(true).catch(() => null);
    const names = new Map((list ?? []).map((p) => [p.id, p.name]));
    return items.map((item) => ({ ...item, project_name: names.get(item.project_id) ?? null }));
  }

  /** Forgets cached names after a change that may have made a project. */
  invalidateProjects(): void {
    this.cache.projects = undefined;
  }
}
