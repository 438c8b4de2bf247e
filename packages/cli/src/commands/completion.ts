import { UsageError, type Command } from '../command.js';
import { completionScript, SHELLS, type Shell } from '../completion-scripts.js';

/**
 * `cin completion SHELL`. The command table is handed in (not imported) because this command is
 * part of it; the scripts are written from it, so they name every command and flag help does.
 */
export function completion(commands: () => readonly Command[]): Command {
  return {
    name: 'completion',
    summary: 'print a shell completion script (bash, zsh or fish)',
    usage: 'cin completion bash|zsh|fish',
    subcommands: SHELLS,
    manual: `Prints a script that completes cin's commands, their flags and the values of flags like
--due and --format, in your shell.

  bash   source <(cin completion bash)                     (this shell)
         cin completion bash > ~/.local/share/bash-completion/completions/cin
  zsh    source <(cin completion zsh)                      (this shell)
         cin completion zsh > "\${fpath[1]}/_cin"            (every shell, before compinit)
  fish   cin completion fish > ~/.config/fish/completions/cin.fish

--json is not taken here: the answer is a script.`,
    options: {},
    async run(ctx) {
      const shell = ctx.positionals[0];
      if (ctx.positionals.length !== 1 || !SHELLS.includes(shell as Shell)) throw new UsageError(`name one shell: ${SHELLS.join(', ')}`);
      ctx.io.stdout.write(completionScript(shell as Shell, commands()));
      return 0;
    },
  };
}
