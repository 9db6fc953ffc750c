// What the window says about the machine holding Lanes back, table by table: the header's words and
// count, the facts behind them, a lane's limit note and its measured memory, the nudge's estimate
// set apart from the engine's own words, and how a `machine` event lands in the lanes store.
import { describe, expect, it as test } from 'vitest';
import type { LaneStatus, MachineStatus, Status } from '../../shared/model.js';
import type { LanesEvent } from '../../shared/events.js';
import { holdingBack, laneLimit, machineFacts, machineInUse, nudgeParts, workerMemory } from '../../renderer/lane-words.js';
import { aboutBytes } from '../../shared/format.js';
import { foldEvents } from '../../renderer/events.js';
import { applyLaneEvents, replaceLanes, useLanes } from '../../renderer/stores/lanes.js';
import { nudgeFor, type NudgeFacts } from '../../electron/engine/sizer/nudge.js';

const MB = 2 ** 20;

/** Someone at the computer, so one core is kept free; a row says so where nobody is. */
function machine(patch: Partial<MachineStatus> = {}): MachineStatus {
  return { cores: 8, coreCeiling: 7, memoryBytes: 1500 * MB, power: 'ac', personActive: true, ceiling: 7, limitedBy: 'cores', text: '8 cores: 7 workers, one core kept free', ...patch };
}

const lane = (name: string, patch: Partial<LaneStatus> = {}) => ({ name, cap: 3, limit: null, workerMemoryBytes: null, ...patch }) as LaneStatus;
const gpuHeld = (name: string) => lane(name, { limit: { workers: 3, by: 'gpu', text: 'the GPU has memory for 3 of these workers, about 5.9 GB each' } });
const memoryHeld = (name: string) => lane(name, { limit: { workers: 3, by: 'memory', text: 'memory for 3 of these, about 410 MB each' } });

describe('the header says when Lanes holds back', () => {
  const battery = machine({ power: 'battery', ceiling: 3, limitedBy: 'battery', text: 'quiet: on battery' });
  const cases: [string, MachineStatus, LaneStatus[], string | null][] = [
    ['the cores alone: nothing to say', machine(), [lane('a')], null],
    ['on battery, with the count', battery, [], 'Quiet: on battery — 3 of 7 workers'],
    ['the person at the computer', machine({ ceiling: 5, limitedBy: 'in-use', text: 'leaving room: you are using the computer' }), [], 'Leaving room: you are using the computer — 5 of 7 workers'],
    ['other programs', machine({ ceiling: 5, limitedBy: 'load', text: 'other programs keep 2 cores busy' }), [], 'Other programs keep 2 cores busy — 5 of 7 workers'],
    ['a container sets the core ceiling itself: no count to compare', machine({ cores: 64, coreCeiling: 1, ceiling: 1, limitedBy: 'container', text: 'container: 2 CPUs, 1 worker' }), [], 'Container: 2 CPUs, 1 worker'],
    ['memory names the lane it holds', machine({ limitedBy: 'memory', text: 'embed: memory for 3 of these' }), [lane('a'), memoryHeld('embed')], 'Memory holds back embed'],
    ['…two lanes by name', machine(), [memoryHeld('embed'), memoryHeld('whisper')], 'Memory holds back embed and whisper'],
    ['…more by count', machine(), [memoryHeld('a'), memoryHeld('b'), memoryHeld('c')], 'Memory holds back 3 lanes'],
    // The machine's status moves with its next reading; the lanes' events with every change.
    ['…from the lanes, before the machine says so', machine(), [memoryHeld('embed')], 'Memory holds back embed'],
    ['…and not once they are no longer held', machine({ limitedBy: 'memory', text: 'embed: memory for 3 of these' }), [lane('embed')], null],
    ['the battery before a lane’s memory', battery, [memoryHeld('embed')], 'Quiet: on battery — 3 of 7 workers'],
    ['the GPU names the lane it holds', machine({ limitedBy: 'gpu', text: 'models: the GPU has memory for 3 of these workers' }), [lane('a'), gpuHeld('models')], 'The GPU holds back models'],
    ['memory and the GPU, each with its lanes', machine({ limitedBy: 'memory' }), [memoryHeld('embed'), gpuHeld('models')], 'Memory holds back embed; the GPU holds back models'],
  ];
  for (const [name, m, lanes, words] of cases) test(name, () => expect(holdingBack(m, lanes)).toBe(words));

  test('its count says only what the words do not', () => {
    expect(machineInUse(2, machine(), 7, false)).toBe('2 of 7 workers in use');
    expect(machineInUse(3, machine({ ceiling: 3, limitedBy: 'battery' }), 3, true)).toBe('3 in use');
    expect(machineInUse(0, machine({ limitedBy: 'memory' }), 7, true)).toBe('0 of 7 workers in use');
    expect(machineInUse(1, null, 1, false)).toBe('1 of 1 worker in use');
  });
});

