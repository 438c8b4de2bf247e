import { readdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/*
 * Memory and CPU of a server and its worker processes, read from /proc (Linux). VmRSS is the
 * resident size now, VmHWM the highest it has been; utime + stime the CPU the process has used.
 */

export interface MemoryKb {
  rssKb: number;
  hwmKb: number;
}

/** VmRSS and VmHWM from the text of /proc/<pid>/status; undefined when either is missing (a zombie). */
export function parseStatusMemory(text: string): MemoryKb | undefined {
  const rss = /^VmRSS:\s+(\d+)\s+kB$/m.exec(text);
  const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(text);
  if (!rss || !hwm) return undefined;
  return { rssKb: Number(rss[1]), hwmKb: Number(hwm[1]) };
}

export interface StatFields {
  ppid: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
}

/**
 * The parent pid and CPU ticks from /proc/<pid>/stat. The command name (field 2) sits in parentheses
 * and may itself hold spaces or parentheses, so the fields are counted from the last ')'.
 */
export function parseStat(text: string): StatFields | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // After the name: state(3) ppid(4) … utime(14) stime(15), i.e. indexes 1, 11 and 12 here.
  const ppid = Number(fields[1]);
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (![ppid, utime, stime].every(Number.isInteger)) return undefined;
  return { ppid, cpuTicks: utime + stime };
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process has exited
  }
}

/** The process and every process below it (a cluster's workers), found by scanning /proc once. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOrUndefined(`/proc/${entry}/stat`);
    const fields = stat === undefined ? undefined : parseStat(stat);
    if (!fields) continue;
    const list = children.get(fields.ppid);
    if (list) list.push(Number(entry));
    else children.set(fields.ppid, [Number(entry)]);
  }
  const tree: number[] = [];
  const queue = [root];
  // Bounded: a pid is visited once, and /proc lists finitely many.
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Summed over the processes that still exist. */
export function readMemory(pids: readonly number[]): MemoryKb {
  let rssKb = 0;
  let hwmKb = 0;
  for (const pid of pids) {
    const text = readOrUndefined(`/proc/${pid}/status`);
    const m = text === undefined ? undefined : parseStatusMemory(text);
    if (m) {
      rssKb += m.rssKb;
      hwmKb += m.hwmKb;
    }
  }
  return { rssKb, hwmKb };
}

/** CPU ticks used so far, summed over the processes that still exist. */
export function readCpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const text = readOrUndefined(`/proc/${pid}/stat`);
    const s = text === undefined ? undefined : parseStat(text);
    if (s) ticks += s.cpuTicks;
  }
  return ticks;
}

let ticksPerSecond: number | undefined;

/** USER_HZ: 100 on every common Linux build; asked of getconf (once) to be sure. */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 2_000 });
    const n = Number(r.stdout?.trim());
    ticksPerSecond = Number.isInteger(n) && n > 0 ? n : 100;
  }
  return ticksPerSecond;
}
