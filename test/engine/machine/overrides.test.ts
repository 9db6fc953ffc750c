// LANES_CORES, LANES_MEMORY and LANES_POWER: what each accepts, and a clear refusal naming the
// variable for anything else.
import { describe, expect, it } from 'vitest';
import { parseMemory, readOverrides } from '../../../electron/engine/machine/overrides.js';

describe('overrides from the environment', () => {
  it.each([
    ['1500M', 1500 * 2 ** 20],
    ['1.5G', 1.5 * 2 ** 30],
    ['2g', 2 * 2 ** 30],
    ['2GiB', 2 * 2 ** 30],
    ['512MB', 512 * 2 ** 20],
    ['65536k', 64 * 2 ** 20],
    ['1T', 2 ** 40],
    ['268435456', 2 ** 28],
    [' 1500M ', 1500 * 2 ** 20],
  ])('LANES_MEMORY=%j is %d bytes', (raw, bytes) => {
    expect(parseMemory(raw)).toBe(bytes);
  });

  it.each(['lots', '-1G', '1.5.0G', '1500X', '0', '10M', '1e9', 'G'])('LANES_MEMORY=%j is refused, naming the variable', (raw) => {
    expect(() => parseMemory(raw)).toThrow(/^LANES_MEMORY must be/);
  });

  it('unset or empty means: look', () => {
    expect(readOverrides({})).toEqual({ cores: null, memory: null, power: null });
    expect(readOverrides({ LANES_CORES: '', LANES_MEMORY: '', LANES_POWER: '' })).toEqual({ cores: null, memory: null, power: null });
  });

  it('all three together', () => {
    expect(readOverrides({ LANES_CORES: '8', LANES_MEMORY: '1500M', LANES_POWER: 'Battery' })).toEqual({ cores: 8, memory: 1500 * 2 ** 20, power: 'battery' });
  });

  it.each([
    [{ LANES_POWER: 'mains' }, /^LANES_POWER must be "ac" or "battery", got "mains"/],
    [{ LANES_CORES: '2.5' }, /^LANES_CORES must be a whole number/],
    [{ LANES_CORES: '0' }, /^LANES_CORES/],
    [{ LANES_MEMORY: '1500M', LANES_CORES: 'eight' }, /^LANES_CORES/],
  ])('%j is refused with its name', (env, message) => {
    expect(() => readOverrides(env)).toThrow(message);
  });
});

describe('LANES_GPU_MEMORY', () => {
  it('is read like LANES_MEMORY, and named only when given', () => {
    expect(readOverrides({ LANES_GPU_MEMORY: '20G' })).toEqual({ cores: null, memory: null, power: null, gpuMemory: 20 * 2 ** 30 });
    expect(readOverrides({ LANES_GPU_MEMORY: '' })).not.toHaveProperty('gpuMemory');
  });

  it.each(['lots', '10M', '-2G'])('LANES_GPU_MEMORY=%j is refused, naming its own variable', (raw) => {
    expect(() => readOverrides({ LANES_GPU_MEMORY: raw })).toThrow(/^LANES_GPU_MEMORY must be/);
  });
});