describe('the machine’s facts', () => {
  const words = (m: MachineStatus) => Object.fromEntries(machineFacts(m).map((f) => [f.term, f.value]));

  test('cores, memory, power and the person, in words', () => {
    expect(words(machine({ power: 'battery', ceiling: 3, limitedBy: 'battery', text: 'quiet: on battery' }))).toEqual({
      'Workers now': 'at most 3 — quiet: on battery',
      Cores: '8 — 7 workers, one core kept free for you',
      'Memory for workers': '1.5 GB',
      Power: 'on battery',
      'Someone at the computer': 'yes — Lanes leaves them room',
    });
  });

  const cases: [string, Partial<MachineStatus>, string, string][] = [
    ['nothing holds back', {}, 'Workers now', 'at most 7 — all the cores allow'],
    ['a container’s quota', { cores: 64, coreCeiling: 1, ceiling: 1, limitedBy: 'container' }, 'Cores', '64 — 1 worker, the container’s CPU share less one'],
    ['nobody at the computer: every core', { coreCeiling: 8, ceiling: 8, personActive: false, text: 'all 8 cores: nobody at the computer' }, 'Cores', '8 — 8 workers, all of them: nobody at the computer'],
    ['a daemon, where nobody is known there: every core', { coreCeiling: 8, ceiling: 8, personActive: null }, 'Cores', '8 — 8 workers, all of them: nobody at the computer'],
    ['a container’s whole quota while nobody is there', { cores: 64, coreCeiling: 2, ceiling: 2, limitedBy: 'container', personActive: false }, 'Cores', '64 — 2 workers, the container’s whole CPU share: nobody at the computer'],
    ['cannot tell', { personActive: null }, 'Someone at the computer', 'cannot tell here'],
    ['plugged in', { power: 'ac' }, 'Power', 'plugged in'],
    ['power not known', { power: 'unknown' }, 'Power', 'not known'],
    ['someone there', { personActive: true }, 'Someone at the computer', 'yes — Lanes leaves them room'],
    ['nobody there', { personActive: false }, 'Someone at the computer', 'no, away'],
    ['Apple silicon: the GPU shares the memory', { gpuMemory: 'unified' }, 'GPU', 'shares the system memory (Apple silicon): the memory for workers covers it'],
    [
      'a card nvidia-smi reads',
      { gpuMemory: 'nvidia', gpus: [{ index: 0, name: 'RTX 4090', totalBytes: 24 * 1024 * MB, usedBytes: 300 * MB, heldByLanesBytes: 0, forWorkersBytes: 23 * 1024 * MB }] },
      'GPU',
      'RTX 4090 — 24 GB, 300 MB in use, 23 GB more for workers',
    ],
  ];
  test('no GPU where its memory is not known', () => {
    expect(words(machine({ gpuMemory: 'unknown' }))).not.toHaveProperty('GPU');
    expect(words(machine())).not.toHaveProperty('GPU');
  });
  for (const [name, patch, term, value] of cases) test(name, () => expect(words(machine(patch))[term]).toBe(value));
});

