// `lanes completion bash|zsh|fish` prints a completion script (completion.ts writes it from the
// program); the hidden `lanes __complete lanes|jobs`, which those scripts run at each Tab, prints
// the engine's lane names or job ids, one a line, and nothing at all when no engine answers soon.
import { Argument, type Command } from 'commander';
import { completionScript, SHELLS, type Shell } from '../completion.js';
import { clientFor, print } from '../context.js';
import { UsageError } from '../errors.js';

/** A Tab that waits on an engine longer than this feels broken; an empty answer does not. */
export const ASK_TIMEOUT_MS = 700;
/** The job ids offered: the newest this many, which is what a person types ids of. */
const JOBS_OFFERED = 50;

async function names(what: string, cmd: Command): Promise<string[]> {
  const client = clientFor(cmd);
  if (what === 'lanes') return (await client.call('status', {})).lanes.map((l) => l.name);
  if (what === 'jobs') return (await client.call('listJobs', { limit: JOBS_OFFERED, order: 'newest' })).jobs.map((j) => String(j.id));
  throw new UsageError(`__complete takes lanes or jobs, not ${what}`);
}

export function registerCompletion(program: Command, buildProgram: () => Command): void {
  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish (see docs/cli.md to install it)')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .action((shell: Shell) => {
      // A fresh program: this one is mid-parse, with the options of this call set on it.
      process.stdout.write(completionScript(shell, buildProgram()));
    });

  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action(async (what: string, _opts: unknown, cmd: Command) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((done) => (timer = setTimeout(() => done('late'), ASK_TIMEOUT_MS)));
      const found = await Promise.race([names(what, cmd).catch((error: unknown) => (error instanceof UsageError ? Promise.reject(error) : [])), late]);
      clearTimeout(timer);
      if (found === 'late') {
        // An engine that does not answer holds the socket open: leave without it.
        process.exit(0);
      }
      if (found.length) print(found.join('\n'));
    });
}
