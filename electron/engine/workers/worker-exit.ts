// What a worker's exit leaves to settle, asked for or not: the jobs it held go back to their queue,
// whatever its job started is ended, and the ledger hears whether it left or was lost. Kept apart
// from the pool's day-to-day so the one place that decides what a dead worker's jobs become (run
// again, wait, or keep the outcome a full disk still holds) reads as one sequence.
import type { JobSummary } from '../../../shared/model.js';
import { EXIT_COMMAND_WONT_START } from '../../worker-protocol/protocol.js';
import { ENGINE_VAR, endJob, type JobRef } from '../../job-control/containment.js';
import { signalGroup } from '../../job-control/process-group.js';
import { backoffMs } from '../backoff.js';
import type { RunningRow } from '../store/jobs.js';
import type { JobQueue } from '../queues/queue.js';
import type { Queues } from '../queues/queues.js';
import type { DeferredWrites } from './deferred.js';
import type { PoolHooks, PoolOptions, WorkerRecord } from './pool-types.js';

/** What settling an exit needs of the pool: not the pool itself. */
export interface ExitPort {
  queues: Queues;
  hooks: Pick<PoolHooks, 'now' | 'log' | 'jobChanged' | 'workerLeft' | 'workerLost'>;
  /** A job whose outcome waits for room on the disk did finish: it is not given back. */
  deferred: DeferredWrites;
  options: Pick<PoolOptions, 'jobEnv' | 'cgroupBase'>;
  /** Keeps jobs of a lane from being claimed until `until` settles. */
  hold: (lane: string, ids: readonly number[], until: Promise<unknown>) => void;
}

/** Called once the worker is out of the pool's books, and after what it said before it went is recorded. */
export function workerExited(port: ExitPort, w: WorkerRecord, code: number | null, signal: string | null): void {
  const how = signal ? `killed by ${signal}` : `exited with code ${code}`;
  giveBackItsJobs(port, w, how, signal !== null || code !== 0);
  tellLedger(port.hooks, w, code, how, signal);
}

/** `died`: it went by a signal or an error, not of its own accord, and may have left a job it began without saying so. */
function giveBackItsJobs({ queues, hooks, deferred, options, hold }: ExitPort, w: WorkerRecord, how: string, died: boolean): void {
  const now = hooks.now();
  // Its job's processes die with it: its groups, its cgroup, anything carrying its id.
  const q = queues.forLane(w.lane);
  const running = q.runningFor(w.id, w.job?.id);
  // The jobs in its hand it never went on to: free again for any worker. One that died may have
  // started one as it died, before it could say so: whatever carries that job's id and attempt is
  // ended first, or the job's next run (the same attempt, since this one is not counted) would
  // have a twin, and the ending of one run could reach the other.
  const unstarted = w.hand.filter((h) => !running.some((r) => r.id === h.id));
  const ids = unstarted.map((h) => h.id);
  if (ids.length > 0 && !died) handBack(hooks, q, w, ids);
  else if (ids.length > 0) {
    const ending = Promise.all(unstarted.map((h) => endProcesses({ options, hooks }, w, h)));
    hold(w.lane, ids, ending);
    void ending.then(() => {
      try {
        handBack(hooks, q, w, ids);
      } catch (error) {
        // The engine closed meanwhile: they are still in its hand, and the next start frees them.
        hooks.log(`could not give back jobs ${ids.join(', ')}: ${(error as Error).message}`);
      }
    });
  }
  for (const pgid of w.pgids) signalGroup(pgid, 'SIGKILL');
  for (const job of running) {
    const ended = endProcesses({ options, hooks }, w, { id: job.id, attempt: job.attempts });
    // Its outcome is waiting for room on the disk: the job did finish, it is not given back.
    if (deferred.holds(job.id)) continue;
    // Whoever killed it said whether its job was at fault; one that was not runs again at once, its attempt given back.
    const refund = w.killed?.refund === true;
    const why = refund ? `stopped during attempt ${job.attempts}: ${w.killed!.detail}` : `worker ${how} during attempt ${job.attempts}`;
    const giveBack = () => requeue(hooks, q, job, { why, retryAt: refund ? now : now + backoffMs(job.attempts), refund });
    // A run is over when its processes are gone: only then is its job recorded failed or queued
    // again. Recorded sooner, a process the worker was starting as it died ran on after the
    // record, and the ending of this run's processes (found by the job's id) could reach the next.
    void ended.then(() => {
      try {
        deferred.attempt(job.id, giveBack);
      } catch (error) {
        // The engine closed meanwhile: the job is still recorded as running, and the next start gives it back.
        hooks.log(`could not give back job ${job.id}: ${(error as Error).message}`);
      }
    });
  }
}

