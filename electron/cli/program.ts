// The `lanes` program. Each command lives in commands/; this file wires them to commander and
// turns every failure into a message on stderr and the documented exit code.
import { Command, CommanderError } from 'commander';
import { registerAdd } from './commands/add.js';
import { registerClean } from './commands/clean.js';
import { registerCompletion } from './commands/completion.js';
import { registerControl } from './commands/control.js';
import { registerDaemon, registerOpen } from './commands/daemon.js';
import { registerEvents } from './commands/events.js';
import { registerJobs } from './commands/jobs.js';
import { registerEdit } from './commands/edit.js';
import { registerLanes } from './commands/lanes.js';
import { registerLog } from './commands/log.js';
import { registerProgress } from './commands/progress.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from './errors.js';
import { LanesError } from '../../shared/errors.js';
import { appVersion } from '../paths/app-files.js';

/**
 * Each command by name, and what registers it (with the commands it shares a file with), in the
 * order `lanes --help` lists them. A call that names one builds only its group: registering every
 * command and its options was about a fifth of what `lanes status` cost over bare Node.
 */
const GROUPS: [names: readonly string[], register: (program: Command) => void][] = [
  [['daemon'], registerDaemon],
  [['status', 'cap', 'lane'], registerLanes],
  [['add'], registerAdd],
  [['jobs', 'cancel', 'retry', 'show', 'wait'], registerJobs],
  [['edit', 'restart'], registerEdit],
  [['log'], registerLog],
  [['events'], registerEvents],
  [['clean'], registerClean],
  [['pause', 'resume', 'snooze'], registerControl],
  [['progress'], registerProgress],
  [['open'], registerOpen],
  [['completion', '__complete'], (program) => registerCompletion(program, buildProgram)],
];

/** Every command's name; bin/lanes.js keeps a code cache for each of these and one for the rest. */
export const commandNames: readonly string[] = GROUPS.flatMap(([names]) => names);

/**
 * The command `argv` (after node and the script) names: its first word that is neither an option
 * nor the value of `--data-dir`, the one option before a command that takes one. bin/lanes.js
 * finds it the same way.
 */
export function commandOf(words: readonly string[]): string | null {
  for (let i = 0; i < words.length; i++) {
    if (words[i] === '--data-dir') i++;
    else if (!words[i]!.startsWith('-')) return words[i]!;
  }
  return null;
}

/** The program with every command, or with `only`'s group when it names one. */
export function buildProgram(only: string | null = null): Command {
  const program = new Command('lanes')
    .description('Run background work in lanes of worker processes, sized within the caps you set.')
    .version(appVersion, '-V, --version', 'print the version')
    .option('--data-dir <dir>', 'the engine\'s data directory (default: $LANES_DATA_DIR, else the desktop app\'s)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // One prefix for every error, commander's own included (it says "error:").
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'lanes: ')) });
  program.addHelpText(
    'after',
    '\nExit codes: 0 ok, 1 the request failed or was refused (or a waited job failed), 2 bad usage.\n' +
      'Environment: LANES_DATA_DIR, and for `lanes daemon` LANES_TICK_MS, LANES_CORES, LANES_MEMORY, LANES_POWER and LANES_KEEP.',
  );
  // Help, `lanes help X`, a mistyped word (whose error suggests the nearest command): all of them.
  const named = GROUPS.find(([names]) => only !== null && names.includes(only));
  for (const [, register] of named ? [named] : GROUPS) register(program);
  // Subcommands inherit exitOverride so their usage errors come back here as well.
  for (const cmd of program.commands) cmd.exitOverride();
  return program;
}

/** Runs the CLI and returns the exit code; never calls process.exit itself. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram(commandOf(argv.slice(2)));
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version arrive as "errors" too; commander has already printed them.
      return err.exitCode === 0 ? 0 : EXIT_USAGE;
    }
    // `lanes daemon` runs the engine from tsc's output, whose LanesError is another copy of the
    // class than the bundled CLI's: it is known by its name.
    if (err instanceof LanesError || (err instanceof Error && err.name === 'LanesError')) {
      const { message, field: given } = err as LanesError;
      const field = given && !message.includes(given) ? ` (${given})` : '';
      process.stderr.write(`lanes: ${message}${field}\n`);
      return EXIT_FAILURE;
    }
    if (err instanceof CliError) {
      if (err.message) process.stderr.write(`lanes: ${err.message}\n`);
      return err.exitCode;
    }
    // Anything else is unexpected (a bad LANES_CORES, a full disk …): its words, and the stack
    // only when asked for, since a trace helps a developer and buries the point for everyone else.
    const detail = process.env.LANES_DEBUG ? (err as Error)?.stack : (err as Error)?.message;
    process.stderr.write(`lanes: ${detail ?? String(err)}\n`);
    return EXIT_FAILURE;
  }
}
