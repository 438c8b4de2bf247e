import { Type } from 'typebox';
import { FILTER_NAME_MAX, FILTER_QUERY_MAX, FilterColor, SavedFilterSchema } from '../../schemas/filter.js';
import { Nullable, ref } from '../../schemas/common.js';

const Name = Type.String({ minLength: 1, maxLength: FILTER_NAME_MAX * 2, description: `1..${FILTER_NAME_MAX} characters after trim` });
const Query = Type.String({
  minLength: 1,
  maxLength: FILTER_QUERY_MAX,
  description: 'the filter language (docs/filters.md); 400 with the position when it does not parse',
});

export const NewFilterBody = Type.Object({
  name: Name,
  query: Query,
  color: Type.Optional(Nullable(FilterColor)),
});

export const PatchFilterBody = Type.Object({
  name: Type.Optional(Name),
  query: Type.Optional(Query),
  color: Type.Optional(Nullable(FilterColor)),
  position: Type.Optional(Type.Integer({ minimum: 0, description: "moves the filter to this place in the user's order (0 first; past the end is last)" })),
});

export const FilterAnswer = Type.Object({ filter: ref(SavedFilterSchema) });
export const FilterListAnswer = Type.Object({ filters: Type.Array(ref(SavedFilterSchema), { description: "in the user's order" }) });

export const FilterItemsQuery = Type.Object({
  since: Type.Optional(Type.String({ format: 'date-time', description: 'sync order: items with updated_at >= since, oldest first' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, description: 'default 50, at most 200 (larger values are clamped)' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
});
