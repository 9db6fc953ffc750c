// The engine: wires the store, the worker pool and the sizer together, and answers requests.
// Nothing here imports Electron; the desktop app, `lanes daemon` and the tests all run this.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestName, RequestOutput } from '../../shared/requests.js';
import type { LaneStatus, Status } from '../../shared/model.js';
import { appVersion, migrationsDir, workerEntry as defaultWorkerEntry } from './app-files.js';
import { detectCores, machineCeiling, tickFromEnv } from './ceiling.js';
import { EventHub } from './event-hub.js';
import { acquireLock, type EngineLock } from './lock.js';
import { LaneView } from './lane-view.js';
import { Fleet } from './fleet.js';
import { createHandlers } from './handlers.js';
import { validate } from './validate.js';
import { conflict } from './errors.js';
import { openDatabase, type Db } from './store/db.js';
import { JobStore } from './store/jobs.js';
import { JobQueries, type RecentFigures } from './store/job-queries.js';
import { LaneStore, type LaneRow } from './store/lanes.js';
import { Ledger } from './store/ledger.js';
import { recoverInterrupted } from './recovery.js';
import { RATE_WINDOW_S, RecentRate } from './recent-rate.js';
import { nodeLauncher, type WorkerLauncher } from './workers/launcher.js';

export interface EngineOptions {
  /** Directory holding lanes.db, logs/, the lock. Created if missing. */
  dataDir: string;
  /** Logical core count; default: LANES_CORES, else systeminformation. Ceiling = cores − 1, ≥ 1. */
  cores?: number;
  /** Sizer tick; default: LANES_TICK_MS, else 60 000. */
  tickMs?: number;
  /** How worker processes are started; default: forked Node children. */
  launcher?: WorkerLauncher;
  /** Absolute path of the worker runtime entry; default: dist/electron/worker/main.js. */
  workerEntry?: string;
  /** Where the engine writes its own diagnostics; default: stderr. */
  log?: (line: string) => void;
  /** How often workers are pinged; one silent for three pings is replaced. Default 5 000. */
  heartbeatMs?: number;
  /** Grace for a cancelled job between TERM and KILL. Default 5 000. */
  cancelGraceMs?: number;
  /** Each job's stdout and stderr are kept to this many bytes (the tail). Default 1 MiB. */
  logCapBytes?: number;
}

export interface Engine {
  readonly dataDir: string;
  readonly ceiling: number;
  readonly startedAt: number;
  readonly events: EventHub;
  /** Validates `input` against the shared contract, runs it; throws LanesError for bad input. */
  request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>>;
  status(): Status;
  /** Stop taking work, let running jobs finish within `graceMs`, then stop workers. */
  stop(options?: { graceMs?: number }): Promise<void>;
}

export async function openEngine(options: EngineOptions): Promise<Engine> {
  mkdirSync(join(options.dataDir, 'logs'), { recursive: true });
  const startedAt = Date.now();
  const tickMs = options.tickMs ?? tickFromEnv();
  const cores = options.cores ?? (await detectCores());
  const lock = acquireLock(options.dataDir, startedAt);
  try {
    const db = openDatabase(options.dataDir, migrationsDir);
    return new LanesEngine(options, db, lock, machineCeiling(cores), tickMs, startedAt);
  } catch (e) {
    lock.release();
    throw e;
  }
}

/** The median wait is a query; recomputing it every couple of seconds is plenty. */
const WAIT_CACHE_MS = 2_000;

class LanesEngine implements Engine {
  readonly events = new EventHub();
  readonly lanes: LaneStore;
  readonly jobs: JobStore;
  readonly queries: JobQueries;
  readonly ledger: Ledger;
  readonly view: LaneView;
  readonly fleet: Fleet;
  private laneRows: LaneRow[];
  private readonly waitCache = new Map<string, { at: number; ms: number | null }>();
  private readonly rate = new RecentRate();
  private readonly handlers;
  private stopping: Promise<void> | null = null;

