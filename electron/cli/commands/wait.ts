// `lanes wait ID…`: block until every job has finished, driven by the event stream (no polling).
// Exit 0 only if all of them succeeded, so `lanes wait $(lanes add -- make) && deploy` reads right.
import type { Command } from 'commander';
import type { Job } from '../../../shared/model.js';
import { jobIdArg } from '../args.js';
import { clientFor, print, printJson } from '../context.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { duration } from '../format.js';
import { awaitFinished } from '../job-watch.js';

export function finishedLine(job: Job): string {
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
      // Each job is reported the moment it finishes, not when the last one does.
      const jobs = await awaitFinished(clientFor(cmd), ids, (job) => {
        if (!opts.json) print(finishedLine(job));
      });
      if (opts.json) printJson(jobs);
      if (jobs.some((j) => j.state !== 'succeeded')) throw new CliError('', EXIT_FAILURE);
    });
}
