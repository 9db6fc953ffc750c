// Following work once it is in: `jobs`, `wait`, `cancel`, `retry`.
import { Option, type Command } from 'commander';
import { FINISHED_STATES, isCleaned, JOB_STATES, type Job, type JobLink, type JobPage } from '../../../shared/model.js';
import { describeSpec, oneLine, plural } from '../../../shared/format.js';
import { jobIdArg, wholeNumber } from '../args.js';
import { clientFor, note, print, printJson } from '../context.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';
import { clock, count, duration, finishedLine, fittedTable, jobTime, outcome, tableWidth } from '../format.js';
import { awaitFinished, jsonOfCleaned } from '../watch.js';
import { COMMAND_SUMMARY_CHARS, LIST_LIMIT_MAX } from '../../../shared/limits.js';
import { progressWords } from '../../../shared/progress.js';

/** Jobs by ids, or by lane, state and/or label: never both, never neither. */
function pick<S extends string>(ids: number[], opts: { lane?: string; state?: S; label?: string }): { ids: number[] } | { lane?: string; state?: S; label?: string } {
  if (ids.length > 0 && (opts.lane || opts.state || opts.label)) throw new UsageError('give job ids, or --lane/--state/--label, not both');
  if (ids.length > 0) return { ids };
  if (!opts.lane && !opts.state && !opts.label) throw new UsageError('give job ids, or --lane, --state and/or --label to choose jobs by');
  return { ...(opts.lane ? { lane: opts.lane } : {}), ...(opts.state ? { state: opts.state } : {}), ...(opts.label ? { label: opts.label } : {}) };
}

/** docs/cli.md "Tables": the command is cut first, then the state's words; then these go, least needed first. */
const JOBS_FIT = { shrink: [['COMMAND', 16], ['STATE', 12]], drop: ['TRIES', 'QUEUED', 'TOOK', 'LANE'] } as const;

/** Requests one `lanes jobs` may make to fill its page. */
const CONTINUATIONS_MAX = 200;

export function registerJobs(program: Command): void {
  registerList(program);
  registerCancelRetry(program);
  registerShowWait(program);
}

