// The worker runtime: one OS process that pulls jobs, runs them one at a time, reports each,
// and pulls again. The jobs in its hand are still queued in the store: if it dies, they are
// simply given to another worker.
import { connect } from './channel.js';
import { EXIT_COMMAND_WONT_START, WORKER_ENV, type JobAssignment, type JobOutcome, type ToWorker } from '../worker-protocol/protocol.js';
import { LOG_CAP_BYTES } from '../../shared/limits.js';
import { ENGINE_VAR, endJob } from '../job-control/containment.js';
import { runShellJob, stopJobStarter, type RunningProcess } from './shell-job.js';
import { PersistentCommand } from './persistent.js';
import { ProgressRelay } from './progress-relay.js';
import { newToken, openProgressSocket } from './progress-socket.js';

const channel = connect();
const env = process.env;
// The engine runs under umask 077 (its files are private); a job makes files as its user would.
const umask = env[WORKER_ENV.umask];
if (umask && /^[0-7]{1,4}$/.test(umask)) process.umask(parseInt(umask, 8));
const logCap = Number(env[WORKER_ENV.logCapBytes]) || LOG_CAP_BYTES;
const cgroupBase = env[WORKER_ENV.cgroup] || null;
const command = env[WORKER_ENV.command];
/** Unset (an engine that never hands jobs out): a hand is never given back. */
const handBackMs = Number(env[WORKER_ENV.handBackMs]) || Infinity;
/** How far the running job has got, as it says: passed on, a few times a second at most. */
const relay = new ProgressRelay((m) => channel.send(m));
const persistent = command ? new PersistentCommand(JSON.parse(command) as string[], logCap, env[WORKER_ENV.cwd], cgroupBase, (jobId, raw) => void relay.report(raw, jobId)) : null;
/** The running shell job's token: what its `lanes progress` shows to be heard. */
let token: string | null = null;
const progressSocket = persistent
  ? null
  : openProgressSocket((given, raw) => {
      if (token === null || given !== token) return 'ignored: not the job this worker runs now';
      const why = relay.report(raw);
      return why === null ? 'ok' : `ignored: ${why}`;
    });

let running: { job: JobAssignment; proc: RunningProcess } | null = null;
/** Jobs handed over to run after the current one, in order; not started. */
const hand: JobAssignment[] = [];
/** A persistent command keeps its process group across jobs; the engine hears of it once. */
let reportedPgid: number | undefined;
/** Waiting for the engine's answer to a pull; a `wake` meanwhile is already answered. */
let asking = false;
let draining = false;

function pull(): void {
  asking = true;
  channel.send({ t: 'pull' });
}

/**
 * Milliseconds on a monotonic clock. Not `performance.now()`: the first touch of `performance`
 * loads perf_hooks, some 4 ms of a fresh worker's first job, which a person waits on.
 */
const clockMs = () => Number(process.hrtime.bigint()) / 1e6;

async function run(job: JobAssignment): Promise<void> {
  const t0 = clockMs();
  let proc: RunningProcess;
  relay.begin(job);
  token = progressSocket ? newToken() : null;
  try {
    proc = persistent ? persistent.run(job) : runShellJob(job, logCap, cgroupBase, progressSocket && token ? { socket: progressSocket.path, token } : undefined);
  } catch (e) {
    relay.end();
    finish(job, { state: 'failed', exitCode: null, error: (e as Error).message });
    return;
  }
  running = { job, proc };
  if (proc.pgid !== undefined && proc.pgid !== reportedPgid) {
    reportedPgid = proc.pgid;
    channel.send({ t: 'spawned', jobId: job.id, pgid: proc.pgid });
  }
  const outcome = await proc.done;
  token = null;
  relay.end();
  finish(job, { ...outcome, ranMs: clockMs() - t0 });
}

function finish(job: JobAssignment, outcome: JobOutcome): void {
  running = null;
  // A command that cannot start would fail every job it is given, one after another: report this
  // job, take no other, and say why by how we exit, so the engine backs the lane off.
  if (persistent?.diedWhileStarting) draining = true;
  if (draining) hand.length = 0;
  // Jobs were handed over as short ones; one that ran this long says they are not (or no longer):
  // the rest go back for any worker to take, and this one asks anew.
  const returned = (outcome.ranMs ?? 0) >= handBackMs ? hand.splice(0).map((j) => j.id) : [];
  const next = hand.shift();
  // The report goes out before the next job starts: the engine must know it runs here if this
  // worker dies under it.
  const pull = !draining && hand.length === 0 && !asking;
  if (pull) asking = true;
  channel.send({ t: 'done', jobId: job.id, attempt: job.attempt, outcome, pull, ...(next ? { next: { jobId: next.id, attempt: next.attempt } } : {}), ...(returned.length > 0 ? { returned } : {}) });
  if (next) void run(next);
  else if (draining) exit(persistent?.diedWhileStarting ? EXIT_COMMAND_WONT_START : 0);
}

function cancel(jobId: number, graceMs: number): void {
  if (running?.job.id === jobId) return running.proc.cancel(graceMs);
  const at = hand.findIndex((j) => j.id === jobId);
  if (at < 0) return;
  hand.splice(at, 1);
  channel.send({ t: 'dropped', jobId });
}

/** Set once this worker is leaving by its own choice: the channel closing then is expected. */
let leaving = false;

function exit(code = 0): void {
  leaving = true;
  persistent?.stop();
  stopJobStarter();
  process.exitCode = code;
  channel.close();
  // Let the last message flush; then go, even if a stray handle would keep the loop alive.
  setTimeout(() => process.exit(code), 1000).unref();
}

channel.onMessage((m: ToWorker) => {
  switch (m.t) {
    case 'jobs': {
      asking = false;
      if (!draining) hand.push(...m.jobs);
      if (running) return;
      const first = hand.shift();
      if (!first) return void (draining && exit());
      if (!(m.firstStarted && first === m.jobs[0])) channel.send({ t: 'started', jobId: first.id, attempt: first.attempt });
      void run(first);
      return;
    }
    case 'wake':
      if (!running && !asking && !draining) pull();
      return;
    case 'drain':
      draining = true;
      hand.length = 0;
      if (!running && !asking) exit();
      return;
    case 'stay':
      // Only while a job runs: one that has finished is already on its way out, as first asked.
      if (running && !persistent?.diedWhileStarting) draining = false;
      return;
    case 'cancel':
      cancel(m.jobId, m.graceMs);
      return;
    case 'ping':
      channel.send({ t: 'pong', n: m.n });
      return;
  }
});

// Ctrl-C in a terminal signals the whole process group, workers included; stopping is the
// engine's decision (it drains us), and its going away closes our channel anyway.
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});

// The engine went away (it was stopped or killed): the job's processes must not outlive it.
channel.onClose(() => {
  if (leaving) return;
  persistent?.stop();
  stopJobStarter();
  const ending = running ? endJob(running.job, { engine: process.env[ENGINE_VAR] ?? '', pgids: running.proc.pgid === undefined ? [] : [running.proc.pgid], cgroupBase }) : Promise.resolve();
  void ending.finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
});

pull();
