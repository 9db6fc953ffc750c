// The engine's parts, made in the order data flows, one step each: the stores and the queues over
// them, the workers, the machine, the sizing pass and its loop, the status board, the requests.
// Each step takes what the steps before it made and returns its own named parts, so no part is
// used before it exists and none holds a way back to the part that reads it; what moves is said
// by signals (signal.ts), heard by the later steps.
import { join } from 'node:path';
import { appVersion, workerEntry as defaultWorkerEntry } from '../paths/app-files.js';
import { endJob } from '../job-control/containment.js';
import type { EngineOptions } from './engine-types.js';
import type { EngineLock } from './lock.js';
import type { EngineSettings } from './settings.js';
import type { Db } from './store/db.js';
import { EventHub } from './event-hub.js';
import { Pause } from './pause.js';
import { Signal } from './signal.js';
import { engineIdentity } from './machine-name.js';
import { recoverInterrupted } from './recovery.js';
import { openRetention } from './retention/open.js';
import { MachineSampler } from './machine/machine.js';
import { JobCounts } from './store/counts.js';
import { JobQueries } from './store/job-queries.js';
import { JobStore } from './store/jobs.js';
import { LaneCosts } from './store/lane-costs.js';
import { LaneStore } from './store/lanes.js';
import { Ledger } from './store/ledger.js';
import { LocalQueue } from './queues/local-queue.js';
import { Queues } from './queues/queues.js';
import { SharedLanes } from './shared-lanes/shared-lanes.js';
import { nodeLauncher } from './workers/launcher.js';
import { SizerLoop } from './sizer/loop.js';
import { SizingPass, type PassSnapshot } from './sizer/pass.js';
import { Fleet } from './fleet/fleet.js';
import { ScaleLedger } from './fleet/ledger.js';
import { createStatusBoard } from './status/board.js';
import type { LanePublisher } from './status/publisher.js';
import { ProgressBoard } from './status/progress-board.js';
import { RecentFiguresBoard } from './status/recent.js';
import { TimelineSamples } from './status/timeline.js';
import type { FleetPort, RequestContext, StatusBoard } from './requests/context.js';
import { bulkHandlers } from './requests/bulk.js';
import { cleanHandlers } from './requests/clean.js';
import { editHandlers } from './requests/edit.js';
import { jobHandlers } from './requests/jobs.js';
import { laneHandlers } from './requests/lanes.js';
import { pauseHandlers } from './requests/pause.js';

/** What the engine opens on, made before it (engine.ts). */
export interface EngineStart {
  options: EngineOptions;
  settings: EngineSettings;
  db: Db;
  lock: EngineLock;
  startedAt: number;
  /** The engine's cgroup for jobs, or null where the OS offers none. */
  cgroupBase: string | null;
}

/** What moved, said once and heard by whoever shows or decides it. */
export interface EngineSignals {
  /** Something a lane's status shows moved. */
  status: Signal;
  /** A pass published its snapshot. */
  passed: Signal<PassSnapshot>;
  paused: Signal<boolean>;
  /** Jobs became runnable without a request: a job they ran after succeeded, or their time came. */
  jobsReleased: Signal<Iterable<string>>;
}

export const engineSignals = (): EngineSignals => ({ status: new Signal(), passed: new Signal(), paused: new Signal(), jobsReleased: new Signal() });

export interface Stores {
  events: EventHub;
  pause: Pause;
  counts: JobCounts;
  lanes: LaneStore;
  jobs: JobStore;
  ledger: Ledger;
  scaleLedger: ScaleLedger;
  queues: Queues;
  retention: ReturnType<typeof openRetention>;
  recent: RecentFiguresBoard;
  identity: { machine: string; engineId: string };
  /** Jobs the last engine left running, given back to the queue: announced once the engine is up. */
  recovered: ReturnType<typeof recoverInterrupted>;
}

/** The stores, the queues over them, and what a crashed engine left to recover. */
export function openStores({ options, settings, db, startedAt }: EngineStart, signals: EngineSignals): Stores {
  const { log } = settings;
  const events = new EventHub(startedAt * 1000, (error) => log(`an event listener failed: ${(error as Error)?.stack ?? String(error)}`));
  const pause = new Pause(db, (paused) => signals.paused.fire(paused !== null));
  const counts = new JobCounts(db);
  const lanes = new LaneStore(db, counts);
  const jobs = new JobStore(db, counts, join(options.dataDir, 'lanes.db-wal'), (settled) => {
    for (const job of settled.failed) events.emit('job', job);
    if (settled.runnable.size > 0) signals.jobsReleased.fire(settled.runnable);
  });
  const ledger = new Ledger(db);
  const scaleLedger = new ScaleLedger(ledger, events, Date.now);
  const identity = engineIdentity(options.dataDir, log);
  const recovered = recoverInterrupted(jobs, Date.now(), (id, attempt) => void endJob({ id, attempt }, { engine: identity.engineId }), log);
  // Finished work leaves after its keep; logs live in folders of a thousand jobs (retention/).
  const retention = openRetention({ db, counts, waits: jobs.waits, dataDir: options.dataDir, events, env: options.env ?? process.env, keep: options.keep, logsMaxBytes: settings.logsMaxBytes, changed: () => signals.status.fire(), log });
  const queues = new Queues(new LocalQueue(jobs, new JobQueries(db), (jobId) => retention.logs.paths(jobId)));
  const recent = new RecentFiguresBoard();
  events.subscribe(recent.observe);
  return { events, pause, counts, lanes, jobs, ledger, scaleLedger, queues, retention, recent, identity, recovered };
}

