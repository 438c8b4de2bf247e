import type { Db } from '../../db/schema.js';
import { afterKeyset } from '../../db/keyset.js';
import { ITEM_VIEW_COLUMNS, toItemView, type ItemView } from '../items/item-view.js';
import type { TagsService } from '../tags/tags.service.js';

/** Top-level items read at a time: the export's memory is a page and its subtasks, whatever the project's size. */
const ROOTS_PAGE = 500;
/** Subtasks asked for at once (well under both dialects' parameter limits). */
const IDS_AT_ONCE = 500;

/** A page of a project's top-level items, oldest first, with every subtask below them (any depth) by parent id. */
export interface MarkdownPage {
  roots: ItemView[];
  children: Map<string, ItemView[]>;
}

/**
 * Reads a project for the Markdown export page by page (decision 0096): its top-level items oldest
 * first (an item whose parent is in another project is top-level here, as the export always wrote
 * it), then the subtasks of the page, level by level. Gathering the whole project first, to nest
 * subtasks, grew the server by 94–127 MB for a 40,000-item Inbox.
 */
export async function* projectPages(
  deps: { db: Db; tags: Pick<TagsService, 'namesForItems'> },
  userId: string,
  projectId: string,
): AsyncGenerator<MarkdownPage> {
  const { db } = deps;
  const views = async (rows: Parameters<typeof toItemView>[0][]): Promise<ItemView[]> => {
    const names = await deps.tags.namesForItems(
      db,
      userId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toItemView(r, names.get(r.id) ?? []));
  };
  let after: { created_at: string; id: string } | undefined;
  for (;;) {
    let query = db
      .selectFrom('items')
      .select(ITEM_VIEW_COLUMNS)
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      // Covers a parent_id of null too (`parent.id = null` matches nothing). Written without an
      // `parent_id is null or …`: under an OR, PostgreSQL cannot make the NOT EXISTS an anti-join
      // and hashed the whole project's ids again for every page (50-70 ms a page of a 40,000-item Inbox).
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('items as parent')
              .select('parent.id')
              .where('parent.user_id', '=', userId)
              .whereRef('parent.id', '=', 'items.parent_id')
              .where('parent.project_id', '=', projectId),
          ),
        ),
      );
    if (after) {
      const { created_at, id } = after;
      query = query.where((eb) => afterKeyset(eb, 'created_at', 'id', 'asc', created_at, id));
    }
    const rows = await query.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(ROOTS_PAGE).execute();
    if (rows.length === 0) return;
    const roots = await views(rows);
    const children = new Map<string, ItemView[]>();
    let parents = roots.map((r) => r.id);
    while (parents.length > 0) {
      const below: ItemView[] = [];
      for (let i = 0; i < parents.length; i += IDS_AT_ONCE) {
        // By parent alone and unordered, so SQLite answers from the parent index: with project_id or an
        // ORDER BY created_at it chose an index in that order and read the whole project (or account)
        // for every page (EXPLAIN QUERY PLAN; 10.6 s of CPU for 100,000 items against 1.7 s gathered).
        const found = await db
          .selectFrom('items')
          .select(ITEM_VIEW_COLUMNS)
          .where('user_id', '=', userId)
          .where('parent_id', 'in', parents.slice(i, i + IDS_AT_ONCE))
          .execute();
        // A subtask in another project is top-level there, not nested here; siblings oldest first.
        const here = found
          .filter((r) => r.project_id === projectId)
          .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1));
        if (here.length > 0) below.push(...(await views(here)));
      }
      for (const child of below) {
        const list = children.get(child.parent_id!);
        if (list) list.push(child);
        else children.set(child.parent_id!, [child]);
      }
      parents = below.map((c) => c.id);
    }
    yield { roots, children };
    if (rows.length < ROOTS_PAGE) return;
    const last = rows[rows.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
}
