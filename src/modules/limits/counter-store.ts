/** One fixed-window counter to take a unit from. */
export interface CounterSpec {
  key: string;
  limit: number;
  /** How long the counter must live; it is garbage once its window has ended. */
  ttlMs: number;
}

export interface ConsumeResult {
  /** True when every counter had room and each was incremented; false when none was. */
  allowed: boolean;
  /** Each counter's value after the call, in the order of the specs. */
  counts: number[];
}

/**
 * Counters shared by every request (and, with Redis, every instance). `consume` is atomic across
 * its specs: a request over any limit is not counted anywhere, so a client hammering while
 * limited does not burn the rest of its budget.
 */
export interface CounterStore {
  readonly kind: 'memory' | 'redis';
  consume(specs: readonly CounterSpec[]): Promise<ConsumeResult>;
  /**
   * `consume`, answered in the same turn: the in-process store has it, so the busiest hook of the
   * API spends no promise on a count (a store that must ask another process or Redis has none).
   */
  consumeNow?(specs: readonly CounterSpec[]): ConsumeResult;
  /** Resolves once the store can count (Redis: first connection attempt over), or after `maxWaitMs`. */
  ready(maxWaitMs: number): Promise<boolean>;
  close(): Promise<void>;
}
