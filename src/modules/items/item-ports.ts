import type { Executor } from '../../db/schema.js';
import type { Recurrence } from './item-view.js';

/*
 * What the items kernel needs from the modules above it, said here so that items imports none of
 * them (docs/decisions/0065): the container hands in the projects service, the organizer's
 * routing learner and capture's schedule, which fit these shapes.
 */

/** A project id the user may file items in: requireProject answers 404 for anyone else's. */
export interface ProjectCheck {
  requireProject(db: Executor, userId: string, id: string): Promise<{ id: string }>;
}

/** An item the user put into another project. */
export interface ItemMove {
  id: string;
  title: string | null;
  from: string;
  to: string;
}

/**
 * The learner port: the organizer's per-user routing model hears of the user's moves through it,
 * in the move's transaction (issue 37). Items only reports moves; what is learned is the organizer's.
 */
export interface MoveLearner {
  learnMoves(trx: Executor, userId: string, moves: readonly ItemMove[]): Promise<void>;
}

/** The scheduling rules a change obeys, the same ones capture applies (capture/schedule.ts). */
export interface ItemSchedule {
  /** The recurrence as stored, or the contract's 400 for a rule outside the subset. */
  checkRecurrence(recurrence: Recurrence): Recurrence;
  /** The reminder the user's reminder_default gives a timed due date, or null when they have none. */
  defaultRemindAt(db: Executor, userId: string, dueAt: string): Promise<string | null>;
  /** The user's IANA zone: an all-day due is 00:00 of its day there. */
  timezone(db: Executor, userId: string): Promise<string>;
}
