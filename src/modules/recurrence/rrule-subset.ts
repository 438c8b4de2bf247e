import rrule from 'rrule';

// rrule is CommonJS: Node's ES loader gives its exports as the default export (dist/cli runs unbundled).
const { RRule } = rrule;
import { badRequest } from '../../errors.js';
import type { Recurrence } from '../items/item-view.js';

/*
 * The contract's RRULE subset: FREQ (DAILY, WEEKLY, MONTHLY, YEARLY), INTERVAL, BYDAY, BYMONTHDAY,
 * COUNT, UNTIL. Everything else (BYHOUR, BYSETPOS, WKST, DTSTART, …) is refused, so a rule the
 * service stores is one it computes the same way in every client. The time of day is the due date's.
 */

const FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const DAY = /^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$/;
const UNTIL = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/;
const POSITIVE = /^[1-9]\d{0,3}$/;
const FIELD = 'recurrence.rule';

/**
 * The shape alone is not enough: rrule hands the digits to Date.UTC, which rolls month 13, 30
 * February or hour 25 over into a later date and reads 99999999T999999Z as "never", so each field
 * is checked against the calendar. Second 60 (a leap second, which RFC 5545 allows) is refused too:
 * JavaScript dates have none and would read it as the next minute.
 */
function isRealUntil(value: string): boolean {
  const m = UNTIL.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((digits) => Number(digits ?? 0)) as [number, number, number, number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function checkPart(name: string, value: string): void {
  switch (name) {
    case 'FREQ':
      if (!FREQS.has(value)) throw badRequest(`FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY, not "${value}"`, FIELD);
      return;
    case 'INTERVAL':
    case 'COUNT':
      if (!POSITIVE.test(value)) throw badRequest(`${name} must be a whole number from 1 to 9999`, FIELD);
      return;
    case 'BYDAY':
      if (!value.split(',').every((d) => DAY.test(d))) throw badRequest('BYDAY must list days such as MO,WE or 1MO', FIELD);
      return;
    case 'BYMONTHDAY':
      if (
        !value.split(',').every((d) => {
          const n = Number(d);
          return /^-?\d{1,2}$/.test(d) && n !== 0 && n >= -31 && n <= 31;
        })
      ) {
        throw badRequest('BYMONTHDAY must list days from 1 to 31 (or -31 to -1)', FIELD);
      }
      return;
    case 'UNTIL':
      if (!isRealUntil(value)) throw badRequest('UNTIL must be a real date (YYYYMMDD) or UTC date-time (YYYYMMDDTHHMMSSZ), e.g. 20261231T235959Z', FIELD);
      return;
    default:
      throw badRequest(`the RRULE part ${name} is not supported (FREQ, INTERVAL, BYDAY, BYMONTHDAY, COUNT, UNTIL are)`, FIELD);
  }
}

/** The rule in its stored form (upper case, no RRULE: prefix), or 400 naming what is wrong. */
export function checkRecurrence(input: Recurrence): Recurrence {
  const text = input.rule
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  const seen = new Set<string>();
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) throw badRequest(`"${part}" is not an RRULE part (NAME=VALUE)`, FIELD);
    const name = part.slice(0, eq);
    if (seen.has(name)) throw badRequest(`the RRULE part ${name} is given twice`, FIELD);
    seen.add(name);
    checkPart(name, part.slice(eq + 1));
  }
  if (!seen.has('FREQ')) throw badRequest('the rule needs FREQ', FIELD);
  if (seen.has('COUNT') && seen.has('UNTIL')) throw badRequest('COUNT and UNTIL cannot both be given', FIELD);
  try {
    RRule.parseString(text);
  } catch {
    throw badRequest('the rule is not a valid RRULE', FIELD);
  }
  return { rule: text, from: input.from };
}
