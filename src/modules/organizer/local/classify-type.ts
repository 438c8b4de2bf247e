import type { ItemType } from '../../../db/schema.js';

/**
 * Note or todo, from the wording. Todos are asked for (imperatives, "need to", deadlines); notes
 * record (ideas, quotes, facts, what happened). Ties go to todo, the capture default.
 */

const TODO_PREFIX = /^(?:\[\s?\]|todo|to-do|to do|task|reminder|remind me|remember to|don'?t forget|dont forget|do not forget|action item|ai)\b\s*:?/i;
const NOTE_PREFIX =
  /^(?:note|notes|idea|ideas|thought|thoughts|quote|fyi|til|memo|journal|log|observation|reflection|insight|fun fact|random thought|shower thought|brainstorm|musing|lesson|lessons learned|learning|learned|learnt|takeaway|takeaways|recap|summary|minutes|meeting notes|inspiration|book rec|recommendation|recipe|quote of the day|interesting|wisdom)\b\s*[:\-–]?/i;
/** "<topic> results: …", "<topic> itinerary: …": a label and details, the shape of a note. */
const NOTE_LABEL =
  /^[^:]{0,40}\b(?:notes|results|itinerary|list|recommendations?|ideas|quote|summary|recap|minutes|specs|details|info|stats|measurements|confirmation|receipt)\s*:/i;
const OBLIGATION =
  /\b(?:needs?|due|deadline|need(?:s)? to|have to|has to|must|gotta|got to|should|ought to|make sure|remember to|remind me|don'?t forget|do not forget|pls|please|asap|urgent|by (?:eod|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;
const NOTE_WORDS =
  /\b(?:recommendation|recommended|itinerary|idea|ideas|maybe we could|what if|i think|i feel|i wonder|i realized|i realised|turns out|apparently|interesting|insight|quote|according to|fun fact|note to self|for reference|for future reference|password is|code is|number is|is located|lives at|birthday is|allergic|favorite|favourite|prefers|likes|loves|hates|reminds me of|inspired by|lesson|learned|learnt|realized|realised|observation|noticed|seems like|looks like|feels like)\b/i;
const PAST_TENSE =
  /\b(?:was|were|had|went|said|told|discussed|decided|happened|talked|spoke|mentioned|agreed|met|saw|heard|gave|came|finished|received|got|took|made|felt|thought|found|liked|loved|enjoyed)\b/i;
/** Finite verbs of a statement about something ("the venue fits 200", "Zotero lost the citations"). */
const STATEMENT_VERBS = new Set(
  (
    'is are was were has had does did could might would fits wants likes loves hates costs takes makes comes goes ends ' +
    'starts begins opens closes runs works says thinks knows seems looks feels sounds lives arrives expires covers ' +
    'includes allows requires supports uses moved dropped lost rejected broke felt crashed failed changed rose fell ' +
    'went came got became grew stopped died left told said asked called recommended suggested mentioned wrote sent ' +
    "isn't aren't wasn't weren't doesn't didn't can't won't hasn't haven't"
  ).split(' '),
);
const QUESTION = /^(?:should (?:i|we)|what|why|how|is|are|was|does|do|did|can|could|would|will|who|where|when|which)\b.*\?\s*$/i;

/** Verbs a to-do starts with. */
const VERBS = new Set(
  (
    'add address answer apply approve archive arrange ask assemble attend backup back bake book bring brush build buy ' +
    'cancel change charge check clean clear close collect complete confirm contact cook copy create deliver deploy design ' +
    'do donate download draft drop edit email e-mail empty enroll fill finalize finish fix follow get give go grab hang hire ' +
    'install invite iron join look mail make meet merge message move mow order organize organise pack paint pay phone pick ' +
    'plan plant post prepare prep print publish push put read rebook reconcile record refactor refill register release remove renew ' +
    'repair replace reply reschedule research reserve respond restart return review revise ring run schedule sell send set ' +
    'setup ship shop sign sort start submit swap take talk test text tidy touch track transfer try turn unsubscribe update upgrade ' +
    'upload vacuum verify visit wash water watch wrap write call collect fetch feed file find sweep sync text ping follow-up ' +
    'proofread translate outline sketch measure replace polish deposit withdraw cancel renew pickup drop-off dropoff walk ' +
    'practice practise study learn rehearse memorize memorise borrow lend buy-back google figure sort chase nudge remind tell thank ' +
    'wish congratulate celebrate throw host rsvp request claim return exchange recycle defrost marinate preheat refuel fuel ' +
    'rake weed prune trim harvest compost mulch fertilize fertilise sow repot restring tune bake cancel carve vote'
  ).split(/\s+/),
);

const LEADING_NOISE =
  /^(?:[-*•>\s]+|(?:so|ok|okay|also|and|then|oh|hey|quick|quickly|pls|please|must|gotta|i|we|need to|have to|should|let's|lets|let me|going to|gonna|want to|wanna|try to|to)\b\s*)+/i;

export interface TypeSignals {
  hasDueDate: boolean;
  aboutPast: boolean;
}

export function classifyType(title: string, content: string | null, signals: TypeSignals): ItemType {
  const text = title.trim();
  if (TODO_PREFIX.test(text)) return 'todo';
  if (NOTE_PREFIX.test(text) || NOTE_LABEL.test(text)) return 'note';

  let score = 0; // > 0: todo, < 0: note
  if (signals.hasDueDate) score += 2;
  if (signals.aboutPast) score -= 2;
  if (OBLIGATION.test(text)) score += 2;
  const words = text
    .toLowerCase()
    .split(/[\s,;.!?()"“”]+/)
    .filter(Boolean);
  // "garden: cover the beds": after a short label, the rest is what is asked.
  const body = text.replace(/^[^:]{1,30}:\s*(?=\S)/, '');
  const first =
    body
      .replace(LEADING_NOISE, '')
      .split(/[\s,:;.!?]+/)[0]
      ?.toLowerCase() ?? '';
  const imperative = VERBS.has(first);
  if (imperative) score += 3;
  if (NOTE_WORDS.test(text)) score -= 2;
  // A subject and a finite verb after it: a statement of fact, unless the text opens with a command.
  if (!imperative && words.slice(1).some((w) => STATEMENT_VERBS.has(w))) score -= 3;
  else if (PAST_TENSE.test(text) && !imperative) score -= 1;
  if (QUESTION.test(text)) score -= 4;
  else if (/\?\s*$/.test(text) && !imperative) score -= 1;
  if (/^["“'].+["”']/.test(text)) score -= 2;
  if (content && content.length > 280) score -= 1;
  return score >= 0 ? 'todo' : 'note';
}