/**
 * One ledger row, or none: a worker told to leave is counted out as it asked to be (or as the
 * shutdown it was caught in); one that went on its own is lost, with the reason the engine had.
 */
function tellLedger(hooks: ExitPort['hooks'], w: WorkerRecord, code: number | null, how: string, signal: string | null): void {
  // A kept worker that exits cleanly had finished before it heard it may stay: it left as first asked.
  const expected = w.state === 'stopping' || (w.state === 'draining' && w.job === null) || (w.kept === true && code === 0 && !signal);
  if (w.leaving && (expected || w.leaving.reason === 'shutdown')) hooks.workerLeft(w, expected ? w.leaving : { reason: 'shutdown', detail: `the engine stopped before its job finished; ${how}` });
  const atStart = w.state === 'starting';
  if (code === EXIT_COMMAND_WONT_START) hooks.workerLost(w, 'crash', 'its worker command died before it could answer a job', true);
  else if (w.killed) hooks.workerLost(w, w.killed.reason, `${w.killed.detail}; ${how}`, atStart);
  else if (!expected && w.leaving?.reason !== 'shutdown') hooks.workerLost(w, 'crash', `worker ${how}`, atStart);
}

/**
 * Jobs taken for a worker, given back unrun: those in its hand at its exit, those a shared store
 * handed it while it died, and those it gave back itself (turns.ts).
 */
export function handBack(hooks: Pick<PoolHooks, 'jobChanged' | 'log'>, q: JobQueue, w: WorkerRecord, ids: number[]): void {
  const back = q.handBack(w.id, ids);
  if (back instanceof Promise) back.then((jobs) => jobs.forEach((j) => announce(hooks, j)), (error: unknown) => hooks.log(`could not give back jobs ${ids.join(', ')}: ${(error as Error).message}`));
  else back.forEach((j) => announce(hooks, j));
}

function requeue(hooks: Pick<PoolHooks, 'jobChanged' | 'log' | 'now'>, q: JobQueue, job: RunningRow, how: Parameters<JobQueue['requeue']>[1]): void {
  const back = q.requeue(job, how, hooks.now());
  if (back instanceof Promise) back.then((j) => announce(hooks, j), (error: unknown) => hooks.log(`could not give back job ${job.id}: ${(error as Error).message}`));
  else announce(hooks, back);
}

/**
 * Ends what a dead worker's job left and resolves once none of it is left (bounded): its groups,
 * anything carrying the job's id, and a child the worker was starting as it died, which carries
 * the worker's id until it becomes the job.
 */
async function endProcesses({ options, hooks }: Pick<ExitPort, 'options' | 'hooks'>, w: WorkerRecord, job: JobRef): Promise<void> {
  const gone = await endJob(job, { engine: engineOf(options), pgids: [...w.pgids], deadWorker: w.id, cgroupBase: options.cgroupBase });
  if (!gone) hooks.log(`job ${job.id}: a process of attempt ${job.attempt} would not end; recording it anyway`);
}

/** Which engine its jobs belong to, as their processes carry it: another engine's are never ended here. */
const engineOf = (options: ExitPort['options']): string => options.jobEnv[ENGINE_VAR] ?? '';

function announce(hooks: Pick<PoolHooks, 'jobChanged'>, job: JobSummary | null): void {
  if (job) hooks.jobChanged(job);
}
