import { badRequest } from '../../errors.js';

/** What the form accepts before the finer check below: letters, then dash-separated subtags. */
export const LANGUAGE_TAG_PATTERN = '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$';

/**
 * A client's BCP-47 tag in canonical form ("en-us" → "en-US"), or undefined when none was given
 * or it is "und" (undetermined). A tag Intl cannot read is 400.
 */
export function canonicalLanguage(tag: string | undefined): string | undefined {
  if (tag === undefined || tag.trim() === '') return undefined;
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(tag.trim());
  } catch {
    canonical = undefined;
  }
  if (!canonical) throw badRequest(`language "${tag}" is not a BCP-47 language tag such as en or en-US`, 'language');
  return canonical === 'und' ? undefined : canonical;
}

/** The primary subtag ("pt-BR" → "pt"): what engines that take ISO 639-1 codes understand. */
export const primaryLanguage = (tag: string): string => new Intl.Locale(tag).language;

/** An engine's own report of the language, kept only when it is a plain language tag. */
export function reportedLanguage(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value)) return null;
  try {
    return Intl.getCanonicalLocales(value)[0] ?? null;
  } catch {
    return null;
  }
}
