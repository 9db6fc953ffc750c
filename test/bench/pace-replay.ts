// The pace after a resume, replayed: a lane of 300 two-second jobs on 3 workers on a fake clock,
// 100 ms a step. The recent figures hear the jobs' events as the engine sends them, all work may be
// paused for spans of the run (running jobs finish, none starts), and at every step the lane's
// status is built (status/lane-status.ts, the one outlook every surface shows). Pure: the test
// reads its events (when an outlook is withheld, when it is back), the bench its figure (the worst
// outlook over the time truly left, target ≤ ×2).
import type { LanesEvent } from '../../shared/events.js';
import type { JobSummary } from '../../shared/model.js';
import { RecentFiguresBoard } from '../../electron/engine/status/recent.js';
import { laneStatus, type StatusInputs } from '../../electron/engine/status/lane-status.js';
import { pausedNow, type LaneRow } from '../../electron/engine/store/lanes.js';
import { summarize, type Figure } from './stats.js';

const JOBS = 300;
export const RUN_MS = 2000;
const WORKERS = 3;
const STEP_MS = 100;
export const T0 = 1_700_000_000_000;

interface Sim {
  now: number;
  queued: number[];
  running: Map<number, number>;
  done: number;
}

const row: LaneRow = { name: 'worker', class: 'cpu', cap: WORKERS, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue: null };

function jobEvent(id: number, state: 'running' | 'succeeded', startedAt: number, finishedAt: number | null): LanesEvent {
  const data = { id, lane: 'worker', state, attempts: 1, createdAt: T0, startedAt, finishedAt } as Partial<JobSummary>;
  return { type: 'job', seq: 0, data } as unknown as LanesEvent;
}

/**
 * Plays the lane: `pauses` are [from, to) offsets from T0 in ms — of all work (resumed by the
 * person), or of this lane alone with its own end (`pause --lane … --for`), which the status
 * board sees as the lane's pause running out. Returns each step's outlook and the moment all is done.
 */
export function play(pauses: [number, number][], of: 'all' | 'lane' = 'all'): { at: number; etaMs: number | null; state: string }[] & { endAt?: number } {
  const sim: Sim = { now: T0, queued: Array.from({ length: JOBS }, (_, i) => i + 1), running: new Map(), done: 0 };
  const board = new RecentFiguresBoard(() => sim.now);
  const seen: { at: number; etaMs: number | null; state: string }[] & { endAt?: number } = [];
  const pausedAt = (t: number) => pauses.some(([from, to]) => t - T0 >= from && t - T0 < to);
  let wasPaused = false;
  while (sim.done < JOBS) {
    const paused = pausedAt(sim.now);
    if (of === 'all' && wasPaused && !paused) board.observe({ type: 'paused', seq: 0, data: { paused: null } } as unknown as LanesEvent);
    wasPaused = paused;
    // The lane's own pause stays in its row until the engine clears it: the board reads it as over once its time has come.
    const span = pauses.filter(([from]) => sim.now - T0 >= from).at(-1);
    const lane: LaneRow = of === 'lane' && span ? { ...row, paused: { since: T0 + span[0], until: T0 + span[1] } } : row;
    if (of === 'lane') board.lanePaused(lane.name, pausedNow(lane, sim.now), sim.now);
    for (const [id, startedAt] of sim.running) {
      if (sim.now - startedAt < RUN_MS) continue;
      sim.running.delete(id);
      sim.done++;
      board.observe(jobEvent(id, 'succeeded', startedAt, startedAt + RUN_MS));
    }
    while (!paused && sim.running.size < WORKERS && sim.queued.length > 0) {
      const id = sim.queued.shift()!;
      sim.running.set(id, sim.now);
      board.observe(jobEvent(id, 'running', sim.now, null));
    }
    const inputs: StatusInputs = {
      now: sim.now,
      tickMs: 1000,
      ceiling: 7,
      laneLimits: new Map(),
      lanes: [lane],
      counts: new Map([['worker', { queued: sim.queued.length, running: sim.running.size, succeeded: sim.done, failed: 0, cancelled: 0 }]]),
      demand: new Map([['worker', { ready: sim.queued.length, inHand: 0, notYet: 0, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: null, running: sim.running.size }]]),
      workers: new Map([['worker', { idle: WORKERS - sim.running.size, busy: sim.running.size, leaving: 0 }]]),
      machineInUse: WORKERS,
      paused: of === 'all' && paused,
    };
    const lookups = { recent: (lane: string, now: number) => board.of(lane, now), oldestQueuedAt: () => T0, startsBlockedUntil: () => null, workerMemory: () => null };
    const { status } = laneStatus(lane, inputs, lookups);
    if (sim.done < JOBS) seen.push({ at: sim.now, etaMs: status.etaMs, state: status.etaState });
    sim.now += STEP_MS;
  }
  seen.endAt = sim.now - STEP_MS;
  return seen;
}

/** The worst outlook over the time truly left, over the steps outside `skip` (the pause itself, which has no outlook). */
export function worst(seen: ReturnType<typeof play>, from = 0): { ratio: number; at: number } {
  let w = { ratio: 0, at: 0 };
  for (const s of seen) {
    if (s.at - T0 < from || s.state !== 'known' || s.etaMs === null) continue;
    const truly = seen.endAt! - s.at;
    if (truly < 2 * RUN_MS) continue; // the last round: any outlook is within a round of the truth
    const ratio = s.etaMs / truly;
    if (ratio > w.ratio) w = { ratio, at: s.at - T0 };
  }
  return w;
}

/** The worst outlook over the truth, with a 25 s pause partway and without one. */
export function paceResumeFigures(): Figure[] {
  const figure = (what: string, pauses: [number, number][], of: 'all' | 'lane' = 'all'): Figure => ({
    section: 'Estimates',
    what,
    unit: '× the time truly left',
    lanes: summarize([worst(play(pauses, of)).ratio]),
    target: '≤ ×2',
    judge: (f) => f.lanes.median <= 2,
  });
  return [
    figure('worst outlook of 300 two-second jobs on 3 workers, paused 25 s partway', [[6_000, 31_000]]),
    figure('worst outlook of the same run, its lane paused 25 s by itself (pause --lane --for)', [[6_000, 31_000]], 'lane'),
    figure('worst outlook of the same run without a pause', []),
  ];
}
