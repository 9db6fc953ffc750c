// The running engine: wires the store, the queues and shared lanes, the fleet, the status board
// and the request handlers together, answers requests, and stops them again in order. It is made
// by openEngine (engine.ts) once the machine has been read; embedders see only the Engine interface.
import { join } from 'node:path';
import { requests, type RequestName, type RequestOutput } from '../../shared/requests.js';
import type { Status } from '../../shared/model.js';
import { conflict } from '../../shared/errors.js';
import { LOG_CAP_BYTES } from '../../shared/limits.js';
import { appVersion, workerEntry as defaultWorkerEntry } from '../paths/app-files.js';
import type { Machine } from './machine/machine.js';
import { EventHub } from './event-hub.js';
import { Fleet } from './fleet/fleet.js';
import { ScaleLedger } from './fleet/ledger.js';
import type { EngineLock } from './lock.js';
import { recoverInterrupted } from './recovery.js';
import type { RequestContext, StatusBoard } from './requests/context.js';
import { jobHandlers } from './requests/jobs.js';
import { laneHandlers } from './requests/lanes.js';
import type { LanePublisher } from './status/publisher.js';
import type { RecentFiguresBoard } from './status/recent.js';
import { createStatusBoard } from './status/board.js';
import { Hold } from './hold.js';
import { bulkHandlers } from './requests/bulk.js';
import { holdHandlers } from './requests/holds.js';
import { TimelineSamples } from './status/timeline.js';
import type { Db } from './store/db.js';
import { JobQueries } from './store/job-queries.js';
import { JobStore } from './store/jobs.js';
import { diskFullError, isDiskFull } from './store/disk-full.js';
import { LaneStore } from './store/lanes.js';
import { JobCounts } from './store/counts.js';
import { Ledger } from './store/ledger.js';
import { validate } from './validate.js';
import { ENGINE_VAR, endJob, removeCgroupTree } from '../job-control/containment.js';
import { nodeLauncher } from './workers/launcher.js';
import { LocalQueue } from './queues/local-queue.js';
import { Queues } from './queues/queues.js';
import { SharedLanes } from './queues/shared-host.js';
import { engineIdentity } from './machine-name.js';
import { defaultLog, type Engine, type EngineOptions } from './engine-types.js';
import { openRetention } from './retention/open.js';
import { answerCleaned, cleanHandlers } from './requests/clean.js';

export class LanesEngine implements Engine {
  readonly events: EventHub;
  private readonly fleet: Fleet;
  private readonly counts: JobCounts;
  private readonly jobs: JobStore;
  private readonly lanes: LaneStore;
  private readonly shared: SharedLanes;
  private readonly publisher!: LanePublisher;
  private readonly board!: StatusBoard;
  private readonly recent!: RecentFiguresBoard;
  private readonly timeline: TimelineSamples;
  private readonly hold: Hold;
  private readonly scaleLedger: ScaleLedger;
  private readonly handlers;
  private readonly retention: ReturnType<typeof openRetention>;
  private stopping: Promise<void> | null = null;
  private machineSaid = '';

