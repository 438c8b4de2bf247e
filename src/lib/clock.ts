export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand; it never goes backwards on its own. */
export class ManualClock implements Clock {
  constructor(private current: Date = new Date('2026-11-21T10:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date | string): void {
    this.current = new Date(at);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
