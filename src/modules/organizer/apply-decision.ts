import type { ItemType } from '../../db/schema.js';
import type { AiField, AiView } from './organizer.schemas.js';
import type { Decided } from './organizer.types.js';

/** The fields the organizer may set, as the item would have them without it. */
export interface OrganizedFields {
  type: ItemType;
  project_id: string;
  due_at: string | null;
  /** Due on a day: due_at is 00:00 local of it. */
  all_day: boolean;
  title: string | null;
}

/** Fields the organizer must leave alone: given by the client, or otherwise settled. */
export interface FixedFields {
  type: boolean;
  project_id: boolean;
  due_at: boolean;
  /** The client said all_day itself; a given due_at settles all_day too. */
  all_day?: boolean;
}

/**
 * The contract's rules for applying a decision: explicit fields win, an explicit due date keeps the
 * title as typed, and "no project" leaves the item where it is. `applied` names what changed.
 */
export function applyDecision(baseline: OrganizedFields, fixed: FixedFields, decided: Decided): { fields: OrganizedFields; ai: AiView } {
  const fields: OrganizedFields = {
    type: fixed.type ? baseline.type : decided.type,
    project_id: fixed.project_id ? baseline.project_id : (decided.project_id ?? baseline.project_id),
    due_at: fixed.due_at ? baseline.due_at : (decided.due_at ?? baseline.due_at),
    // The organizer's day comes with its all_day; a due date it did not set keeps the item's.
    all_day: fixed.all_day || fixed.due_at || decided.due_at === null ? baseline.all_day : (decided.all_day ?? false),
    title: fixed.due_at || decided.title === '' ? baseline.title : decided.title,
  };
  const applied = (['type', 'project_id', 'due_at', 'all_day', 'title'] as const).filter((f): f is AiField => fields[f] !== baseline[f]);
  return {
    fields,
    ai: {
      engine: decided.engine,
      type: fields.type,
      project_id: fixed.project_id ? baseline.project_id : decided.project_id,
      due_at: fields.due_at,
      all_day: fields.all_day,
      title: fields.title,
      reason: fixed.project_id ? null : decided.reason,
      applied,
    },
  };
}