export interface Workers {
  fleet: Fleet;
  shared: SharedLanes;
  progress: ProgressBoard;
}

/** The workers, as mechanism, and the shared lanes whose work they pull. */
export function openWorkers({ options, settings, cgroupBase }: EngineStart, s: Stores, signals: EngineSignals): Workers {
  const { log } = settings;
  const logPaths = (jobId: number) => s.retention.logs.paths(jobId);
  const progress = new ProgressBoard({
    write: (reports) => s.jobs.recordProgress(reports),
    local: (lane) => s.queues.sharedLane(lane) === undefined,
    shared: (lane, id, progress) => s.queues.sharedLane(lane)?.progress(id, progress),
    announce: (job) => s.events.emit('progress', job),
    now: Date.now,
    log,
  });
  s.events.subscribe(progress.observe);
  const fleet = new Fleet({
    queues: s.queues,
    lanes: s.lanes,
    ledger: s.scaleLedger,
    launcher: options.launcher ?? nodeLauncher,
    entry: options.workerEntry ?? defaultWorkerEntry,
    heartbeatMs: settings.heartbeatMs,
    handBelowMs: settings.handBelowMs,
    workerStopMs: settings.workerStopMs,
    logCapBytes: settings.logCapBytes,
    cgroupBase,
    identity: s.identity,
    logPaths,
    log,
    jobChanged: (job) => s.events.emit('job', job),
    changed: () => signals.status.fire(),
    loaded: (lane, ms) => s.recent.loaded(lane, ms),
    progressed: (report) => progress.heard(report),
  });
  const shared = new SharedLanes(s.queues, {
    ...s.identity,
    idFloor: (slot) => s.retention.sharedIdFloor(slot),
    logPaths,
    jobChanged: (job) => s.events.emit('job', job),
    jobsChangedElsewhere: (ids) => s.events.emit('jobs', { ids, change: 'changed' }),
    workArrived: (lane) => fleet.sharedWorkArrived(lane),
    cancelHere: (jobId) => fleet.cancel(jobId, settings.cancelGraceMs),
    outage: (lane, detail) => fleet.outage(lane, detail),
    changed: () => signals.status.fire(),
    log,
  });
  return { fleet, shared, progress };
}

/** The machine, read once before anything is sized; it measures the fleet's workers. */
export function openMachine({ options, settings, db, cgroupBase }: EngineStart, w: Workers): Promise<MachineSampler> {
  return MachineSampler.open({
    watcher: { env: options.env, cores: options.cores, desktop: options.desktop ?? null, sampleMs: settings.sampleMs, gpuTimeoutMs: settings.gpuTimeoutMs, gpuKeepMs: settings.gpuKeepMs, cgroupBase, readers: options.machineReaders, log: settings.log },
    costs: new LaneCosts(db),
    gpuCosts: new LaneCosts(db, 'gpu'),
    workers: () => w.fleet.liveWorkers(),
    log: settings.log,
  });
}

export interface Sizing {
  pass: SizingPass;
  loop: SizerLoop;
}

