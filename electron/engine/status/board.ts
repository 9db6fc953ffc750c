// The status board: what a person sees of the engine and its lanes, built from the stores, the
// fleet and the recent figures, announced as lanes change (publisher.ts) and sampled into the
// timeline. The engine wires it; request handlers read it.
import type { MachineStatus, Paused, SharedLaneStatus, Status } from '../../../shared/model.js';
import type { MachineLimits } from '../machine/limits.js';
import type { EventHub } from '../event-hub.js';
import type { StatusBoard } from '../requests/context.js';
import type { LaneCounts, LaneRow } from '../store/lanes.js';
import { laneStatus, statusKey, type StatusInputs, type StatusLookups, type WorkerCounts } from './lane-status.js';
import { LanePublisher, type BuiltStatus, type StatusBuilder } from './publisher.js';
import { RecentFiguresBoard } from './recent.js';
import type { TimelineSamples } from './timeline.js';

export interface BoardDeps {
  tickMs: number;
  dataDir: string;
  startedAt: number;
  version: string;
  /** Each lane's counts from its own store: the local one, or its shared queue as last read. */
  lanes: { list(): readonly LaneRow[]; find(name: string): LaneRow | undefined; allCounts(): ReadonlyMap<string, LaneCounts> };
  jobs: { delayed(now: number): ReadonlyMap<string, { n: number; next: number }>; oldestQueuedAt(lane: string): number | undefined };
  /** A shared lane's queue as last seen; undefined for a local lane. */
  shared(lane: string): SharedLaneStatus | undefined;
  events: EventHub;
  timeline: TimelineSamples;
  fleet: {
    workerCounts(): Map<string, WorkerCounts>;
    alive(): number;
    startsBlockedUntil(lane: string): number | null;
    limits(): MachineLimits;
    machineStatus(): MachineStatus;
    costOf(lane: string): number | null;
    gpuCostOf?(lane: string): number | null;
  };
  paused(): Paused | null;
}

export function createStatusBoard(d: BoardDeps): { board: StatusBoard; publisher: LanePublisher; recent: RecentFiguresBoard } {
  const recent = new RecentFiguresBoard();
  d.events.subscribe(recent.observe);
  const inputs = (): StatusInputs => {
    const limits = d.fleet.limits();
    return {
    now: Date.now(),
    tickMs: d.tickMs,
    ceiling: limits.ceiling,
    laneLimits: limits.lanes,
    lanes: d.lanes.list(),
    counts: d.lanes.allCounts(),
    delayed: d.jobs.delayed(Date.now()),
    workers: d.fleet.workerCounts(),
    machineInUse: d.fleet.alive(),
    paused: d.paused() !== null,
    };
  };
  const lookups: StatusLookups = {
    recent: (lane, now) => recent.of(lane, now),
    oldestQueuedAt: (lane) => d.jobs.oldestQueuedAt(lane),
    startsBlockedUntil: (lane) => d.fleet.startsBlockedUntil(lane),
    workerMemory: (lane) => d.fleet.costOf(lane),
    workerGpu: (lane) => d.fleet.gpuCostOf?.(lane) ?? null,
    shared: (lane) => d.shared(lane),
  };
  const changed: StatusBuilder = (stale) => {
    const now = inputs();
    const built: BuiltStatus[] = [];
    for (const lane of now.lanes) {
      const key = statusKey(lane, now, lookups);
      if (stale(lane.name, key)) built.push({ ...laneStatus(lane, now, lookups), key });
    }
    return { lanes: now.lanes.map((l) => l.name), built };
  };
  const publisher = new LanePublisher(changed, d.events, d.timeline);
  const board: StatusBoard = {
    status: (): Status => {
      // What changed is announced as the lanes are read; the seq taken after covers it all.
      const lanes = publisher.current();
      return {
        seq: d.events.lastSeq,
        ceiling: d.fleet.limits().ceiling,
        machine: d.fleet.machineStatus(),
        paused: d.paused(),
        workersInUse: d.fleet.alive(),
        dataDir: d.dataDir,
        pid: process.pid,
        startedAt: d.startedAt,
        version: d.version,
        lanes,
      };
    },
    announce: () => publisher.publish(),
    lane: (name) => {
      const row = d.lanes.find(name);
      return row && laneStatus(row, inputs(), lookups).status;
    },
    timeline: (names, since) => d.timeline.of(names, since),
    forget: (lane) => publisher.forget(lane),
  };
  return { board, publisher, recent };
}
