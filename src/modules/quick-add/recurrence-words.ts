/**
 * Quick add's recurrence words ("every monday 9am", "every! 2 weeks") read into an RFC 5545 RRULE.
 * The rule holds only the parts the contract allows (FREQ, INTERVAL, BYDAY, BYMONTHDAY): the time of
 * day is the due date's, so it is read here as a wall time and not written into the rule.
 */
export interface RecurrenceWords {
  /** e.g. `FREQ=WEEKLY;BYDAY=MO`, without the `RRULE:` prefix. */
  rule: string;
  /** `every!` counts from completion, `every` from the previous due date. */
  from: 'due' | 'completion';
  /** The time of day the words give (24 h), or null. */
  time: { hour: number; minute: number } | null;
  /** [start, end) of the phrase in the text, UTF-16. */
  start: number;
  end: number;
}

const DAY_CODES: Record<string, string> = {
  mo: 'MO',
  mon: 'MO',
  monday: 'MO',
  tu: 'TU',
  tue: 'TU',
  tues: 'TU',
  tuesday: 'TU',
  we: 'WE',
  wed: 'WE',
  weds: 'WE',
  wednesday: 'WE',
  th: 'TH',
  thu: 'TH',
  thur: 'TH',
  thurs: 'TH',
  thursday: 'TH',
  fr: 'FR',
  fri: 'FR',
  friday: 'FR',
  sa: 'SA',
  sat: 'SA',
  saturday: 'SA',
  su: 'SU',
  sun: 'SU',
  sunday: 'SU',
};
const WEEK_ORDER = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const DAY = `(?:${Object.keys(DAY_CODES)
  .sort((a, b) => b.length - a.length)
  .join('|')})`;
const UNIT = '(?:day|week|month|year)s?';

/** The unit or days after "every", each alternative in its own groups; longer readings come first. */
const BODY =
  '(?:(?<weekday>weekdays?)|(?<weekend>weekends?)|other\\s+(?<otherUnit>day|week|month|year)' +
  `|(?<count>\\d{1,3})\\s+(?<countUnit>${UNIT})` +
  '|month\\s+on\\s+the\\s+(?<monthDay>\\d{1,2})(?:st|nd|rd|th)|(?:the\\s+)?(?<ordinalDay>\\d{1,2})(?:st|nd|rd|th)' +
  `|(?<days>${DAY}(?:\\s*(?:,\\s*and|,|and|&)\\s*${DAY})*)` +
  '|(?<unit>day|week|month|year))';
/** An optional time after the words: "9am", "at 9", "at 17:30", "9:30 pm". A bare number needs "at". */
const TIME = `(?:\\s+(?:at\\s+(?<atHour>\\d{1,2})(?::(?<atMinute>\\d\\d))?(?:\\s*(?<atMeridiem>am|pm|a|p))?|(?<hour>\\d{1,2})(?:(?::(?<minute>\\d\\d))(?:\\s*(?<meridiem1>am|pm|a|p))?|\\s*(?<meridiem2>am|pm|a|p))))?`;
const PHRASE = new RegExp(`(?<![\\p{L}\\p{N}_@#])every(?<bang>!)?\\s+${BODY}${TIME}(?![\\p{L}\\p{N}_:])`, 'iu');

function timeOf(hourText: string | undefined, minuteText: string | undefined, meridiem: string | undefined): RecurrenceWords['time'] | 'invalid' {
  if (hourText === undefined) return null;
  let hour = Number(hourText);
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59) return 'invalid';
  if (meridiem) {
    if (hour < 1 || hour > 12) return 'invalid';
    const pm = meridiem.toLowerCase().startsWith('p');
    hour = (hour % 12) + (pm ? 12 : 0);
  } else {
    if (hour > 23) return 'invalid';
    // As the organizer reads "call at 3": hours 1..6 without am/pm and minutes are afternoon hours.
    if (hour >= 1 && hour <= 6 && minuteText === undefined) hour += 12;
  }
  return { hour, minute };
}

function ruleOf(g: Record<string, string | undefined>): string | null {
  const unitFreq = (unit: string) => `FREQ=${{ day: 'DAILY', week: 'WEEKLY', month: 'MONTHLY', year: 'YEARLY' }[unit.toLowerCase().replace(/s$/, '')]}`;
  if (g.weekday !== undefined) return 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR';
  if (g.weekend !== undefined) return 'FREQ=WEEKLY;BYDAY=SA,SU';
  if (g.otherUnit !== undefined) return `${unitFreq(g.otherUnit)};INTERVAL=2`;
  if (g.countUnit !== undefined) {
    const count = Number(g.count);
    if (count < 1) return null;
    // "every 1 days" reads as it means, and "every 2 day" too.
    return count === 1 ? unitFreq(g.countUnit) : `${unitFreq(g.countUnit)};INTERVAL=${count}`;
  }
  const monthDay = g.monthDay ?? g.ordinalDay;
  if (monthDay !== undefined) {
    const day = Number(monthDay);
    return day >= 1 && day <= 31 ? `FREQ=MONTHLY;BYMONTHDAY=${day}` : null;
  }
  if (g.days !== undefined) {
    const codes = new Set(
      g.days
        .toLowerCase()
        .split(/\s*(?:,|\band\b|&)\s*/)
        .map((d) => DAY_CODES[d.trim()]),
    );
    return `FREQ=WEEKLY;BYDAY=${WEEK_ORDER.filter((c) => codes.has(c)).join(',')}`;
  }
  if (g.unit !== undefined) return unitFreq(g.unit);
  return null;
}

/** The first recurrence phrase in the text, or null; words that do not make a whole rule are left alone. */
export function findRecurrenceWords(text: string): RecurrenceWords | null {
  const m = PHRASE.exec(text);
  if (!m?.groups) return null;
  const g = m.groups;
  const rule = ruleOf(g);
  if (rule === null) return null;
  const time = g.atHour !== undefined ? timeOf(g.atHour, g.atMinute, g.atMeridiem) : timeOf(g.hour, g.minute, g.meridiem1 ?? g.meridiem2);
  if (time === 'invalid') return null;
  return { rule, from: g.bang ? 'completion' : 'due', time, start: m.index, end: m.index + m[0].length };
}
