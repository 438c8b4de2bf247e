import { z } from 'zod';
import { listedAsObject } from './tool-catalog.js';

/**
 * Output schemas of the tools: the API's item and project, as the tools answer them. An answer is
 * read through them, so a field the API adds later is left out rather than failing a client that
 * checks the answer against the schema it was given.
 */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * An input date-time: ISO 8601 with an offset (or Z). Checked by a refinement, so the JSON Schema a
 * model reads says `format: date-time` rather than zod's page-long pattern for it.
 */
export const DateTimeInput = z
  .string()
  .refine((value) => ISO_WITH_OFFSET.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'must be an ISO 8601 date-time with an offset, e.g. 2026-11-28T09:00:00+01:00',
  })
  .meta({ format: 'date-time' });

export const ItemStatus = z.enum(['backlog', 'todo', 'doing', 'done', 'archived']);
export const ItemType = z.enum(['note', 'todo']);

export const ItemView = listedAsObject(
  z.object({
    id: z.string(),
    project_id: z.string(),
    project_name: z.string().nullable().describe("the project's name; null when this key may not read projects"),
    type: ItemType,
    title: z.string().nullable(),
    content_md: z.string().nullable(),
    is_completed: z.boolean(),
    status: ItemStatus,
    due_at: z.string().nullable().describe('UTC ISO 8601'),
    all_day: z.boolean().optional().describe("due on a day, no time: due_at is 00:00 of that date in the user's zone; say the date only"),
    parent_id: z.string().nullable(),
    tags: z.array(z.string()),
    archived_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    recurrence: z
      .object({ rule: z.string(), from: z.enum(['due', 'completion']) })
      .nullable()
      .optional()
      .describe('the repeating schedule: an RRULE, counted from the due date or from completion'),
    remind_at: z.string().nullable().optional().describe('when the user is reminded, UTC ISO 8601'),
  }),
);
export type ItemView = z.infer<typeof ItemView>;

const AiDecision = z.object({
  engine: z.enum(['local', 'openai']),
  type: ItemType,
  project_id: z.string().nullable(),
  due_at: z.string().nullable(),
  all_day: z.boolean().optional(),
  title: z.string().nullable(),
  applied: z.array(z.enum(['type', 'project_id', 'due_at', 'all_day', 'title'])).describe('the fields the organizer changed'),
});

const CapturedItemView = listedAsObject(
  ItemView.extend({
    ai: AiDecision.nullable().describe('what the AI organizer decided; null when it did not run'),
  }),
);
export type CapturedItemView = z.infer<typeof CapturedItemView>;

const ProjectView = listedAsObject(
  z.object({
    id: z.string(),
    name: z.string(),
    is_default: z.boolean(),
    item_count: z.number().int(),
  }),
);
export type ProjectView = z.infer<typeof ProjectView>;

export const OneItem = z.object({ item: ItemView });
export const OneCapturedItem = z.object({ item: CapturedItemView });
/**
 * A page of items: `next_cursor` is the API's cursor of the next page, passed back as `cursor`.
 * Listed as a bare object (the server instructions say what a page holds): four list tools answer
 * it, and tools/list must stay under 10 KiB with the filter tools too.
 */
export const ItemPage = listedAsObject(
  z.object({
    items: z.array(ItemView),
    next_cursor: z.string().nullable(),
  }),
);
export const ItemWithSubtasks = z.object({
  item: ItemView,
  subtasks: z.array(ItemView),
  subtasks_cursor: z.string().nullable(),
});

/** The input of the list tools: the API's opaque cursor, and how many. */
export const PageInput = {
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().optional(),
};
export const ProjectList = z.object({ projects: z.array(ProjectView) });
