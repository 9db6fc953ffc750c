// The running engine: wires the store, the queues and shared lanes, the fleet, the machine's
// sampler, the sizing pass and its loop, the status board and the request handlers together,
// answers requests, and stops them again in order. `open` makes the parts in the order data flows
// (stores → fleet → sampler → pass → board), so no part is used before it exists and none holds
// a way back to the part that reads it; what moves is said by signals the engine subscribes to.
import { join } from 'node:path';
import { requests, type RequestName, type RequestOutput } from '../../shared/requests.js';
import type { Status } from '../../shared/model.js';
import { conflict } from '../../shared/errors.js';
import { LOG_CAP_BYTES } from '../../shared/limits.js';
import { appVersion, workerEntry as defaultWorkerEntry } from '../paths/app-files.js';
import { privateUmask } from '../paths/private-dir.js';
import { WORKER_ENV } from '../worker-protocol/protocol.js';
import { MachineSampler } from './machine/machine.js';
import { EventHub } from './event-hub.js';
import { Fleet } from './fleet/fleet.js';
import { ScaleLedger } from './fleet/ledger.js';
import type { EngineLock } from './lock.js';
import { recoverInterrupted } from './recovery.js';
import type { FleetPort, RequestContext, StatusBoard } from './requests/context.js';
import { jobHandlers } from './requests/jobs.js';
import { editHandlers } from './requests/edit.js';
import { laneHandlers } from './requests/lanes.js';
import type { LanePublisher } from './status/publisher.js';
import { RecentFiguresBoard } from './status/recent.js';
import { createStatusBoard } from './status/board.js';
import { Pause } from './pause.js';
import { bulkHandlers } from './requests/bulk.js';
import { pauseHandlers } from './requests/pause.js';
import { TimelineSamples } from './status/timeline.js';
import type { Db } from './store/db.js';
import { JobQueries } from './store/job-queries.js';
import { JobStore } from './store/jobs.js';
import { diskFullError, isDiskFull } from './store/disk-full.js';
import { LaneStore } from './store/lanes.js';
import { JobCounts } from './store/counts.js';
import { Ledger } from './store/ledger.js';
import { LaneCosts } from './store/lane-costs.js';
import { validate } from './validate.js';
import { ENGINE_VAR, endJob, removeCgroupTree } from '../job-control/containment.js';
import { nodeLauncher } from './workers/launcher.js';
import { LocalQueue } from './queues/local-queue.js';
import { Queues } from './queues/queues.js';
import { SharedLanes } from './shared-lanes/shared-lanes.js';
import { SizerLoop } from './sizer/loop.js';
import { SizingPass, type PassSnapshot } from './sizer/pass.js';
import { Signal } from './signal.js';
import { engineIdentity } from './machine-name.js';
import { CANCEL_GRACE_MS, defaultLog, type Engine, type EngineOptions } from './engine-types.js';
import { openRetention } from './retention/open.js';
import { answerCleaned, cleanHandlers } from './requests/clean.js';

export interface EngineStart {
  options: EngineOptions;
  db: Db;
  lock: EngineLock;
  tickMs: number;
  sampleMs: number;
  startedAt: number;
  cgroupBase: string | null;
}

/** The parts, made in order by `open`. */
interface Parts {
  start: EngineStart;
  events: EventHub;
  pause: Pause;
  counts: JobCounts;
  lanes: LaneStore;
  jobs: JobStore;
  shared: SharedLanes;
  fleet: Fleet;
  sampler: MachineSampler;
  pass: SizingPass;
  loop: SizerLoop;
  board: StatusBoard;
  publisher: LanePublisher;
  timeline: TimelineSamples;
  scaleLedger: ScaleLedger;
  retention: ReturnType<typeof openRetention>;
  handlers: Handlers;
}

type Handlers = ReturnType<typeof jobHandlers> & ReturnType<typeof editHandlers> & ReturnType<typeof bulkHandlers> & ReturnType<typeof laneHandlers> & ReturnType<typeof pauseHandlers> & ReturnType<typeof cleanHandlers>;

export class LanesEngine implements Engine {
  readonly events: EventHub;
  readonly startedAt: number;
  private stopping: Promise<void> | null = null;
  private machineSaid = '';

