import type { Db } from '../../db/schema.js';
import { badRequest } from '../../errors.js';
import { CAPTURE_TEXT_MAX, splitCapturedText, type CapturedText } from '../../lib/capture-text.js';
import type { Clock } from '../../lib/clock.js';
import type { AuthUser } from '../../schemas/auth-user.js';
import type { QuickAdd } from './grammar.js';
import { findProjectNames } from './quick-add.repository.js';
import type { SplitItem } from './read-split.js';

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
  /** What quick add understands in `text`, in the user's zone, `literal` ranges read as plain words; stores nothing. */
  parse(user: AuthUser, text: string, literal?: CaptureRequestFields['literal']): Promise<QuickAdd>;
  /** The brain-dump preview: `text` split into items (contract "Brain dump"), each read with quick add; stores nothing. */
  parseSplit(user: AuthUser, text: string, options?: { quickAdd: boolean }): Promise<SplitItem[]>;
  /**
   * The read step of a capture: its text split once into title and body and, when it asks for
   * `parse`, what quick add understood made explicit: the title without the understood tokens, and
   * the fields the request did not give itself.
   */
  readCapture<T extends CaptureRequestFields>(user: AuthUser, input: T): Promise<CaptureReading<T>>;
}

/** A capture request as quick add read it: `text` is the split that is stored, `input` the request with the fields it filled. */
export interface CaptureReading<T> {
  text: CapturedText;
  input: T;
}

export function createQuickAddService(deps: { db: Db; clock: Clock }): QuickAddService {
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

  async function parseSplit(user: AuthUser, text: string, options = { quickAdd: true }): Promise<SplitItem[]> {
    checkText(text);
    const [{ readSplit }, projects] = await Promise.all([import('./read-split.js'), findProjectNames(deps.db, user.id)]);
    return readSplit(text, { now: deps.clock.now(), zone: user.timezone, projects }, options);
  }

  return {
    parse: (user, text, literal) => parse(user, text, undefined, literal),
    parseSplit,

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