/** `lanes jobs`: a page of jobs, filled across the engine's bounded looks, as a table or JSON. */
function registerList(program: Command): void {
  program
    .command('jobs')
    .description('list jobs, newest first')
    .option('--lane <name>', 'only this lane')
    .addOption(new Option('--state <state>', 'only jobs in this state').choices(JOB_STATES))
    .option('--limit <n>', 'at most this many (default: 50)', wholeNumber('--limit', 1, LIST_LIMIT_MAX), 50)
    .option('--before <id>', 'only jobs older than this id (to page back)', jobIdArg)
    .option('--oldest', 'oldest first: what runs and what has waited longest on top')
    .option('--after <id>', 'with --oldest: only jobs newer than this id (to page on)', jobIdArg)
    .option('--search <text>', 'only jobs whose command holds this text')
    .option('--label <text>', 'only jobs with this label')
    .option('--json', 'print the page as JSON')
    .option('--wide', 'every column in full, however wide')
    .action(async (opts: { lane?: string; state?: Job['state']; limit: number; before?: number; oldest?: boolean; after?: number; search?: string; label?: string; json?: boolean; wide?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      const oldest = opts.oldest === true;
      const ask = (from: number | undefined, limit: number) =>
        client.call('listJobs', {
          limit,
          order: oldest ? 'oldest' : 'newest',
          ...(opts.lane !== undefined ? { lane: opts.lane } : {}),
          ...(opts.state !== undefined ? { state: opts.state } : {}),
          ...(opts.search !== undefined ? { text: opts.search } : {}),
          ...(opts.label !== undefined ? { label: opts.label } : {}),
          ...(from !== undefined ? (oldest ? { afterId: from } : { beforeId: from }) : {}),
        });
      const next = (p: JobPage) => (oldest ? p.nextAfterId : p.nextBeforeId);
      // The engine looks through a bounded window per request, so a filtered page can come back
      // short with more to look through: go on until the page is full or the jobs run out.
      const page = await ask(oldest ? opts.after : opts.before, opts.limit);
      for (let i = 0; i < CONTINUATIONS_MAX && page.jobs.length < opts.limit && next(page) !== null; i++) {
        const more = await ask(next(page)!, opts.limit - page.jobs.length);
        page.jobs.push(...more.jobs);
        page.nextBeforeId = more.nextBeforeId;
        page.nextAfterId = more.nextAfterId;
      }
      if (opts.json) return printJson(page);
      if (page.jobs.length === 0) return print('no jobs');
      const rows = page.jobs.map((j) => [
        String(j.id),
        j.lane,
        outcome(j),
        `${j.attempts}/${j.maxAttempts}`,
        clock(j.createdAt),
        jobTime(j),
        oneLine(j.command, COMMAND_SUMMARY_CHARS),
      ]);
      print(fittedTable(['ID', 'LANE', 'STATE', 'TRIES', 'QUEUED', 'TOOK', 'COMMAND'], rows, ['right', 'left', 'left', 'right', 'left', 'right', 'left'], { width: tableWidth(opts.wide), ...JOBS_FIT }));
      if (page.total > page.jobs.length) {
        const more = next(page) !== null ? ` — more: ${oldest ? `--after ${next(page)}` : `--before ${next(page)}`}` : '';
        note(`${count(page.jobs.length)} of ${count(page.total)} shown${more}`);
      }
    });
}

/** `lanes cancel` and `lanes retry`: one job by id, or many by lane, state and/or label. */
function registerCancelRetry(program: Command): void {
  const ids = (text: string, previous: number[] = []) => [...previous, jobIdArg(text)];
  program
    .command('cancel')
    .description('cancel jobs: a queued one never runs, a running one is stopped; by id, or all of a lane and/or state')
    .argument('[ids...]', 'job ids', ids)
    .option('--lane <name>', 'every unfinished job of this lane')
    .addOption(new Option('--state <state>', 'only queued or only running jobs').choices(['queued', 'running']))
    .option('--label <text>', 'every unfinished job with this label (of --lane, if given)')
    .option('--json', 'print the job (one id) or the counts as JSON')
    .action(async (given: number[], opts: { lane?: string; state?: 'queued' | 'running'; label?: string; json?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      if (given.length === 1 && !opts.lane && !opts.state && !opts.label) {
        const asked = await client.call('cancel', { id: given[0]! });
        // A running job is sent TERM and takes a moment; answer once it has really stopped, so
        // `lanes cancel 7 && lanes retry 7` works.
        const job = FINISHED_STATES.includes(asked.state) ? asked : (await awaitFinished(client, [asked.id]))[0]!;
        return opts.json ? printJson(job) : print(isCleaned(job) ? finishedLine(job) : `job ${job.id}: ${outcome(job)}`);
      }
      const result = await client.call('cancelJobs', pick(given, opts));
      if (opts.json) return printJson(result);
      print(`cancelled ${plural(result.cancelled, 'job')}${result.stopping ? `; ${plural(result.stopping, 'running job')} stopping` : ''}`);
    });
  program
    .command('retry')
    .description('queue failed (or cancelled) jobs again: by id, or all of a lane and/or state')
    .argument('[ids...]', 'job ids', ids)
    .option('--failed', 'every failed job (of --lane, if given)')
    .option('--cancelled', 'every cancelled job (of --lane, if given)')
    .option('--lane <name>', 'only this lane')
    .option('--label <text>', 'only jobs with this label (failed ones, unless --cancelled)')
    .option('--json', 'print the job (one id) or the count as JSON')
    .action(async (given: number[], opts: { failed?: boolean; cancelled?: boolean; lane?: string; label?: string; json?: boolean }, cmd: Command) => {
      const client = clientFor(cmd);
      const state = opts.cancelled ? 'cancelled' : opts.failed || opts.lane || opts.label ? 'failed' : undefined;
      if (given.length === 1 && !state) {
        const job = await client.call('retry', { id: given[0]! });
        return opts.json ? printJson(job) : print(`job ${job.id}: ${outcome(job)}`);
      }
      const result = await client.call('retryJobs', pick(given, { ...(opts.lane ? { lane: opts.lane } : {}), ...(state ? { state } : {}), ...(opts.label ? { label: opts.label } : {}) }));
      if (opts.json) return printJson(result);
      const refused = result.refused ? `; ${plural(result.refused, 'job')} left as ${result.refused === 1 ? 'it was' : 'they were'}: each runs after a job that can no longer succeed (lanes show ID names it)` : '';
      print(`queued ${plural(result.retried, 'job')} again${refused}`);
    });
}

/** `lanes show` and `lanes wait`: one job in full, and waiting for jobs to finish. */
function registerShowWait(program: Command): void {
  program
    .command('show')
    .description('one job in full: what it runs, where, its attempts and their errors, its answer')
    .argument('<id>', 'the job id', jobIdArg)
    .option('--json', 'print the job as JSON')
    .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
      // A cleaned job: its words on stderr, exit 1; with --json, what is kept of it on stdout too.
      const { seq: _seq, ...job } = await clientFor(cmd).call('job', { id }).catch(jsonOfCleaned(opts.json));
      if (opts.json) printJson(job);
      else print(showText(job));
    });

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

/** What a job waits for and what waits for it, its order, time, labels and restarts, as `lanes show` prints them. */
function orderLines(job: Job): string[] {
  const lines: string[] = [];
  const link = (l: JobLink) => (l.cleanedAt !== undefined ? `job ${l.id} (${l.state}, since cleaned)` : `job ${l.id} (${l.state}) ${oneLine(l.command ?? '', 60)}`);
  for (const l of job.after ?? []) lines.push(`  after:    ${link(l)}`);
  for (const l of job.dependents ?? []) lines.push(`  then:     ${link(l)} waits for it`);
  if (job.notBefore !== undefined) lines.push(`  not before: ${clock(job.notBefore)}`);
  if (job.priority !== undefined) lines.push(`  priority: ${job.priority}`);
  if (job.labels !== undefined) lines.push(`  labels:   ${job.labels.join(', ')}`);
  if (job.restartOf !== undefined) lines.push(`  restart of job ${job.restartOf}`);
  if (job.restartedAs !== undefined && job.restartedAs.length > 0) lines.push(`  restarted as ${job.restartedAs.map((id) => `job ${id}`).join(', ')}`);
  return lines;
}

/** A job as `lanes show` prints it: the facts a person asks about a failed job, in order. */
export function showText(job: Job): string {
  const lines = [`job ${job.id} in lane ${job.lane}: ${outcome(job)}`, `  runs:     ${describeSpec(job.spec)}`];
  if (job.bullmqId !== undefined) lines.push(`  BullMQ id: ${job.bullmqId}`);
  if (job.spec.kind !== 'payload' && job.spec.cwd) lines.push(`  in:       ${job.spec.cwd}`);
  if (job.spec.kind !== 'payload' && job.spec.env) lines.push(`  env:      ${Object.keys(job.spec.env).join(', ')}`);
  lines.push(`  queued:   ${clock(job.createdAt)}`);
  if (job.startedAt !== null) lines.push(`  ran:      ${jobTime(job)} from ${clock(job.startedAt)}`);
  if (job.progress) lines.push(`  progress: ${progressWords(job.progress)}${job.state === 'running' ? '' : ' (when it ended)'}, said at ${clock(job.progress.at)}${job.progress.ignored ? `; ${plural(job.progress.ignored, 'report')} ignored` : ''}`);
  // Apart from its run: a model loading for this job is the worker's cost, not the job's.
  if (job.loadMs !== null && job.loadMs !== undefined) lines.push(`  loading:  its worker command took ${duration(job.loadMs)} to load first`);
  lines.push(`  attempts: ${job.attempts} of ${job.maxAttempts}${job.runAfter !== null ? `, next at ${clock(job.runAfter)}` : ''}`);
  if (job.timeoutMs !== null) lines.push(`  timeout:  ${duration(job.timeoutMs)}`);
  lines.push(...orderLines(job));
  for (const a of job.history) lines.push(`  attempt ${a.attempt}: ${a.outcome}${a.exitCode !== null ? ` (exit ${a.exitCode})` : ''}${a.error ? ` — ${a.error}` : ''}`);
  if (job.result !== null && job.result !== undefined) lines.push(`  answer:   ${oneLine(JSON.stringify(job.result), 400)}`);
  if (job.logsTrimmed) lines.push('  output:   removed to keep all logs within their bound (docs/retention.md)');
  return lines.join('\n');
}