  constructor(
    readonly options: EngineOptions,
    private readonly db: Db,
    private readonly lock: EngineLock,
    readonly ceiling: number,
    readonly tickMs: number,
    readonly startedAt: number,
  ) {
    this.lanes = new LaneStore(db);
    this.jobs = new JobStore(db);
    this.queries = new JobQueries(db);
    this.ledger = new Ledger(db);
    this.laneRows = this.lanes.list();
    const log = options.log ?? ((line: string) => process.stderr.write(`lanes: ${line}\n`));
    recoverInterrupted(this.jobs, Date.now(), log);
    this.view = new LaneView({
      lanes: () => this.laneRows,
      counts: () => this.lanes.allCounts(),
      recent: (lane) => this.recent(lane),
      oldestQueuedAt: (lane) => this.jobs.oldestQueuedAt(lane),
      fleet: (lane) => this.fleet.counts(lane),
    });
    this.fleet = new Fleet({
      engine: this,
      launcher: options.launcher ?? nodeLauncher,
      entry: options.workerEntry ?? defaultWorkerEntry,
      heartbeatMs: options.heartbeatMs ?? 5_000,
      logCapBytes: options.logCapBytes ?? 1_048_576,
      log,
    });
    this.handlers = createHandlers(this);
    this.countFinishedJobs();
    this.fleet.start();
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  get cancelGraceMs(): number {
    return this.options.cancelGraceMs ?? 5_000;
  }

  laneList(): LaneRow[] {
    return this.laneRows;
  }

  refreshLanes(): void {
    this.laneRows = this.lanes.list();
  }

  logPaths(jobId: number) {
    const base = join(this.dataDir, 'logs', String(jobId));
    return { stdoutPath: `${base}.stdout.log`, stderrPath: `${base}.stderr.log` };
  }

  async request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>> {
    if (this.stopping) throw conflict('the engine is stopping');
    const parsed = validate(name, input);
    return (await this.handlers[name](parsed as never)) as RequestOutput<K>;
  }

  status(): Status {
    const { lanes } = this.laneSnapshot();
    return {
      ceiling: this.ceiling,
      workersInUse: this.fleet.alive(),
      dataDir: this.dataDir,
      pid: process.pid,
      startedAt: this.startedAt,
      version: appVersion,
      lanes,
    };
  }

  laneSnapshot(): { lanes: LaneStatus[]; nudgeDueAt: number | null } {
    return this.view.all({ now: Date.now(), tickMs: this.tickMs, ceiling: this.ceiling }, this.fleet.alive());
  }

  laneStatus(name: string): LaneStatus | undefined {
    return this.view.build(name, { now: Date.now(), tickMs: this.tickMs, ceiling: this.ceiling }, this.fleet.alive());
  }


  private recent(lane: string): RecentFigures {
    const now = Date.now();
    let wait = this.waitCache.get(lane);
    if (!wait || now - wait.at >= WAIT_CACHE_MS) {
      wait = { at: now, ms: this.queries.medianWait(lane) };
      this.waitCache.set(lane, wait);
    }
    return { throughputPerMin: this.rate.perMinute(lane, now), medianWaitMs: wait.ms };
  }

  /** The rate starts from what finished in its window before this start, then counts events. */
  private countFinishedJobs(): void {
    for (const r of this.queries.finishedPerSecond(Date.now() - RATE_WINDOW_S * 1000)) this.rate.add(r.lane, r.second * 1000, r.n);
    this.events.subscribe((e) => {
      if (e.type === 'job' && e.data.finishedAt !== null && (e.data.state === 'succeeded' || e.data.state === 'failed')) {
        this.rate.add(e.data.lane, e.data.finishedAt);
      }
      if (e.type === 'laneRemoved') this.rate.forget(e.data.name);
    });
  }

  stop(options: { graceMs?: number } = {}): Promise<void> {
    if (this.stopping) {
      if (options.graceMs !== undefined) this.fleet.hurry(options.graceMs);
      return this.stopping;
    }
    this.stopping = (async () => {
      await this.fleet.shutdown(options.graceMs ?? 10_000);
      this.db.close();
      this.lock.release();
    })();
    return this.stopping;
  }
}

