// The engine's workers as a whole: the sizer loop's observe and apply steps, the pool that
// carries them out, the heartbeat, what gets announced, and an orderly shutdown.
import type { LaneStatus, ScaleReason } from '../../shared/model.js';
import type { EventHub } from './event-hub.js';
import type { LaneView } from './lane-view.js';
import { SizerLoop } from './sizer/loop.js';
import type { Decision, LaneObservation, Observation } from './sizer/policy.js';
import { publicJob, type JobStore } from './store/jobs.js';
import type { LaneRow, LaneStore } from './store/lanes.js';
import type { Ledger } from './store/ledger.js';
import { Heartbeat } from './workers/heartbeat.js';
import type { WorkerLauncher } from './workers/launcher.js';
import { Pool, roleOf, type WorkerRecord } from './workers/pool.js';

/** The narrow slice of the engine the fleet needs. */
export interface FleetContext {
  readonly ceiling: number;
  readonly tickMs: number;
  readonly events: EventHub;
  readonly jobs: JobStore;
  readonly lanes: LaneStore;
  readonly ledger: Ledger;
  readonly view: LaneView;
  laneList(): LaneRow[];
  /** Every lane's status, and when a nudge not yet showing becomes due. */
  laneSnapshot(): { lanes: LaneStatus[]; nudgeDueAt: number | null };
  logPaths(jobId: number): { stdoutPath: string; stderrPath: string };
}

export interface FleetOptions {
  engine: FleetContext;
  launcher: WorkerLauncher;
  entry: string;
  heartbeatMs: number;
  logCapBytes: number;
  log: (line: string) => void;
}

/** Lane events are announced at most this often: a busy lane changes thousands of times a second. */
const PUBLISH_EVERY_MS = 100;

export class Fleet {
  readonly pool: Pool;
  readonly loop: SizerLoop;
  private readonly heartbeat: Heartbeat;
  private readonly lastShrinkAt = new Map<string, number>();
  private readonly surplusSince = new Map<string, number>();
  private readonly published = new Map<string, string>();
  private lastPublish = 0;
  private publishTimer: NodeJS.Timeout | null = null;
  private nudgeDueAt: number | null = null;
  /** While shutting down: end the grace period within `ms`, if that is sooner. */
  hurry: (ms: number) => void = () => {};

  constructor(private readonly o: FleetOptions) {
    const ctx = o.engine;
    this.pool = new Pool(
      ctx.jobs,
      {
        now: Date.now,
        workerCommand: (lane) => {
          const row = ctx.laneList().find((l) => l.name === lane);
          return row?.workerCommand ? { argv: row.workerCommand, cwd: row.workerCwd } : null;
        },
        logPaths: (id) => ctx.logPaths(id),
        jobChanged: (job) => {
          ctx.events.emit('job', publicJob(job));
          // Counts moved even when the sizer has nothing to decide: the lane's row must follow.
          this.publishSoon();
        },
        fleetChanged: () => {
          this.heartbeat.update();
          this.loop.poke();
        },
        workerLost: (w, reason, detail) => this.recordLoss(w.lane, reason, detail),
      },
      { entry: o.entry, launcher: o.launcher, logCapBytes: o.logCapBytes, stopTimeoutMs: 5_000 },
    );
    this.heartbeat = new Heartbeat(this.pool, o.heartbeatMs, Date.now, (w) => this.silent(w));
    this.loop = new SizerLoop(
      { observe: () => this.observe(), apply: (d) => this.apply(d), afterPass: () => this.afterPass() },
      ctx.tickMs,
      Date.now,
    );
  }

  start(): void {
    this.loop.start();
  }

  /** Workers alive across all lanes, including those on their way out. */
  alive(): number {
    return this.pool.workers.size;
  }

  counts(lane: string): { idle: number; busy: number; leaving: number } {
    const c = { idle: 0, busy: 0, leaving: 0 };
    for (const w of this.pool.workers.values()) if (w.lane === lane) c[roleOf(w.state)]++;
    return c;
  }

  observe(): Observation {
    const counts = this.o.engine.lanes.allCounts();
    const byLane = new Map<string, LaneObservation>();
    for (const l of this.o.engine.laneList()) {
      byLane.set(l.name, {
        name: l.name,
        class: l.class,
        cap: l.cap,
        idle: [],
        busy: [],
        leaving: 0,
        waiting: counts.get(l.name)?.queued ?? 0,
        lastShrinkAt: this.lastShrinkAt.get(l.name) ?? null,
        surplusSince: this.surplusSince.get(l.name) ?? null,
      });
    }
    for (const w of this.pool.workers.values()) {
      const l = byLane.get(w.lane);
      if (!l) continue;
      const role = roleOf(w.state);
      if (role === 'leaving') l.leaving++;
      else (l[role] as string[]).push(w.id);
    }
    return { now: Date.now(), tickMs: this.o.engine.tickMs, ceiling: this.o.engine.ceiling, lanes: [...byLane.values()] };
  }

