import * as chrono from 'chrono-node';

/** Tags our own parsers put on their results, so the readings know where a result came from. */
export const TAG_EOD = 'organizer/eod';
export const TAG_ORDINAL_DAY = 'organizer/ordinalDay';

/** After a bare "the 3rd", only these words keep it a date ("the 3rd at 5" yes, "the 3rd round" no). */
const AFTER_ORDINAL_DATE = new Set([
  '',
  'at',
  'by',
  'before',
  'after',
  'around',
  'from',
  'to',
  'until',
  'till',
  'and',
  'or',
  'then',
  'in',
  'morning',
  'afternoon',
  'evening',
  'night',
  'noon',
  'eod',
  'for',
  'please',
  'pls',
  'latest',
]);
/** After "on/by the 3rd" anything goes except the nouns that make an ordinal a rank ("on the 2nd floor"). */
const ORDINAL_NOUNS = new Set(
  (
    'floor floors place time times round edition anniversary birthday grade attempt try step page chapter row level draft ' +
    'version quarter half person year years century street st avenue ave entry item option generation season episode tier ' +
    'class period lesson semester term son daughter child kid house door stop exit seat gear base division prize position ' +
    'line paragraph section slide call meeting day week month hole lap set verse act scene track volume issue'
  ).split(' '),
);

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
    // "the 3rd of December" and "the 3rd December" are chrono's own (longer) matches; this one is for the bare day.
    const strongLead = !/^the\b/i.test(match[0]);
    if (strongLead ? ORDINAL_NOUNS.has(next) : !AFTER_ORDINAL_DATE.has(next)) return null;
    return context.createParsingComponents({ day }).addTag(TAG_ORDINAL_DAY);
  },
};

/** "12/3" outside the Americas: the 12th of March (chrono's English reads month first). */
const dayFirstParser: chrono.Parser = {
  pattern: () => /\b(\d{1,2})[/.](\d{1,2})(?:[/.](\d{4}|\d{2}))?(?![/.]?\d)/,
  extract: (context, match) => {
    const [day, month] = [Number(match[1]), Number(match[2])];
    if (day < 1 || day > 31 || month < 1 || month > 12) return null;
    const year = match[3] === undefined ? undefined : Number(match[3].length === 2 ? `20${match[3]}` : match[3]);
    return context.createParsingComponents({ day, month, ...(year === undefined ? {} : { year }) });
  },
};

function withOurParsers(dayFirst: boolean): chrono.Chrono {
  const c = chrono.casual.clone();
  // First in the list, so on an equal match they win over chrono's own readings.
  c.parsers.unshift(eodParser, ordinalDayParser, ...(dayFirst ? [dayFirstParser] : []));
  return c;
}

/** Month/day order: American zones write 12/3 for December 3rd; elsewhere it is the 12th of March. */
const US = withOurParsers(false);
const GB = withOurParsers(true);

export function parserForZone(zone: string): chrono.Chrono {
  return zone.startsWith('America/') || zone.startsWith('US/') || zone === 'Pacific/Honolulu' ? US : GB;
}
