import { spawnSync } from 'node:child_process';
import { allReadable, DEFAULT_SEARCH_PATH, findExecutable } from '../../src/lib/executables.js';

/**
 * The system programs some tests need, each with the Debian packages that bring it. `npm test`
 * must pass on a machine without them: those tests skip, with one line saying what to install.
 * `.ci/run` installs them all and sets CI_NO_SKIPS=1, which turns every such skip into a failure.
 */
export interface SystemNeed {
  /** What the skip line calls it. */
  name: string;
  /** The executable looked up on the search path. */
  program: string;
  /** Files it needs besides (a speech model). */
  files?: readonly string[];
  /** Arguments the program must accept with exit status 0 (`-c 'import caldav'`: a Python library is there). */
  probe?: readonly string[];
  debianPackages: readonly string[];
}

export const FFMPEG: SystemNeed = { name: 'ffmpeg', program: 'ffmpeg', debianPackages: ['ffmpeg'] };
export const POCKETSPHINX: SystemNeed = {
  name: 'pocketsphinx',
  program: 'pocketsphinx_continuous',
  files: [
    '/usr/share/pocketsphinx/model/en-us/en-us',
    '/usr/share/pocketsphinx/model/en-us/en-us.lm.bin',
    '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict',
  ],
  debianPackages: ['pocketsphinx', 'pocketsphinx-en-us'],
};
export const CHROMIUM: SystemNeed = { name: 'chromium', program: 'chromium', debianPackages: ['chromium'] };
/** The email-in tests' IMAP server (test/helpers/dovecot.ts). */
/** Two-way CalDAV sync to a folder: the CalDAV server's real client (test/clients/vdirsyncer.test.ts). */
export const VDIRSYNCER: SystemNeed = { name: 'vdirsyncer', program: 'vdirsyncer', debianPackages: ['vdirsyncer'] };
/** Debian's Python CalDAV library, driven by test/clients/caldav-python.test.ts; Debian's own python3, not one on PATH. */
export const PYTHON_CALDAV: SystemNeed = { name: 'python3-caldav', program: 'python3', probe: ['-c', 'import caldav'], debianPackages: ['python3-caldav'] };
/** Info-ZIP's own check of the export's zips (test/unit/zip-writer.test.ts). */
export const UNZIP: SystemNeed = { name: 'unzip', program: 'unzip', debianPackages: ['unzip'] };
export const DOVECOT: SystemNeed = { name: 'dovecot', program: 'dovecot', debianPackages: ['dovecot-imapd'] };

/**
 * Where tests (and the test app's voice engine) look for system programs: TEST_SYSTEM_PATH when set
 * (`TEST_SYSTEM_PATH=/nonexistent` shows what a machine without the packages does, without
 * uninstalling anything), else Debian's usual directories.
 */
export function systemSearchPath(): string {
  return process.env.TEST_SYSTEM_PATH ?? DEFAULT_SEARCH_PATH;
}

/** The absolute path of a needed program, or null when it is not installed. */
export function findProgram(need: SystemNeed): string | null {
  const path = findExecutable(need.program, systemSearchPath());
  // Files of a package (the speech model) count as absent with the program, so the override hides them too.
  if (!path || !allReadable(need.files ?? [])) return null;
  return need.probe === undefined || spawnSync(path, [...need.probe], { stdio: 'ignore', timeout: 10_000 }).status === 0 ? path : null;
}

const announced = new Set<string>();

/**
 * For `describe.skipIf(lacking(FFMPEG))(…)` or `it.skipIf(…)`: true when a need is absent, after
 * printing one line naming the packages to install. With CI_NO_SKIPS=1 it throws instead, so CI
 * (which installs everything) fails rather than passing with tests skipped.
 */
export function lacking(...needs: SystemNeed[]): boolean {
  const missing = needs.filter((need) => findProgram(need) === null);
  if (missing.length === 0) return false;
  const packages = [...new Set(missing.flatMap((need) => need.debianPackages))].join(' ');
  const line = `skipped: needs ${missing.map((need) => need.name).join(' and ')} (apt-get install ${packages})`;
  if (process.env.CI_NO_SKIPS === '1') throw new Error(`${line}, and CI_NO_SKIPS=1 forbids skipping`);
  if (!announced.has(line)) {
    announced.add(line);
    process.stderr.write(`${line}\n`);
  }
  return true;
}

export const SYSTEMD_ANALYZE: SystemNeed = { name: 'systemd-analyze', program: 'systemd-analyze', debianPackages: ['systemd'] };
/** util-linux's `script`: runs cin on a pseudo-terminal (test/clients/cin-process.ts). Debian installs it always. */
export const SCRIPT: SystemNeed = { name: 'script', program: 'script', debianPackages: ['bsdutils'] };
