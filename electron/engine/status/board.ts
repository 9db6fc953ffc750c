// The status board: what a person sees of the engine and its lanes, built from the stores, the
// last sizing pass's snapshot (the machine, its limits), the workers as they are now and the
// recent figures, announced as lanes change (publisher.ts) and sampled into the timeline. The
// engine wires it; request handlers read it. It never calls into the fleet or the machine.
import type { LaneStatus, LaneTimeline, Paused, SharedLaneStatus, Status } from '../../../shared/model.js';
import type { EventHub } from '../event-hub.js';
import type { PassSnapshot } from '../sizer/pass.js';
import { pausedNow, type LaneCounts, type LaneRow } from '../store/lanes.js';
import { laneStatus, statusKey, type StatusInputs, type StatusLookups, type WorkerCounts } from './lane-status.js';
import { LanePublisher, type BuiltStatus, type StatusBuilder } from './publisher.js';
import type { RecentFiguresBoard } from './recent.js';
import type { TimelineSamples } from './timeline.js';

/** What request handlers and the engine read of the board. */
export interface StatusBoard {
  status(): Status;
  /** Announces every lane whose status changed, now rather than at the next publishing moment. */
  announce(): void;
  lane(name: string): LaneStatus | undefined;
  timeline(lanes: readonly string[], since: number): LaneTimeline[];
  /** A lane is gone: forget what was announced and sampled of it. */
  forget(lane: string): void;
}

export interface BoardDeps {
  tickMs: number;
  dataDir: string;
  startedAt: number;
  version: string;
  /** Each lane's counts from its own store: the local one, or its shared queue as last read. */
  lanes: { list(): readonly LaneRow[]; find(name: string): LaneRow | undefined; allCounts(): ReadonlyMap<string, LaneCounts> };
  jobs: { oldestQueuedAt(lane: string): number | undefined; blocked?(lane: string): number };
  /** A shared lane's queue as last seen; undefined for a local lane. */
  shared(lane: string): SharedLaneStatus | undefined;
  events: EventHub;
  timeline: TimelineSamples;
  /** The workers as they are now (they move between passes), each lane's counted once. */
  workers: {
    counts(): Map<string, WorkerCounts>;
    alive(): number;
    startsBlockedUntil(lane: string): number | null;
  };
  /** The last sizing pass: each lane's demand, the machine and its limits as judged then. */
  pass(): PassSnapshot;
  /** What one worker of the lane typically holds (bytes), measured; null until it is. */
  costOf(lane: string): number | null;
  /** What one worker of an ml lane typically holds on the GPU (bytes), measured; null until it is. */
  gpuCostOf?(lane: string): number | null;
  recent: RecentFiguresBoard;
  paused(): Paused | null;
}

export function createStatusBoard(d: BoardDeps): { board: StatusBoard; publisher: LanePublisher } {
  const recent = d.recent;
  const inputs = (): StatusInputs => {
    const { limits, demand } = d.pass();
    return {
      now: Date.now(),
      tickMs: d.tickMs,
      ceiling: limits.ceiling,
      ceilingWhy: { by: limits.limits[0]!.reason, text: limits.limits[0]!.text },
      laneLimits: limits.lanes,
      lanes: d.lanes.list(),
      counts: d.lanes.allCounts(),
      demand,
      workers: d.workers.counts(),
      machineInUse: d.workers.alive(),
      paused: d.paused() !== null,
    };
  };
  const lookups: StatusLookups = {
    recent: (lane, now) => recent.of(lane, now),
    progressed: (lane) => recent.progressed(lane),
    oldestQueuedAt: (lane) => d.jobs.oldestQueuedAt(lane),
    blocked: (lane) => d.jobs.blocked?.(lane) ?? 0,
    startsBlockedUntil: (lane) => d.workers.startsBlockedUntil(lane),
    workerMemory: (lane) => d.costOf(lane),
    workerGpu: (lane) => d.gpuCostOf?.(lane) ?? null,
    shared: (lane) => d.shared(lane),
  };
  const changed: StatusBuilder = (stale) => {
    const now = inputs();
    const built: BuiltStatus[] = [];
    for (const lane of now.lanes) {
      recent.lanePaused(lane.name, pausedNow(lane, now.now), now.now);
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
        ceiling: d.pass().limits.ceiling,
        machine: d.pass().machine,
        paused: d.paused(),
        workersInUse: d.workers.alive(),
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
      if (!row) return undefined;
      const now = inputs();
      recent.lanePaused(row.name, pausedNow(row, now.now), now.now);
      return laneStatus(row, now, lookups).status;
    },
    timeline: (names, since) => d.timeline.of(names, since),
    forget: (lane) => publisher.forget(lane),
  };
  return { board, publisher };
}
