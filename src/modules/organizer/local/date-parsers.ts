import * as chrono from 'chrono-node';

/** Tags our own parsers put on their results, so the readings know where a result came from. */
export const TAG_EOD = 'organizer/eod';
export const TAG_ORDINAL_DAY = 'organizer/ordinalDay';

/** Words that may follow "the 3rd" when it is a date; anything else ("the 2nd floor") is not. */
const AFTER_ORDINAL_DATE = new Set([
  '', 'at', 'by', 'before', 'after', 'around', 'from', 'to', 'until', 'till', 'and', 'or', 'then', 'in',
  'morning', 'afternoon', 'evening', 'night', 'noon', 'eod', 'for', 'please', 'pls', 'latest',
]);

const eodParser: chrono.Parser = {
  pattern: () => /\b(?:eod|e\.o\.d\.?|end of (?:the )?(?:work ?)?day|cob|close of business)(?=\W|$)/i,
  extract: (context) => context.createParsingComponents({ hour: 17, minute: 0 }).addTag(TAG_EOD),
};

/** "on the 3rd", "by the 15th": a day of the month (chrono leaves these alone). */
const ordinalDayParser: chrono.Parser = {
  pattern: () => /\b(?:(?:on|by|due|before|until)\s+(?:the\s+)?|the\s+)(\d{1,2})(?:st|nd|rd|th)\b/i,
  extract: (context, match) => {
    const day = Number(match[1]);
    if (day < 1 || day > 31) return null;
    const after = context.text.slice((match.index ?? 0) + match[0].length);
    const next = /^\s*([A-Za-z]*)/.exec(after)?.[1]?.toLowerCase() ?? '';
    // "the 3rd of December" and "the 3rd December" are chrono's own; this parser is for the bare day.
    if (!AFTER_ORDINAL_DATE.has(next)) return null;
    return context.createParsingComponents({ day }).addTag(TAG_ORDINAL_DAY);
  },
};

function withOurParsers(base: chrono.Chrono): chrono.Chrono {
  const c = base.clone();
  // First in the list, so on an equal match they win over chrono's own readings.
  c.parsers.unshift(eodParser, ordinalDayParser);
  return c;
}

/** Month/day order: American zones write 12/3 for December 3rd; elsewhere it is the 12th of March. */
const US = withOurParsers(chrono.casual);
const GB = withOurParsers(chrono.en.GB);

export function parserForZone(zone: string): chrono.Chrono {
  return zone.startsWith('America/') || zone.startsWith('US/') || zone === 'Pacific/Honolulu' ? US : GB;
}
