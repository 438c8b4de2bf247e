/** How long and how often to poll, and what the error says when time runs out. */
export interface WaitOptions {
  /** 10 s unless given. */
  timeoutMs?: number;
  /** 25 ms unless given. */
  intervalMs?: number;
  /** Named in the timeout error; a function is read only then (for output collected meanwhile). */
  what?: string | (() => string);
}

type Pending = undefined | null | false;

/**
 * Polls `probe` until it answers a value (anything but undefined, null or false) and answers that
 * value; throws once `timeoutMs` has passed, and rethrows what the probe throws. For real I/O
 * elsewhere (another process, a socket, a timer of the server): no assertion depends on how long
 * it took.
 */
export async function waitFor<T>(probe: () => T | Pending | Promise<T | Pending>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) {
      const what = typeof options.what === 'function' ? options.what() : (options.what ?? 'a condition');
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
