// Decision 0063's measurement: time from spawn to the first 200 from /readyz, and the CPU the server
// spent until then, with and without Node's on-disk compile cache, alternating. Run after a build:
//   node scripts/measure-compile-cache.mjs [--node PATH] [--starts 7] [--warmup 2] [--modes off,env,entry]
// Modes: `off` runs `node dist/server.js` with no cache; `env` the same with NODE_COMPILE_CACHE set
// to a fresh directory (warmed by the warm-up starts); `entry` runs `node dist/start.js` (which
// enables the cache itself). Settings come from the environment (DATABASE_URL, ...); PORT defaults
// to 3997, SECRET_KEY to a fixed test key. Only 127.0.0.1 is contacted.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    node: { type: 'string', default: process.execPath },
    starts: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '2' },
    modes: { type: 'string', default: 'off,env' },
  },
});
const port = Number(process.env.PORT ?? 3997);
const modes = values.modes.split(',');
const cacheDir = mkdtempSync(join(tmpdir(), 'cc-measure-'));
const ticksPerSecond = 100; // USER_HZ on Linux

const ready = () =>
  new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.end();
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cpuMs(pid) {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

async function start(mode) {
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', SECRET_KEY: process.env.SECRET_KEY ?? '07'.repeat(32), LOG_LEVEL: 'warn' };
  delete env.NODE_COMPILE_CACHE;
  if (mode === 'env') env.NODE_COMPILE_CACHE = cacheDir;
  const file = mode === 'entry' ? 'dist/start.js' : 'dist/server.js';
  const t0 = performance.now();
  const child = spawn(values.node, [file], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let ms;
  let cpu;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${mode}: the server exited (${child.exitCode}) before ready`);
    if (await ready()) {
      ms = performance.now() - t0;
      cpu = cpuMs(child.pid);
      break;
    }
    if (performance.now() - t0 > 30_000) throw new Error(`${mode}: not ready in 30 s`);
    await sleep(5);
  }
  child.kill('SIGINT');
  await exited;
  return { ms, cpu };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const version = await new Promise((resolve) => {
  const c = spawn(values.node, ['--version']);
  let out = '';
  c.stdout.on('data', (d) => (out += d));
  c.on('exit', () => resolve(out.trim()));
});

for (let i = 0; i < Number(values.warmup); i++) for (const mode of modes) await start(mode);
const results = Object.fromEntries(modes.map((m) => [m, []]));
for (let i = 0; i < Number(values.starts); i++) {
  for (const mode of i % 2 ? [...modes].reverse() : modes) results[mode].push(await start(mode));
}
rmSync(cacheDir, { recursive: true, force: true });

console.log(`node ${version}, ${values.starts} starts per mode after ${values.warmup} warm-up, ${process.env.DATABASE_URL?.split(':')[0] ?? 'sqlite'}`);
for (const mode of modes) {
  const ms = results[mode].map((r) => r.ms);
  const cpu = results[mode].map((r) => r.cpu);
  const f = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)})`;
  console.log(`${mode.padEnd(6)} ready ms ${f(ms)}   cpu ms ${f(cpu)}`);
}
