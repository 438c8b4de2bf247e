import { signalPid, spawnTracked } from './lifecycle.js';

const OUTPUT_LIMIT = 64_000;

/**
 * Runs `node <script> <args>` in `cwd` to completion, killed by pid after `timeoutMs`, and answers
 * the JSON value on its last stdout line (both admin CLIs print one JSON line per command).
 */
export async function runNodeJson(cwd: string, script: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<unknown> {
  const child = spawnTracked(process.execPath, [script, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out = (out + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err = (err + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (child.pid !== undefined) signalPid(child.pid, 'SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  }).finally(() => clearTimeout(timer));
  const what = `node ${script} ${args.join(' ')}`;
  if (timedOut) throw new Error(`${what}: no answer within ${timeoutMs / 1000} s`);
  if (code !== 0) throw new Error(`${what} exited with ${code}:\n${err}${out}`);
  const line = out.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(line) as unknown;
  } catch {
    throw new Error(`${what} printed no JSON line:\n${out}`);
  }
}

/** A string field of an admin command's answer, or an error naming the command. */
export function field(value: unknown, name: string, what: string): string {
  const v = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
  if (typeof v !== 'string') throw new Error(`${what}: the answer has no "${name}": ${JSON.stringify(value)}`);
  return v;
}
