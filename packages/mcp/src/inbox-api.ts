/**
 * What the tools need from the Capture Inbox API, one method per SDK call. The tools are written
 * against this port rather than the whole SDK client so that a tool's API traffic is visible in one
 * place (and counted: each call is one request against the key's rate limit); `sdk-inbox-api.ts`
 * implements it over `@capture-inbox/sdk`.
 */
import type {
  BulkResult,
  CapturedItem,
  CaptureInput,
  Item,
  ItemPage,
  ItemPatch,
  ListItemsQuery,
  Me,
  Page,
  PageQuery,
  Project,
  QuickAdd,
  SavedFilter,
  SearchQuery,
} from '@capture-inbox/sdk';

export type { BulkResult, CapturedItem, CaptureInput, Item, ItemPage, ItemPatch, Me, Page, PageQuery, Project, QuickAdd, SavedFilter };
export type AiDecision = NonNullable<CapturedItem['ai']>;

export interface InboxApi {
  me(): Promise<Me>;
  capture(input: CaptureInput): Promise<CapturedItem>;
  /** What quick add understands in a text; stores nothing. */
  parse(text: string): Promise<QuickAdd>;
  search(query: SearchQuery): Promise<ItemPage>;
  listItems(query: ListItemsQuery): Promise<ItemPage>;
  listProjectItems(projectId: string, query: PageQuery): Promise<Page<Item>>;
  getItem(id: string): Promise<Item>;
  /** GET /items/{id}/children: the direct subtasks, oldest first. */
  listSubtasks(id: string, query: PageQuery): Promise<Page<Item>>;
  updateItem(id: string, patch: ItemPatch): Promise<Item>;
  /** The bulk toggle with `is_completed`: sets the value, never flips. */
  setCompleted(id: string, done: boolean): Promise<BulkResult>;
  /** The same, for 1..100 ids in one request. */
  completeMany(ids: string[], done: boolean): Promise<BulkResult>;
  /** The bulk `update`: PATCH's fields applied to each of 1..100 ids, in one request. */
  updateMany(ids: string[], patch: ItemPatch): Promise<BulkResult>;
  /** GET /items/completed: completed items, the latest first. */
  listCompleted(query: { since?: string; limit?: number; cursor?: string }): Promise<ItemPage>;
  archiveItem(id: string): Promise<Item>;
  /** DELETE /items/{id}: the item and its subtasks. */
  deleteItem(id: string): Promise<void>;
  /** POST /items/{id}/snooze: remind_at becomes now + minutes, or `until`. */
  snoozeItem(id: string, input: { minutes?: number; until?: string }): Promise<Item>;
  organizeItem(id: string): Promise<CapturedItem>;
  listProjects(): Promise<Project[]>;
  createProject(name: string): Promise<Project>;
  /** GET /filters: the saved filters, in the user's order. */
  listFilters(): Promise<SavedFilter[]>;
}

/**
 * A refusal the tools make themselves (an unknown project name), shaped like the SDK's ApiError
 * so that one guard reads both.
 */
export class InboxApiError extends Error {
  override readonly name = 'InboxApiError';
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly details?: ReadonlyArray<{ field: string; message: string }>,
  ) {
    super(message);
  }
}

export interface ApiErrorShape {
  status: number;
  error: string;
  message: string;
  details?: ReadonlyArray<{ field: string; message: string }> | undefined;
}

/** An error the API answered (the SDK's ApiError, or ours), as opposed to a failure to reach it. */
export function isApiError(value: unknown): value is ApiErrorShape {
  if (!(value instanceof Error)) return false;
  const { status, error } = value as unknown as Record<string, unknown>;
  return typeof status === 'number' && typeof error === 'string';
}
