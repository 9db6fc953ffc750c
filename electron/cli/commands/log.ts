// `lanes log ID [--follow]`: a job's output. Following reads the log from where it left off and
// stops once the event stream says the job finished and the last bytes are out (or the job was
// cleaned: then it ends as `lanes wait` would). A failed job opens
// on what went wrong, as the window does: its error, then its stderr (`--stdout` for its output).
import type { Command } from 'commander';
import { FINISHED_STATES, type CleanedJob, type JobSummary } from '../../../shared/model.js';
import { jobIdArg, wholeNumber } from '../args.js';
import type { LanesClient } from '../../../shared/client/client.js';
import { clientFor, note, printJson } from '../context.js';
import { cleanedIn, isUnavailable, jsonOfCleaned, watch } from '../watch.js';
import { LOG_READ_DEFAULT, LOG_READ_MAX } from '../../../shared/limits.js';
import { count, outcome } from '../format.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';

interface LogOptions {
  follow?: boolean;
  json?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  all?: boolean;
  bytes: number;
}

/** How often a followed log is read while its job runs; output is not an event, so it is read. */
const FOLLOW_INTERVAL_MS = 200;

async function readFrom(client: LanesClient, id: number, stream: 'stdout' | 'stderr' | 'all', offset: number | undefined, maxBytes: number) {
  const chunk = await client.call('logTail', { id, stream, maxBytes, ...(offset !== undefined ? { offset } : {}) });
  // Said on stderr so the output itself stays exactly what the job wrote. (A log trimmed to its
  // size cap carries its own marker line at the top, which shows when it is in range.)
  if (offset === undefined && chunk.offset > 0) note(`[${count(chunk.offset)} earlier bytes not shown; --bytes N shows more]`);
  process.stdout.write(chunk.text);
  return chunk;
}

/**
 * Prints the log as it grows until the job finishes. A job cleaned meanwhile (or before) has no
 * more log to give: what was printed is all there is, and the command ends as `lanes wait` would
 * for that job — 0 if it succeeded, 1 if not — with the engine's words on stderr. So does a job
 * that ends while followed: a failed or cancelled one says how on stderr and exits 1.
 */
async function follow(client: LanesClient, id: number, stream: 'stdout' | 'stderr' | 'all', bytes: number, told = false): Promise<void> {
  let cleaned: CleanedJob | null = null;
  const orCleaned = <T>(answer: Promise<T>): Promise<T | null> =>
    answer.catch((error: unknown) => {
      const kept = cleanedIn(error);
      if (!kept) throw error;
      if (!cleaned) note(`lanes: ${(error as Error).message}`);
      cleaned = kept;
      return null;
    });
  let offset = (await orCleaned(readFrom(client, id, stream, undefined, bytes)))?.nextOffset;
  let finished = cleaned !== null;
  /** How it ended, once it has. */
  let ended: JobSummary | null = null;
  const stop = new AbortController();
  const watching = finished
    ? Promise.resolve()
    : watch(
        client,
        {
          // Read the job when the feed opens (and if events were missed): it may have finished already.
          read: async () => {
            const job = await orCleaned(client.call('job', { id }));
            if (!job || FINISHED_STATES.includes(job.state)) finished = true;
            if (job && FINISHED_STATES.includes(job.state)) ended = job;
          },
          event: (event) => {
            if (event.type === 'job' && event.data.id === id && FINISHED_STATES.includes(event.data.state)) {
              finished = true;
              ended = event.data;
            }
            if (event.type === 'jobs' && event.data.change === 'removed' && event.data.ids.includes(id)) finished = true;
          },
        },
        stop.signal,
      );
  const failure = watching.then(
    () => null,
    (err: unknown) => err,
  );
  const pause = async () => {
    const err = await Promise.race([failure, new Promise((done) => setTimeout(() => done(null), FOLLOW_INTERVAL_MS))]);
    if (err) throw err;
  };
  try {
    while (!cleaned) {
      const wasFinished = finished;
      // The engine away (restarting): the feed waits for it, up to its patience, and so do the reads.
      const chunk = await orCleaned(readFrom(client, id, stream, offset, LOG_READ_MAX)).catch((error: unknown) => {
        if (isUnavailable(error)) return undefined;
        throw error;
      });
      if (chunk === undefined) {
        await pause();
        continue;
      }
      if (!chunk) break;
      offset = chunk.nextOffset;
      // Finished before this read began, and the read came back empty: the log is complete.
      if (wasFinished && chunk.text === '') break;
      if (chunk.text !== '') continue;
      await pause();
    }
  } finally {
    stop.abort();
    await watching.catch(() => undefined);
  }
  const kept = cleaned as CleanedJob | null;
  if (kept) {
    if (kept.state !== 'succeeded') throw new CliError('', EXIT_FAILURE);
    return;
  }
  const end = ended as JobSummary | null;
  if (end && end.state !== 'succeeded') {
    // A job already failed when asked was said so before its log.
    if (!told) note(`job ${id}: ${outcome(end)}`);
    throw new CliError('', EXIT_FAILURE);
  }
}

export function registerLog(program: Command): void {
  program
    .command('log')
    .description("print a job's output; --follow keeps printing until it finishes")
    .argument('<id>', 'the job id', jobIdArg)
    .option('-f, --follow', 'keep printing new output until the job finishes')
    .option('--stdout', 'the job\'s stdout alone (the default, but for a failed job)')
    .option('--stderr', 'the job\'s stderr (the default for a failed job, after its error)')
    .option('--all', 'stdout and stderr together, as they came, with a line between attempts')
    .option('--json', 'print the chunk read as {"text", "offset", "nextOffset", …} (not with --follow)')
    .option('--bytes <n>', `how much of the end of the log to show first (default: ${count(LOG_READ_DEFAULT)})`, wholeNumber('--bytes', 1, LOG_READ_MAX), LOG_READ_DEFAULT)
    .action(async (id: number, opts: LogOptions, cmd: Command) => {
      const client = clientFor(cmd);
      if ([opts.stdout, opts.stderr, opts.all].filter(Boolean).length > 1) throw new UsageError('choose one of --stdout, --stderr and --all');
      if (opts.json && opts.follow) throw new UsageError('--json reads the log once; --follow keeps printing it: choose one');
      let stream: 'stdout' | 'stderr' | 'all' = opts.all ? 'all' : opts.stderr ? 'stderr' : 'stdout';
      let told = false;
      if (!opts.stdout && !opts.stderr && !opts.all) {
        // A job that is gone (cleaned, or never was) is answered by logTail, in its own words.
        const job = await client.call('job', { id }).catch((error: unknown) => {
          if ((error as { code?: string }).code === 'not_found') return null;
          throw error;
        });
        if (job?.state === 'failed') {
          stream = 'stderr';
          // On stderr, so what follows on stdout is exactly what the job wrote there.
          const why = job.exitCode !== null && job.error ? ` — ${job.error}` : '';
          if (!opts.json) note(`job ${id}: ${outcome(job)}${why}; its stderr follows (--stdout for its output)`);
          told = true;
        }
      }
      if (opts.json) printJson(await client.call('logTail', { id, stream, maxBytes: opts.bytes }).catch(jsonOfCleaned(true)));
      else if (opts.follow) await follow(client, id, stream, opts.bytes, told);
      else await readFrom(client, id, stream, undefined, opts.bytes);
    });
}
