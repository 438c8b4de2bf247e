/**
 * What the tools need from the Capture Inbox API, one method per API call. The tools are written
 * against this port so that the stdio server (over the network) and the service's own /mcp
 * endpoint (over app.inject) share every line of tool code; `sdk-inbox-api.ts` implements it over
 * the SDK.
 */

export type ItemStatus = 'backlog' | 'todo' | 'doing' | 'done' | 'archived';
export type ItemType = 'note' | 'todo';

export interface Item {
  id: string;
  project_id: string;
  type: ItemType;
  title: string | null;
  content_md: string | null;
  is_completed: boolean;
  status: ItemStatus;
  due_at: string | null;
  parent_id: string | null;
  tags: string[];
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AiDecision {
  engine: 'local' | 'openai';
  type: ItemType;
  project_id: string | null;
  due_at: string | null;
  title: string | null;
  applied: Array<'type' | 'project_id' | 'due_at' | 'title'>;
}

export interface CapturedItem extends Item {
  ai: AiDecision | null;
}

export interface Project {
  id: string;
  name: string;
  is_default: boolean;
  item_count: number;
  created_at: string;
  updated_at: string;
}

export interface ItemPage {
  items: Item[];
  next_cursor: string | null;
}

export interface Me {
  id: string;
  email: string;
  is_pro: boolean;
  plan: 'free' | 'pro';
  timezone: string;
}

export interface CaptureInput {
  text: string;
  project_id?: string;
  type?: ItemType;
  organize?: boolean;
  due_at?: string;
}

export interface SearchInput {
  q: string;
  status?: ItemStatus;
  tag?: string;
  project_id?: string;
  limit?: number;
}

export interface ItemPatch {
  title?: string | null;
  content_md?: string | null;
  due_at?: string | null;
  project_id?: string;
  status?: ItemStatus;
  tags?: string[];
}

export interface BulkFailure {
  id: string;
  error: string;
  message: string;
}

export interface BulkResult {
  ok: boolean;
  updated: number;
  failures: BulkFailure[];
}

export interface InboxApi {
  me(): Promise<Me>;
  capture(input: CaptureInput): Promise<CapturedItem>;
  search(input: SearchInput): Promise<ItemPage>;
  listItems(input: { since?: string; limit?: number; cursor?: string }): Promise<ItemPage>;
  listProjectItems(projectId: string, input: { limit?: number }): Promise<ItemPage>;
  getItem(id: string): Promise<Item>;
  updateItem(id: string, patch: ItemPatch): Promise<Item>;
  /** Bulk toggle with `is_completed`: sets the value, never flips. */
  setCompleted(id: string, done: boolean): Promise<BulkResult>;
  archiveItem(id: string): Promise<Item>;
  organizeItem(id: string): Promise<CapturedItem>;
  listProjects(): Promise<Project[]>;
}

/**
 * An answer of the API that is not a success: the contract's `{ error, message }`. Shaped like
 * the SDK's ApiError, so one guard reads both (the tools also raise it for what they refuse
 * themselves, such as an unknown project name).
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

/** An error the API answered (ours or the SDK's ApiError), as opposed to a failure to reach it. */
export function isApiError(value: unknown): value is ApiErrorShape {
  if (!(value instanceof Error)) return false;
  const { status, error } = value as unknown as Record<string, unknown>;
  return typeof status === 'number' && typeof error === 'string';
}
