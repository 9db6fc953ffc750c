// BullMQ's Worker under Lanes' lock times, marks and backoff. Each worker process of a shared lane
// runs one with a processor (shared-main.ts): BullMQ takes, locks, renews and finishes its jobs.
// The engine runs one without, for its stalled-job check alone: it gives back the jobs of an
// engine or a worker that died, even while this engine runs no worker of the lane.
//
// A job whose record is not JSON where BullMQ expects it (written by something else than Lanes)
// would make BullMQ throw while taking it, and stay taken until its lock ran out, again and again.
// It is taken all the same, with data that says why it cannot be read, so it is failed once.
import { Worker, type Job, type JobJson, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { backoffMs } from '../backoff.js';
import { BACKOFF_TYPE, PREFIX, UNREADABLE } from './job-data.js';

/**
 * A job's lock lasts LOCK_MS and is renewed every LOCK_RENEW_MS; every engine looks for jobs whose
 * lock ran out every STALLED_CHECK_MS. A lock has at least LOCK_MS − LOCK_RENEW_MS (40 s) left
 * when Redis stops answering, so a stall or an outage shorter than that re-runs nothing: a job
 * that finished meanwhile is recorded once Redis answers. The price: a killed engine's jobs run
 * elsewhere 40–55 s after it died (docs/shared-lanes.md weighs the two).
 */
export const LOCK_MS = 45_000;
export const LOCK_RENEW_MS = 5_000;
export const STALLED_CHECK_MS = 10_000;

export class LaneWorker extends Worker {
  /**
   * Driven by hand (no processor: the engine takes and finishes jobs), or, with `processor`, as
   * BullMQ runs a worker: one job at a time, fetched, locked, renewed and finished by BullMQ
   * (a shared lane's worker process, shared-main.ts).
   */
  constructor(name: string, connection: Redis, machine: string, processor: Processor | null = null) {
    super(name, processor, {
      autorun: false,
      concurrency: 1,
      connection,
      prefix: PREFIX,
      // Stored on every job it takes: which machine ran it.
      name: machine,
      lockDuration: LOCK_MS,
      lockRenewTime: LOCK_RENEW_MS,
      stalledInterval: STALLED_CHECK_MS,
      // Stalled twice (its engine died under it twice): failed, as a local job is after two crashes (recovery.ts).
      maxStalledCount: 1,
      // Lifetime counts of succeeded and failed jobs, for the lane's status.
      metrics: { maxDataPoints: 60 },
      settings: { backoffStrategy: (attemptsMade: number, type?: string) => (type === BACKOFF_TYPE ? backoffMs(attemptsMade) : -1) },
    });
    this.readable();
  }

  /**
   * BullMQ reads a job it hands over (a take, or the next one a finish fetches) before anyone sees
   * it: a record whose options or progress are not JSON made it throw there, with the job taken
   * and left to stall. Such a record is handed over as a job whose data says why it cannot be read.
   */
  private readable(): void {
    const backend = this.getBackend() as unknown as { execCommand(client: unknown, name: string, args: unknown[]): Promise<unknown> };
    const exec = backend.execCommand.bind(backend);
    backend.execCommand = async (client, name, args) => {
      const result = await exec(client, name, args);
      return name === 'moveToActive' || name === 'moveToFinished' ? readableNext(result) : result;
    };
  }

  protected override createJob(data: JobJson, jobId: string): Job {
    try {
      return super.createJob(data, jobId);
    } catch (error) {
      const why = `${(error as Error).message ?? String(error)}`.split('\n')[0]!.slice(0, 200);
      return super.createJob({ ...data, data: JSON.stringify({ [UNREADABLE]: why }) }, jobId);
    }
  }

  /** The engine's: checks for stalled jobs (everyone's); it holds none of its own. */
  begin(): Promise<void> {
    return this.startStalledCheckTimer();
  }
}

/** Fields of a job's record BullMQ parses as JSON as it hands the job over. */
const PARSED = new Set(['opts', 'progress', 'parent']);

/** A take's or a finish's answer, with a next job whose record will not parse replaced by one that says so. */
function readableNext(result: unknown): unknown {
  if (!Array.isArray(result) || !Array.isArray(result[0])) return result;
  const fields = result[0] as unknown[];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (!PARSED.has(String(fields[i]))) continue;
    const value = fields[i + 1];
    if (typeof value !== 'string' || value === '') continue;
    try {
      JSON.parse(value);
    } catch (error) {
      const why = `${String(fields[i])}: ${(error as Error).message}`.split('\n')[0]!.slice(0, 200);
      const kept = [];
      for (let j = 0; j + 1 < fields.length; j += 2) if (!PARSED.has(String(fields[j])) && fields[j] !== 'data') kept.push(fields[j], fields[j + 1]);
      return [[...kept, 'data', JSON.stringify({ [UNREADABLE]: why })], ...result.slice(1)];
    }
  }
  return result;
}
