// Completion scripts for `lanes completion bash|zsh|fish`, written from the program itself, so a
// new command or option completes without anyone editing a script. What a word can be comes from
// commander (commands, options, which options take a value, their choices); what lanes and jobs
// exist is asked of the running engine when Tab is pressed, through the hidden `lanes __complete`.
import type { Command } from 'commander';

/** What a word to complete can be besides a command or an option. */
export type ValueKind = 'lane' | 'job' | 'dir' | 'file';

export interface CommandSpec {
  /** 'status', 'lane add': how it is typed after `lanes`. */
  path: string;
  description: string;
  /** Long (and short) flags, e.g. '--json', '-f'. */
  options: string[];
  /** Flags that take a value, so the word after them is not a command's argument. */
  valued: Record<string, ValueKind | string[] | null>;
  /** What its arguments are: known to the engine, the file system, or one of a few words. */
  takes: ValueKind | string[] | null;
  subcommands: string[];
}

/** Arguments that name a lane or a job, by command: the names commander gives them say less. */
export const ARGUMENT_KINDS: Record<string, ValueKind> = {
  cap: 'lane',
  snooze: 'lane',
  'lane remove': 'lane',
  wait: 'job',
  log: 'job',
  show: 'job',
  cancel: 'job',
  retry: 'job',
};

/** Option values the engine (or the file system) can name. */
const OPTION_KINDS: Record<string, ValueKind> = { '--lane': 'lane', '--data-dir': 'dir', '--cwd': 'dir', '--from': 'file' };

