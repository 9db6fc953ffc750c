// A limit is named only while it is the limit (shared/limit-now.ts). The machine is judged pass by
// pass (machine/limits.ts, its state carried from one step to the next), each lane's status built
// from that (status/lane-status.ts), and at every step the words each surface shows are checked:
// the window's lane line and header, the tray's lane detail, `lanes status`' notes. Sequences: a
// GPU limit that gives way to the cores another lane holds, workers ending, a lane going idle,
// memory while the backlog drains, a pause.
import { describe, expect, it } from 'vitest';
import type { LaneClass, LaneStatus, Status } from '../../shared/model.js';
import { limitNow } from '../../shared/limit-now.js';
import { INITIAL_LIMITS_STATE, machineLimits, type GpuInputs, type LimitsState } from '../../electron/engine/machine/limits.js';
import { machineStatus } from '../../electron/engine/machine/machine-status.js';
import type { MachineFacts } from '../../electron/engine/machine/facts.js';
import { laneStatus, type StatusInputs, type StatusLookups } from '../../electron/engine/status/lane-status.js';
import type { LaneDemand } from '../../electron/engine/sizer/demand.js';
import type { LaneRow } from '../../electron/engine/store/lanes.js';
import { statusText } from '../../electron/cli/commands/lanes.js';
import { laneDetail } from '../../electron/shell/tray-words.js';
import { holdingBack, laneLimit } from '../../renderer/lane-words.js';
import { facts, GiB, MiB } from './machine/machine-fixtures.js';

interface LaneNow {
  name: string;
  class?: LaneClass;
  cap?: number;
  waiting: number;
  busy: number;
  idle?: number;
  /** GPU: the lane's cost as measured (null: never), and how many of its workers were. */
  gpuCost?: { bytes: number; rounds: number } | null;
  measured?: number;
  /** What one worker holds in memory, measured (null: never); 200 MB unless a row says. */
  memoryCost?: { bytes: number; rounds: number } | null;
}

interface Step {
  lanes: LaneNow[];
  facts?: MachineFacts;
  paused?: boolean;
}

const card = { index: 0, uuid: 'GPU-0', name: 'Card 24G', totalBytes: 24 * GiB, usedBytes: 300 * MiB, usedByLanes: 0 };
const withGpu = (f: MachineFacts = facts()): MachineFacts => ({ ...f, gpu: { source: 'nvidia', cards: [card], at: f.at, override: null } });

const row = (l: LaneNow): LaneRow => ({ name: l.name, class: l.class ?? 'cpu', cap: l.cap ?? 7, workerCommand: null, workerCwd: null, timeoutMs: null, nudgeQuietUntil: null, nudgeQuietBacklog: null, queue: null });
const demand = (l: LaneNow): LaneDemand => ({ ready: l.waiting, inHand: 0, notYet: 0, afterJobs: 0, scheduled: 0, scheduledNext: null, nextReadyAt: null, running: l.busy });
const lookups: StatusLookups = {
  recent: () => ({ throughputPerMin: 0, finishedLately: 0, paceSpanMs: 0, medianWaitMs: null, workerLoadMs: null, typicalRunMs: null, longestRunMs: null, runningSince: [] }),
  oldestQueuedAt: () => undefined,
  startsBlockedUntil: () => null,
  workerMemory: () => null,
};

