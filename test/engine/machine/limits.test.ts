// The effective ceiling: the lowest of the machine's limits, named. One row per machine.
import { describe, expect, it } from 'vitest';
import { loadDeduction } from '../../../electron/engine/machine/core-limits.js';
import { INITIAL_LIMITS_STATE, machineLimits, type LimitsState } from '../../../electron/engine/machine/limits.js';
import { facts, GiB, lane, MiB, settled, type FactsChange } from './machine-fixtures.js';

const override = { coresFrom: 'override' as const };

// Every row says where the person is: at the computer (input a moment ago), away (idle ten
// minutes, or the screen locked), or not known (no desktop session: a headless daemon, which
// counts as nobody there).
const at = { person: { idleSeconds: 2, locked: false } };
const away = { person: { idleSeconds: 600, locked: false } };
const headless = { person: null };

describe('the machine ceiling and what sets it', () => {
  it.each<[string, FactsChange, number, string]>([
    ['8 cores, headless: all 8', headless, 8, 'cores'],
    ['8 cores, nobody at it for ten minutes: all 8', away, 8, 'cores'],
    ['8 cores, screen locked a second after input: all 8', { person: { idleSeconds: 1, locked: true } }, 8, 'cores'],
    ['8 cores, someone at it: room left for them', at, 5, 'in-use'],
    ['LANES_CORES=8 on the wall, headless: all 8', { ...headless, cpu: override, power: { source: 'ac', from: 'override' } }, 8, 'cores'],
    ['LANES_CORES=8 on battery, headless', { ...headless, cpu: override, power: { source: 'battery', from: 'override' } }, 3, 'battery'],
    ['2 cores, headless: both', { ...headless, cpu: { cores: 2 } }, 2, 'cores'],
    ['2 cores, away: both', { ...away, cpu: { cores: 2 } }, 2, 'cores'],
    ['2 cores, someone at it: one', { ...at, cpu: { cores: 2 } }, 1, 'in-use'],
    ['1 core still runs one worker, someone at it', { ...at, cpu: { cores: 1 } }, 1, 'in-use'],
    ['1 core, away', { ...away, cpu: { cores: 1 } }, 1, 'cores'],
    ['a 64-core host, a container of 2 CPUs, headless: both', { ...headless, cpu: { cores: 64, quota: 2 } }, 2, 'container'],
    ['a 64-core host, a container of 2 CPUs, someone at it', { ...at, cpu: { cores: 64, quota: 2 } }, 1, 'in-use'],
    ['a quota of 1.5 CPUs is rounded down', { ...headless, cpu: { cores: 64, quota: 1.5 } }, 1, 'container'],
    ['a quota of 4.9 CPUs is 4, away', { ...away, cpu: { cores: 64, quota: 4.9 } }, 4, 'container'],
    ['half a CPU still runs one worker', { ...headless, cpu: { cores: 64, quota: 0.5 } }, 1, 'container'],
    ['a quota above the cores does not bind', { ...headless, cpu: { quota: 16 } }, 8, 'cores'],
    ['LANES_CORES is a budget no quota overrules', { ...headless, cpu: { ...override, quota: 2 } }, 8, 'cores'],
    ['on battery, half of the cores less one, away', { ...away, power: { source: 'battery' } }, 3, 'battery'],
    ['on battery with 4 cores, headless', { ...headless, cpu: { cores: 4 }, power: { source: 'battery' } }, 1, 'battery'],
    ['on battery in a 2-CPU container: battery is named', { ...headless, cpu: { cores: 64, quota: 2 }, power: { source: 'battery' } }, 1, 'battery'],
    ['power unknown counts as the wall', { ...headless, power: { source: 'unknown' } }, 8, 'cores'],
    ['someone at a 4-core machine', { ...at, cpu: { cores: 4 } }, 2, 'in-use'],
    ['on battery and at the machine: battery is lower', { ...at, power: { source: 'battery' } }, 3, 'battery'],
    ['other programs keep 2 cores busy, headless', { ...headless, cpu: { otherBusy: 2.1 } }, 6, 'load'],
    ['other programs keep 2 cores busy, someone at it: in use is lower', { ...at, cpu: { otherBusy: 2.1 } }, 5, 'in-use'],
    ['a little background noise takes nothing', { ...headless, cpu: { otherBusy: 0.2 } }, 8, 'cores'],
    ['a machine flat out still runs one worker', { ...headless, cpu: { otherBusy: 8 } }, 1, 'load'],
    ['with LANES_CORES other load is not counted', { ...headless, cpu: { ...override, otherBusy: 4 } }, 8, 'cores'],
  ])('%s: %i, %s', (_what, change, ceiling, limitedBy) => {
    const { limits } = machineLimits(facts(change), [], INITIAL_LIMITS_STATE);
    expect(limits.ceiling).toBe(ceiling);
    expect(limits.limitedBy).toBe(limitedBy);
    expect(limits.limits[0]!.reason).toBe(limitedBy);
  });

  it('the ceiling follows the person: all cores while away, one kept free once they are back, all again once they leave', () => {
    // Input on every reading for a minute brings them back; three minutes without input is away again.
    let state: LimitsState = INITIAL_LIMITS_STATE;
    const ceilingAt = (t: number, idleSeconds: number) => {
      const r = machineLimits(facts({ at: t, cpu: { cores: 2 }, person: { idleSeconds, locked: false } }), [], state);
      state = r.state;
      return [r.limits.ceiling, r.limits.text];
    };
    expect(ceilingAt(0, 900)).toEqual([2, 'all 2 cores: nobody at the computer']);
    const back = [10_000, 20_000, 30_000, 40_000, 50_000].map((t) => ceilingAt(1_000_000 + t, 1));
    expect(back[0]).toEqual([2, 'all 2 cores: nobody at the computer']);
    expect(back.at(-1)).toEqual([1, 'leaving room: you are using the computer']);
    expect(ceilingAt(1_300_000, 240)).toEqual([2, 'all 2 cores: nobody at the computer']);
  });

  it('says each limit in words', () => {
    const { limits } = machineLimits(facts({ ...at, power: { source: 'battery' }, cpu: { otherBusy: 2 } }), [], INITIAL_LIMITS_STATE);
    expect(limits.text).toBe('quiet: on battery');
    expect(limits.limits.map((l) => [l.reason, l.workers, l.text])).toEqual([
      ['battery', 3, 'quiet: on battery'],
      ['in-use', 5, 'leaving room: you are using the computer'],
      ['load', 5, 'other programs keep 2 cores busy'],
      ['cores', 7, '8 cores: 7 workers, one core kept free'],
    ]);
    expect(machineLimits(facts({ ...at, cpu: { cores: 64, quota: 4 } }), [], INITIAL_LIMITS_STATE).limits.limits.at(-1)!.text).toBe('container: 4 CPUs, 3 workers');
    expect(machineLimits(facts({ ...away, cpu: { cores: 2 } }), [], INITIAL_LIMITS_STATE).limits.text).toBe('all 2 cores: nobody at the computer');
    expect(machineLimits(facts({ ...headless, cpu: { cores: 64, quota: 2 } }), [], INITIAL_LIMITS_STATE).limits.text).toBe('container: all 2 CPUs, nobody at the computer');
  });
});

