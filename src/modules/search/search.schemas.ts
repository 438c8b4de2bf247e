import { Type, type Static } from 'typebox';
import { PageQuery } from '../../schemas/common.js';
import { ItemStatusSchema, ItemTypeSchema } from '../items/items.schemas.js';

export const SearchQuery = Type.Object({
  q: Type.Optional(
    Type.String({
      maxLength: 500,
      description:
        'words to find: every word must match the start of a word in title or content_md, case-insensitively ("mil" finds "Milk"). ' +
        'A word is a run of letters and digits; any other character, quotes and operators included, only separates words. ' +
        'Chinese and Japanese text is divided into its dictionary words ("準備" finds "会議の準備"); a run of it in q must match words that follow each other. ' +
        'A q without letters or digits adds no condition.',
    }),
  ),
  status: Type.Optional(ItemStatusSchema),
  type: Type.Optional(ItemTypeSchema),
  tag: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\u0000]*\\S[^\\u0000]*$', description: 'items carrying this tag (name, case-insensitive)' }),
  ),
  project_id: Type.Optional(Type.String({ format: 'uuid', description: 'items of this project; a project you do not have matches nothing' })),
  is_completed: Type.Optional(Type.Boolean({ description: 'true or false' })),
  due_before: Type.Optional(Type.String({ format: 'date-time', description: 'due_at at or before this instant; items without a due date never match' })),
  due_after: Type.Optional(Type.String({ format: 'date-time', description: 'due_at at or after this instant; items without a due date never match' })),
  limit: PageQuery.properties.limit,
  cursor: PageQuery.properties.cursor,
});
export type SearchQuery = Static<typeof SearchQuery>;
