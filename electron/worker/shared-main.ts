// The worker runtime of a shared lane: one OS process that takes the lane's jobs from Redis itself,
// through BullMQ's own Worker (its connection, its lock renewal, its fetch-next), one at a time,
// and runs each as any Lanes worker does (shared-job.ts). The engine sizes these workers and
// observes the lane in batches; it touches no job. It hears from each worker only when that
// worker goes busy or idle, and what it runs at most every DIRECT_SAY_MS, which is enough to
// end a job's processes if the worker dies and to route a cancel.
//
// Every lock this worker takes carries Lanes' mark (outsiders.ts), so another engine tells it
// from a BullMQ Worker that is not Lanes. When its engine goes away (stopped, or killed), the
// worker takes no other job: it ends the running one's processes and exits, and that job goes
// back to the queue once its lock runs out (BullMQ's stalled check, on any engine of the lane).
import { WaitingError, type Job } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { connect } from './channel.js';
import { DIRECT_FINISHED_MAX, DIRECT_SAY_MS, EXIT_COMMAND_WONT_START, WORKER_ENV, type DirectFinished, type DirectWiring, type JobAssignment, type ToWorker } from '../worker-protocol/protocol.js';
import { LaneWorker } from '../engine/shared-lanes/bull-worker.js';
import { NamedIds } from '../engine/shared-lanes/named-ids.js';
import { LogFiles } from '../engine/retention/log-files.js';
import { afterFailure, fieldsOfJob, PREFIX } from '../engine/shared-lanes/job-data.js';
import { LANES_TOKEN } from '../engine/shared-lanes/outsiders.js';
import type { RunningProcess } from './shell-job.js';
import { JobRunner } from './job-runner.js';
import { workerSettings } from './settings.js';
import { leaveOrphaned, leaveProcess } from './leave.js';
import { ProgressRelay } from './progress-relay.js';
import { CANCELLED, runSharedJob } from './shared-job.js';

const channel = connect();
const env = process.env;
const { logCap, cgroupBase, command } = workerSettings(env);

/** The job that runs now, and the BullMQ job it is. */
let running: { id: number; run: RunningProcess; attempt: number; bullId: string } | null = null;
let current: Job | null = null;
/** Outcomes whose record Redis has not answered yet. */
let recording = 0;
let worker: LaneWorker | null = null;
let leaving = false;
let draining = false;
/** Told to give its job back (the engine stops past its grace): the job returns to the lane unrun, its attempt uncounted. */
let givingBack = false;

/** Progress goes to BullMQ's own (`updateProgress`), a few times a second at most: BullMQ's tools and QueueEvents see it. */
const relay = new ProgressRelay((m) => {
  if (current && running?.id === m.jobId) void current.updateProgress({ ...m.progress }).catch(() => {});
});
const runner = new JobRunner(relay, command, logCap, env[WORKER_ENV.cwd], cgroupBase);
const persistent = runner.persistent;

/** What the engine last heard, and whether a word is on its way. */
let said = '';
let sayTimer: NodeJS.Timeout | null = null;
let reportedPgid: number | undefined;

/** Jobs whose outcome Redis took, not told yet: the engine announces them (batched, as it says the rest). */
const finished: DirectFinished[] = [];

function say(now: boolean): void {
  if (sayTimer && !now) return;
  if (sayTimer) clearTimeout(sayTimer);
  sayTimer = null;
  const job = running ? { jobId: running.id, attempt: running.attempt } : null;
  const text = `${job?.jobId ?? ''}:${recording}`;
  if (text === said && finished.length === 0) return;
  said = text;
  const told = finished.splice(0, DIRECT_FINISHED_MAX);
  channel.send({ t: 'direct', job, recording, ...(told.length > 0 ? { finished: told } : {}) });
  if (finished.length > 0) moved();
}

/**
 * Going busy is said at once (the sizer must not start another worker for the job this one took);
 * the rest within DIRECT_SAY_MS: under a backlog BullMQ hands the next job over as the last is
 * recorded, and a worker that goes from job to job says nothing in between.
 */
function moved(): void {
  const wasIdle = said === '' || said.startsWith(':');
  if ((wasIdle && running !== null) || finished.length >= DIRECT_FINISHED_MAX) return say(true);
  sayTimer ??= setTimeout(() => say(true), DIRECT_SAY_MS);
}