describe('load, with hysteresis', () => {
  it.each([
    [0, 0.4, 0],
    [0, 0.6, 0],
    [0, 0.8, 1],
    [1, 0.6, 1],
    [1, 0.3, 1],
    [1, 0.2, 0],
    [1, 1.6, 1],
    [1, 2.1, 2],
    [0, 1.5, 2],
    [3, 0, 0],
  ])('taking %i cores off, a smoothed %f takes %i', (prev, busy, next) => {
    expect(loadDeduction(prev, busy)).toBe(next);
  });

  it('a figure wobbling around one and a half cores does not move the ceiling', () => {
    let state: LimitsState = INITIAL_LIMITS_STATE;
    const ceilings = [1.3, 1.55, 1.45, 1.6, 1.4, 1.7, 1.35].map((otherBusy) => {
      const r = machineLimits(facts({ cpu: { otherBusy } }), [], state);
      state = r.state;
      return r.limits.ceiling;
    });
    expect(new Set(ceilings).size).toBe(1);
  });
});

describe('memory names itself when it holds the work back', () => {
  it('LANES_CORES=8 LANES_MEMORY=1500M, an ml lane of 400 MB workers with 40 waiting: 3, memory', () => {
    const f = facts({ cpu: override, memory: { override: 1500 * MiB } });
    const ml = lane('ml', { class: 'ml', cap: 7, demand: 40, workers: 3, measured: 3, cost: settled(400 * MiB) });
    const { limits } = machineLimits(f, [ml], INITIAL_LIMITS_STATE);
    expect(limits.ceiling).toBe(8);
    expect(limits.limitedBy).toBe('memory');
    expect(limits.lanes.get('ml')).toMatchObject({ limit: 3, limitedBy: 'memory', text: 'memory for 3 of these, about 400 MB each' });
    expect(limits.text).toBe('ml: memory for 3 of these, about 400 MB each');
  });

  it('a shell lane beside it, measured small, is held by the ceiling, not memory', () => {
    const ml = lane('ml', { class: 'ml', cap: 7, demand: 40, workers: 1, measured: 1, cost: settled(400 * MiB) });
    const { limits } = machineLimits(facts({ memory: { override: 4 * GiB } }), [ml, lane('worker', { demand: 3, cost: settled(20 * MiB) })], INITIAL_LIMITS_STATE);
    expect(limits.lanes.get('worker')).toMatchObject({ limit: 8, limitedBy: 'cores' });
  });

  it('memory that allows more than the ceiling is not named', () => {
    const ml = lane('ml', { class: 'ml', demand: 40, workers: 7, measured: 7, cost: settled(400 * MiB) });
    const { limits } = machineLimits(facts({ memory: { override: 8 * GiB } }), [ml], INITIAL_LIMITS_STATE);
    expect(limits.limitedBy).toBe('cores');
    expect(limits.lanes.get('ml')!.limitedBy).toBe('cores');
  });

  it('a lane held by memory while another fills the ceiling: the ceiling is named', () => {
    const ml = lane('ml', { class: 'ml', demand: 40, workers: 1, measured: 1, cost: settled(1 * GiB) });
    const cpu = lane('cpu', { demand: 40, workers: 6, measured: 6, cost: settled(50 * MiB) });
    const { limits } = machineLimits(facts({ memory: { override: 1.5 * GiB } }), [ml, cpu], INITIAL_LIMITS_STATE);
    expect(limits.lanes.get('ml')!.limitedBy).toBe('memory');
    expect(limits.limitedBy).toBe('cores');
  });

  it('the default budget is half of free memory while someone is at the machine, 90 % while away', () => {
    const memory = { total: 64 * GiB, available: 38 * GiB, usedByLanes: 2 * GiB };
    const at = (idleSeconds: number) => machineLimits(facts({ memory, person: { idleSeconds, locked: false } }), [], INITIAL_LIMITS_STATE).limits.memory;
    expect(at(1)).toEqual({ bytes: 20 * GiB, from: 'in-use', text: '20 GB for workers, 50 % of free memory while you are at the computer' });
    expect(at(3600)).toEqual({ bytes: 36 * GiB, from: 'away', text: '36 GB for workers, 90 % of free memory' });
    expect(machineLimits(facts({ memory }), [], INITIAL_LIMITS_STATE).limits.memory.from).toBe('away');
  });

  it('LANES_MEMORY replaces the share', () => {
    const m = machineLimits(facts({ memory: { override: 1500 * MiB } }), [], INITIAL_LIMITS_STATE).limits.memory;
    expect(m).toEqual({ bytes: 1500 * MiB, from: 'override', text: 'LANES_MEMORY: 1.5 GB for workers' });
  });

  it('the budget never plans within twice the critical floor of running out', () => {
    // 16 GiB: the floor is 5 % = 819 MiB; 1.5 GiB free would give 1.35 GiB at 90 %, but only 1.5 GiB − 2 × 819 MiB is safe.
    const m = machineLimits(facts({ memory: { available: 1.5 * GiB } }), [], INITIAL_LIMITS_STATE).limits.memory;
    expect(m.bytes).toBe(0);
    const roomy = machineLimits(facts({ memory: { available: 4 * GiB } }), [], INITIAL_LIMITS_STATE).limits.memory;
    expect(roomy.bytes).toBeCloseTo(4 * GiB - 2 * 0.05 * 16 * GiB, -3);
  });
});