  private apply({ actions, surplus }: Decision): void {
    const now = Date.now();
    for (const lane of this.surplusSince.keys()) if (!surplus.includes(lane)) this.surplusSince.delete(lane);
    for (const lane of surplus) if (!this.surplusSince.has(lane)) this.surplusSince.set(lane, now);
    for (const a of actions) {
      if (a.kind === 'start') for (let i = 0; i < a.count; i++) this.pool.start(a.lane);
      else if (a.kind === 'stop') this.pool.stop(a.workers);
      else this.pool.drain(a.workers);
      if (a.kind === 'stop' && a.reason === 'idle') this.lastShrinkAt.set(a.lane, Date.now());
      this.o.engine.events.emit('scale', this.o.engine.ledger.record(Date.now(), a.lane, a.from, a.to, a.reason, a.detail));
    }
    this.heartbeat.update();
  }

  /** A worker went without being asked: the lane has one fewer in service than a moment ago. */
  private recordLoss(lane: string, reason: ScaleReason, detail: string): void {
    const now = this.counts(lane);
    const to = now.idle + now.busy;
    this.o.engine.events.emit('scale', this.o.engine.ledger.record(Date.now(), lane, to + 1, to, reason, detail));
  }

  private silent(w: WorkerRecord): void {
    this.o.log(`worker ${w.id} stopped answering; replacing it`);
    this.pool.kill(w.id, 'unresponsive');
  }

  private afterPass(): number | null {
    this.publishSoon();
    return this.nudgeDueAt;
  }

  /** Publishes now, or once at the end of the current 100 ms window. */
  publishSoon(): void {
    const since = Date.now() - this.lastPublish;
    if (since >= PUBLISH_EVERY_MS) this.publish();
    else if (!this.publishTimer) {
      this.publishTimer = setTimeout(() => {
        this.publishTimer = null;
        this.publish();
      }, PUBLISH_EVERY_MS - since);
    }
  }

  /** Announces lanes whose status changed, and their nudges; samples the timeline. */
  publish(): void {
    this.lastPublish = Date.now();
    const ctx = this.o.engine;
    const { lanes, nudgeDueAt } = ctx.laneSnapshot();
    for (const s of lanes) {
      const json = JSON.stringify(s);
      if (this.published.get(s.name) === json) continue;
      this.published.set(s.name, json);
      ctx.view.sample(s, this.lastPublish);
      ctx.events.emit('lane', s);
      if (ctx.view.nudgeChanged(s)) ctx.events.emit('nudge', { lane: s.name, nudge: s.nudge });
    }
    this.nudgeDueAt = nudgeDueAt;
    if (this.nudgeDueAt !== null) this.loop.wakeBy(this.nudgeDueAt);
  }

  forgetLane(name: string): void {
    this.published.delete(name);
    this.lastShrinkAt.delete(name);
    this.surplusSince.delete(name);
    this.o.engine.view.forget(name);
  }

  /** Stop taking work; let running jobs finish within `graceMs`; then end the rest. */
  async shutdown(graceMs: number): Promise<void> {
    this.loop.stop();
    if (this.publishTimer) clearTimeout(this.publishTimer);
    const busy = [...this.pool.workers.values()].filter((w) => w.job !== null).length;
    this.pool.close();
    if (busy) this.o.log(`stopping: letting ${busy} running job(s) finish, up to ${Math.round(graceMs / 1000)} s`);
    await new Promise<void>((resolve) => {
      let deadline = Date.now() + graceMs;
      let timer = setTimeout(resolve, graceMs);
      void this.pool.whenEmpty(graceMs).then(resolve);
      // A second, more impatient stop (a person clicking "Quit now") shortens the wait.
      this.hurry = (ms) => {
        if (Date.now() + ms >= deadline) return;
        deadline = Date.now() + ms;
        clearTimeout(timer);
        timer = setTimeout(resolve, ms);
      };
    });
    this.hurry = () => {};
    // Whatever did not finish in time runs again at the next start, without losing an attempt.
    for (const w of [...this.pool.workers.values()]) {
      for (const job of this.o.engine.jobs.runningFor(w.id)) this.o.engine.jobs.requeue(job, 'the engine stopped before it finished', Date.now(), { refund: true });
      this.pool.kill(w.id);
    }
    await this.pool.whenEmpty(5_000);
    this.heartbeat.stop();
  }
}
