import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { findProgram, lacking, SYSTEMD_ANALYZE } from '../helpers/system-programs.js';

const run = promisify(execFile);
const UNIT = 'deploy/capture-inbox.service';

/** `Key=value` lines of a unit file's section, comments and blank lines left out. */
function unitSection(text: string, name: string): Map<string, string> {
  const out = new Map<string, string>();
  let inside = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) inside = line === `[${name}]`;
    else if (inside && line && !line.startsWith('#')) {
      const at = line.indexOf('=');
      out.set(line.slice(0, at), line.slice(at + 1));
    }
  }
  return out;
}

describe('deploy/capture-inbox.service', () => {
  const text = readFileSync(UNIT, 'utf8');

  it.skipIf(lacking(SYSTEMD_ANALYZE))('passes systemd-analyze verify with nothing to say', async () => {
    const { stdout, stderr } = await run(findProgram(SYSTEMD_ANALYZE)!, ['verify', '--man=no', UNIT], { timeout: 30_000 });
    expect(`${stdout}${stderr}`).toBe('');
  });

  it('starts node on the server directly (a SIGTERM reaches it), restarts on failure and can be enabled', () => {
    const service = unitSection(text, 'Service');
    expect(service.get('ExecStart')).toBe('/usr/bin/node dist/start.js');
    // The install directory is read-only to the service: the compile cache goes to its cache directory.
    expect(service.get('CacheDirectory')).toBe('capture-inbox');
    expect(text).toMatch(/^Environment=NODE_COMPILE_CACHE=%C\/capture-inbox$/m);
    expect(service.get('Restart')).toBe('on-failure');
    expect(unitSection(text, 'Install').get('WantedBy')).toBe('multi-user.target');
    // systemd has no inline comments: a `#` after a value becomes part of it.
    for (const [key, value] of [...service, ...unitSection(text, 'Unit')]) expect(value, key).not.toContain('#');
    expect(service.get('ReadWritePaths')).toBe(`${service.get('WorkingDirectory')}/data`);
  });
});

describe('Dockerfile and compose.yaml', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');

  it('runs node as a non-root user, listens on every interface in the container, keeps data/ on a volume and checks /readyz', () => {
    const instructions = dockerfile
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'));
    const last = (keyword: string) => instructions.filter((l) => l.startsWith(`${keyword} `)).at(-1) ?? '';
    expect(instructions.filter((l) => l.startsWith('FROM ')).map((l) => l.split(/\s+/)[1])).toEqual([
      'node:${NODE_VERSION}-bookworm-slim',
      'node:${NODE_VERSION}-bookworm-slim',
    ]);
    expect(last('USER')).toBe('USER node');
    expect(last('CMD')).toBe('CMD ["node", "dist/start.js"]');
    expect(last('ENV')).toMatch(/HOST=0\.0\.0\.0/);
    expect(last('VOLUME')).toBe('VOLUME ["/app/data"]');
    expect(last('HEALTHCHECK')).toMatch(/\/readyz/);
  });

  it('runs the service on PostgreSQL once the database is healthy, secrets from .env, published on loopback only', () => {
    const compose = parseYaml(readFileSync('compose.yaml', 'utf8')) as {
      services: Record<
        string,
        {
          depends_on?: Record<string, { condition: string }>;
          env_file?: unknown;
          environment?: Record<string, string>;
          ports?: string[];
          healthcheck?: unknown;
        }
      >;
      volumes: Record<string, unknown>;
    };
    const { inbox, db } = compose.services;
    expect(inbox?.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(db?.healthcheck).toBeDefined();
    expect(inbox?.environment?.DATABASE_URL).toMatch(/^postgres:\/\/inbox:\$\{POSTGRES_PASSWORD:\?[^}]+\}@db:5432\/inbox$/);
    expect(inbox?.environment?.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
    expect(inbox?.ports).toEqual(['127.0.0.1:8080:8080']);
    // Every other setting comes from .env, which may be absent; the listening address does not.
    expect(inbox?.env_file).toEqual([{ path: '.env', required: false }]);
    expect(inbox?.environment).toMatchObject({ HOST: '0.0.0.0', PORT: '8080' });
    expect(Object.keys(compose.volumes).sort()).toEqual(['db-data', 'inbox-data']);
  });
});
