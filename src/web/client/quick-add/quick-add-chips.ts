/*
 * What the quick-add preview shows of the server's reading of the first line (POST /inbox/parse):
 * one chip per span, its kind's label, the words as typed and, when they name something else
 * than they say (a date, a project spelt differently), what they mean. Pure: the page draws the chips.
 */

/** A span of the server's reading (src/modules/quick-add/grammar.ts Span, with a date's `shown`). */
export interface QuickAddSpan {
  kind: 'project' | 'tag' | 'date' | 'recurrence';
  /** Offsets in UTF-16 code units of the text sent, as the DOM counts. */
  start: number;
  end: number;
  /** The words as typed, with their sign for a project or a tag. */
  text: string;
  /** The project id, the tag name, the ISO instant or the RRULE. */
  value: string;
  /** A date as the user reads it (day and time in their zone; the day alone when all-day). */
  shown?: string;
}

/** POST /inbox/parse's answer: the spans, and whether the date is a day without a time (contract "All-day dates"). */
export interface QuickAddReading {
  spans: QuickAddSpan[];
  all_day?: boolean;
}

export interface QuickAddChip {
  kind: QuickAddSpan['kind'];
  /** The kind's label: Project, Tag, Due, Repeats. */
  label: string;
  /** The words, and ` · ` with their meaning when it adds something. */
  text: string;
  /** A date chip of an all-day due: the day, no time of day. */
  allDay: boolean;
}

const LABELS: Record<QuickAddSpan['kind'], string> = { project: 'Project', tag: 'Tag', date: 'Due', recurrence: 'Repeats' };

/**
 * The chips for a reading; `projectName` names a project by its id ('' when the page does not know
 * it). An all-day date says "all day" after its day, so "tomorrow" never reads as a time.
 */
export function quickAddChips(reading: QuickAddReading, projectName: (id: string) => string): QuickAddChip[] {
  return reading.spans.map((span) => {
    const name = span.kind === 'project' ? projectName(span.value) : '';
    const allDay = span.kind === 'date' && reading.all_day === true;
    // A project's name is worth showing only when the words do not already say it.
    const meaning = span.shown || (name && name.toLowerCase() !== span.text.slice(1).toLowerCase() ? name : '');
    const text = span.text + (meaning ? ` · ${meaning}` : '') + (allDay ? ' · all day' : '');
    return { kind: span.kind, label: LABELS[span.kind], text, allDay };
  });
}