/** One pass: the machine judged (its state carried), each lane's status, and the status `lanes status` prints. */
function pass(step: Step, state: LimitsState): { status: Status; state: LimitsState } {
  const f = step.facts ?? facts();
  const inputs = step.lanes.map((l) => ({ name: l.name, class: l.class ?? 'cpu', cap: l.cap ?? 7, demand: l.waiting + l.busy, workers: l.busy + (l.idle ?? 0), leaving: 0, measured: l.busy + (l.idle ?? 0), cost: l.memoryCost === undefined ? { bytes: 200 * MiB, rounds: 10 } : l.memoryCost }));
  const ml = step.lanes.filter((l) => l.class === 'ml');
  const gpu: GpuInputs | undefined = f.gpu
    ? {
        workers: ml.flatMap((l) => Array.from({ length: l.busy + (l.idle ?? 0) }, () => ({ lane: l.name, card: 0, bytes: l.gpuCost?.bytes ?? 0 }))),
        lanes: new Map(ml.map((l) => [l.name, { measured: l.measured ?? 0, cost: l.gpuCost ?? null }])),
      }
    : undefined;
  const judged = machineLimits(f, inputs, state, gpu);
  const inUse = step.lanes.reduce((n, l) => n + l.busy + (l.idle ?? 0), 0);
  const top = judged.limits.limits[0]!;
  const statusInputs: StatusInputs = {
    now: f.at,
    tickMs: 1000,
    ceiling: judged.limits.ceiling,
    ceilingWhy: { by: top.reason, text: top.text },
    laneLimits: judged.limits.lanes,
    lanes: step.lanes.map(row),
    counts: new Map(step.lanes.map((l) => [l.name, { queued: l.waiting, running: l.busy, succeeded: 0, failed: 0, cancelled: 0 }])),
    demand: new Map(step.lanes.map((l) => [l.name, demand(l)])),
    workers: new Map(step.lanes.map((l) => [l.name, { idle: l.idle ?? 0, busy: l.busy, leaving: 0 }])),
    machineInUse: inUse,
    paused: step.paused ?? false,
  };
  const lanes: LaneStatus[] = step.lanes.map((l) => laneStatus(row(l), statusInputs, lookups).status);
  const machine = machineStatus(f, judged.limits);
  const status: Status = { seq: 0, ceiling: machine.ceiling, machine, paused: step.paused ? { since: 0, until: null } : null, workersInUse: inUse, dataDir: '/d', pid: 1, startedAt: 0, version: '0', lanes };
  return { status, state: judged.state };
}

/** What each surface says of one lane's limit, and the window's header. */
function words(status: Status, lane: string) {
  const l = status.lanes.find((s) => s.name === lane)!;
  const note = statusText(status, status.machine.ceiling, 120).split('\n').find((line) => line.startsWith(`${lane}: `) && !/waiting for|scheduled|Raise|lanes cap/.test(line)) ?? null;
  // The tray's detail also carries the lane's numbers and outlook: only what is not those is the limit's.
  const tray = (laneDetail(l) ?? '').split(' · ').filter((p) => p && !/ left|done \/ min| failed|retrying/.test(p));
  return { window: laneLimit(l), header: holdingBack(status.machine, status.lanes), tray: tray.join(' · ') || null, cli: note };
}

function run(steps: Step[]) {
  let state = INITIAL_LIMITS_STATE;
  return steps.map((s) => {
    const next = pass(s, state);
    state = next.state;
    return next.status;
  });
}

const embed = (o: Partial<LaneNow>): LaneNow => ({ name: 'embed', class: 'ml', waiting: 0, busy: 0, ...o });
const settled2G = { bytes: 2 * GiB, rounds: 10 };

