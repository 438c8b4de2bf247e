import { seedDue, type Seed } from './tasks.js';

/** An item as the evaluation reads it back, with its project's name. */
export interface EndItem {
  id: string;
  title: string | null;
  content_md: string | null;
  is_completed: boolean;
  status: string;
  project: string;
  tags: string[];
  due_at: string | null;
  updated_at: string;
}

/** The API of one account, for seeding it and reading its end state: a few calls over fetch. */
export class Account {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 200)}`);
    return (await res.json()) as T;
  }

  /** The seed stored as typed (no quick add, no organizer), so every task starts from the same account. */
  async seed(seed: Seed, today: Date): Promise<void> {
    await this.call('PATCH', 'me', { timezone: 'UTC' });
    const projects = new Map<string, string>();
    for (const name of seed.projects) projects.set(name, (await this.call<{ id: string }>('POST', 'projects', { name })).id);
    for (const item of seed.items) {
      const projectId = item.project === undefined ? undefined : projects.get(item.project);
      if (item.project !== undefined && projectId === undefined) throw new Error(`the seed's item "${item.title}" names an unknown project ${item.project}`);
      const made = await this.call<{ id: string }>('POST', 'capture', {
        text: item.title,
        parse: false,
        type: item.type ?? 'todo',
        ...(projectId ? { project_id: projectId } : {}),
        ...(item.tags ? { tags: item.tags } : {}),
        ...(item.due ? { due_at: seedDue(today, item.due) } : {}),
      });
      if (item.done) await this.call('POST', `items/${made.id}/toggle`);
    }
    for (const filter of seed.filters) await this.call('POST', 'filters', filter);
  }

  /** Every item of the account, each with its project's name. */
  async items(): Promise<EndItem[]> {
    const { projects } = await this.call<{ projects: Array<{ id: string; name: string }> }>('GET', 'projects');
    const names = new Map(projects.map((p) => [p.id, p.name]));
    const out: EndItem[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const query: string = cursor === null ? 'items?limit=200' : `items?limit=200&cursor=${encodeURIComponent(cursor)}`;
      const body: { items: Array<Omit<EndItem, 'project'> & { project_id: string }>; next_cursor: string | null } = await this.call('GET', query);
      for (const { project_id, ...item } of body.items) out.push({ ...item, project: names.get(project_id) ?? project_id });
      cursor = body.next_cursor;
      if (cursor === null) break;
    }
    return out;
  }
}
