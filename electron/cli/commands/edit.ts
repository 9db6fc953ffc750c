// `lanes edit ID [add's options] [-- NEW COMMAND]`: change a job still queued (or waiting for other
// jobs or its time) before it runs; `lanes restart ID…`: run finished jobs again. A running or
// finished job is refused by the engine with a clear message, exit 1, and nothing changes.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { RequestInput } from '../../../shared/requests.js';
import { MAX_ATTEMPTS_LIMIT } from '../../../shared/limits.js';
import { commandSpec, envPair, jobIdArg, jsonValue, seconds, wholeNumber, type JsonArg } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { UsageError } from '../errors.js';
import { outcome } from '../format.js';
import { orderingInput, orderingOptions, type OrderingOptions } from '../ordering.js';

interface EditOptions extends OrderingOptions {
  cwd?: string;
  env?: Record<string, string>;
  attempts?: number;
  timeout?: number;
  payload?: JsonArg;
  shell?: boolean;
  now?: boolean;
  json?: boolean;
}

export function registerEdit(program: Command): void {
  const edit = program
    .command('edit')
    .description('change a queued job before it runs: its command, folder, environment, attempts, timeout, order, time or labels')
    .usage('ID [options] [-- NEW COMMAND [ARGS...]]')
    .argument('<id>', 'the job id', jobIdArg)
    .argument('[command...]', 'a new command, after --')
    .option('--cwd <dir>', 'run in this directory')
    .option('--env <key=value>', "the job's added environment, replacing what it had; repeatable", envPair)
    .option('--attempts <n>', 'run at most this many times if it fails', wholeNumber('--attempts', 1, MAX_ATTEMPTS_LIMIT))
    .option('--timeout <seconds>', 'fail a run that takes longer', seconds('--timeout'))
    .option('--payload <json>', 'for a lane with a worker command: a new JSON payload', jsonValue)
    .option('--shell', 'run the new words as one command line in your shell')
    .option('--no-shell', 'run the new words as a program and its arguments')
    .option('--now', 'drop its --delay or --at: runnable at once')
    .option('--json', 'print the edited job as JSON');
  // After --after: defined first, --no-after would make `after` true by default.
  orderingOptions(edit)
    .option('--no-after', 'run after no other job any more')
    .addHelpText('after', '\n--after and --label replace what the job had. Example:\n  id=$(lanes add --delay 1h -- make)\n  lanes edit $id --now --priority 5 --label urgent -- ./build.sh')
    .action(async (id: number, words: string[], opts: EditOptions, cmd: Command) => {
      if (opts.payload !== undefined && words.length > 0) throw new UsageError('give a new command after -- or --payload, not both');
      if (opts.now && (opts.delay !== undefined || opts.at !== undefined)) throw new UsageError('give --now or a new --delay/--at, not both');
      // commander turns --no-after into after: false; an explicit list wins.
      const noAfter = (opts.after as unknown) === false;
      const ordering = orderingInput({ ...opts, ...(noAfter ? { after: undefined } : {}) } as OrderingOptions);
      const input: RequestInput<'editJob'> = {
        id,
        ...ordering,
        ...(noAfter ? { after: [] } : {}),
        ...(opts.now ? { notBefore: null } : {}),
        ...(words.length > 0 ? commandSpec(words, opts.shell) : {}),
        ...(opts.payload !== undefined ? { payload: opts.payload.json } : {}),
        ...(opts.cwd !== undefined ? { cwd: resolve(opts.cwd) } : {}),
        ...(opts.env !== undefined ? { env: opts.env } : {}),
        ...(opts.attempts !== undefined ? { maxAttempts: opts.attempts } : {}),
        ...(opts.timeout !== undefined ? { timeoutSeconds: opts.timeout } : {}),
      };
      if (Object.keys(input).length === 1) throw new UsageError('nothing to change: give a new command after --, or options such as --priority or --after');
      const job = await clientFor(cmd).call('editJob', input);
      if (opts.json) printJson(job);
      else print(`job ${job.id}: ${outcome(job)}, ${job.command}`);
    });

  program
    .command('restart')
    .description('run finished jobs again, as new jobs with the same command; prints the new ids')
    .argument('<ids...>', 'job ids', (text: string, previous: number[] = []) => [...previous, jobIdArg(text)])
    .option('--in-place', 'queue the same jobs again under their own ids instead')
    .option('--json', 'print {"ids": [...]}')
    .action(async (ids: number[], opts: { inPlace?: boolean; json?: boolean }, cmd: Command) => {
      const result = await clientFor(cmd).call('restartJobs', { ids, inPlace: opts.inPlace === true });
      if (opts.json) printJson(result);
      else print(result.ids.join('\n'));
    });
}
