import type { ItemType } from '../../../db/schema.js';

/**
 * Note or todo, from the wording. Todos are asked for (imperatives, "need to", deadlines); notes
 * record (ideas, quotes, facts, what happened). Ties go to todo, the capture default.
 */

const TODO_PREFIX = /^(?:\[\s?\]|todo|to-do|to do|task|reminder|remind me|remember to|don'?t forget|dont forget|do not forget|action item|ai)\b\s*:?/i;
const NOTE_PREFIX = /^(?:note|notes|idea|ideas|thought|thoughts|quote|fyi|til|memo|journal|log|observation|reflection|insight|fun fact|random thought|shower thought|brainstorm|musing|lesson|lessons learned|learning|learned|learnt|takeaway|takeaways|recap|summary|minutes|meeting notes|inspiration|book rec|recommendation|recipe|quote of the day|interesting|wisdom)\b\s*[:\-–]?/i;
const OBLIGATION = /\b(?:need(?:s)? to|have to|has to|must|gotta|got to|should|ought to|make sure|remember to|remind me|don'?t forget|do not forget|pls|please|asap|urgent|by (?:eod|tomorrow|tonight|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/i;
const NOTE_WORDS = /\b(?:idea|ideas|maybe we could|what if|i think|i feel|i wonder|i realized|i realised|turns out|apparently|interesting|insight|quote|according to|fun fact|note to self|for reference|for future reference|password is|code is|number is|is located|lives at|birthday is|allergic|favorite|favourite|prefers|likes|loves|hates|reminds me of|inspired by|lesson|learned|learnt|realized|realised|observation|noticed|seems like|looks like|feels like)\b/i;
const PAST_TENSE = /\b(?:was|were|had|went|said|told|discussed|decided|happened|talked|spoke|mentioned|agreed|met|saw|heard|gave|came|finished|received|got|took|made|felt|thought|found|liked|loved|enjoyed)\b/i;
const STATEMENT = /^(?:the|our|my|his|her|their|this|that|it|it's|its|there|he|she|they|we|i|i'm|i've|[a-z]+ is|[a-z]+ are)\b.*\b(?:is|are|was|were|has|have|uses|costs|takes|works|needs|runs|opens|closes|starts|ends)\b/i;

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
    'wish congratulate celebrate throw host rsvp request claim return exchange recycle defrost marinate preheat refuel fuel'
  ).split(/\s+/),
);

const LEADING_NOISE = /^(?:[-*•>\s]+|(?:so|ok|okay|also|and|then|oh|hey|quick|quickly|pls|please|must|gotta|i|we|need to|have to|should|let's|lets|let me|going to|gonna|want to|wanna|try to|to)\b\s*)+/i;

export interface TypeSignals {
  hasDueDate: boolean;
  aboutPast: boolean;
}

export function classifyType(title: string, content: string | null, signals: TypeSignals): ItemType {
  const text = title.trim();
  if (TODO_PREFIX.test(text)) return 'todo';
  if (NOTE_PREFIX.test(text)) return 'note';

  let score = 0; // > 0: todo, < 0: note
  if (signals.hasDueDate) score += 2;
  if (signals.aboutPast) score -= 2;
  if (OBLIGATION.test(text)) score += 2;
  const first = text.replace(LEADING_NOISE, '').split(/[\s,:;.!?]+/)[0]?.toLowerCase() ?? '';
  if (VERBS.has(first)) score += 2;
  if (NOTE_WORDS.test(text)) score -= 2;
  if (PAST_TENSE.test(text) && !VERBS.has(first)) score -= 1;
  if (STATEMENT.test(text)) score -= 2;
  if (/\?\s*$/.test(text) && !VERBS.has(first)) score -= 1;
  if (/^["“'].+["”']/.test(text)) score -= 2;
  if (content && content.length > 280) score -= 1;
  return score >= 0 ? 'todo' : 'note';
}