  constructor(
    private readonly options: EngineOptions,
    private readonly db: Db,
    private readonly lock: EngineLock,
    private readonly machine: Machine,
    tickMs: number,
    readonly startedAt: number,
    private readonly cgroupBase: string | null,
  ) {
    const log = options.log ?? defaultLog;
    this.events = new EventHub(startedAt * 1000, (error) => log(`an event listener failed: ${(error as Error)?.stack ?? String(error)}`));
    this.hold = new Hold(db, (paused) => {
      this.events.emit('paused', { paused });
      this.fleet.lanesChanged();
      this.publisher.publish();
    });
    this.counts = new JobCounts(db);
    const lanes = new LaneStore(db, this.counts);
    this.lanes = lanes;
    const jobs = new JobStore(db, this.counts, join(options.dataDir, 'lanes.db-wal'));
    this.jobs = jobs;
    const queries = new JobQueries(db);
    const ledger = new Ledger(db);
    const scaleLedger = new ScaleLedger(ledger, this.events, Date.now);
    this.scaleLedger = scaleLedger;
    const me = engineIdentity(options.dataDir, log);
    const recovered = recoverInterrupted(jobs, Date.now(), (id, attempt) => void endJob({ id, attempt }, { engine: me.engineId }), log);
    // Finished work leaves after its keep; logs live in folders of a thousand jobs (retention/).
    this.retention = openRetention({ db, counts: this.counts, dataDir: options.dataDir, events: this.events, env: options.env ?? process.env, keep: options.keep, logsMaxBytes: options.logsMaxBytes, changed: () => this.publisher.soon(), log });
    const logPaths = (jobId: number) => this.retention.logs.paths(jobId);
    const queues = new Queues(new LocalQueue(jobs, queries, logPaths));
    this.shared = new SharedLanes(queues, {
      ...me,
      logPaths,
      jobChanged: (job) => this.events.emit('job', job),
      jobsChangedElsewhere: (ids) => this.events.emit('jobs', { ids, change: 'changed' }),
      workArrived: (lane) => this.fleet.sharedWorkArrived(lane),
      cancelHere: (jobId) => this.fleet.cancel(jobId, options.cancelGraceMs ?? 5_000),
      changed: () => this.publisher.soon(),
      log,
    });
    // Counts of every lane, shared ones as their queue last said.
    const laneCounts = { list: () => lanes.list(), allCounts: () => queues.allCounts() };

    this.fleet = new Fleet({
      machine,
      tickMs,
      queues,
      lanes: laneCounts,
      ledger: scaleLedger,
      launcher: options.launcher ?? nodeLauncher,
      entry: options.workerEntry ?? defaultWorkerEntry,
      heartbeatMs: options.heartbeatMs ?? 5_000,
      handBelowMs: options.handBelowMs,
      logCapBytes: options.logCapBytes ?? LOG_CAP_BYTES,
      cgroupBase,
      jobEnv: { LANES_MACHINE: me.machine, [ENGINE_VAR]: me.engineId },
      logPaths,
      log,
      jobChanged: (job) => this.events.emit('job', job),
      changed: () => this.publisher.soon(),
      // Memory limits move with demand too, between two readings of the machine.
      passed: () => this.announceMachine(),
      paused: () => this.hold.state !== null,
      loaded: (lane, ms) => this.recent.loaded(lane, ms),
    });

    const timeline = new TimelineSamples(db);
    this.timeline = timeline;
    ({ board: this.board, publisher: this.publisher, recent: this.recent } = createStatusBoard({
      tickMs,
      dataDir: this.dataDir,
      startedAt,
      version: appVersion,
      lanes: { ...laneCounts, find: (name) => lanes.find(name) },
      jobs: queues,
      shared: (lane) => queues.sharedLane(lane)?.status(),
      events: this.events,
      timeline,
      fleet: this.fleet,
      paused: () => this.hold.state,
    }));

    const context: RequestContext = {
      cancelGraceMs: options.cancelGraceMs ?? 5_000,
      jobs,
      queries,
      queues,
      shared: this.shared,
      lanes,
      ledger,
      events: this.events,
      fleet: this.fleet,
      board: this.board,
      hold: this.hold,
      logPaths,
    };
    const bulk = bulkHandlers(context);
    this.handlers = { ...answerCleaned(jobHandlers(context), this.retention.cleaner), ...bulk, ...laneHandlers(context, bulk.cancelJobs), ...holdHandlers(context), ...cleanHandlers({ ...this.retention, lanes }) };
    scaleLedger.record('*', 0, 0, 'start', `the engine started (pid ${process.pid})`);
    for (const job of recovered) this.events.emit('job', job);
  }

  /** Shared lanes start connecting (in the background: a Redis that is away does not hold the start), then the sizer runs. */
  async begin(): Promise<void> {
    await this.shared.openAll(this.lanes.list());
    this.fleet.start();
    this.retention.retention.start();
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  /** A new reading of the machine: the sizer looks again, and a change in its limits is announced. */
  machineMoved(): void {
    if (this.stopping) return;
    this.fleet.machineMoved();
    this.announceMachine();
  }

  /** A change in what the machine allows is announced once, as a `machine` event. */
  private announceMachine(): void {
    const now = this.fleet.machineStatus();
    const key = JSON.stringify(now);
    if (key === this.machineSaid) return;
    this.machineSaid = key;
    this.events.emit('machine', now);
  }

  get ceiling(): number {
    return this.fleet.limits().ceiling;
  }

  /** What the machine's watcher asks of the fleet (the workers to measure, where to say it moved). */
  get fleetForMachine(): Fleet {
    return this.fleet;
  }

  async request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>> {
    if (this.stopping) throw conflict('the engine is stopping');
    const parsed = validate(name, input);
    // While finished jobs' records wait for room, a write that happens to fit must not jump them.
    if (requests[name].method !== 'GET' && this.fleet.diskFull) throw diskFullError(this.dataDir);
    try {
      return (await this.handlers[name](parsed as never)) as RequestOutput<K>;
    } catch (error) {
      // Nothing was stored (each write is one transaction); the request is refused in words.
      if (isDiskFull(error)) throw diskFullError(this.dataDir);
      throw error;
    }
  }

  status(): Status {
    return this.board.status();
  }

  stop(options: { graceMs?: number } = {}): Promise<void> {
    if (this.stopping) {
      if (options.graceMs !== undefined) this.fleet.hurry(options.graceMs);
      return this.stopping;
    }
    this.stopping = (async () => {
      this.publisher.stop();
      this.hold.stop();
      this.machine.stop();
      await this.fleet.shutdown(options.graceMs ?? 10_000);
      await this.retention.stop();
      await this.shared.closeAll();
      this.scaleLedger.record('*', 0, 0, 'shutdown', 'the engine stopped');
      this.timeline.close(Date.now());
      if (this.cgroupBase) await removeCgroupTree(this.cgroupBase);
      try {
        // Last, when no job moves any more: the next start reads them instead of counting.
        this.counts.save();
      } catch (error) {
        (this.options.log ?? defaultLog)(`could not save job counts (the next start counts them afresh): ${(error as Error).message}`);
      }
      await this.jobs.close();
      this.db.close();
      this.lock.release();
    })();
    return this.stopping;
  }
}
