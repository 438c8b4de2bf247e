/**
 * What the server tells the worker of this release (src/web/service-worker.ts writes it before the
 * bundled code as `var CIN_SHELL = …`): the shell cache's name, which changes with the hashed
 * stylesheet and script, and the shell's URLs.
 */
export interface ShellManifest {
  cache: string;
  assets: string[];
}

declare const CIN_SHELL: ShellManifest;

export const shell: ShellManifest = CIN_SHELL;