function start(wiring: DirectWiring): void {
  const logs = new LogFiles(wiring.dataDir);
  // Waits for Redis to come back (BullMQ's workers require it): an outcome taken while it was away is recorded then.
  const redis = new Redis({ ...(wiring.connection as RedisOptions), maxRetriesPerRequest: null });
  redis.on('error', () => {});
  const names = new NamedIds(redis, wiring.slot, `${PREFIX}:${wiring.lane}:`, (name) => `${PREFIX}:${wiring.lane}:lanes:${name}`);
  const w: LaneWorker = new LaneWorker(wiring.lane, redis, wiring.machine, (job: Job): Promise<object> => {
    current = job;
    // One job at a time: the one before is recorded (or given up) by the time the next is taken.
    recording = 0;
    const ended = (outcome: 'recording' | 'given back') => {
      current = null;
      if (outcome === 'recording') recording++;
      moved();
      // A command that cannot start would fail every job it is given: this worker takes no other, and says why by how it exits.
      if (persistent?.diedWhileStarting) exit(EXIT_COMMAND_WONT_START);
    };
    return runSharedJob(port, job, { closing: () => draining || leaving, givingBack: () => givingBack }).then(
      (value) => (ended('recording'), value),
      (error: unknown) => {
        // A job given back leaves BullMQ nothing to record.
        ended(error instanceof WaitingError ? 'given back' : 'recording');
        throw error;
      },
    );
  });
  worker = w;
  // Lanes' mark on every lock it takes (BullMQ's tokens are the worker's id and a count), and the engine's name for this worker.
  (w as { id: string }).id = wiring.workerId.startsWith(LANES_TOKEN) ? wiring.workerId : `${LANES_TOKEN}${w.id}`;
  const port = {
    machine: wiring.machine,
    persistentLane: persistent !== null,
    names,
    redis,
    jobKey: (bullId: string): string => `${PREFIX}:${wiring.lane}:${bullId}`,
    logPaths: (id: number) => logs.paths(id),
    start: (job: JobAssignment) => runner.start(job),
    running: (now: { id: number; run: RunningProcess } | null) => {
      if (now === null) {
        runner.ended();
        running = null;
        return;
      }
      running = { ...now, attempt: current?.attemptsStarted ?? 0, bullId: current?.id ?? '' };
      if (now.run.pgid !== undefined && now.run.pgid !== reportedPgid) {
        reportedPgid = now.run.pgid;
        channel.send({ t: 'spawned', jobId: now.id, pgid: now.run.pgid });
      }
      moved();
    },
  };
  const settled = (job: Job, state: DirectFinished['state'], error?: Error) => {
    recording = Math.max(0, recording - 1);
    const id = names.known(job.id ?? '');
    if (id !== null) finished.push({ id, state, fields: { ...fieldsOfJob(job) } });
    moved();
    if (error && (error as { [CANCELLED]?: boolean })[CANCELLED]) void redis.hincrby(`${PREFIX}:${wiring.lane}:lanes:meta`, 'cancelled', 1).catch(() => {});
  };
  w.on('completed', (job) => settled(job, 'completed'));
  w.on('failed', (job, error) => job && settled(job, afterFailure(job) as DirectFinished['state'], error));
  // BullMQ retries what failed on its own; an 'error' without a listener would end the process.
  w.on('error', () => {});
  if (!leaving && !draining) void w.run();
  say(true);
}

/** Leaves once the job in hand (if any) is recorded; a Redis that does not answer holds it only so long. */
function exit(code = 0): void {
  if (leaving) return;
  leaving = true;
  const closing = worker ? worker.close() : Promise.resolve();
  void closing.finally(() => {
    // What it finished while closing (an outcome Redis took late) is told before it goes.
    say(true);
    leaveProcess(code, channel, persistent);
  });
}

channel.onMessage((m: ToWorker) => {
  switch (m.t) {
    case 'redis':
      if (!worker) start(m.wiring);
      return;
    case 'drain':
      draining = true;
      return exit();
    case 'giveBack':
      givingBack = true;
      running?.run.cancel(0);
      return exit();
    case 'cancel':
      if (running?.id === m.jobId) running.run.cancel(m.graceMs);
      return;
    case 'ping':
      channel.send({ t: 'pong', n: m.n });
      return;
    default:
      // 'jobs', 'wake' and 'stay' are for workers the engine hands jobs to: BullMQ hands this one its own.
      return;
  }
});

process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});

// The engine went away (stopped or killed): no other job is taken, the running one's processes end
// with it, and its lock, no longer renewed, gives it back to the lane after the stall delay.
channel.onClose(() => {
  if (leaving) return;
  leaving = true;
  // Takes nothing more: BullMQ fetches no next job once closing, and the connections go.
  void worker?.close(true).catch(() => {});
  const r = running;
  leaveOrphaned(persistent, r && { job: { id: r.id, attempt: r.attempt }, pgid: r.run.pgid }, cgroupBase);
});
