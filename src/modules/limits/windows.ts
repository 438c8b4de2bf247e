/** Fixed windows aligned to UTC: a minute resets at the next whole minute, a day at UTC midnight. */
export type Scope = 'minute' | 'day';

export interface FixedWindow {
  scope: Scope;
  /** Identifies this window among its kind; part of the counter key, so a new window starts at 0. */
  id: string;
  /** Epoch ms at which the window ends. */
  endsAt: number;
  /** The window's full length in seconds (for RateLimit-Policy). */
  length: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

export function currentWindow(scope: Scope, now: Date): FixedWindow {
  const size = scope === 'minute' ? MINUTE_MS : DAY_MS;
  const index = Math.floor(now.getTime() / size);
  return { scope, id: `${scope[0]}${index}`, endsAt: (index + 1) * size, length: size / 1000 };
}

/** Whole seconds until the window resets, at least 1 (a client told 0 would retry at once). */
export const secondsUntil = (endsAt: number, now: Date): number => Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
