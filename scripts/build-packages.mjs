// Builds the client packages under packages/ (npm workspaces): the SDK first, since the others
// are built on it, then the MCP tools, then every other package that has a build script.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', 'packages');
const names = existsSync(root) ? readdirSync(root).filter((name) => existsSync(join(root, name, 'package.json'))) : [];
// The MCP tools are built on the SDK, and the CLI (cin mcp) and the server on the MCP tools.
const FIRST = ['sdk', 'mcp'];
const ordered = [...FIRST.filter((name) => names.includes(name)), ...names.filter((name) => !FIRST.includes(name)).sort()];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
for (const name of ordered) {
  const dir = join(root, name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (!manifest.scripts?.build) continue;
  const run = spawnSync(npm, ['run', '--silent', 'build'], { cwd: dir, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`build of packages/${name} failed`);
    process.exit(run.status ?? 1);
  }
}
