import type { ItemType } from '../../db/schema.js';
import type { ModelData } from './learning/routing-model.js';

export type EngineName = 'local' | 'openai';

/** A project the item may go to, with the titles of items already in it (the user's own history). */
export interface ProjectContext {
  id: string;
  name: string;
  is_default: boolean;
  titles: string[];
}

export interface OrganizeRequest {
  /** The item's title (first line of the capture) and the rest of its text. */
  title: string;
  content_md: string | null;
  now: Date;
  /** IANA zone the dates are read in. */
  timezone: string;
  projects: ProjectContext[];
  /** The user's learned routing model (learning/), when there is one. */
  model?: ModelData;
}

/** What an engine decided, before the service applies it around the client's explicit fields. */
export interface OrganizerDecision {
  type: ItemType;
  /** One of the request's projects, or null to leave the item where it is. */
  project_id: string | null;
  /** UTC timestamp with milliseconds, or null. */
  due_at: string | null;
  /** The text named a day without a time: due_at is 00:00 local of it (contract "All-day dates"). */
  all_day?: boolean;
  /** The title with the date phrase cut out. */
  title: string;
  /** Why the project was chosen or the item stays, in a few words. */
  reason: string | null;
}

export interface Decided extends OrganizerDecision {
  /** The engine that actually decided (`local` when `openai` failed and fell back). */
  engine: EngineName;
}

export interface OrganizerEngine {
  readonly name: EngineName;
  decide(request: OrganizeRequest): Promise<Decided>;
}
