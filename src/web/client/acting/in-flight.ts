/*
 * How many actions in place are on their way. Live updates wait for them: each action's answer
 * brings its own row, and a change the stream announces meanwhile may be the echo of that very
 * action, known as such only once its answer is in (own-changes.ts).
 */
let count = 0;
let idle: Array<() => void> = [];

export const actionsInFlight = {
  start(): void {
    count += 1;
  },
  end(): void {
    count -= 1;
    if (count > 0) return;
    const waiting = idle;
    idle = [];
    for (const run of waiting) run();
  },
  any(): boolean {
    return count > 0;
  },
  /** Runs `run` once no action is on its way (at once when none is). */
  whenIdle(run: () => void): void {
    if (count === 0) run();
    else idle.push(run);
  },
};

/** `request` counted as an action on its way; its answer's item noted as the page's own change before it ends. */
export function inFlight<T>(request: Promise<T>, note: (value: T) => void): Promise<T> {
  actionsInFlight.start();
  return request
    .then((value) => {
      note(value);
      return value;
    })
    .finally(() => actionsInFlight.end());
}
