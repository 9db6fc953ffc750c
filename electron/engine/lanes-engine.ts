// The running engine: makes its parts (engine-parts.ts, in the order data flows: stores → workers
// → machine → sizing → board → requests), answers requests, and stops the parts again in order.
import { requests, type RequestName, type RequestOutput } from '../../shared/requests.js';
import type { Status } from '../../shared/model.js';
import { conflict } from '../../shared/errors.js';
import { removeCgroupTree } from '../job-control/containment.js';
import type { MachineSampler } from './machine/machine.js';
import type { EventHub } from './event-hub.js';
import { diskFullError, isDiskFull } from './store/disk-full.js';
import { validateInTurns } from './validate.js';
import type { Engine } from './engine-types.js';
import { engineSignals, openBoard, openMachine, openRequests, openSizing, openStores, openWorkers, type Board, type EngineStart, type Handlers, type Sizing, type Stores, type Workers } from './engine-parts.js';

export type { EngineStart } from './engine-parts.js';

/** The parts, made in order by `open`. */
interface Parts extends Stores, Workers, Sizing, Board {
  start: EngineStart;
  sampler: MachineSampler;
  handlers: Handlers;
}

export class LanesEngine implements Engine {
  readonly events: EventHub;
  readonly startedAt: number;
  private stopping: Promise<void> | null = null;

  static async open(start: EngineStart): Promise<LanesEngine> {
    const signals = engineSignals();
    const stores = openStores(start, signals);
    const workers = openWorkers(start, stores, signals);
    const sampler = await openMachine(start, workers);
    try {
      const sizing = openSizing(start, stores, workers, sampler, signals);
      const board = openBoard(start, stores, workers, sampler, sizing, signals);
      const handlers = openRequests(start, stores, workers, sampler, sizing, board);
      const engine = new LanesEngine({ ...stores, ...workers, ...sizing, ...board, start, sampler, handlers });
      stores.scaleLedger.record('*', 0, 0, 'start', `the engine started (pid ${process.pid})`);
      for (const job of stores.recovered) stores.events.emit('job', job);
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

  get ceiling(): number {
    return this.p.pass.snapshot.limits.ceiling;
  }

  async request<K extends RequestName>(name: K, input: unknown): Promise<RequestOutput<K>> {
    if (this.stopping) throw conflict('the engine is stopping');
    const parsed = await validateInTurns(name, input);
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
      await p.fleet.shutdown(options.graceMs ?? p.start.settings.stopGraceMs);
      // Every run has ended: what they said last of how far they got is no news any more.
      p.progress.close();
      await p.retention.stop();
      await p.shared.closeAll();
      p.scaleLedger.record('*', 0, 0, 'shutdown', 'the engine stopped');
      p.timeline.close(Date.now());
      if (p.start.cgroupBase) await removeCgroupTree(p.start.cgroupBase);
      try {
        // Last, when no job moves any more: the next start reads them instead of counting.
        p.counts.save();
      } catch (error) {
        p.start.settings.log(`could not save job counts (the next start counts them afresh): ${(error as Error).message}`);
      }
      await p.jobs.close();
      p.start.db.close();
      p.start.lock.release();
    })();
    return this.stopping;
  }
}