describe('a lane the machine holds back', () => {
  const cases: [string, LaneStatus['limit'], string | null][] = [
    ['only its cap: no note', null, null],
    ['memory’s words count for themselves', { workers: 3, by: 'memory', text: 'memory for 3 of these, about 410 MB each' }, 'memory for 3 of these, about 410 MB each'],
    ['a worker that cannot fit', { workers: 0, by: 'memory', text: 'memory: one of these needs about 1.0 GB, 285 MB is free for workers' }, 'memory: one of these needs about 1.0 GB, 285 MB is free for workers'],
    ['the battery, with how many for now', { workers: 3, by: 'battery', text: 'quiet: on battery' }, 'quiet: on battery — up to 3 workers for now'],
    ['the person at it', { workers: 1, by: 'in-use', text: 'leaving room: you are using the computer' }, 'leaving room: you are using the computer — up to 1 worker for now'],
  ];
  for (const [name, limit, words] of cases) test(name, () => expect(laneLimit({ limit })).toBe(words));

  test('its measured worker memory, once there is one', () => {
    expect(workerMemory({ workerMemoryBytes: null })).toBeNull();
    expect(workerMemory({ workerMemoryBytes: 410 * MB })).toBe('about 410 MB per worker');
    expect(workerMemory({ workerMemoryBytes: 3.8 * 1024 * MB })).toBe('about 3.8 GB per worker');
  });

  test('memory in words: MB below a gigabyte, GB from there, as the engine writes it', () => {
    expect([0.4 * MB, 285 * MB, 1023.6 * MB, 1024 * MB, 1536 * MB, 12 * 1024 * MB].map(aboutBytes)).toEqual(['0 MB', '285 MB', '1.0 GB', '1.0 GB', '1.5 GB', '12 GB']);
  });
});

describe('what a higher cap buys, set apart in the nudge', () => {
  const base: NudgeFacts = { cap: 1, ceiling: 7, waiting: 4_060, busy: 1, waitingSince: 0, now: 10_000, tickMs: 300, machineInUse: 1, perMinute: 6, quiet: null };

  test('the engine’s own words split around its estimate, and join back to them', () => {
    const nudge = nudgeFor(base)!;
    const parts = nudgeParts(nudge, base.cap);
    expect(parts.estimate).toMatch(/^about \d+ (h|days) at 1 worker, about \d+ (h|min) at \d+$/);
    expect(parts.before).toBe('4,060 waiting and all 1 worker busy — ');
    expect(parts.before + parts.estimate + parts.after).toBe(nudge.text);
  });

  test('a lane its memory bounds, at a higher cap', () => {
    const nudge = nudgeFor({ ...base, cap: 2, busy: 2, limit: 4, perMinute: 12 })!;
    const parts = nudgeParts(nudge, 2);
    expect(parts.estimate).toMatch(/ at 2 workers, about .* at 4$/);
    expect(parts.after).toContain('this machine has memory for 4 of these workers');
  });

  test('no pace yet, or other words: the text stays whole', () => {
    const nudge = nudgeFor({ ...base, perMinute: 0 })!;
    expect(nudge.estimate).toBeNull();
    expect(nudgeParts(nudge, 1)).toEqual({ before: nudge.text, estimate: null, after: '' });
    const reworded = { ...nudgeFor(base)!, text: 'something else' };
    expect(nudgeParts(reworded, 1)).toEqual({ before: 'something else', estimate: null, after: '' });
  });
});

describe('the machine in the lanes store', () => {
  let seq = 0;
  const ev = (type: LanesEvent['type'], data: unknown) => ({ seq: ++seq, type, data }) as LanesEvent;

  test('a snapshot brings the machine and its ceiling', () => {
    const status = { seq: 5, ceiling: 3, machine: machine({ ceiling: 3, limitedBy: 'battery' }), paused: null, lanes: [] } as unknown as Status;
    expect(replaceLanes(useLanes.getInitialState(), status)).toMatchObject({ ceiling: 3, machine: { limitedBy: 'battery' } });
  });

  test('the last machine event in a frame wins, and moves the ceiling', () => {
    const battery = machine({ ceiling: 3, limitedBy: 'battery' });
    const back = machine();
    const batch = foldEvents([ev('machine', battery), ev('lane', lane('a')), ev('machine', back)]);
    expect(batch.machine).toBe(back);
    const state = { ...useLanes.getInitialState(), ceiling: 3, machine: battery };
    expect(applyLaneEvents(state, batch.seq, batch.lanes, batch.removed, batch)).toMatchObject({ ceiling: 7, machine: back });
  });

  test('a frame without one leaves the machine as it was', () => {
    const batch = foldEvents([ev('lane', lane('a'))]);
    const patch = applyLaneEvents({ ...useLanes.getInitialState(), ceiling: 3 }, batch.seq, batch.lanes, batch.removed, batch);
    expect(patch.machine).toBeUndefined();
    expect(patch.ceiling).toBeUndefined();
  });
});
