import type { Expression, ExpressionBuilder, ReferenceExpression, SqlBool } from 'kysely';

/**
 * The keyset condition of every paged listing: rows after the cursor's (key, id) in the listing's
 * order, `key <= k and ((key < k) or (key = k and id < id))` for newest first. Written out rather
 * than as a row comparison, which SQLite's planner would not use with the (user_id, key, id)
 * indexes. The leading `key <= k` says the same again as a plain range, so that PostgreSQL's index
 * scan starts at the cursor: with the `or` alone it walked the index from the newest row and
 * filtered, so page n cost O(n) (73–132 ms at 50,000 items in, 0.1 ms with the bound; an export
 * of 100,000 items took 36 s: docs/performance.md, "What misses, and why").
 */
export function afterKeyset<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  key: ReferenceExpression<DB, TB>,
  id: ReferenceExpression<DB, TB>,
  dir: 'asc' | 'desc',
  k: unknown,
  idValue: unknown,
): Expression<SqlBool> {
  const cmp = dir === 'desc' ? '<' : '>';
  return eb.and([
    eb(key, dir === 'desc' ? '<=' : '>=', k as never),
    eb.or([eb(key, cmp, k as never), eb.and([eb(key, '=', k as never), eb(id, cmp, idValue as never)])]),
  ]);
}
