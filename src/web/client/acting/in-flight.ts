/*
 * How many actions in place are on their way. Live updates wait for them: each action's answer
 * brings a fresh copy of the lists, and a refresh fetched meanwhile could put an older one back.
 */
let count = 0;

export const actionsInFlight = {
  start(): void {
    count += 1;
  },
  end(): void {
    count -= 1;
  },
  any(): boolean {
    return count > 0;
  },
};
