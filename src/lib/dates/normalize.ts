/**
 * Spelling repair before date parsing: capture text is typed fast on phones ("tmrw", "thrusday",
 * "5p"). Each repaired word keeps a map back to the original text, so the date phrase found in
 * the repaired text can be cut from the text as the user typed it.
 */
const WORDS: Record<string, string> = {};
const add = (to: string, ...from: string[]) => {
  for (const f of from) WORDS[f] = to;
};
add(
  'tomorrow',
  'tomorow',
  'tommorow',
  'tommorrow',
  'tomorrrow',
  'tomorrw',
  'tomorow',
  'tomororw',
  'tomrrow',
  'tomrow',
  'tmrw',
  'tmrow',
  'tmr',
  'tmw',
  'tmrrw',
  '2moro',
  '2morrow',
  '2morow',
  'tomoz',
  'tomo',
  'tomm',
  'tomorro',
  'tommorw',
);
add('tonight', 'tonite', '2nite', 'tonigt', 'tonihgt', 'toniht');
add('today', '2day', 'tdy', 'todya', 'tody');
add('monday', 'mondy', 'monady', 'mnday', 'mondya', 'moday');
add('tuesday', 'tues', 'tuesdy', 'teusday', 'tuseday', 'tuesdya', 'tusday', 'tueday');
add('wednesday', 'weds', 'wensday', 'wendsday', 'wednseday', 'wedensday', 'wednsday', 'wednesdy', 'wedsday', 'wenesday');
add('thursday', 'thrusday', 'thursady', 'thurday', 'thur', 'thurs', 'thursdya', 'thrsday', 'thusday');
add('friday', 'firday', 'fridya', 'frday', 'friady', 'fridy', 'frida');
add('saturday', 'saturady', 'satruday', 'saterday', 'saturdy', 'satuday');
add('sunday', 'sundy', 'sunady', 'sundya', 'suday');
add('next', 'nxt');
add('week', 'wk');
add('weekend', 'wknd', 'wkend', 'weeknd', 'weekned');
add('minutes', 'mns');
add('hours', 'hrs');
add('afternoon', 'arvo', 'aftn');

/** "5p" and "11a" are times; chrono reads them once the meridiem is spelled out. */
const SHORT_MERIDIEM = /^(\d{1,2}(?::\d\d)?)([ap])$/i;

export interface Normalized {
  text: string;
  /** For each position of `text` (and one past its end), the matching position in the original. */
  toOriginal: number[];
}

export function normalizeForDates(original: string): Normalized {
  let text = '';
  const toOriginal: number[] = [];
  let copied = 0;
  const copyUntil = (end: number) => {
    for (; copied < end; copied += 1) {
      toOriginal.push(copied);
      text += original[copied];
    }
  };
  for (const m of original.matchAll(/[A-Za-z0-9:]+/g)) {
    const word = m[0];
    const lower = word.toLowerCase();
    const meridiem = SHORT_MERIDIEM.exec(word);
    const replacement = WORDS[lower] ?? (meridiem ? `${meridiem[1]}${meridiem[2]!.toLowerCase()}m` : undefined);
    if (replacement === undefined) continue;
    copyUntil(m.index);
    for (let i = 0; i < replacement.length; i += 1) toOriginal.push(m.index);
    text += replacement;
    copied = m.index + word.length;
  }
  copyUntil(original.length);
  toOriginal.push(original.length);
  return { text, toOriginal };
}