describe('a limit is named only while it is the limit', () => {
  it('the GPU, then the cores another lane holds, then the workers ending, then idle', () => {
    const [measuring, cores, ending, idle, later] = run([
      // One worker, never measured: the GPU allows one until it is, and says so.
      { facts: withGpu(), lanes: [embed({ waiting: 40, busy: 1 })] },
      // Measured at 2 GB: the card fits more than the 8 the cores allow (nobody known at the computer: all of them), and another lane runs 5 of those 8.
      { facts: withGpu(), lanes: [embed({ waiting: 38, busy: 2, gpuCost: settled2G, measured: 2 }), { name: 'worker', waiting: 100, busy: 5 }] },
      // Nothing waits any more: the last jobs run.
      { facts: withGpu(), lanes: [embed({ waiting: 0, busy: 2, gpuCost: settled2G, measured: 2 }), { name: 'worker', waiting: 0, busy: 5 }] },
      // All workers gone.
      { facts: withGpu(), lanes: [embed({ gpuCost: settled2G }), { name: 'worker', waiting: 0, busy: 0 }] },
      // A lane never measured, no work and no worker: nothing to measure, nothing named.
      { facts: withGpu(), lanes: [embed({ gpuCost: null })] },
    ]);
    const gpuWords = 'GPU: measuring one worker before starting more';
    expect(words(measuring!, 'embed')).toEqual({ window: gpuWords, header: 'The GPU holds back embed', tray: gpuWords, cli: `embed: ${gpuWords}` });

    expect(cores!.lanes[0]!.limit).toEqual({ workers: 3, by: 'cores', text: 'all 8 cores: nobody at the computer; other lanes run 5 of them' });
    expect(words(cores!, 'embed')).toEqual({ window: 'all 8 cores: nobody at the computer; other lanes run 5 of them — up to 3 workers for now', header: null, tray: null, cli: null });

    for (const [what, s] of [['ending', ending], ['idle', idle], ['never measured, idle', later]] as const) {
      expect(s!.lanes[0]!.limit, what).toBeNull();
      expect(words(s!, 'embed'), what).toEqual({ window: null, header: null, tray: null, cli: null });
      expect(s!.machine.limitedBy, what).toBe('cores');
    }
  });

  it('memory while the backlog drains, and while paused', () => {
    const tight = facts({ memory: { override: 1500 * MiB } });
    const thumbs = (o: Partial<LaneNow>): LaneNow => ({ name: 'thumbs', waiting: 0, busy: 0, memoryCost: null, ...o });
    const [held, drained, paused] = run([
      { facts: tight, lanes: [thumbs({ waiting: 50, busy: 1 })] },
      { facts: tight, lanes: [thumbs({ waiting: 0, busy: 1 })] },
      { facts: tight, lanes: [thumbs({ waiting: 50, busy: 1 })], paused: true },
    ]);
    const held1 = words(held!, 'thumbs');
    expect(held1.window).toMatch(/^memory: /);
    expect(held1).toEqual({ window: held1.window, header: 'Memory holds back thumbs', tray: held1.window, cli: `thumbs: ${held1.window}` });
    expect(words(drained!, 'thumbs')).toEqual({ window: null, header: null, tray: null, cli: null });
    expect(words(paused!, 'thumbs').window).toBeNull();
  });

  it('battery: the ceiling is named for a lane it holds below its cap, with work waiting only', () => {
    const onBattery = facts({ power: { source: 'battery' } });
    const [waits, none] = run([
      { facts: onBattery, lanes: [{ name: 'worker', waiting: 9, busy: 3 }] },
      { facts: onBattery, lanes: [{ name: 'worker', waiting: 0, busy: 3 }] },
    ]);
    expect(words(waits!, 'worker')).toEqual({ window: 'quiet: on battery — up to 3 workers for now', header: 'Quiet: on battery — 3 of 8 workers', tray: null, cli: null });
    expect(words(none!, 'worker').window).toBeNull();
  });
});

describe('limitNow', () => {
  const ceiling = { workers: 7, by: 'cores' as const, text: 'cores' };
  const gpu = { workers: 3, by: 'gpu' as const, text: 'gpu' };
  it.each<[string, Parameters<typeof limitNow>[0], string | null]>([
    ['own limit below what the cores leave', { cap: 7, waiting: 5, paused: false, ceiling, machineInUse: 3, laneWorkers: 3, own: gpu }, 'gpu'],
    ['own limit above what the cores leave: the cores', { cap: 7, waiting: 5, paused: false, ceiling, machineInUse: 7, laneWorkers: 2, own: gpu }, 'cores'],
    ['own limit equal to the cap: nothing', { cap: 3, waiting: 5, paused: false, ceiling, machineInUse: 3, laneWorkers: 3, own: gpu }, null],
    ['nothing waiting', { cap: 7, waiting: 0, paused: false, ceiling, machineInUse: 3, laneWorkers: 3, own: gpu }, null],
    ['paused', { cap: 7, waiting: 5, paused: true, ceiling, machineInUse: 3, laneWorkers: 3, own: gpu }, null],
    ['cap 0: off, not held', { cap: 0, waiting: 5, paused: false, ceiling, machineInUse: 0, laneWorkers: 0, own: null }, null],
    ['cap above the ceiling, nothing else running', { cap: 9, waiting: 5, paused: false, ceiling, machineInUse: 7, laneWorkers: 7, own: null }, 'cores'],
    ['the ceiling reason passed through', { cap: 7, waiting: 5, paused: false, ceiling: { workers: 3, by: 'battery', text: 'quiet' }, machineInUse: 3, laneWorkers: 3, own: null }, 'battery'],
  ])('%s', (_what, f, by) => {
    expect(limitNow(f)?.by ?? null).toBe(by);
  });
});
