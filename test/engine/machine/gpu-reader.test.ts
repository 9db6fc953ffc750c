// Asking nvidia-smi, for real, of the fixture that stands in for it (test/fixtures/gpu): found on
// PATH without running anything, both queries read, and one that hangs killed at the timeout.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findOnPath, NvidiaSmi } from '../../../electron/engine/machine/gpu-reader.js';
import { tempDir } from '../../support/engine.js';
import { MiB } from './machine-fixtures.js';

const fixture = join(import.meta.dirname, '..', '..', 'fixtures', 'gpu', 'nvidia-smi');
let dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs) d.cleanup();
  dirs = [];
});

function bin(cards: string): string {
  const d = tempDir();
  dirs.push(d);
  mkdirSync(join(d.dir, 'apps'));
  copyFileSync(fixture, join(d.dir, 'nvidia-smi'));
  writeFileSync(join(d.dir, 'cards'), cards);
  return d.dir;
}

describe('finding nvidia-smi', () => {
  it('on PATH, in order, only as an executable file', () => {
    const a = bin('');
    const b = bin('');
    chmodSync(join(a, 'nvidia-smi'), 0o644);
    expect(findOnPath('nvidia-smi', `${a}:${b}`)).toBe(join(b, 'nvidia-smi'));
    expect(findOnPath('nvidia-smi', `/nowhere::${a}`)).toBeNull();
    expect(findOnPath('nvidia-smi', undefined)).toBeNull();
    expect(NvidiaSmi.find({ PATH: b })?.file).toBe(join(b, 'nvidia-smi'));
  });
});

describe('reading the cards', () => {
  it('both queries: the cards, and the processes on them that live', async () => {
    const dir = bin('0,GPU-fix-0,Fixture Card 24G,24576,300\n1,GPU-fix-1,Fixture Card 24G,24576,0\n');
    writeFileSync(join(dir, 'apps', String(process.pid)), 'GPU-fix-1,6000');
    // A pid that is not alive is not on any card.
    writeFileSync(join(dir, 'apps', '999999999'), 'GPU-fix-0,6000');
    const { cards, apps } = await new NvidiaSmi(join(dir, 'nvidia-smi')).read();
    expect(cards.map((c) => [c.index, c.usedBytes / MiB])).toEqual([
      [0, 300],
      [1, 6000],
    ]);
    expect(apps).toEqual([{ gpu: 'GPU-fix-1', pid: process.pid, usedBytes: 6000 * MiB }]);
  });

  it('one that does not answer is killed at the timeout, and the read fails saying so', async () => {
    const dir = bin('0,GPU-fix-0,Fixture Card 24G,24576,300\n');
    writeFileSync(join(dir, 'hang'), '');
    await expect(new NvidiaSmi(join(dir, 'nvidia-smi'), 300).read()).rejects.toThrow(/nvidia-smi did not answer within 300 ms/);
  });

  it('one that lists no card fails the read', async () => {
    const dir = bin('');
    await expect(new NvidiaSmi(join(dir, 'nvidia-smi')).read()).rejects.toThrow(/listed no GPU/);
  });
});
