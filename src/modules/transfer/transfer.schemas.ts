import { Type, type Static } from 'typebox';
import { Nullable, StringEnum, UtcTimestamp, Uuid } from '../../schemas/common.js';
import { FILTER_NAME_MAX, FILTER_QUERY_MAX, FilterColor } from '../../schemas/filter.js';
import { ItemStatusSchema, ItemTypeSchema } from '../items/items.schemas.js';
import { CAPTURE_TEXT_MAX } from '../../lib/capture-text.js';

export const EXPORT_FORMAT = 'capture-inbox-export';
export const EXPORT_VERSION = 1;
/** The contract's body limit of POST /import (every other route keeps 1 MiB). */
export const IMPORT_BODY_LIMIT = 20 * 1024 * 1024;

const TagName = Type.String({ minLength: 1, maxLength: 200 });

/** An item as the API shows it; on import, `tags` and the nullable fields may be left out. */
const ExportItem = Type.Object({
  id: Uuid,
  project_id: Uuid,
  type: ItemTypeSchema,
  title: Type.Optional(Nullable(Type.String({ maxLength: CAPTURE_TEXT_MAX }))),
  content_md: Type.Optional(Nullable(Type.String({ maxLength: 1000000 }))),
  is_completed: Type.Boolean(),
  status: ItemStatusSchema,
  due_at: Type.Optional(Nullable(UtcTimestamp)),
  parent_id: Type.Optional(Nullable(Uuid)),
  tags: Type.Optional(Type.Array(TagName, { maxItems: 20 })),
  archived_at: Type.Optional(Nullable(UtcTimestamp)),
  created_at: UtcTimestamp,
  updated_at: UtcTimestamp,
  recurrence: Type.Optional(
    Nullable(
      Type.Object({ rule: Type.String({ minLength: 1, maxLength: 500 }), from: StringEnum(['due', 'completion']) }, { description: 'contract "Recurrence"' }),
    ),
  ),
  remind_at: Type.Optional(Nullable(UtcTimestamp)),
  all_day: Type.Optional(Type.Boolean({ description: "due on a day: due_at is 00:00 of it in the exporting user's zone" })),
  attachments: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.Optional(Uuid),
        filename: Type.String({ maxLength: 1000 }),
        content_type: Type.Optional(Type.String()),
        size: Type.Integer({ minimum: 0 }),
        sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
        created_at: Type.Optional(UtcTimestamp),
      }),
      { maxItems: 1000, description: "the item's files; a zip export holds their bytes at files/<sha256>, and only a zip import restores them" },
    ),
  ),
});
export type ExportItem = Static<typeof ExportItem>;

const ExportProject = Type.Object({
  id: Uuid,
  name: Type.String({ minLength: 1, maxLength: 200 }),
  is_default: Type.Boolean(),
  item_count: Type.Optional(Type.Integer({ minimum: 0 })),
  created_at: Type.Optional(UtcTimestamp),
  updated_at: Type.Optional(UtcTimestamp),
});

/** GET /export?format=json, and what POST /import reads back (contract "Export and import"). */
export const ExportDocumentSchema = Type.Object(
  {
    format: Type.Literal(EXPORT_FORMAT),
    version: Type.Literal(EXPORT_VERSION),
    exported_at: Type.Optional(UtcTimestamp),
    user: Type.Optional(Type.Object({ email: Type.String(), timezone: Type.String() })),
    projects: Type.Array(ExportProject),
    tags: Type.Optional(Type.Array(Type.Object({ name: TagName, item_count: Type.Optional(Type.Integer({ minimum: 0 })) }))),
    organizer_model: Type.Optional(
      Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description:
          "the organizer's learned routing model of this user (per project id: examples and feature counts); null when nothing was learned. Not read by import.",
      }),
    ),
    items: Type.Array(ExportItem),
    filters: Type.Optional(
      Type.Array(
        Type.Object({
          id: Uuid,
          name: Type.String({ minLength: 1, maxLength: FILTER_NAME_MAX }),
          query: Type.String({ minLength: 1, maxLength: FILTER_QUERY_MAX }),
          color: Type.Optional(Nullable(FilterColor)),
          position: Type.Integer({ minimum: 0 }),
        }),
        { maxItems: 1000, description: 'saved filters (contract "Filters and saved views"); the import skips an id the account holds' },
      ),
    ),
    completions: Type.Optional(
      Type.Array(Type.Object({ item_id: Uuid, completed_at: UtcTimestamp, due_at: Nullable(UtcTimestamp) }), {
        description: 'the completed occurrences of recurring items, oldest first per item',
      }),
    ),
  },
  { $id: 'ExportDocument', title: 'ExportDocument' },
);
export type ExportDocument = Static<typeof ExportDocumentSchema>;

export const ExportQuery = Type.Object({
  format: Type.Optional(
    StringEnum(['json', 'markdown', 'zip'], {
      description: 'json (default): the export document; markdown: one GFM document; zip: the document (export.json) and every attachment (files/<sha256>)',
    }),
  ),
});

export const ImportResultSchema = Type.Object(
  {
    imported: Type.Object({
      projects: Type.Integer({ description: 'projects created (a project of the same name is reused)' }),
      items: Type.Integer({ description: 'items created' }),
      tags: Type.Integer({ description: 'tags created' }),
      filters: Type.Optional(
        Type.Integer({
          description: 'saved filters created, present when the document has filters (held ids and those past the limit of 100 are not created)',
        }),
      ),
    }),
    skipped: Type.Array(
      Type.Object({
        line_or_index: Type.Integer({ description: 'CSV line number (1 = header), or index in the items array' }),
        reason: Type.String({
          description:
            'exists: the account already holds this item; unknown row type "meta": a CSV row of a type other than task, section or note. Section and note rows folded in are not listed',
        }),
      }),
    ),
    dropped: Type.Optional(
      Type.Array(
        Type.Object({
          line_or_index: Type.Integer({ description: 'CSV line number of the imported item' }),
          field: Type.String({ description: 'what the item could not carry: priority, recurrence or deadline (Todoist CSV)' }),
          value: Type.String({ description: 'what the source held, e.g. p1 or "every 3 days"' }),
        }),
        { description: 'always present: what was imported without part of its data; empty when nothing was dropped' },
      ),
    ),
  },
  { $id: 'ImportResult', title: 'ImportResult' },
);
export type ImportResult = Static<typeof ImportResultSchema>;
