import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The private working directory of one transcription request and the signal that tells its work
 * the client went away. Closing removes the directory with everything in it; a directory asked
 * for after closing is removed at once, so nothing a request wrote outlives it.
 */
export class RequestWorkspace {
  private dir: Promise<string> | undefined;
  private closed = false;
  private readonly controller = new AbortController();

  constructor(private readonly root: string) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The directory, made on first use. */
  async directory(): Promise<string> {
    this.dir ??= mkdtemp(join(this.root, 'capture-inbox-voice-'));
    const dir = await this.dir;
    if (this.closed) {
      await removeDir(dir);
      throw new Error('the request is over');
    }
    return dir;
  }

  abort(): void {
    this.controller.abort(new Error('the client closed the request'));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.dir) await removeDir(await this.dir.catch(() => ''));
  }
}

async function removeDir(dir: string): Promise<void> {
  // Retries cover a write stream that was still being torn down when the request ended.
  if (dir) await rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
