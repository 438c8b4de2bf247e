import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findProgram, SCRIPT } from '../helpers/system-programs.js';

/** The built binary, exactly what `npm install -g` links as `cin` (built by the root build). */
const CIN = resolve(import.meta.dirname, '../../packages/cli/dist/cin.js');

export interface CinRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CinOptions {
  /** Added to the clean environment (PATH, HOME, XDG_CONFIG_HOME of the home). */
  env?: Record<string, string>;
  stdin?: string;
  timeoutMs?: number;
  /** Called once stderr contains this, with the child (to read the login URL, or send Ctrl-C). */
  onStderr?: { match: RegExp; then: (match: RegExpExecArray, child: ChildProcess) => void };
}

/** A private home with its own config directory; `dispose` removes it. */
export function makeHome(): { dir: string; config: string; dispose(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cin-home-'));
  return { dir, config: join(dir, '.config', 'capture-inbox', 'config.json'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Runs `cin ARGS` as a user would: its own process, a clean environment (nothing of this process's
 * CAPTURE_INBOX_* or DISPLAY leaks in), stdin closed or fed, bounded in time.
 */
export function runCin(home: string, args: string[], options: CinOptions = {}): Promise<CinRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CIN, ...args], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let matched = false;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = !matched && options.onStderr ? options.onStderr.match.exec(stderr) : null;
      if (m && options.onStderr) {
        matched = true;
        options.onStderr.then(m, child);
      }
    });
    child.stdin.end(options.stdin ?? '');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cin ${args.join(' ')} did not finish in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
  });
}

const shellQuote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `cin ARGS` on a pseudo-terminal (util-linux `script`), so stdin and stdout are a TTY as in
 * a terminal: `columns` wide, `input` typed at it. The output is what the terminal shows: CRLF line
 * ends and the typed input echoed.
 */
export function runCinOnTty(home: string, args: string[], options: { env?: Record<string, string>; input?: string; columns?: number } = {}): Promise<CinRun> {
  const command = `stty cols ${options.columns ?? 100} rows 40; exec ${[process.execPath, CIN, ...args].map(shellQuote).join(' ')}`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(findProgram(SCRIPT) ?? 'script', ['-qec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, TERM: 'xterm', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // The answer is typed once cin asks; typed before, a terminal keeps it until read all the same.
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cin ${args.join(' ')} (on a terminal) did not finish in time\noutput: ${stdout}`));
    }, 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout: stdout.replace(/\r\n/g, '\n'), stderr });
    });
  });
}
