// Putting work in and following it: `add`, `jobs`, `wait`, `cancel`, `retry`.
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import { FINISHED_STATES, JOB_STATES, type Job } from '../../../shared/model.js';
import type { RequestInput } from '../../../shared/requests.js';
import { commandSpec, envPair, jobIdArg, jsonValue, wholeNumber } from '../args.js';
import { clientFor, note, print, printJson } from '../context.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';
import { clip, clock, count, describeSpec, finishedLine, jobTime, outcome, table } from '../format.js';
import { awaitFinished } from '../event-client.js';

interface AddOptions {
  lane?: string;
  cwd?: string;
  env?: Record<string, string>;
  attempts?: number;
  payload?: unknown;
  shell?: boolean;
  json?: boolean;
}

export function registerJobs(program: Command): void {
  program
    .command('add')
    .description('queue a job; prints its id')
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('[command...]', 'the program and its arguments, after --')
    .option('--lane <name>', 'the lane to queue into (default: worker)')
    .option('--cwd <dir>', 'run in this directory (default: the current one)')
    .option('--env <key=value>', 'add to the job\'s environment; repeatable', envPair)
    .option('--attempts <n>', 'run at most this many times if it fails (default: 3)', wholeNumber('--attempts', 1, 100))
    .option('--payload <json>', 'for a lane with a worker command: the JSON value to hand it', jsonValue)
    .option('--shell', 'run the words as one command line in your shell')
    .option('--no-shell', 'run the words as a program and its arguments, even if there is only one')
    .option('--json', 'print {"id": N}')
    .addHelpText('after', '\nOne quoted argument with spaces or shell syntax runs in your shell; several arguments run\nas a program without a shell. Examples:\n  lanes add -- ffmpeg -i in.mov out.mp4\n  lanes add --lane ml --payload \'{"text":"hello"}\'\n  lanes add -- \'make -j4 && ./run-tests\'')
    .action(async (words: string[], opts: AddOptions, cmd: Command) => {
      if (opts.payload !== undefined && words.length > 0) throw new UsageError('give either a command or --payload, not both');
      if (opts.payload === undefined && words.length === 0) throw new UsageError('no command: put it after --, e.g. lanes add -- echo hello');
      const common = {
        ...(opts.lane !== undefined ? { lane: opts.lane } : {}),
        ...(opts.attempts !== undefined ? { maxAttempts: opts.attempts } : {}),
      };
      const input: RequestInput<'addJob'> =
        opts.payload !== undefined
          ? { ...common, payload: opts.payload }
          : {
              ...common,
              ...commandSpec(words, opts.shell),
              // The engine runs elsewhere; "here" must travel with the job.
              cwd: resolve(opts.cwd ?? process.cwd()),
              ...(opts.env ? { env: opts.env } : {}),
            };
      const { id } = await clientFor(cmd).call('addJob', input);
      if (opts.json) printJson({ id });
      else print(String(id));
    });

  program
    .command('jobs')
    .description('list jobs, newest first')
    .option('--lane <name>', 'only this lane')
    .addOption(new Option('--state <state>', 'only jobs in this state').choices(JOB_STATES))
    .option('--limit <n>', 'at most this many (default: 50)', wholeNumber('--limit', 1, 1000), 50)
    .option('--before <id>', 'only jobs older than this id (to page back)', jobIdArg)
    .option('--json', 'print the page as JSON')
    .action(async (opts: { lane?: string; state?: Job['state']; limit: number; before?: number; json?: boolean }, cmd: Command) => {
      const page = await clientFor(cmd).call('listJobs', {
        limit: opts.limit,
        ...(opts.lane !== undefined ? { lane: opts.lane } : {}),
        ...(opts.state !== undefined ? { state: opts.state } : {}),
        ...(opts.before !== undefined ? { beforeId: opts.before } : {}),
      });
      if (opts.json) return printJson(page);
      if (page.jobs.length === 0) return print('no jobs');
      const width = Math.max(20, (process.stdout.columns ?? 120) - 70);
      const rows = page.jobs.map((j) => [
        String(j.id),
        j.lane,
        outcome(j),
        `${j.attempts}/${j.maxAttempts}`,
        clock(j.createdAt),
        jobTime(j),
        clip(describeSpec(j.spec), width),
      ]);
      print(table(['ID', 'LANE', 'STATE', 'TRIES', 'QUEUED', 'TOOK', 'COMMAND'], rows, ['right', 'left', 'left', 'right', 'left', 'right', 'left']));
      if (page.total > page.jobs.length) {
        const more = page.nextBeforeId !== null ? ` — older: --before ${page.nextBeforeId}` : '';
        note(`${count(page.jobs.length)} of ${count(page.total)} shown${more}`);
      }
    });

  for (const [name, request, help] of [
    ['cancel', 'cancel', 'cancel a job: a queued one never runs, a running one is stopped'],
    ['retry', 'retry', 'queue a failed or cancelled job again'],
  ] as const) {
    program
      .command(name)
      .description(help)
      .argument('<id>', 'the job id', jobIdArg)
      .option('--json', 'print the job as JSON')
      .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
        const client = clientFor(cmd);
        let job = await client.call(request, { id });
        // A running job is sent TERM and takes a moment; answer once it has really stopped, so
        // `lanes cancel 7 && lanes retry 7` works.
        if (request === 'cancel' && !FINISHED_STATES.includes(job.state)) [job] = (await awaitFinished(client, [id])) as [Job];
        if (opts.json) printJson(job);
        else print(`job ${job.id}: ${outcome(job)}`);
      });
  }

  // `lanes wait ID…`: driven by the event stream, no polling. Exit 0 only if all succeeded,
  // so `lanes wait $(lanes add -- make) && deploy` reads right.

  program
    .command('wait')
    .description('wait until the jobs finish; exit 0 only if all succeeded')
    .argument('<ids...>', 'job ids', (text: string, previous: number[] = []) => [...previous, jobIdArg(text)])
    .option('--json', 'print the finished jobs as a JSON array')
    .action(async (ids: number[], opts: { json?: boolean }, cmd: Command) => {
      // Each job is reported the moment it finishes, not when the last one does.
      const jobs = await awaitFinished(clientFor(cmd), ids, (job) => {
        if (!opts.json) print(finishedLine(job));
      });
      if (opts.json) printJson(jobs);
      if (jobs.some((j) => j.state !== 'succeeded')) throw new CliError('', EXIT_FAILURE);
    });
}