/** Every command, the program's own options as the command '', depth first. */
export function completionSpec(program: Command): CommandSpec[] {
  const specs: CommandSpec[] = [];
  const optionsOf = (cmd: Command) => {
    const options: string[] = [];
    const valued: CommandSpec['valued'] = {};
    for (const o of cmd.options) {
      if (o.hidden) continue;
      const flags = [o.long, o.short].filter((f): f is string => !!f);
      options.push(...flags);
      if (o.required || o.optional) for (const f of flags) valued[f] = o.argChoices ?? OPTION_KINDS[o.long ?? ''] ?? null;
    }
    return { options, valued };
  };
  // The program's own options (--data-dir) are taken after any command too.
  const global = optionsOf(program);
  const visit = (cmd: Command, path: string) => {
    const own = path === '' ? global : optionsOf(cmd);
    const options = [...own.options, ...(path === '' ? [] : global.options.filter((f) => f in global.valued)), '--help'];
    const valued = { ...(path === '' ? {} : Object.fromEntries(Object.entries(global.valued))), ...own.valued };
    const visible = cmd.createHelp().visibleCommands(cmd).filter((c) => c.name() !== 'help');
    specs.push({ path, description: cmd.description(), options: [...new Set(options)], valued, takes: ARGUMENT_KINDS[path] ?? cmd.registeredArguments[0]?.argChoices ?? null, subcommands: visible.map((c) => c.name()) });
    for (const sub of visible) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return specs;
}

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const words = (list: readonly string[]) => list.join(' ');
/** A word list for a shell's single quotes (commands and flags never hold a quote; descriptions may). */
const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function valueWords(kind: ValueKind | string[] | null, ask: string): string {
  if (Array.isArray(kind)) return `COMPREPLY=($(compgen -W ${quoted(words(kind))} -- "$cur"))`;
  if (kind === 'lane' || kind === 'job') return `COMPREPLY=($(compgen -W "$(${ask} ${kind === 'lane' ? 'lanes' : 'jobs'})" -- "$cur"))`;
  if (kind === 'dir') return 'COMPREPLY=($(compgen -d -- "$cur"))';
  if (kind === 'file') return 'COMPREPLY=($(compgen -f -- "$cur"))';
  return 'COMPREPLY=()';
}

/**
 * bash: one function, `_lanes`. It walks the words before the cursor to find the command (skipping
 * options and the values they take), then completes a flag's value, a flag, a subcommand, or the
 * command's argument. After `--` (a job's own command line) it leaves completion to bash's default.
 * No variable is named `path` or `words`: zsh, which runs this too, keeps its PATH and its
 * completion's words in those.
 */
export function bashScript(specs: readonly CommandSpec[], fn = '_lanes'): string {
  const cases = (body: (s: CommandSpec) => string | null) =>
    specs
      .map((s) => [s, body(s)] as const)
      .filter(([, b]) => b !== null)
      .map(([s, b]) => `    ${quoted(s.path)}) ${b} ;;`)
      .join('\n');
  const allValued = new Set(specs.flatMap((s) => Object.keys(s.valued)));
  return `# lanes completion for bash: source <(lanes completion bash)
_lanes_ask() {
  # Lanes or job ids from the running engine (of --data-dir, if one was typed); nothing if none answers.
  local i dd=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ \${COMP_WORDS[i]} == --data-dir ]] && dd=(--data-dir "\${COMP_WORDS[i+1]}")
  done
  "\${COMP_WORDS[0]}" "\${dd[@]}" __complete "$1" 2>/dev/null
}
_lanes_subcommands() {
  case "$1" in
${cases((s) => (s.subcommands.length ? `echo ${quoted(words(s.subcommands))}` : null))}
  esac
}
_lanes_valued() {
  case "$1" in
    ${[...allValued].join(' | ')}) return 0 ;;
  esac
  return 1
}
${fn}() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd="" i w
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    case "$w" in
      --) return 0 ;;
      -*) _lanes_valued "$w" && ((i++)); continue ;;
    esac
    if [[ -z $cmd ]]; then cmd=$w
    elif [[ " $(_lanes_subcommands "$cmd") " == *" $w "* ]]; then cmd="$cmd $w"
    fi
  done
  if _lanes_valued "$prev"; then
    case "$cmd" in
${cases((s) => `case "$prev" in ${Object.entries(s.valued).map(([f, k]) => `${f}) ${valueWords(k, '_lanes_ask')} ;;`).join(' ')} esac`)}
    esac
    return 0
  fi
  if [[ $cur == -* ]]; then
    case "$cmd" in
${cases((s) => `COMPREPLY=($(compgen -W ${quoted(words(s.options))} -- "$cur"))`)}
    esac
    return 0
  fi
  local subs
  subs=$(_lanes_subcommands "$cmd")
  if [[ -n $subs ]]; then COMPREPLY=($(compgen -W "$subs" -- "$cur")); return 0; fi
  case "$cmd" in
${cases((s) => (s.takes ? valueWords(s.takes, '_lanes_ask') : null))}
  esac
}
complete -o bashdefault -o default -F ${fn} lanes
`;
}

/**
 * zsh runs the bash function through its own bash-completion layer (bashcompinit), so both shells
 * complete alike. The one file serves both ways zsh takes a completion: sourced from .zshrc, or
 * saved as `_lanes` in a directory on $fpath (what the deb installs), where zsh loads it at the
 * first Tab and that Tab must be answered too. The bash function gets another name, since zsh
 * calls the file itself `_lanes`.
 */
export function zshScript(specs: readonly CommandSpec[]): string {
  return `#compdef lanes
# lanes completion for zsh: source <(lanes completion zsh), or save it as _lanes on your $fpath
autoload -U +X compinit && { (( $+functions[compdef] )) || compinit; }
autoload -U +X bashcompinit && bashcompinit
${bashScript(specs, '_lanes_bash').split('\n').slice(1).join('\n')}
if [[ $funcstack[1] == _lanes ]]; then _bash_complete -o bashdefault -o default -F _lanes_bash; fi
`;
}

/**
 * fish: one `complete` line per command, flag and argument, each on the command typed so far
 * (`__lanes_is 'lane add'`): `__lanes_cmd` walks the words as the bash function does, skipping
 * options and their values, so `lane add` is not `add` and a value is never a command. What the
 * engine knows is asked of the one of `--data-dir`, where one was typed.
 */
export function fishScript(specs: readonly CommandSpec[]): string {
  const valued = [...new Set(specs.flatMap((s) => Object.keys(s.valued)))];
  const subs = specs.filter((s) => s.path !== '' && s.subcommands.length > 0).map((s) => `    case ${s.path}\n      echo ${words(s.subcommands)}`);
  const head = `# lanes completion for fish: lanes completion fish > ~/.config/fish/completions/lanes.fish
complete -c lanes -f
function __lanes_subcommands
  switch $argv[1]
${subs.join('\n')}
  end
end
function __lanes_cmd
  # The command typed so far ("lane add"); "--" once a job's own command line begins.
  set -l toks (commandline -opc)
  set -e toks[1]
  set -l cmd
  set -l skip 0
  for t in $toks
    if test $skip = 1
      set skip 0
      continue
    end
    switch $t
      case --
        echo --
        return
      case '-*'
        contains -- $t ${valued.join(' ')}; and set skip 1
        continue
    end
    if test (count $cmd) -eq 0
      set cmd $t
    else if test (count $cmd) -eq 1; and contains -- $t (string split ' ' -- (__lanes_subcommands $cmd[1]))
      set cmd $cmd $t
    end
  end
  echo $cmd
end
function __lanes_is
  set -l c (__lanes_cmd)
  test "$c" = "$argv[1]"
end
function __lanes_ask
  # Lanes or job ids from the running engine (of --data-dir, if one was typed); nothing if none answers.
  set -l toks (commandline -opc)
  set -l i (contains -i -- --data-dir $toks)
  if test -n "$i"; and test (count $toks) -gt $i
    lanes --data-dir $toks[(math $i + 1)] __complete $argv[1] 2>/dev/null
  else
    lanes __complete $argv[1] 2>/dev/null
  end
end`;
  const lines = [head];
  const fishValue = (kind: ValueKind | string[] | null) =>
    Array.isArray(kind) ? ` -x -a ${quoted(words(kind))}` : kind === 'lane' ? " -x -a '(__lanes_ask lanes)'" : kind === 'job' ? " -x -a '(__lanes_ask jobs)'" : kind === 'dir' ? " -x -a '(__fish_complete_directories)'" : kind === 'file' ? ' -r -F' : ' -x';
  for (const s of specs) {
    const parts = s.path ? s.path.split(' ') : [];
    const here = `__lanes_is ${quoted(s.path)}`;
    if (parts.length > 0) lines.push(`complete -c lanes -n ${quoted(`__lanes_is ${quoted(parts.slice(0, -1).join(' '))}`)} -a ${parts.at(-1)} -d ${quoted(s.description)}`);
    for (const flag of s.options) {
      const name = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      lines.push(`complete -c lanes -n ${quoted(here)} ${name}${flag in s.valued ? fishValue(s.valued[flag] ?? null) : ''}`);
    }
    if (s.takes) lines.push(`complete -c lanes -n ${quoted(here)}${fishValue(s.takes)}`);
  }
  return `${lines.join('\n')}\n`;
}

export function completionScript(shell: Shell, program: Command): string {
  const specs = completionSpec(program);
  return shell === 'bash' ? bashScript(specs) : shell === 'zsh' ? zshScript(specs) : fishScript(specs);
}
