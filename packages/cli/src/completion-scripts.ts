import { COMMON_OPTIONS, type Command } from './command.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface Flag {
  long: string;
  short: string | undefined;
  takesValue: boolean;
  values: readonly string[];
}

/** A command's flags and its own, with the values they take: the same table `cin help` reads. */
function flagsOf(command: Command): Flag[] {
  const options = { ...command.options, ...COMMON_OPTIONS };
  return Object.entries(options).map(([name, spec]) => ({
    long: `--${name}`,
    short: spec.short ? `-${spec.short}` : undefined,
    takesValue: spec.type === 'string',
    values: command.flagValues?.[name] ?? [],
  }));
}

const flagWords = (command: Command): string[] => flagsOf(command).flatMap((f) => (f.short ? [f.long, f.short] : [f.long]));

/** What may follow the command name: its actions, or for `help` every command. */
const wordsAfter = (command: Command, commands: readonly Command[]): readonly string[] =>
  command.name === 'help' ? commands.map((c) => c.name) : (command.subcommands ?? []);

function bash(commands: readonly Command[]): string {
  const names = [...commands.map((c) => c.name), 'help'].join(' ');
  const cases = commands
    .map((c) => `    ${c.name}) opts="${flagWords(c).join(' ')}"; subs="${wordsAfter(c, commands).join(' ')}" ;;`)
    .concat(`    help) opts=""; subs="${commands.map((c) => c.name).join(' ')}" ;;`);
  const valueCases = commands.flatMap((c) =>
    flagsOf(c)
      .filter((f) => f.values.length > 0)
      .map((f) => `    ${c.name}:${f.long}) COMPREPLY=($(compgen -W "${f.values.join(' ')}" -- "$cur")); return ;;`),
  );
  return `# cin completion for bash. Load it now:  source <(cin completion bash)
# or for every shell:  cin completion bash > ~/.local/share/bash-completion/completions/cin
_cin() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="\${COMP_WORDS[1]}" opts="" subs=""
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${names} --help --version" -- "$cur"))
    return
  fi
  case "$cmd:$prev" in
${valueCases.join('\n')}
  esac
  case "$cmd" in
${cases.join('\n')}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 2 ] && [ -n "$subs" ]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _cin cin
`;
}

/** A zsh single-quoted word of `name:description` (a colon in the name part would split it). */
const zshQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function zsh(commands: readonly Command[]): string {
  const described = commands.map((c) => `    ${zshQuote(`${c.name}:${c.summary.replace(/:/g, '\\:')}`)}`);
  const cases = commands.map((c) => {
    const values = flagsOf(c)
      .filter((f) => f.values.length > 0)
      .map((f) => `      (${f.long}) compadd -- ${f.values.join(' ')}; return ;;`);
    return `    (${c.name})
      opts=(${flagWords(c).join(' ')}); subs=(${wordsAfter(c, commands).join(' ')})
      case \${words[CURRENT-1]} in
${values.join('\n')}
      esac ;;`;
  });
  return `#compdef cin
# cin completion for zsh. Load it now:  source <(cin completion zsh)
# or for every shell: save it as _cin in a directory of $fpath (before compinit runs).
_cin() {
  local -a commands opts subs
  commands=(
${described.join('\n')}
    'help:a command'"'"'s manual'
  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  case \${words[2]} in
${cases.join('\n')}
    (help) subs=(${commands.map((c) => c.name).join(' ')}) ;;
  esac
  if [[ \${words[CURRENT]} == -* ]]; then
    compadd -- $opts
  elif (( CURRENT == 3 && \${#subs} > 0 )); then
    compadd -- $subs
  else
    _files
  fi
}
if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _cin "$@"
else
  compdef _cin cin
fi
`;
}

const fishQuote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function fish(commands: readonly Command[]): string {
  const lines = ['# cin completion for fish: cin completion fish > ~/.config/fish/completions/cin.fish'];
  for (const c of commands) lines.push(`complete -c cin -n __fish_use_subcommand -f -a ${c.name} -d ${fishQuote(c.summary)}`);
  lines.push(`complete -c cin -n __fish_use_subcommand -f -a help -d ${fishQuote("a command's manual")}`);
  lines.push(`complete -c cin -n '__fish_seen_subcommand_from help' -f -a ${fishQuote(commands.map((c) => c.name).join(' '))}`);
  for (const c of commands) {
    const when = `'__fish_seen_subcommand_from ${c.name}'`;
    const subs = wordsAfter(c, commands);
    if (subs.length > 0) lines.push(`complete -c cin -n ${when} -f -a ${fishQuote(subs.join(' '))}`);
    for (const f of flagsOf(c)) {
      const short = f.short ? ` -s ${f.short.slice(1)}` : '';
      const value = f.values.length > 0 ? ` -x -a ${fishQuote(f.values.join(' '))}` : f.takesValue ? ' -r' : '';
      lines.push(`complete -c cin -n ${when} -l ${f.long.slice(2)}${short}${value}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The completion script of `shell` for these commands. */
export function completionScript(shell: Shell, commands: readonly Command[]): string {
  return shell === 'bash' ? bash(commands) : shell === 'zsh' ? zsh(commands) : fish(commands);
}
