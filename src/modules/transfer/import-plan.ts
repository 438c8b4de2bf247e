import type { ItemStatus, ItemType } from '../../db/schema.js';

/** What an import creates, whatever it was read from (our export or Todoist's CSV). */
export interface ImportPlan {
  /** `ref` is the id the source used; the default project stands for the user's Inbox. */
  projects: PlannedProject[];
  /** Parents come before their subtasks. */
  items: PlannedItem[];
  /** Rows of the source left out whole (a Todoist `meta` row), reported with the result's `skipped`. */
  skipped?: PlanSkip[];
  /** What an imported item could not carry (a Todoist priority), reported as `dropped`. */
  dropped?: PlanDrop[];
  /** Completed occurrences of recurring items (contract "Recurrence": export and import carry them). */
  completions?: PlannedCompletion[];
  /** Saved filters (contract "Filters and saved views"); absent when the source has none to give. */
  filters?: PlannedFilter[];
}

/**
 * One step of an import read as it streams (a Todoist CSV): a project before the items filed in it,
 * a parent before its subtasks.
 */
export type ImportStep = { project: PlannedProject } | { item: PlannedItem };

export interface PlannedFilter {
  id: string;
  name: string;
  query: string;
  color: string | null;
  position: number;
}

export interface PlannedCompletion {
  item_id: string;
  completed_at: string;
  due_at: string | null;
}

export interface PlanSkip {
  line_or_index: number;
  reason: string;
}

export interface PlanDrop {
  line_or_index: number;
  /** The source's field, e.g. `priority`, `recurrence`, `deadline`. */
  field: string;
  /** What it held, as the source wrote it. */
  value: string;
}

export interface PlannedProject {
  ref: string;
  name: string;
  is_default: boolean;
}

export interface PlannedItem {
  /** Where it was in the source: index in `items`, or the CSV line. */
  position: number;
  id: string;
  project_ref: string;
  parent_id: string | null;
  type: ItemType;
  title: string | null;
  content_md: string | null;
  is_completed: boolean;
  status: ItemStatus;
  due_at: string | null;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
  tags: string[];
  recurrence?: { rule: string; from: 'due' | 'completion' } | null;
  remind_at?: string | null;
  /** Due on a day: due_at is 00:00 of it in the importing user's zone. */
  all_day?: boolean;
}

/**
 * Parents first, so each insert finds its parent. Items whose parent is not in the plan keep
 * their place (the parent must then already be in the account, which the import checks).
 * A cycle in a hand-edited document leaves its items out of the order; the caller refuses that.
 */
export function parentsFirst(items: readonly PlannedItem[]): PlannedItem[] {
  const byId = new Map(items.map((i) => [i.id, i]));
  const children = new Map<string, PlannedItem[]>();
  const roots: PlannedItem[] = [];
  for (const item of items) {
    if (item.parent_id !== null && byId.has(item.parent_id)) {
      const list = children.get(item.parent_id);
      if (list) list.push(item);
      else children.set(item.parent_id, [item]);
    } else {
      roots.push(item);
    }
  }
  const ordered: PlannedItem[] = [];
  const stack = [...roots].reverse();
  while (stack.length > 0) {
    const item = stack.pop()!;
    ordered.push(item);
    const below = children.get(item.id);
    if (below) for (let i = below.length - 1; i >= 0; i -= 1) stack.push(below[i]!);
  }
  return ordered;
}
