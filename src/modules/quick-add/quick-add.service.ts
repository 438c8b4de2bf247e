import type { Db } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { CAPTURE_TEXT_MAX, splitCapturedText, type CapturedText } from '../../lib/capture-text.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { QuickAdd } from './grammar.js';
import { findProjectNames } from './quick-add.repository.js';
import type { SplitItem } from './read-split.js';
import { splitLines, type SplitLine } from './split-lines.js';
import type { ProseSplitter } from './split-prose.js';

/** The fields of a capture request that quick add can fill. */
export interface CaptureRequestFields {
  text: string;
  parse?: boolean;
  project_id?: string;
  due_at?: string;
  all_day?: boolean;
  tags?: string[];
  recurrence?: { rule: string; from: 'due' | 'completion' } | null;
  /** The moment the text was typed, when not now (an offline capture's replay, decision 0085): its dates are read at it. */
  read_at?: Date;
  /** Ranges of `text` whose reading the user refused: read as plain words (decision 0098; the web form's `literal`). */
  literal?: readonly (readonly [number, number])[];
}

export interface QuickAddService {
  /** The instance's organizer is a model that may split prose (`organize` in parseSplit; decision 0099). */
  readonly splitsProse: boolean;
  /** What quick add understands in `text`, in the user's zone, `literal` ranges read as plain words; stores nothing. */
  parse(user: AuthUser, text: string, literal?: CaptureRequestFields['literal']): Promise<QuickAdd>;
  /** The brain-dump preview: `text` split into items (contract "Brain dump"), each read with quick add; stores nothing. */
  parseSplit(user: AuthUser, text: string, options?: SplitOptions): Promise<SplitItem[]>;
  /** parseSplit with each item's line (where its words are in the text), for a preview that edits the text. */
  readBrainDump(user: AuthUser, text: string, options?: SplitOptions): Promise<BrainDump>;
  /**
   * The read step of a capture: its text split once into title and body and, when it asks for
   * `parse`, what quick add understood made explicit: the title without the understood tokens, and
   * the fields the request did not give itself.
   */
  readCapture<T extends CaptureRequestFields>(user: AuthUser, input: T): Promise<CaptureReading<T>>;
}

export interface SplitOptions {
  /** Quick add on each item (default true); false keeps each line as typed. */
  quickAdd?: boolean;
  /** The model may split prose the deterministic split leaves one item, when the instance has one (decision 0099). */
  organize?: boolean;
}

/** A brain dump read: item i is line i read with quick add. */
export interface BrainDump {
  lines: SplitLine[];
  items: SplitItem[];
}

/** A capture request as quick add read it: `text` is the split that is stored, `input` the request with the fields it filled. */
export interface CaptureReading<T> {
  text: CapturedText;
  input: T;
}

export function createQuickAddService(deps: { db: Db; clock: Clock; prose: ProseSplitter | null }): QuickAddService {
  function checkText(text: string): void {
    // /parse takes what capture takes.
    if (text.trim() === '' || Array.from(text.trim()).length > CAPTURE_TEXT_MAX) {
      throw badRequest(`text must be 1 to ${CAPTURE_TEXT_MAX} characters after trim`, 'text');
    }
  }

  async function parse(user: AuthUser, text: string, readAt?: Date, literal?: CaptureRequestFields['literal']): Promise<QuickAdd> {
    checkText(text);
    // Loaded at first use, as the organizer's engine is: chrono-node weighs on start-up.
    const [{ readQuickAdd }, projects] = await Promise.all([import('./grammar.js'), findProjectNames(deps.db, user.id)]);
    return readQuickAdd(text, { now: readAt ?? deps.clock.now(), zone: user.timezone, projects, ...(literal ? { literal } : {}) });
  }

  async function readBrainDump(user: AuthUser, text: string, options: SplitOptions = {}): Promise<BrainDump> {
    checkText(text);
    let lines = splitLines(text);
    // Only prose (one item by the rules) goes to the model: a list's split is the user's own.
    if (options.organize && deps.prose && lines.length === 1) lines = (await deps.prose.splitProse(user.id, text)) ?? lines;
    const [{ readSplit }, projects] = await Promise.all([import('./read-split.js'), findProjectNames(deps.db, user.id)]);
    const items = readSplit(text, { now: deps.clock.now(), zone: user.timezone, projects }, { quickAdd: options.quickAdd ?? true }, lines);
    return { lines, items };
  }

  return {
    splitsProse: deps.prose !== null,
    parse: (user, text, literal) => parse(user, text, undefined, literal),
    parseSplit: async (user, text, options) => (await readBrainDump(user, text, options)).items,
    readBrainDump,

    async readCapture(user, input) {
      if (!input.parse) return { text: splitCapturedText(input.text), input };
      const parsed = await parse(user, input.text, input.read_at, input.literal);
      if (parsed.spans.length === 0) return { text: splitCapturedText(input.text), input };
      return {
        // The grammar split the text as capture does (lib/capture-text.ts); only understood tokens are gone.
        text: { title: parsed.title, content_md: parsed.content_md },
        input: {
          ...input,
          // Fields the request gives explicitly win.
          ...(input.project_id === undefined && parsed.project_id !== null ? { project_id: parsed.project_id } : {}),
          // A date read from the text brings its all_day, unless the request says it.
          ...(input.due_at === undefined && parsed.due_at !== null
            ? { due_at: parsed.due_at, ...(input.all_day === undefined ? { all_day: parsed.all_day } : {}) }
            : {}),
          ...(input.tags === undefined && parsed.tags.length > 0 ? { tags: parsed.tags } : {}),
          ...(input.recurrence === undefined && parsed.recurrence !== null ? { recurrence: parsed.recurrence } : {}),
        },
      };
    },
  };
}
