import { badRequest } from '../errors.js';

/**
 * Every timestamp is stored and sent as UTC ISO 8601 with milliseconds. The fixed width makes
 * string order equal time order, so both databases compare and index them as plain text.
 */
export type Timestamp = string;

const CANONICAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export const isCanonicalTimestamp = (value: string): boolean => CANONICAL.test(value);

export const toTimestamp = (date: Date): Timestamp => date.toISOString();

/** Normalises a validated date-time input (any offset) to the stored form. */
export function parseTimestamp(input: string, field: string): Timestamp {
  const ms = Date.parse(input);
  if (Number.isNaN(ms)) throw badRequest(`${field} must be an ISO 8601 date-time with an offset`, field);
  const iso = new Date(ms).toISOString();
  if (!CANONICAL.test(iso)) throw badRequest(`${field} must be between years 0000 and 9999`, field);
  return iso;
}