describe('the GPU names itself when it holds an ml lane back', () => {
  const card = { index: 0, uuid: 'GPU-0', name: 'Card', totalBytes: 24576 * MiB, usedBytes: 18300 * MiB, usedByLanes: 18000 * MiB };
  const gpu = (cards: (typeof card)[] | null, at: number | null = 1, failures = 0) => ({ gpu: { source: 'nvidia' as const, cards, at, override: null, failures, refusals: failures } });
  const ml = lane('ml', { class: 'ml', cap: 7, demand: 40, workers: 3, measured: 3, cost: settled(400 * MiB) });
  const inputs = (cost = { bytes: 6000 * MiB, rounds: 10 }) => ({
    workers: Array.from({ length: 3 }, () => ({ lane: 'ml', card: 0, bytes: 6000 * MiB })),
    lanes: new Map([['ml', { measured: 3, cost }]]),
  });

  it('LANES_CORES=8, a 24,576 MiB card, 6,000 MiB workers: 3, the GPU named, in its words', () => {
    const { limits } = machineLimits({ ...facts({ cpu: override }), ...gpu([card]) }, [ml], INITIAL_LIMITS_STATE, inputs());
    expect(limits.lanes.get('ml')).toMatchObject({ limit: 3, limitedBy: 'gpu', text: 'the GPU has memory for 3 of these workers, about 5.9 GB each' });
    expect(limits.limitedBy).toBe('gpu');
    expect(limits.text).toBe('ml: the GPU has memory for 3 of these workers, about 5.9 GB each');
    expect(limits.gpus).toHaveLength(1);
  });

  it('memory, when it allows fewer still, is what is named', () => {
    const { limits } = machineLimits({ ...facts({ memory: { override: 900 * MiB } }), ...gpu([card]) }, [ml], INITIAL_LIMITS_STATE, inputs());
    expect(limits.lanes.get('ml')).toMatchObject({ limitedBy: 'memory' });
    expect(limits.lanes.get('ml')!.limit).toBeLessThan(3);
  });

  it('a shell lane is never held by the GPU', () => {
    const cpu = lane('worker', { demand: 40, workers: 3, measured: 3, cost: settled(20 * MiB) });
    const { limits } = machineLimits({ ...facts(), ...gpu([card]) }, [cpu], INITIAL_LIMITS_STATE, { workers: [], lanes: new Map() });
    expect(limits.lanes.get('worker')).toMatchObject({ limit: 8, limitedBy: 'cores' });
    expect(limits.lanes.get('worker')!.gpu).toBeUndefined();
  });

  it('before the cards are first read, or while the first reads fail: one worker; once nvidia-smi keeps refusing: not known, no limit', () => {
    // Its memory cost known (as after a restart), so that only the GPU holds it.
    const fresh = lane('ml', { class: 'ml', cap: 7, demand: 40, cost: settled(400 * MiB) });
    const before = machineLimits({ ...facts(), ...gpu(null, null) }, [fresh], INITIAL_LIMITS_STATE, { workers: [], lanes: new Map() }).limits;
    expect(before.lanes.get('ml')).toMatchObject({ limit: 1, limitedBy: 'gpu', text: 'GPU: reading the cards before starting more' });
    const once = machineLimits({ ...facts(), ...gpu(null, null, 1) }, [fresh], INITIAL_LIMITS_STATE, { workers: [], lanes: new Map() }).limits;
    expect(once.lanes.get('ml')).toMatchObject({ limit: 1, limitedBy: 'gpu' });
    const failed = machineLimits({ ...facts(), ...gpu(null, null, 3) }, [fresh], INITIAL_LIMITS_STATE, { workers: [], lanes: new Map() }).limits;
    expect(failed.lanes.get('ml')).toMatchObject({ limit: 8, limitedBy: 'cores' });
    expect(failed.gpus).toBeUndefined();
  });

  it('no GPU facts (no nvidia-smi): exactly as before', () => {
    const plain = machineLimits(facts(), [ml], INITIAL_LIMITS_STATE).limits;
    const withInputs = machineLimits(facts(), [ml], INITIAL_LIMITS_STATE, inputs()).limits;
    expect(withInputs).toEqual(plain);
    expect(plain.gpus).toBeUndefined();
  });
});
