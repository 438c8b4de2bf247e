/** The evaluation's data (eval/mcp/*.json): the account every task starts from, and the tasks with their end-state checks. */

export interface SeedItem {
  title: string;
  project?: string;
  type?: 'todo' | 'note';
  tags?: string[];
  /** Days from today (UTC) and a time: "+1T15:00", "-1T09:00". */
  due?: string;
  done?: boolean;
}

export interface Seed {
  projects: string[];
  items: SeedItem[];
  filters: Array<{ name: string; query: string }>;
}

/** What an item must be at the end. Dates are read in UTC (the seeded account's zone). */
export interface Expect {
  title?: string;
  is_completed?: boolean;
  status?: string;
  project?: string;
  tags_include?: string[];
  content_includes?: string;
  /** The due date's day, as days from today: "+1". */
  due_date?: string;
  due_weekday?: number;
  due_hour?: number;
}

export type Check =
  /** The item titled so (case-insensitive; `contains` matches part of the title) exists, or not, and is as expected. */
  | { item: string; contains?: boolean; exists?: boolean; is?: Expect }
  /** The final answer names each of these (case-insensitive). */
  | { answer_includes: string[] };

export interface Task {
  name: string;
  prompt: string;
  checks: Check[];
  /** Seeded titles the task may change; every other seeded item must be left exactly as it was. */
  touches?: string[];
  /** How many items the task adds (default 0): more or fewer fails. */
  creates?: number;
}

export interface TaskSet {
  seed: Seed;
  tasks: Task[];
}

const DAY_MS = 86_400_000;

/** "YYYY-MM-DD" of today plus `days`, in UTC. */
export function dayFrom(today: Date, days: number): string {
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A seed's "+1T15:00" as an ISO date-time in UTC. */
export function seedDue(today: Date, due: string): string {
  const match = /^([+-]\d+)T(\d{2}:\d{2})$/.exec(due);
  if (!match) throw new Error(`a seed due date is "+NTHH:MM", not ${JSON.stringify(due)}`);
  return `${dayFrom(today, Number(match[1]))}T${match[2]}:00Z`;
}
