/** A first-come, first-served lock for async code. */
export class Mutex {
  #locked = false;
  readonly #waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Hands the lock to the next waiter, if any, without releasing it in between. */
  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}
