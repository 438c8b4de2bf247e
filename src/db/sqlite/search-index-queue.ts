import type SQLite from 'better-sqlite3';

/**
 * Applies the FTS changes that the items triggers queued in items_fts_pending (see the
 * search-key-counter migration), inside the transaction about to commit. Per key the last queued
 * change wins: every key with a queued delete is removed (removing an absent key does nothing),
 * then each key whose last change is an insert is indexed with that text.
 */
export function createSearchIndexQueue(writer: SQLite.Database): () => void {
  let statements: { pending: SQLite.Statement; remove: SQLite.Statement; insert: SQLite.Statement; clear: SQLite.Statement } | undefined;
  const prepare = () => {
    try {
      return {
        pending: writer.prepare('select 1 from items_fts_pending limit 1').pluck(),
        remove: writer.prepare(`delete from items_fts where rowid in (select search_key from items_fts_pending where op = 'd')`),
        insert: writer.prepare(`
          insert into items_fts (rowid, title, content_md)
          select search_key, title, content_md from (
            select search_key, op, title, content_md,
                   row_number() over (partition by search_key order by seq desc) as latest
            from items_fts_pending)
          where latest = 1 and op = 'i'`),
        clear: writer.prepare('delete from items_fts_pending'),
      };
    } catch (error) {
      // Before the migration that creates the queue (a fresh database being migrated) there is nothing to apply.
      if (/no such table/.test(String(error))) return undefined;
      throw error;
    }
  };
  return () => {
    statements ??= prepare();
    if (!statements) return;
    try {
      if (statements.pending.get() === undefined) return;
      statements.remove.run();
      statements.insert.run();
      statements.clear.run();
    } catch (error) {
      // A migration took the queue away (rolled back); prepare again at the next commit.
      statements = undefined;
      if (!/no such table/.test(String(error))) throw error;
    }
  };
}
