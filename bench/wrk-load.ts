import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signalPid, spawnTracked } from './lifecycle.js';
import type { LoadGenerator, RunFigures } from './load-generator.js';
import type { Scenario } from './scenarios.js';

/**
 * wrk (C, epoll) as the load generator. On this 2-core machine the load generator shares the cores
 * with the server: autocannon used about 0.27 of a core to drive a list run, wrk about 0.11 (README,
 * Performance), so the figures measure more of the server and less of the client.
 *
 * The scenario's requests are written to a file once (up to REQUESTS_PER_SCENARIO, or the scenario's
 * period when it repeats sooner); the Lua script formats them all at start and hands them out in
 * turn on one thread, so request building costs nothing while measuring. `done` prints the figures
 * as one JSON line.
 */
const REQUESTS_PER_SCENARIO = 150_000;
const TIMEOUT_S = 10;
/** wrk is killed (by pid) when it runs this much longer than asked. */
const OVERRUN_S = 30;

const SCRIPT = `
local requests = {}
local count = 0
local offset = 0
local sent = 0

function init(args)
  offset = tonumber(args[2]) or 0
  local file = assert(io.open(args[1], "r"))
  local headers = {}
  for line in file:lines() do
    local method, path, body = line:match("^(%u+)\\t([^\\t]+)\\t?(.*)$")
    if method == "HEADER" then
      local name, value = path:match("^([^:]+): (.*)$")
      headers[name] = value
    else
      count = count + 1
      requests[count] = wrk.format(method, path, headers, body ~= "" and body or nil)
    end
  end
  file:close()
end

function request()
  local r = requests[(offset + sent) % count + 1]
  sent = sent + 1
  return r
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"errors":%d,"status_errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

export function wrkAvailable(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

interface WrkOutput {
  requests: number;
  duration_us: number;
  p50_us: number;
  p99_us: number;
  errors: number;
  status_errors: number;
}

export function createWrkLoad(connections: number): LoadGenerator & { close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-wrk-'));
  const script = join(dir, 'scenario.lua');
  writeFileSync(script, SCRIPT);
  /** Per scenario: its request file and how many requests earlier runs sent. */
  const written = new Map<string, { file: string; sent: number }>();

  function requestFile(scenario: Scenario, token: string) {
    let entry = written.get(scenario.name);
    if (!entry) {
      const lines = [`HEADER\tauthorization: Bearer ${token}`];
      const total = Math.min(scenario.period ?? REQUESTS_PER_SCENARIO, REQUESTS_PER_SCENARIO);
      let body = false;
      for (let i = 0; i < total; i += 1) {
        const next = scenario.next();
        if (next.body !== undefined) body = true;
        if (/[\t\n]/.test(next.path + (next.body ?? ''))) throw new Error(`${scenario.name}: a request with a tab or newline cannot be written for wrk`);
        lines.push(`${scenario.method}\t${next.path}${next.body === undefined ? '' : `\t${next.body}`}`);
      }
      if (body) lines.splice(1, 0, 'HEADER\tcontent-type: application/json');
      entry = { file: join(dir, `${scenario.name}.txt`), sent: 0 };
      writeFileSync(entry.file, `${lines.join('\n')}\n`);
      written.set(scenario.name, entry);
    }
    return entry;
  }

  return {
    name: 'wrk',
    async run(url, token, scenario, seconds): Promise<RunFigures> {
      const entry = requestFile(scenario, token);
      const args = [
        '-t',
        '1',
        '-c',
        String(connections),
        '-d',
        `${seconds}s`,
        '--timeout',
        `${TIMEOUT_S}s`,
        '-s',
        script,
        url,
        '--',
        entry.file,
        String(entry.sent),
      ];
      const child = spawnTracked('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        err += chunk.toString('utf8');
      });
      const timer = setTimeout(
        () => {
          if (child.pid !== undefined) signalPid(child.pid, 'SIGKILL');
        },
        (seconds + OVERRUN_S) * 1000,
      );
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', resolve);
      }).finally(() => clearTimeout(timer));
      const line = out
        .trim()
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || line === undefined) throw new Error(`wrk exited with ${code}:\n${err}${out}`);
      const w = JSON.parse(line) as WrkOutput;
      entry.sent += w.requests;
      return {
        rps: w.requests / (w.duration_us / 1e6),
        p50_ms: w.p50_us / 1000,
        p99_ms: w.p99_us / 1000,
        requests: w.requests,
        errors: w.errors,
        non2xx: w.status_errors,
      };
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