/** The sizing pass, and the loop that says when it runs: on a new sample, a moved fleet, released jobs. */
export function openSizing({ settings }: EngineStart, s: Stores, { fleet }: Workers, sampler: MachineSampler, signals: EngineSignals): Sizing {
  const { tickMs, log } = settings;
  const pass = new SizingPass(
    {
      releaseDue: (now) => s.jobs.releaseDue(now),
      lanes: { list: () => s.lanes.list(), allCounts: () => s.queues.allCounts() },
      notYet: (now) => s.queues.notYet(now),
      workers: () => fleet.workerViews(),
      startsBlockedUntil: (lane) => fleet.startsBlockedUntil(lane),
      machine: sampler,
      paused: () => s.pause.state !== null,
      now: Date.now,
      tickMs,
    },
    {
      carryOut: (decision) => fleet.carryOut(decision),
      wake: (lanes) => fleet.wake(lanes),
      published: (snapshot) => signals.passed.fire(snapshot),
      watchGpusFor: (ml) => sampler.watchGpusFor(ml),
    },
  );
  const loop = new SizerLoop(
    {
      run: () => pass.run(),
      failed: (error) => log(`a sizer pass failed: ${(error as Error)?.stack ?? String(error)}`),
      sleep: () => sampler.sleep(),
      wake: () => sampler.wake(),
    },
    tickMs,
    Date.now,
  );
  sampler.onSample(() => loop.pass());
  fleet.onChanged(() => loop.poke());
  // What a person sees is built on the pass's snapshot: once jobs moved, its reader has them observed afresh.
  signals.status.on(() => pass.jobsMoved());
  s.events.subscribe((event) => {
    if (event.type === 'job' || event.type === 'jobs') pass.jobsMoved();
  });
  signals.jobsReleased.on((lanes) => {
    fleet.wake(lanes);
    loop.poke();
  });
  return { pass, loop };
}

export interface Board {
  board: StatusBoard;
  publisher: LanePublisher;
  timeline: TimelineSamples;
}

/** What a person sees: built from the stores, the workers as they are, and the last pass's snapshot. */
export function openBoard({ options, settings, db, startedAt }: EngineStart, s: Stores, { fleet }: Workers, sampler: MachineSampler, { pass, loop }: Sizing, signals: EngineSignals): Board {
  const timeline = new TimelineSamples(db);
  const { board, publisher } = createStatusBoard({
    tickMs: settings.tickMs,
    dataDir: options.dataDir,
    startedAt,
    version: appVersion,
    lanes: { list: () => s.lanes.list(), find: (name) => s.lanes.find(name), allCounts: () => s.queues.allCounts() },
    jobs: s.queues,
    shared: (lane) => s.queues.sharedLane(lane)?.status(),
    events: s.events,
    timeline,
    workers: { counts: () => fleet.workerCounts(), alive: () => fleet.alive(), startsBlockedUntil: (lane) => fleet.startsBlockedUntil(lane) },
    // The pass's snapshot, as of now: jobs that moved since the last are observed first.
    pass: () => pass.current(),
    costOf: (lane) => sampler.costOf(lane)?.bytes ?? null,
    gpuCostOf: (lane) => sampler.gpuCostOf(lane)?.bytes ?? null,
    recent: s.recent,
    paused: () => s.pause.state,
  });
  signals.status.on(() => publisher.soon());
  // Every pass follows something that moved (work arrived, a worker came or went, a tick): the
  // lanes' status may show it even when the sizer had nothing to do.
  signals.passed.on((snapshot) => {
    publisher.machine(snapshot.machine);
    publisher.soon();
  });
  signals.paused.on(() => {
    s.events.emit('paused', { paused: s.pause.state });
    loop.pass();
    publisher.publish();
  });
  return { board, publisher, timeline };
}

export type Handlers = ReturnType<typeof jobHandlers> & ReturnType<typeof editHandlers> & ReturnType<typeof bulkHandlers> & ReturnType<typeof laneHandlers> & ReturnType<typeof pauseHandlers> & ReturnType<typeof cleanHandlers>;

/** The requests, each group through its own port. */
export function openRequests({ settings }: EngineStart, s: Stores, { fleet, shared }: Workers, sampler: MachineSampler, { pass, loop }: Sizing, { board }: Board): Handlers {
  const fleetPort: FleetPort = {
    jobsArrived: (names) => {
      fleet.wake(names);
      loop.arrived();
    },
    jobsLeft: () => loop.poke(),
    // At once rather than on the next turn: the answer to a cap change, and the lane event it
    // raises, should already show what the change did, not a status from just before.
    lanesChanged: () => loop.pass(),
    cancel: (jobId, graceMs) => fleet.cancel(jobId, graceMs),
    laneRemoved: (name) => {
      fleet.laneRemoved(name);
      pass.forget(name);
      sampler.forget(name);
    },
    jobsInWorkers: (lane) => fleet.jobsInWorkers(lane),
  };
  const logPaths = (jobId: number) => s.retention.logs.paths(jobId);
  const context: RequestContext = { cancelGraceMs: settings.cancelGraceMs, jobs: s.jobs, queues: s.queues, shared, lanes: s.lanes, ledger: s.ledger, events: s.events, fleet: fleetPort, board, pause: s.pause, logPaths, cleaner: s.retention.cleaner };
  const bulk = bulkHandlers(context);
  return { ...jobHandlers(context), ...editHandlers(context), ...bulk, ...laneHandlers(context, bulk.cancelJobs), ...pauseHandlers(context), ...cleanHandlers({ ...s.retention, lanes: s.lanes }) };
}
