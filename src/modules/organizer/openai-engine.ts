import type { Ajv, ValidateFunction } from 'ajv';
import type { Logger } from 'pino';
import { Type, type Static } from 'typebox';
import { createAjv } from '../../lib/ajv.js';
import { nearestTitles } from './learning/nearest-titles.js';
import { wallTimeAt, offsetMinutesAt, weekdayOf } from '../../lib/dates/zoned-time.js';
import { AnswerError, askForJson, failureReason, type OpenAiChatOptions } from './openai-chat.js';
import type { Decided, OrganizeRequest, OrganizerEngine } from './organizer.types.js';

export interface OpenAiEngineOptions extends OpenAiChatOptions {
  logger: Logger;
  /** Decides whenever the API cannot: down, slow, or answering something unusable. */
  fallback: OrganizerEngine;
}

/** The only answer the model may give; anything else is a failure and the fallback decides. */
const AnswerSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('note'), Type.Literal('todo')]),
    project_id: Type.Union([Type.String(), Type.Null()]),
    due_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    all_day: Type.Optional(Type.Boolean()),
    title: Type.String({ minLength: 1, maxLength: 500 }),
    reason: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
type Answer = Static<typeof AnswerSchema>;

// Compiled when the first answer arrives: a server on the local engine never needs it.
let answerCheck: { ajv: Ajv; validAnswer: ValidateFunction<Answer> } | undefined;
function answerChecker(): { ajv: Ajv; validAnswer: ValidateFunction<Answer> } {
  if (answerCheck) return answerCheck;
  const ajv = createAjv({ allErrors: true });
  return (answerCheck = { ajv, validAnswer: ajv.compile<Answer>(AnswerSchema) });
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Examples per project: enough to show what a project is about, few enough to keep the prompt small. */
const EXAMPLES_PER_PROJECT = 8;
/** A reason is a phrase for a notice, not an essay. */
const REASON_MAX = 120;
/** Enough of a long body to judge it by, without sending 100,000 characters per capture. */
const CONTENT_SENT = 4000;

const SYSTEM_PROMPT = [
  'You organize one captured note or todo for a personal inbox. Answer with one JSON object and nothing else:',
  '{"type": "note" | "todo", "project_id": string | null, "due_at": string | null, "all_day": boolean, "title": string, "reason": string}.',
  '- type: "todo" for something to do; "note" for information, ideas, quotes or records of what happened.',
  '- project_id: the id of one of the given projects when the text clearly belongs there (an explicit #Name or "for name",',
  '  or it is like the examples of that project); otherwise null. Never invent an id; never pick the default project.',
  "- due_at: an ISO 8601 date-time with the user's UTC offset when the text names when it is due, else null. Read dates in",
  '  the user\'s time zone relative to "now": a bare time that has passed today means tomorrow; a bare weekday means its next',
  '  occurrence; a date without a time of day is all-day: all_day true and due_at 00:00 local of that day; "tonight" 20:00;',
  '  "eod" 17:00 today; "tomorrow morning" 09:00; "next week" Monday of next week; "this weekend" Saturday (today on a',
  '  Saturday or Sunday); "in 2 hours" from now. Never a past date unless the text says so. Words that only look like',
  '  dates ("2nd floor", May as a name) are not dates, and notes about the past get null.',
  '- title: the first line of the text with the date phrase (and a #Project tag) removed; otherwise as written.',
  '- reason: at most 8 words on why that project (or why none), e.g. "like your Work items: offsite, agenda".',
  "- Each project's examples are the user's own filings most like the text, nearest first: follow where they filed similar things.",
].join('\n');

function localNow(now: Date, zone: string): string {
  const w = wallTimeAt(zone, now);
  const offset = offsetMinutesAt(zone, now);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)} (${WEEKDAYS[weekdayOf(w)]})`;
}

function userMessage(request: OrganizeRequest): string {
  return JSON.stringify({
    now: localNow(request.now, request.timezone),
    timezone: request.timezone,
    text: request.content_md ? `${request.title}\n${request.content_md.slice(0, CONTENT_SENT)}` : request.title,
    projects: request.projects.map((p) => ({
      id: p.id,
      name: p.name,
      ...(p.is_default ? { default: true } : {}),
      // The user's labelled titles nearest the text, so the model routes as the user has been filing.
      examples: nearestTitles(request.title, p.titles, EXAMPLES_PER_PROJECT),
    })),
  });
}

/** The model's message as a checked decision; throws AnswerError on anything unusable. */
function parseAnswer(answer: unknown, request: OrganizeRequest): Omit<Decided, 'engine'> {
  const { ajv, validAnswer } = answerChecker();
  if (!validAnswer(answer)) throw new AnswerError(`the message does not match the schema: ${ajv.errorsText(validAnswer.errors)}`);
  const project = answer.project_id === null ? undefined : request.projects.find((p) => p.id === answer.project_id);
  if (answer.project_id !== null && !project) throw new AnswerError('project_id is not one of the given projects');
  let due: string | null = null;
  if (answer.due_at !== null) {
    const ms = Date.parse(answer.due_at);
    if (Number.isNaN(ms)) throw new AnswerError('due_at is not a date-time');
    due = new Date(ms).toISOString();
  }
  const filed = project && !project.is_default ? project : undefined;
  const said = answer.reason?.trim().slice(0, REASON_MAX);
  return {
    type: answer.type,
    project_id: filed?.id ?? null,
    due_at: due,
    all_day: due !== null && answer.all_day === true,
    title: answer.title.trim() || request.title,
    reason: said || (filed ? `the model chose ${filed.name}` : null),
  };
}

/** Any OpenAI-compatible chat-completions API; every failure falls back to the local engine and is logged. */
export function createOpenAiEngine(options: OpenAiEngineOptions): OrganizerEngine {
  return {
    name: 'openai',
    async decide(request) {
      try {
        const answer = await askForJson(options, SYSTEM_PROMPT, userMessage(request));
        return { engine: 'openai', ...parseAnswer(answer, request) };
      } catch (error) {
        const reason = failureReason(error, options.timeoutMs);
        options.logger.warn({ engine: 'openai', model: options.model, reason }, 'organizer: the openai engine failed; the local engine decided instead');
        return options.fallback.decide(request);
      }
    },
  };
}
