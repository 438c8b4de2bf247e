/**
 * What a key may do (contract, "Scopes"). Pure rules, so routes, pairing, the CLI and the web
 * page share one list and one meaning.
 */
export const SCOPES = ['read', 'capture', 'write', 'webhooks'] as const;
export type Scope = (typeof SCOPES)[number];

/** A route's declared need: one scope, or `none` for routes every live key may call (GET /me). */
export type RouteScope = Scope | 'none';

/**
 * `write` covers capture ("every change to items ..., capture included"), so a route declares the
 * narrowest scope that admits it and a broader scope listed here satisfies it too. This is the one
 * place "either capture or write" is expressed; the OpenAPI document lists both alternatives.
 */
const IMPLIED_BY: Readonly<Record<Scope, readonly Scope[]>> = {
  read: [],
  capture: ['write'],
  write: [],
  webhooks: [],
};

/** The scopes any one of which admits a route declaring `required` (the required one first). */
export function scopesAdmitting(required: Scope): Scope[] {
  return [required, ...IMPLIED_BY[required]];
}

export function grants(held: readonly Scope[], required: RouteScope): boolean {
  if (required === 'none') return true;
  return scopesAdmitting(required).some((s) => held.includes(s));
}

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** Canonical order, no duplicates: how scopes are stored and answered. */
export function normalizeScopes(scopes: Iterable<Scope>): Scope[] {
  const set = new Set(scopes);
  return SCOPES.filter((s) => set.has(s));
}

/** Stored as a comma list in canonical order; an unknown stored name is dropped, never granted. */
export const formatScopes = (scopes: readonly Scope[]): string => normalizeScopes(scopes).join(',');
export const parseStoredScopes = (stored: string): Scope[] =>
  normalizeScopes(
    stored
      .split(',')
      .map((s) => s.trim())
      .filter(isScope),
  );

/** At most one per distinct stored list: the 15 non-empty sets in canonical order, and the odd unknown name. */
const parsedLists = new Map<string, readonly Scope[]>();
const MAX_PARSED_LISTS = 64;

/** parseStoredScopes for every authenticated request: the same few lists, parsed once each and shared (frozen). */
export function storedScopesOf(stored: string): readonly Scope[] {
  let scopes = parsedLists.get(stored);
  if (!scopes) {
    scopes = Object.freeze(parseStoredScopes(stored));
    if (parsedLists.size < MAX_PARSED_LISTS) parsedLists.set(stored, scopes);
  }
  return scopes;
}

/**
 * Parses a user-supplied comma list (`--scopes read,capture`). Unknown names are an error listing
 * them; an empty list is an error too (a key that may do nothing is a mistake, not a choice).
 */
export function parseScopeList(text: string): Scope[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !isScope(n));
  if (unknown.length > 0) throw new Error(`unknown scope${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; use ${SCOPES.join(', ')}`);
  if (names.length === 0) throw new Error(`name at least one scope of ${SCOPES.join(', ')}`);
  return normalizeScopes(names.filter(isScope));
}

/** How the approval page and the settings page say what a scope allows. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  read: 'Read your items, projects and tags',
  capture: 'Capture new items (text and voice)',
  write: 'Change and delete your items, projects and tags',
  webhooks: 'Manage webhooks that send your items to other services',
};
