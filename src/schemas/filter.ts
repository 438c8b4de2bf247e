import { Type } from 'typebox';
import { Nullable, UtcTimestamp, Uuid } from './common.js';

/*
 * A saved filter as every response and event shows it (contract "Filters and saved views"). It sits
 * below the modules, as the item does: the filters module writes it, and the change feed (events)
 * carries it without importing the filters module back.
 */

export interface SavedFilterView {
  id: string;
  name: string;
  query: string;
  color: string | null;
  position: number;
  created_at: string;
  updated_at: string;
}

export const FILTER_NAME_MAX = 100;
export const FILTER_QUERY_MAX = 1000;

/** `?filter=` of GET /items. */
export const FilterQueryParam = Type.String({
  minLength: 1,
  // Longer than a query may be, so the parser answers with the position (1,000) and its words.
  maxLength: 8000,
  description: `a filter query (docs/filters.md), at most ${FILTER_QUERY_MAX} characters: today | overdue, #Work & @calls, search: invoice & 7 days`,
});

export const FilterColor = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'a colour as #rrggbb' });

export const SavedFilterSchema = Type.Object(
  {
    id: Uuid,
    name: Type.String({ description: `1..${FILTER_NAME_MAX} characters; names need not be unique` }),
    query: Type.String({ description: 'the filter language (docs/filters.md), as typed' }),
    color: Nullable(FilterColor),
    position: Type.Integer({ minimum: 0, description: "the filter's place in the user's order, 0 first" }),
    created_at: UtcTimestamp,
    updated_at: UtcTimestamp,
  },
  { $id: 'SavedFilter', title: 'SavedFilter' },
);
