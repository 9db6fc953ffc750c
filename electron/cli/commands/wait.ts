// `lanes wait ID…`: block until every job has finished, driven by the event stream (no polling).
// Exit 0 only if all of them succeeded, so `lanes wait $(lanes add -- make) && deploy` reads right.
import type { Command } from 'commander';
import { FINISHED_STATES, type Job } from '../../../shared/model.js';
import { jobIdArg } from '../args.js';
import { clientFor, dataDirOf, print, printJson } from '../context.js';
import { watchEvents } from '../event-client.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { duration } from '../format.js';

function summary(job: Job): string {
  const took = job.startedAt !== null && job.finishedAt !== null ? ` in ${duration(job.finishedAt - job.startedAt)}` : '';
  if (job.state === 'succeeded') return `job ${job.id}: succeeded${took}`;
  const exit = job.exitCode !== null ? ` (exit ${job.exitCode})` : '';
  const why = job.error ? `: ${job.error}` : '';
  return `job ${job.id}: ${job.state}${exit}${took}${why}`;
}

export function registerWait(program: Command): void {
  program
    .command('wait')
    .description('wait until the jobs finish; exit 0 only if all succeeded')
    .argument('<ids...>', 'job ids', (text: string, previous: number[] = []) => [...previous, jobIdArg(text)])
    .option('--json', 'print the finished jobs as a JSON array')
    .action(async (ids: number[], opts: { json?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      const wanted = [...new Set(ids)];
      // The first finished record seen for each job is its answer; a later retry by someone else
      // starts a new run this wait did not ask about.
      const finished = new Map<number, Job>();
      const stop = new AbortController();
      const record = (job: Job) => {
        if (!wanted.includes(job.id) || finished.has(job.id) || !FINISHED_STATES.includes(job.state)) return;
        finished.set(job.id, job);
        if (!opts.json) print(summary(job));
        if (finished.size === wanted.length) stop.abort();
      };
      await watchEvents(
        dataDirOf(cmd),
        {
          // On every (re)connect, read the jobs still awaited: one may have finished in a gap.
          onOpen: async () => {
            for (const id of wanted.filter((id) => !finished.has(id))) record(await client.call('job', { id }));
          },
          onEvent: (event) => {
            if (event.type === 'job') record(event.data);
          },
        },
        stop.signal,
      );
      const jobs = wanted.map((id) => finished.get(id) as Job);
      if (opts.json) printJson(jobs);
      if (jobs.some((j) => j.state !== 'succeeded')) throw new CliError('', EXIT_FAILURE);
    });
}
