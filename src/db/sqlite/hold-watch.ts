import type { Lease } from './lease.js';

/**
 * Every write transaction of the process waits while one unit holds the writer, so a unit must
 * never await anything but its own statements: above all no network call inside
 * `db.transaction()` (decisions/0003). The watch makes a breach visible where it happens: a unit
 * held longer than `thresholdMs` is reported with the stack that began it.
 */
export interface HoldWatch {
  thresholdMs: number;
  report(heldMs: number, stack: string): void;
}

/** As a unit takes the writer: the stack is taken only when watching, it costs more than a unit's own statements. */
export function markHeld(lease: Lease, watch: HoldWatch | undefined): void {
  if (watch) lease.held = { since: performance.now(), stack: new Error('a transaction held the SQLite writer').stack ?? '' };
}

/** As the unit gives the writer back: reports it if it held the writer too long. */
export function checkHold(lease: Lease, watch: HoldWatch | undefined): void {
  const { held } = lease;
  lease.held = undefined;
  if (!held || !watch) return;
  const heldMs = performance.now() - held.since;
  if (heldMs > watch.thresholdMs) watch.report(heldMs, held.stack);
}
