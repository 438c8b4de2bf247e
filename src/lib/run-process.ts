import { execFile } from 'node:child_process';

export interface RunProcessOptions {
  /** The child is killed (SIGKILL, by its pid) when it runs longer than this. */
  timeoutMs: number;
  /** Aborting kills the child the same way: the caller no longer wants the result. */
  signal: AbortSignal;
  /** Bound on what is kept of stdout and of stderr; a child writing more is killed. */
  maxOutputBytes: number;
}

export interface ProcessOutput {
  stdout: string;
  stderr: string;
}

export type ProcessFailureKind = 'exit' | 'timeout' | 'aborted' | 'spawn' | 'output_too_large';

export class ProcessFailure extends Error {
  override readonly name = 'ProcessFailure';
  constructor(
    readonly kind: ProcessFailureKind,
    message: string,
    readonly exitCode: number | null,
    /** The end of what the child wrote on stderr, for the log. */
    readonly stderr: string,
  ) {
    super(message);
  }
}

interface ExecError extends Error {
  code?: number | string | null;
  killed?: boolean;
  signal?: NodeJS.Signals | null;
}

const tail = (text: string): string => (text.length > 2000 ? text.slice(-2000) : text);

/**
 * Runs an executable (no shell, arguments passed as they are) with bounded time and output.
 * Resolves with its output when it exits 0, rejects with a ProcessFailure otherwise.
 */
export function runProcess(file: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: options.maxOutputBytes,
        signal: options.signal,
        encoding: 'utf8',
        windowsHide: true,
      },
      (error: ExecError | null, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr });
          return;
        }
        const fail = (kind: ProcessFailureKind, message: string): void =>
          reject(new ProcessFailure(kind, message, typeof error.code === 'number' ? error.code : null, tail(stderr)));
        if (error.name === 'AbortError' || options.signal.aborted) fail('aborted', `${file} was stopped: the request went away`);
        else if (error.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') fail('output_too_large', `${file} wrote more than ${options.maxOutputBytes} bytes`);
        else if (typeof error.code === 'string') fail('spawn', `${file} could not be started: ${error.code}`);
        else if (error.killed) fail('timeout', `${file} did not finish within ${Math.round(options.timeoutMs / 1000)} s`);
        else fail('exit', `${file} exited with ${error.code ?? error.signal ?? 'an error'}`);
      },
    );
  });
}