  static async open(start: EngineStart): Promise<LanesEngine> {
    const { options, db, startedAt, tickMs, cgroupBase } = start;
    const log = options.log ?? defaultLog;
    const cancelGraceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
    // What moved, said once and heard by whoever shows or decides it.
    const statusMoved = new Signal();
    const machineMoved = new Signal<PassSnapshot>();
    const pauseMoved = new Signal<boolean>();
    // Jobs became runnable without a request: a job they ran after succeeded, or their time came.
    const jobsReleased = new Signal<Iterable<string>>();

    // The stores, and the queues over them.
    const events = new EventHub(startedAt * 1000, (error) => log(`an event listener failed: ${(error as Error)?.stack ?? String(error)}`));
    const pause = new Pause(db, (paused) => pauseMoved.fire(paused !== null));
    const counts = new JobCounts(db);
    const lanes = new LaneStore(db, counts);
    const jobs = new JobStore(db, counts, join(options.dataDir, 'lanes.db-wal'), (settled) => {
      for (const job of settled.failed) events.emit('job', job);
      if (settled.runnable.size > 0) jobsReleased.fire(settled.runnable);
    });
    const queries = new JobQueries(db);
    const ledger = new Ledger(db);
    const scaleLedger = new ScaleLedger(ledger, events, Date.now);
    const me = engineIdentity(options.dataDir, log);
    const recovered = recoverInterrupted(jobs, Date.now(), (id, attempt) => void endJob({ id, attempt }, { engine: me.engineId }), log);
    // Finished work leaves after its keep; logs live in folders of a thousand jobs (retention/).
    const retention = openRetention({ db, counts, dataDir: options.dataDir, events, env: options.env ?? process.env, keep: options.keep, logsMaxBytes: options.logsMaxBytes, changed: () => statusMoved.fire(), log });
    const logPaths = (jobId: number) => retention.logs.paths(jobId);
    const queues = new Queues(new LocalQueue(jobs, queries, logPaths));
    const recent = new RecentFiguresBoard();
    events.subscribe(recent.observe);

    // The workers, as mechanism.
    const fleet = new Fleet({
      queues,
      lanes,
      ledger: scaleLedger,
      launcher: options.launcher ?? nodeLauncher,
      entry: options.workerEntry ?? defaultWorkerEntry,
      heartbeatMs: options.heartbeatMs ?? 5_000,
      handBelowMs: options.handBelowMs,
      logCapBytes: options.logCapBytes ?? LOG_CAP_BYTES,
      cgroupBase,
      jobEnv: { LANES_MACHINE: me.machine, [ENGINE_VAR]: me.engineId, [WORKER_ENV.umask]: privateUmask().toString(8) },
      logPaths,
      log,
      jobChanged: (job) => events.emit('job', job),
      changed: () => statusMoved.fire(),
      loaded: (lane, ms) => recent.loaded(lane, ms),
    });
    const shared = new SharedLanes(queues, {
      ...me,
      logPaths,
      jobChanged: (job) => events.emit('job', job),
      jobsChangedElsewhere: (ids) => events.emit('jobs', { ids, change: 'changed' }),
      workArrived: (lane) => fleet.sharedWorkArrived(lane),
      cancelHere: (jobId) => fleet.cancel(jobId, cancelGraceMs),
      // Its Redis stopped answering, or answers again: the ledger keeps when, at the lane's size then.
      outage: (lane, detail) => {
        const c = fleet.workerCounts().get(lane);
        const n = (c?.idle ?? 0) + (c?.busy ?? 0);
        scaleLedger.record(lane, n, n, 'outage', detail);
      },
      changed: () => statusMoved.fire(),
      log,
    });

    // The machine, read once before anything is sized; it measures the fleet's workers.
    const sampler = await MachineSampler.open({
      watcher: { env: options.env, cores: options.cores, desktop: options.desktop ?? null, sampleMs: start.sampleMs, readers: options.machineReaders, log },
      costs: new LaneCosts(db),
      gpuCosts: new LaneCosts(db, 'gpu'),
      workers: () => fleet.liveWorkers(),
      log,
    });

    // The sizing pass, and the loop that says when it runs.
    try {
      const pass = new SizingPass(
        {
          lanes: { list: () => lanes.list(), allCounts: () => queues.allCounts() },
          notYet: (now) => queues.delayed(now),
          workers: () => fleet.workerViews(),
          startsBlockedUntil: (lane) => fleet.startsBlockedUntil(lane),
          machine: sampler,
          paused: () => pause.state !== null,
          now: Date.now,
          tickMs,
        },
        {
          // A new ml worker is placed on the card with room for it (machine/gpu-book.ts).
          carryOut: (decision, seen) => fleet.carryOut(decision, seen, (lane, id) => sampler.workerEnv(lane, id)),
          published: (snapshot) => machineMoved.fire(snapshot),
          gpusJudged: (ml, budgets) => sampler.judged(ml, budgets),
        },
      );
      // Before each pass, scheduled jobs whose time has come join their lane's queue (job-waits.ts).
      const releaseDue = () => {
        const due = jobs.releaseDue(Date.now());
        if (due.size > 0) fleet.wake(due);
      };
      const loop = new SizerLoop(
        {
          run: () => (releaseDue(), pass.run()),
          failed: (error) => log(`a sizer pass failed: ${(error as Error)?.stack ?? String(error)}`),
          sleep: () => sampler.sleep(),
          wake: () => sampler.wake(),
        },
        tickMs,
        Date.now,
      );
      sampler.onSample(() => loop.pass());
      fleet.onChanged(() => loop.poke());
      jobsReleased.on((lanes) => {
        fleet.wake(lanes);
        loop.poke();
      });

      // What a person sees.
      const timeline = new TimelineSamples(db);
      const { board, publisher } = createStatusBoard({
        tickMs,
        dataDir: options.dataDir,
        startedAt,
        version: appVersion,
        lanes: { list: () => lanes.list(), find: (name) => lanes.find(name), allCounts: () => queues.allCounts() },
        jobs: queues,
        shared: (lane) => queues.sharedLane(lane)?.status(),
        events,
        timeline,
        workers: { counts: () => fleet.workerCounts(), alive: () => fleet.alive(), startsBlockedUntil: (lane) => fleet.startsBlockedUntil(lane) },
        pass: () => pass.snapshot,
        costOf: (lane) => sampler.costOf(lane)?.bytes ?? null,
        gpuCostOf: (lane) => sampler.gpuCostOf(lane)?.bytes ?? null,
        recent,
        paused: () => pause.state,
      });
      statusMoved.on(() => publisher.soon());
      pauseMoved.on((paused) => {
        events.emit('paused', { paused: pause.state });
        loop.pass();
        publisher.publish();
        void paused;
      });

      // The requests, each group through its own port.
      const fleetPort: FleetPort = {
        jobsArrived: (names) => {
          fleet.wake(names);
          loop.poke();
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
      const context: RequestContext = { cancelGraceMs, jobs, queues, shared, lanes, ledger, events, fleet: fleetPort, board, pause, logPaths };
      const bulk = bulkHandlers(context);
      const handlers = { ...answerCleaned(jobHandlers(context), retention.cleaner), ...editHandlers(context), ...bulk, ...laneHandlers(context, bulk.cancelJobs), ...pauseHandlers(context), ...cleanHandlers({ ...retention, lanes }) };
      const engine = new LanesEngine({ start, events, pause, counts, lanes, jobs, shared, fleet, sampler, pass, loop, board, publisher, timeline, scaleLedger, retention, handlers });
      machineMoved.on((snapshot) => engine.announceMachine(snapshot));
      scaleLedger.record('*', 0, 0, 'start', `the engine started (pid ${process.pid})`);
      for (const job of recovered) events.emit('job', job);
      return engine;
    } catch (error) {
      sampler.stop();
      throw error;
    }
  }

  private constructor(private readonly p: Parts) {
    this.events = p.events;
    this.startedAt = p.start.startedAt;
  }

  /** Shared lanes start connecting (in the background: a Redis that is away does not hold the start), then the sizer runs. */
  async begin(): Promise<void> {
    await this.p.shared.openAll(this.p.lanes.list());
    this.p.loop.start();
    this.p.retention.retention.start();
  }

  get dataDir(): string {
    return this.p.start.options.dataDir;
  }

  /** A change in what the machine allows is announced once, as a `machine` event. */
  private announceMachine(snapshot: PassSnapshot): void {
    if (this.stopping) return;
    const key = JSON.stringify(snapshot.machine);
    if (key === this.machineSaid) return;
    this.machineSaid = key;
    this.events.emit('machine', snapshot.machine);
  }

  get ceiling(): number {
    return this.p.pass.snapshot.limits.ceiling;
  }

  async request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>> {
    if (this.stopping) throw conflict('the engine is stopping');
    const parsed = validate(name, input);
    // While finished jobs' records wait for room, a write that happens to fit must not jump them.
    if (requests[name].method !== 'GET' && this.p.fleet.diskFull) throw diskFullError(this.dataDir);
    try {
      return (await this.p.handlers[name](parsed as never)) as RequestOutput<K>;
    } catch (error) {
      // Nothing was stored (each write is one transaction); the request is refused in words.
      if (isDiskFull(error)) throw diskFullError(this.dataDir);
      throw error;
    }
  }

  status(): Status {
    return this.p.board.status();
  }

  stop(options: { graceMs?: number } = {}): Promise<void> {
    if (this.stopping) {
      if (options.graceMs !== undefined) this.p.fleet.hurry(options.graceMs);
      return this.stopping;
    }
    const p = this.p;
    this.stopping = (async () => {
      p.publisher.stop();
      p.pause.stop();
      p.sampler.stop();
      p.loop.stop();
      await p.fleet.shutdown(options.graceMs ?? 10_000);
      await p.retention.stop();
      await p.shared.closeAll();
      p.scaleLedger.record('*', 0, 0, 'shutdown', 'the engine stopped');
      p.timeline.close(Date.now());
      if (p.start.cgroupBase) await removeCgroupTree(p.start.cgroupBase);
      try {
        // Last, when no job moves any more: the next start reads them instead of counting.
        p.counts.save();
      } catch (error) {
        (p.start.options.log ?? defaultLog)(`could not save job counts (the next start counts them afresh): ${(error as Error).message}`);
      }
      await p.jobs.close();
      p.start.db.close();
      p.start.lock.release();
    })();
    return this.stopping;
  }
}
