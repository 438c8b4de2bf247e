import type { Expression, ExpressionBuilder, ReferenceExpression, SqlBool } from 'kysely';

/**
 * The keyset condition of every paged listing: rows after the cursor's (key, id) in the listing's
 * order, `(key < k) or (key = k and id < id)` for newest first. Written out rather than as a row
 * comparison, which SQLite's planner would not use with the (user_id, key, id) indexes.
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
  return eb.or([eb(key, cmp, k as never), eb.and([eb(key, '=', k as never), eb(id, cmp, idValue as never)])]);
}
